import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createStaffUsersMachine } from './staffUsersMachine';
import type { StaffUser } from './staffApi';

const alice: StaffUser = {
  id: 'u-1', username: 'alice', full_name: 'Alice A', email: 'a@example.com', company: 'C', country: 'GB', group: 'standard',
  confirmed: true, blocked: false, projects: 1, deleted_projects: 0, manageable: true,
};

function start(fail = false) {
  const api = {
    block: vi.fn(() => (fail ? Promise.reject(new Error('refused')) : Promise.resolve({}))),
    unblock: vi.fn(() => Promise.resolve({})),
    changeGroup: vi.fn(() => Promise.resolve({})),
    deleteUser: vi.fn(() => Promise.resolve({})),
  };
  const actor = createActor(createStaffUsersMachine(api)).start();
  return { api, actor };
}

describe('staff users machine', () => {
  it('blocks and moves between groups at once, and reads the list again', async () => {
    const { api, actor } = start();
    actor.send({ type: 'ACT', action: { kind: 'block', user: alice } });
    expect(actor.getSnapshot().matches('acting')).toBe(true);
    await waitFor(actor, (s) => s.matches('idle'));
    expect(api.block).toHaveBeenCalledWith('u-1');
    expect(actor.getSnapshot().context).toMatchObject({ revision: 1, done: { kind: 'block' }, action: null });

    actor.send({ type: 'ACT', action: { kind: 'group', user: alice, group: 'advanced' } });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(api.changeGroup).toHaveBeenCalledWith('u-1', 'advanced');
    expect(actor.getSnapshot().context.revision).toBe(2);
  });

  it('deletes only after a confirmation', async () => {
    const { api, actor } = start();
    actor.send({ type: 'ACT', action: { kind: 'delete', user: alice } });
    expect(actor.getSnapshot().matches('confirming')).toBe(true);
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(api.deleteUser).not.toHaveBeenCalled();

    actor.send({ type: 'ACT', action: { kind: 'delete', user: alice } });
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(api.deleteUser).toHaveBeenCalledWith('u-1');
    expect(actor.getSnapshot().context.done).toMatchObject({ kind: 'delete' });
  });

  it('keeps a refusal for the screen and reads the list again', async () => {
    const { actor } = start(true);
    actor.send({ type: 'ACT', action: { kind: 'block', user: alice } });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.error).toBeInstanceOf(Error);
    expect(actor.getSnapshot().context.revision).toBe(1);
  });

  it('keeps the search and the hide-blocked choice', () => {
    const { actor } = start();
    actor.send({ type: 'SEARCH', search: 'ali' });
    actor.send({ type: 'HIDE_BLOCKED', hide: true });
    expect(actor.getSnapshot().context).toMatchObject({ search: 'ali', hideBlocked: true });
  });
});
