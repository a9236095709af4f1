import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../api/http';
import { createTimelineMachine, type TimelineDeps } from './timelineMachine';
import type { ProjectHistory, VersionDiff } from './types';

const history: ProjectHistory = {
  project: 'p1', name: 'Yard', version: 9, editable: false, undo: null, redo: null, authors: {},
  entries: [{ from: 1, version: 2, author: 'u', at: '', kind: 'created', changes: [], undoable: false, undone: false }],
};

function start(api: Partial<TimelineDeps['api']> = {}) {
  const openCopy = vi.fn();
  const deps: TimelineDeps = {
    api: {
      history: vi.fn(async () => history),
      diff: vi.fn(async (_id: string, from: number, to: number): Promise<VersionDiff> => ({ from, to, details: [], runs: [] })),
      copy: vi.fn(async () => ({ id: 'copy-1', version: 3, runs: [] })),
      ...api,
    },
    openCopy,
  };
  const actor = createActor(createTimelineMachine(deps), { input: { projectId: 'p1' } });
  actor.start();
  return { actor, deps, openCopy };
}

describe('the timeline machine', () => {
  it('shows the newest version first, and any version picked within the project', async () => {
    const { actor } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.selected).toBe(9);
    actor.send({ type: 'SELECT', version: 3 });
    expect(actor.getSnapshot().context.selected).toBe(3);
    actor.send({ type: 'SELECT', version: 40 });
    expect(actor.getSnapshot().context.selected).toBe(9);
    actor.send({ type: 'SELECT', version: 0 });
    expect(actor.getSnapshot().context.selected).toBe(1);
  });

  it('compares two versions', async () => {
    const { actor, deps } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'COMPARE', from: 3, to: 7 });
    await waitFor(actor, (s) => s.matches({ ready: { comparison: 'shown' } }));
    expect(deps.api.diff).toHaveBeenCalledWith('p1', 3, 7);
    expect(actor.getSnapshot().context.diff).toMatchObject({ from: 3, to: 7 });
  });

  it('copies the version shown and opens the copy', async () => {
    const { actor, deps, openCopy } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'SELECT', version: 4 });
    actor.send({ type: 'COPY' });
    await vi.waitFor(() => expect(openCopy).toHaveBeenCalled());
    expect(deps.api.copy).toHaveBeenCalledWith('p1', 4);
    expect(openCopy).toHaveBeenCalledWith('copy-1');
  });

  it('tells a hidden project from a failure', async () => {
    const hidden = start({ history: vi.fn(async () => Promise.reject(new ApiError(404, { error: 'The project could not be loaded' }))) });
    await waitFor(hidden.actor, (s) => s.matches('failed'));
    expect(hidden.actor.getSnapshot().context.hidden).toBe(true);
    const broken = start({ history: vi.fn(async () => Promise.reject(new ApiError(503, null))) });
    await waitFor(broken.actor, (s) => s.matches('failed'));
    expect(broken.actor.getSnapshot().context.hidden).toBe(false);
    expect(broken.actor.getSnapshot().context.error).toEqual({ key: 'common.serverError' });
  });
});
