import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../api/http';
import { deferred } from '../test/fakes';
import { createHistoryMachine, type HistoryDeps } from './historyMachine';
import type { EditAnswer, HistoryEntry, ProjectHistory } from './types';

const entry = (from: number, version: number, kind: HistoryEntry['kind'], extra: Partial<HistoryEntry> = {}): HistoryEntry => ({
  from, version, author: 'u1', at: '2026-05-01T10:00:00Z', kind, changes: [], undoable: kind === 'edit' || kind === 'restore', undone: false, ...extra,
});

/**
 * A server holding one project's length through edits, with the undo and
 * redo steps the Go domain derives (an edit pushes, undo pops onto redo,
 * a new edit clears redo): enough to drive the machine as the real one
 * would, reloads included.
 */
function fakeServer(editable = true) {
  let version = 2;
  const lengths: number[] = [];
  let undone: number[] = [];
  const entries: HistoryEntry[] = [entry(1, 2, 'created')];
  const history = (): ProjectHistory => ({
    project: 'p1',
    name: 'Yard',
    version,
    editable,
    entries: entries.map((e) => ({ ...e })),
    undo: lengths.length > 0 ? { entry: version, target: version - 1 } : null,
    redo: undone.length > 0 ? { entry: version, target: version - 1 } : null,
    authors: { u1: 'ada' },
  });
  const answer = (): EditAnswer => ({ id: 'p1', version, runs: [] });
  const api = {
    history: vi.fn(async (_id: string) => history()),
    undo: vi.fn(async (_id: string) => {
      const last = lengths.pop();
      if (last === undefined) throw new ApiError(409, { error: 'Nothing to undo' });
      undone.push(last);
      entries.push(entry(++version, version, 'undo'));
      return answer();
    }),
    redo: vi.fn(async (_id: string) => {
      const back = undone.pop();
      if (back === undefined) throw new ApiError(409, { error: 'Nothing to redo' });
      lengths.push(back);
      entries.push(entry(++version, version, 'redo'));
      return answer();
    }),
    restore: vi.fn(async (_id: string, _version: number) => {
      entries.push(entry(++version, version, 'restore'));
      lengths.push(0);
      undone = [];
      return answer();
    }),
  } satisfies HistoryDeps['api'];
  return {
    api,
    /** An edit made by the design screen: the server moves on. */
    edit(length: number) {
      lengths.push(length);
      undone = [];
      entries.push(entry(++version, version, 'edit'));
      return version;
    },
    length: () => lengths.at(-1) ?? null,
    version: () => version,
  };
}

function start(server = fakeServer(), deps: Partial<HistoryDeps> = {}) {
  const actor = createActor(createHistoryMachine({ api: server.api, settleMs: 1, noticeMs: 50, ...deps }));
  actor.start();
  return actor;
}

type Actor = ReturnType<typeof start>;

const loadedAt = (actor: Actor, version: number) =>
  waitFor(actor, (s) => s.matches({ data: 'loaded' }) && s.context.history?.version === version);

const settled = (actor: Actor) => waitFor(actor, (s) => s.matches({ moves: 'idle' }) && s.context.moving === null);

describe('the history panel machine', () => {
  it('reads the history of the open project, and again when the project moves on', async () => {
    const server = fakeServer();
    const actor = start(server);
    expect(server.api.history).not.toHaveBeenCalled();
    actor.send({ type: 'PROJECT', id: 'p1', version: 2, idle: true });
    await loadedAt(actor, 2);
    expect(actor.getSnapshot().context.history?.entries).toHaveLength(1);

    // Two edits in a burst (another tab's, over the live stream): read once they settle.
    const v1 = server.edit(20);
    actor.send({ type: 'PROJECT', id: 'p1', version: v1, idle: true });
    const v2 = server.edit(21);
    actor.send({ type: 'PROJECT', id: 'p1', version: v2, idle: true });
    await loadedAt(actor, v2);
    expect(actor.getSnapshot().context.history?.entries.map((e) => e.kind)).toEqual(['created', 'edit', 'edit']);
    expect(actor.getSnapshot().context.history?.undo).not.toBeNull();
  });

  it('undoes on the server once the project has sent its own edits, then reads the history again', async () => {
    const server = fakeServer();
    const actor = start(server);
    const v = server.edit(20);
    actor.send({ type: 'PROJECT', id: 'p1', version: v, idle: true });
    await loadedAt(actor, v);

    // An edit still on its way: the undo waits for it.
    actor.send({ type: 'PROJECT', id: 'p1', version: v, idle: false });
    actor.send({ type: 'UNDO' });
    await new Promise((done) => setTimeout(done, 20));
    expect(server.api.undo).not.toHaveBeenCalled();
    expect(actor.getSnapshot().matches({ moves: 'waiting' })).toBe(true);

    const v2 = server.edit(21);
    actor.send({ type: 'PROJECT', id: 'p1', version: v2, idle: true });
    await settled(actor);
    expect(server.api.undo).toHaveBeenCalledTimes(1);
    expect(server.length()).toBe(20); // the undo took back 21, the edit that was on its way
    await loadedAt(actor, server.version());
    expect(actor.getSnapshot().context.history?.redo).not.toBeNull();
  });

  it('queues moves asked for in a row and sends them in order', async () => {
    const server = fakeServer();
    const actor = start(server);
    server.edit(20);
    server.edit(21);
    const v = server.edit(22);
    actor.send({ type: 'PROJECT', id: 'p1', version: v, idle: true });
    await loadedAt(actor, v);
    actor.send({ type: 'UNDO' });
    actor.send({ type: 'UNDO' });
    actor.send({ type: 'REDO' });
    await settled(actor);
    expect(server.api.undo).toHaveBeenCalledTimes(2);
    expect(server.api.redo).toHaveBeenCalledTimes(1);
    expect(server.length()).toBe(21);
  });

  it('says so when there is nothing to undo, without asking the server when its history is current', async () => {
    const server = fakeServer();
    const actor = start(server);
    actor.send({ type: 'PROJECT', id: 'p1', version: 2, idle: true });
    await loadedAt(actor, 2);
    actor.send({ type: 'UNDO' });
    expect(actor.getSnapshot().context.notice).toBe('nothingToUndo');
    expect(server.api.undo).not.toHaveBeenCalled();
    await waitFor(actor, (s) => s.context.notice === null);

    // With the history behind the project the server decides, and its 409 becomes the notice.
    actor.send({ type: 'PROJECT', id: 'p1', version: 3, idle: true });
    actor.send({ type: 'REDO' });
    await waitFor(actor, (s) => s.context.notice === 'nothingToRedo');
    expect(server.api.redo).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('shows a failed move as an error and drops the moves queued after it', async () => {
    const server = fakeServer();
    const gate = deferred<EditAnswer>();
    server.api.undo.mockImplementationOnce(() => gate.promise);
    const actor = start(server);
    const v = server.edit(20);
    actor.send({ type: 'PROJECT', id: 'p1', version: v, idle: true });
    await loadedAt(actor, v);
    actor.send({ type: 'UNDO' });
    actor.send({ type: 'UNDO' });
    await waitFor(actor, (s) => s.matches({ moves: 'moving' }));
    gate.reject(new ApiError(500, { error: 'boom' }));
    await settled(actor);
    expect(actor.getSnapshot().context.error).toEqual({ key: 'common.serverError' });
    expect(actor.getSnapshot().context.queue).toEqual([]);
    expect(server.api.undo).toHaveBeenCalledTimes(1);
  });

  it('moves nothing in a project the viewer may only read', async () => {
    const server = fakeServer(false);
    const actor = start(server);
    const v = server.edit(20);
    actor.send({ type: 'PROJECT', id: 'p1', version: v, idle: true });
    await loadedAt(actor, v);
    actor.send({ type: 'UNDO' });
    actor.send({ type: 'RESTORE', version: 2 });
    await new Promise((done) => setTimeout(done, 20));
    expect(server.api.undo).not.toHaveBeenCalled();
    expect(server.api.restore).not.toHaveBeenCalled();
  });

  it('restores a version from the list, closing its read-only view', async () => {
    const server = fakeServer();
    const actor = start(server);
    const v = server.edit(20);
    actor.send({ type: 'PROJECT', id: 'p1', version: v, idle: true });
    await loadedAt(actor, v);
    actor.send({ type: 'VIEW', version: 2 });
    expect(actor.getSnapshot().context.viewing).toBe(2);
    actor.send({ type: 'RESTORE', version: 2 });
    expect(actor.getSnapshot().context.viewing).toBeNull();
    await waitFor(actor, (s) => s.context.notice === 'restored');
    expect(server.api.restore).toHaveBeenCalledWith('p1', 2);
    await loadedAt(actor, server.version());
    expect(actor.getSnapshot().context.history?.entries.at(-1)?.kind).toBe('restore');
  });

  it('finds undo and redo again after a reload: a new machine reads them from the server', async () => {
    const server = fakeServer();
    server.edit(20);
    const v = server.edit(21);
    const before = start(server);
    before.send({ type: 'PROJECT', id: 'p1', version: v, idle: true });
    await loadedAt(before, v);
    before.send({ type: 'UNDO' });
    await settled(before);
    before.stop();

    const after = start(server);
    after.send({ type: 'PROJECT', id: 'p1', version: server.version(), idle: true });
    await loadedAt(after, server.version());
    expect(after.getSnapshot().context.history?.redo).not.toBeNull();
    after.send({ type: 'REDO' });
    await settled(after);
    expect(server.length()).toBe(21);
  });

  it('gives up on a history it may not read, until another project opens', async () => {
    const server = fakeServer();
    server.api.history.mockRejectedValueOnce(new ApiError(404, { error: 'The project could not be loaded' }));
    const actor = start(server);
    actor.send({ type: 'PROJECT', id: 'shared', version: 5, idle: true });
    await waitFor(actor, (s) => s.context.failedFor === 'shared');
    actor.send({ type: 'PROJECT', id: 'shared', version: 6, idle: true });
    await new Promise((done) => setTimeout(done, 20));
    expect(server.api.history).toHaveBeenCalledTimes(1);
    actor.send({ type: 'PROJECT', id: 'p1', version: 2, idle: true });
    await loadedAt(actor, 2);
    expect(server.api.history).toHaveBeenCalledTimes(2);
  });
});
