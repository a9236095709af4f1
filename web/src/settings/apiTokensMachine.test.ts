import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../api/http';
import type { ApiToken } from '../api/types';
import { createApiTokensMachine, type ApiTokensDeps } from './apiTokensMachine';

const laptop: ApiToken = { id: 't1', name: 'laptop', created: '2026-03-02T09:00:00Z' };

function start(overrides: Partial<ApiTokensDeps> = {}) {
  const deps: ApiTokensDeps = {
    list: vi.fn(async () => [laptop]),
    create: vi.fn(async (name: string) => ({ id: 't2', name, created: '2026-03-03T10:00:00Z', token: 'ddt.u.secret' })),
    revoke: vi.fn(async () => ({ id: 't1', revoked: true })),
    copy: vi.fn(async () => undefined),
    ...overrides,
  };
  const actor = createActor(createApiTokensMachine(deps));
  actor.start();
  return { actor, deps };
}

describe('API tokens', () => {
  it('lists the tokens, creates one and shows it once', async () => {
    const { actor, deps } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.tokens).toEqual([laptop]);

    actor.send({ type: 'CREATE' });
    expect(actor.getSnapshot().matches('ready')).toBe(true); // no name, nothing to create
    actor.send({ type: 'NAME', value: '  CI job ' });
    actor.send({ type: 'CREATE' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(deps.create).toHaveBeenCalledWith('CI job');
    const { created, tokens, name } = actor.getSnapshot().context;
    expect(created?.token).toBe('ddt.u.secret');
    expect(tokens.map((t) => t.name)).toEqual(['laptop', 'CI job']);
    expect(tokens.some((t) => 'token' in t)).toBe(false);
    expect(name).toBe('');

    actor.send({ type: 'COPY' });
    await waitFor(actor, (s) => s.context.copied);
    expect(deps.copy).toHaveBeenCalledWith('ddt.u.secret');
    actor.send({ type: 'DISMISS' });
    expect(actor.getSnapshot().context.created).toBeNull();
  });

  it('revokes a token only once confirmed', async () => {
    const { actor, deps } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'REVOKE', id: 't1' });
    expect(actor.getSnapshot().context.revoking).toEqual(laptop);
    actor.send({ type: 'CANCEL' });
    expect(deps.revoke).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.tokens).toHaveLength(1);

    actor.send({ type: 'REVOKE', id: 't1' });
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(deps.revoke).toHaveBeenCalledWith('t1');
    expect(actor.getSnapshot().context.tokens).toEqual([]);
  });

  it('words a refusal: too many tokens, or the server\'s message', async () => {
    const tooMany = new ApiError(400, { error: 'account: invalid input', name: ['You already have 20 tokens. Please revoke one you no longer use first.'] });
    const { actor } = start({ create: vi.fn(async () => Promise.reject(tooMany)) });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'NAME', value: 'one more' });
    actor.send({ type: 'CREATE' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context.error).toEqual({ key: 'apiTokens.tooMany' });
    expect(actor.getSnapshot().context.created).toBeNull();
  });

  it('offers to retry when the list cannot be loaded', async () => {
    const list = vi.fn<ApiTokensDeps['list']>().mockRejectedValueOnce(new ApiError(500, null)).mockResolvedValueOnce([]);
    const { actor } = start({ list });
    await waitFor(actor, (s) => s.matches('unavailable'));
    expect(actor.getSnapshot().context.error).toEqual({ key: 'common.serverError' });
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
