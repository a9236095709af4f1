import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { calculationsMachine } from './calculationsMachine';
import { filterQuery, NO_FILTER } from './staffApi';

describe('calculations machine', () => {
  it('applies an edited filter only when asked', () => {
    const actor = createActor(calculationsMachine, { input: {} }).start();
    actor.send({ type: 'EDIT', changes: { user: 'alice', outcome: 'failed' } });
    expect(actor.getSnapshot().context.applied).toEqual(NO_FILTER);
    actor.send({ type: 'APPLY' });
    expect(actor.getSnapshot().context.applied).toMatchObject({ user: 'alice', outcome: 'failed' });
    actor.send({ type: 'CLEAR' });
    expect(actor.getSnapshot().context).toMatchObject({ applied: NO_FILTER, draft: NO_FILTER });
  });

  it('refuses a date range that ends before it starts', () => {
    const actor = createActor(calculationsMachine, { input: { filter: { user: 'bob' } } }).start();
    actor.send({ type: 'EDIT', changes: { from: '2026-05-02', to: '2026-05-01' } });
    actor.send({ type: 'APPLY' });
    expect(actor.getSnapshot().context).toMatchObject({ rangeError: true, applied: { ...NO_FILTER, user: 'bob' } });
    actor.send({ type: 'EDIT', changes: { to: '2026-05-02' } });
    actor.send({ type: 'APPLY' });
    expect(actor.getSnapshot().context).toMatchObject({ rangeError: false, applied: { from: '2026-05-02', to: '2026-05-02' } });
  });

  it('opens and closes one calculation', () => {
    const actor = createActor(calculationsMachine, { input: {} }).start();
    actor.send({ type: 'OPEN', id: 'ev-1' });
    expect(actor.getSnapshot().context.opened).toBe('ev-1');
    actor.send({ type: 'CLOSE' });
    expect(actor.getSnapshot().context.opened).toBeNull();
  });
});

describe('filterQuery', () => {
  it('sends local days as instants, the last day whole', () => {
    const q = filterQuery({ ...NO_FILTER, user: ' alice ', outcome: 'failed', from: '2026-05-01', to: '2026-05-01' });
    expect(q.get('user')).toBe('alice');
    expect(q.get('outcome')).toBe('failed');
    expect(new Date(q.get('from')!).getTime()).toBe(new Date(2026, 4, 1).getTime());
    expect(new Date(q.get('to')!).getTime()).toBe(new Date(2026, 4, 2).getTime());
    expect(q.has('project')).toBe(false);
  });
});
