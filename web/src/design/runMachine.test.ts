import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { runMachine, runStateOf } from './runMachine';
import type { RunState } from './types';

function run(state: RunState = 'unconfigured') {
  const actor = createActor(runMachine, { input: { runId: 'r1', state } });
  actor.start();
  return actor;
}

describe('run machine', () => {
  it('starts in the state the server reported', () => {
    for (const state of ['unconfigured', 'ready', 'calculated', 'changed'] as const) {
      expect(runStateOf(run(state).getSnapshot())).toBe(state);
    }
  });

  it('becomes ready when the inputs allow a first calculation, and back', () => {
    const actor = run();
    actor.send({ type: 'EDITED', ready: false });
    expect(runStateOf(actor.getSnapshot())).toBe('unconfigured');
    actor.send({ type: 'EDITED', ready: true });
    expect(runStateOf(actor.getSnapshot())).toBe('ready');
    expect(actor.getSnapshot().hasTag('highlight')).toBe(true);
    actor.send({ type: 'EDITED', ready: false });
    expect(runStateOf(actor.getSnapshot())).toBe('unconfigured');
    expect(actor.getSnapshot().hasTag('highlight')).toBe(false);
  });

  it('is calculated after a calculation and input-changed after an edit', () => {
    const actor = run('ready');
    actor.send({ type: 'CALCULATION.START' });
    expect(actor.getSnapshot().hasTag('calculating')).toBe(true);
    actor.send({ type: 'CALCULATION.DONE' });
    const done = actor.getSnapshot();
    expect(runStateOf(done)).toBe('calculated');
    expect(done.hasTag('calculating')).toBe(false);
    expect(done.hasTag('highlight')).toBe(false);
    expect(done.hasTag('upToDate')).toBe(true);

    actor.send({ type: 'EDITED', ready: true });
    expect(runStateOf(actor.getSnapshot())).toBe('changed');
    expect(actor.getSnapshot().hasTag('highlight')).toBe(true);
    expect(actor.getSnapshot().hasTag('hasResults')).toBe(true);
    expect(actor.getSnapshot().hasTag('upToDate')).toBe(false);
  });

  it('returns to not calculated when a calculation fails', () => {
    const actor = run('changed');
    actor.send({ type: 'CALCULATION.START' });
    actor.send({ type: 'CALCULATION.FAILED', ready: true });
    expect(runStateOf(actor.getSnapshot())).toBe('ready');
    expect(actor.getSnapshot().hasTag('hasResults')).toBe(false);
  });

  it('follows the server, whatever it held locally', () => {
    const actor = run('ready');
    actor.send({ type: 'SERVER.STATE', state: 'calculated' });
    expect(runStateOf(actor.getSnapshot())).toBe('calculated');
    actor.send({ type: 'SERVER.STATE', state: 'changed' });
    expect(runStateOf(actor.getSnapshot())).toBe('changed');
    actor.send({ type: 'SERVER.STATE', state: 'unconfigured' });
    expect(runStateOf(actor.getSnapshot())).toBe('unconfigured');
  });

  it('keeps calculating through a server state change', () => {
    const actor = run('ready');
    actor.send({ type: 'CALCULATION.START' });
    actor.send({ type: 'SERVER.STATE', state: 'ready' });
    expect(actor.getSnapshot().hasTag('calculating')).toBe(true);
  });

  it('is unconfigured after a reset', () => {
    const actor = run('calculated');
    actor.send({ type: 'RESET' });
    expect(runStateOf(actor.getSnapshot())).toBe('unconfigured');
  });
});
