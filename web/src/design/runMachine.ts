import { setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { RunState } from './types';

// One run's life (design-tool.md section 4): unconfigured, ready for its first
// calculation, calculated, or input changed since. In a live project the
// server's state, carried by every event of the project stream and every
// command answer, wins; local edits and calculations move the run at once so
// the Calculate highlight never waits for the network.

export type RunEvent =
  /** The server's word on this run's state. */
  | { type: 'SERVER.STATE'; state: RunState }
  /** An input changed here; `ready` says whether the inputs now allow a first calculation. */
  | { type: 'EDITED'; ready: boolean }
  | { type: 'CALCULATION.START' }
  | { type: 'CALCULATION.DONE' }
  | { type: 'CALCULATION.FAILED'; ready: boolean }
  | { type: 'RESET' };

export interface RunInput {
  runId: string;
  state: RunState;
}

export const runMachine = setup({
  types: {
    context: {} as { runId: string; initial: RunState },
    input: {} as RunInput,
    events: {} as RunEvent,
  },
  guards: {
    ready: ({ event }) => 'ready' in event && event.ready,
    serverSays: ({ event }, state: RunState) => event.type === 'SERVER.STATE' && event.state === state,
    startsAs: ({ context }, state: RunState) => context.initial === state,
  },
}).createMachine({
  id: 'run',
  context: ({ input }) => ({ runId: input.runId, initial: input.state }),
  type: 'parallel',
  on: {
    'CALCULATION.DONE': { target: ['.status.calculated', '.activity.idle'] },
    // Spec: a failed calculation returns the run to not calculated.
    'CALCULATION.FAILED': [
      { guard: 'ready', target: ['.status.ready', '.activity.idle'] },
      { target: ['.status.unconfigured', '.activity.idle'] },
    ],
  },
  states: {
    status: {
      initial: 'starting',
      // Handled on the region, not the root, so a calculation under way is untouched.
      on: {
        'SERVER.STATE': [
          { guard: { type: 'serverSays', params: 'unconfigured' }, target: '.unconfigured' },
          { guard: { type: 'serverSays', params: 'ready' }, target: '.ready' },
          { guard: { type: 'serverSays', params: 'calculated' }, target: '.calculated' },
          { guard: { type: 'serverSays', params: 'changed' }, target: '.changed' },
        ],
        RESET: '.unconfigured',
      },
      states: {
        starting: {
          always: [
            { guard: { type: 'startsAs', params: 'ready' }, target: 'ready' },
            { guard: { type: 'startsAs', params: 'calculated' }, target: 'calculated' },
            { guard: { type: 'startsAs', params: 'changed' }, target: 'changed' },
            { target: 'unconfigured' },
          ],
        },
        unconfigured: {
          on: { EDITED: { guard: 'ready', target: 'ready' } },
        },
        ready: {
          tags: ['highlight'],
          on: { EDITED: { guard: ({ event }) => !event.ready, target: 'unconfigured' } },
        },
        calculated: {
          tags: ['hasResults', 'upToDate'],
          on: { EDITED: 'changed' },
        },
        changed: {
          tags: ['hasResults', 'highlight'],
        },
      },
    },
    activity: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'CALCULATION.START': 'calculating' },
        },
        calculating: {
          tags: ['calculating'],
        },
      },
    },
  },
});

export type RunActor = ActorRefFrom<typeof runMachine>;
export type RunSnapshot = SnapshotFrom<typeof runMachine>;

/** The state name the server would use for this snapshot. */
export function runStateOf(snapshot: RunSnapshot): RunState {
  const status = (snapshot.value as { status: string }).status;
  return status === 'starting' ? snapshot.context.initial : (status as RunState);
}
