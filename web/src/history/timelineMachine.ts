import { assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { ApiError } from '../api/http';
import type { Message } from '../forms/messages';
import { errorMessage } from '../design/serverMessages';
import type { HistoryApi } from './historyApi';
import type { EditAnswer, ProjectHistory, VersionDiff } from './types';

// Support's timeline of a project: its versions in order, one picked to be
// shown as the design screen showed it, two compared, and a version copied
// into a new project of the support user's own, which then opens in the
// design screen.

export interface TimelineContext {
  projectId: string;
  history: ProjectHistory | null;
  /** Not readable by this user (or no such project): the server's 404. */
  hidden: boolean;
  /** The version shown. */
  selected: number;
  /** The versions compared, once asked for. */
  compare: { from: number; to: number } | null;
  diff: VersionDiff | null;
  error: Message | null;
}

export type TimelineEvent =
  | { type: 'SELECT'; version: number }
  | { type: 'COMPARE'; from: number; to: number }
  | { type: 'COPY' }
  | { type: 'RETRY' };

export interface TimelineDeps {
  api: Pick<HistoryApi, 'history' | 'diff' | 'copy'>;
  /** Opens the copy in the design screen. */
  openCopy: (projectId: string) => void;
}

/** A version within the project's versions. */
const clampVersion = (history: ProjectHistory | null, version: number) => Math.min(Math.max(1, Math.round(version) || 1), Math.max(1, history?.version ?? 1));

export function createTimelineMachine(deps: TimelineDeps) {
  return setup({
    types: {
      context: {} as TimelineContext,
      events: {} as TimelineEvent,
      input: {} as { projectId: string },
    },
    actors: {
      load: fromPromise<ProjectHistory, { id: string }>(({ input }) => deps.api.history(input.id)),
      diff: fromPromise<VersionDiff, { id: string; from: number; to: number }>(({ input }) => deps.api.diff(input.id, input.from, input.to)),
      copy: fromPromise<EditAnswer, { id: string; version: number }>(({ input }) => deps.api.copy(input.id, input.version)),
    },
  }).createMachine({
    id: 'timeline',
    context: ({ input }) => ({ projectId: input.projectId, history: null, hidden: false, selected: 1, compare: null, diff: null, error: null }),
    initial: 'loading',
    states: {
      loading: {
        invoke: {
          src: 'load',
          input: ({ context }) => ({ id: context.projectId }),
          onDone: {
            target: 'ready',
            // The newest version first: what the designer has now.
            actions: assign({ history: ({ event }) => event.output, selected: ({ event }) => event.output.version, error: null }),
          },
          onError: {
            target: 'failed',
            actions: assign({
              hidden: ({ event }) => event.error instanceof ApiError && event.error.status === 404,
              error: ({ event }) => errorMessage(event.error, 'timeline.loadFailed'),
            }),
          },
        },
      },
      failed: {
        on: { RETRY: 'loading' },
      },
      ready: {
        type: 'parallel',
        on: {
          SELECT: { actions: assign({ selected: ({ context, event }) => clampVersion(context.history, event.version) }) },
        },
        states: {
          comparison: {
            initial: 'idle',
            on: {
              COMPARE: {
                target: '.comparing',
                actions: assign({
                  compare: ({ context, event }) => ({ from: clampVersion(context.history, event.from), to: clampVersion(context.history, event.to) }),
                  diff: null,
                }),
              },
            },
            states: {
              idle: {},
              comparing: {
                invoke: {
                  src: 'diff',
                  input: ({ context }) => ({ id: context.projectId, from: context.compare!.from, to: context.compare!.to }),
                  onDone: { target: 'shown', actions: assign({ diff: ({ event }) => event.output }) },
                  onError: { target: 'failed' },
                },
              },
              shown: {},
              failed: {},
            },
          },
          copy: {
            initial: 'idle',
            states: {
              idle: {
                on: { COPY: 'copying' },
              },
              copying: {
                invoke: {
                  src: 'copy',
                  input: ({ context }) => ({ id: context.projectId, version: context.selected }),
                  onDone: { target: 'idle', actions: ({ event }) => deps.openCopy(event.output.id) },
                  onError: { target: 'failed' },
                },
              },
              failed: {
                on: { COPY: 'copying' },
              },
            },
          },
        },
      },
    },
  });
}

export type TimelineMachine = ReturnType<typeof createTimelineMachine>;
export type TimelineActor = ActorRefFrom<TimelineMachine>;
export type TimelineSnapshot = SnapshotFrom<TimelineMachine>;
