import { assign, enqueueActions, fromPromise, raise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { ApiError } from '../api/http';
import type { Message } from '../forms/messages';
import { errorMessage } from '../design/serverMessages';
import type { HistoryApi } from './historyApi';
import type { EditAnswer, ProjectHistory } from './types';

// The designer's history panel: the open project's versions, read from the
// server whenever the project moves on (an edit here, another tab's edit
// arriving over the live stream, an undo); undo, redo and restore sent to
// the server, which decides them on the project's stream
// (domain/project/history.go), so they hold across reloads and tabs. A move
// waits until the project's own edits have reached the server, so that an
// undo never overtakes the edit it should undo; moves asked for while one
// is on its way are queued in order.

/** What a move asks of the server. */
export type Move = { kind: 'undo' } | { kind: 'redo' } | { kind: 'restore'; version: number };

export type HistoryNotice = 'nothingToUndo' | 'nothingToRedo' | 'restored';

export interface HistoryContext {
  projectId: string | null;
  /** The newest version of the project known on the screen. */
  projectVersion: number;
  /** The project has no edits of its own on their way to the server. */
  projectIdle: boolean;
  history: ProjectHistory | null;
  /** The project whose history could not be read (a share link's project, or a failure). */
  failedFor: string | null;
  open: boolean;
  /** Moves asked for and not yet sent, in order. */
  queue: Move[];
  /** The move on its way. */
  moving: Move | null;
  /** The version shown read-only, if any. */
  viewing: number | null;
  notice: HistoryNotice | null;
  error: Message | null;
}

export type HistoryEvent =
  /** The open project as the design screen holds it. */
  | { type: 'PROJECT'; id: string | null; version: number; idle: boolean }
  | { type: 'UNDO' }
  | { type: 'REDO' }
  | { type: 'RESTORE'; version: number }
  | { type: 'TOGGLE' }
  | { type: 'CLOSE' }
  | { type: 'VIEW'; version: number }
  | { type: 'VIEW.CLOSE' }
  | { type: 'ERROR.CLOSE' }
  | { type: 'RELOAD' }
  | { type: 'NOTICE'; notice: HistoryNotice };

export interface HistoryDeps {
  api: Pick<HistoryApi, 'history' | 'undo' | 'redo' | 'restore'>;
  /** How long a notice shows (ms). */
  noticeMs?: number;
  /** The pause before reading the history again after the project moved on (ms): a burst of edits reads it once. */
  settleMs?: number;
}

/** At most this many moves wait: a held-down Ctrl+Z should not queue a hundred undos. */
const MAX_QUEUED = 5;

export function initialHistoryContext(): HistoryContext {
  return {
    projectId: null,
    projectVersion: 0,
    projectIdle: true,
    history: null,
    failedFor: null,
    open: false,
    queue: [],
    moving: null,
    viewing: null,
    notice: null,
    error: null,
  };
}

/** The history read is older than the project on the screen, or of another project. */
export function isStale(ctx: HistoryContext): boolean {
  return !!ctx.projectId && (ctx.history?.project !== ctx.projectId || ctx.projectVersion > ctx.history.version);
}

/**
 * Whether a move asked for now is known to be impossible: the history is
 * current, nothing is queued or on its way, and it offers no such move.
 * Anything less certain goes to the server, which has the last word.
 */
export function knownImpossible(ctx: HistoryContext, move: Move): HistoryNotice | null {
  if (move.kind === 'restore' || !ctx.history || isStale(ctx) || ctx.queue.length > 0 || ctx.moving) return null;
  if (move.kind === 'undo' && !ctx.history.undo) return 'nothingToUndo';
  if (move.kind === 'redo' && !ctx.history.redo) return 'nothingToRedo';
  return null;
}

function send(api: HistoryDeps['api'], id: string, move: Move): Promise<EditAnswer> {
  switch (move.kind) {
    case 'undo':
      return api.undo(id);
    case 'redo':
      return api.redo(id);
    case 'restore':
      return api.restore(id, move.version);
  }
}

/** The server's "Nothing to undo" / "Nothing to redo" (409). */
function nothingToMove(error: unknown, move: Move | null): HistoryNotice | null {
  if (!(error instanceof ApiError) || error.status !== 409 || !move || move.kind === 'restore') return null;
  return move.kind === 'undo' ? 'nothingToUndo' : 'nothingToRedo';
}

export function createHistoryMachine(deps: HistoryDeps) {
  const moveOf = (event: HistoryEvent): Move | null =>
    event.type === 'UNDO' ? { kind: 'undo' } : event.type === 'REDO' ? { kind: 'redo' } : event.type === 'RESTORE' ? { kind: 'restore', version: event.version } : null;

  return setup({
    types: {
      context: {} as HistoryContext,
      events: {} as HistoryEvent,
    },
    actors: {
      load: fromPromise<ProjectHistory, { id: string }>(({ input }) => deps.api.history(input.id)),
      move: fromPromise<EditAnswer, { id: string; move: Move }>(({ input }) => send(deps.api, input.id, input.move)),
    },
    guards: {
      noProject: ({ context }) => !context.projectId,
      stale: ({ context }) => isStale(context),
      retryable: ({ context }) => !!context.projectId && context.failedFor !== context.projectId,
      projectIdle: ({ context }) => context.projectIdle,
      queued: ({ context }) => context.queue.length > 0,
      // Only who may change the project moves it; the server checks again.
      mayMove: ({ context }) => !!context.projectId && !!context.history?.editable && context.history.project === context.projectId,
      knownImpossible: ({ context, event }) => {
        const move = moveOf(event);
        return !!move && knownImpossible(context, move) !== null;
      },
    },
    actions: {
      enqueue: assign({
        queue: ({ context, event }) => {
          const move = moveOf(event);
          return move && context.queue.length < MAX_QUEUED ? [...context.queue, move] : context.queue;
        },
        viewing: ({ context, event }) => (event.type === 'RESTORE' ? null : context.viewing),
        error: null,
      }),
      tellImpossible: raise(({ context, event }) => ({ type: 'NOTICE' as const, notice: knownImpossible(context, moveOf(event)!)! })),
    },
    delays: {
      settle: () => deps.settleMs ?? 250,
      notice: () => deps.noticeMs ?? 4000,
    },
  }).createMachine({
    id: 'history',
    type: 'parallel',
    context: initialHistoryContext,
    on: {
      PROJECT: {
        actions: assign(({ context, event }) => {
          const other = event.id !== context.projectId;
          return {
            projectId: event.id,
            projectVersion: event.version,
            projectIdle: event.idle,
            // Another project: nothing of the last one's history carries over.
            ...(other ? { history: null, queue: [], viewing: null, notice: null, error: null } : {}),
          };
        }),
      },
      TOGGLE: { actions: assign({ open: ({ context }) => !context.open }) },
      CLOSE: { actions: assign({ open: false }) },
      VIEW: { actions: assign({ viewing: ({ event }) => event.version }) },
      'VIEW.CLOSE': { actions: assign({ viewing: null }) },
      'ERROR.CLOSE': { actions: assign({ error: null }) },
    },
    states: {
      data: {
        initial: 'none',
        states: {
          none: {
            always: { guard: 'retryable', target: 'loading' },
          },
          loading: {
            invoke: {
              src: 'load',
              input: ({ context }) => ({ id: context.projectId! }),
              onDone: [
                // Asked for a project no longer open: ask again for the one that is.
                { guard: ({ context, event }) => event.output.project !== context.projectId, target: 'loading', reenter: true },
                { target: 'loaded', actions: assign({ history: ({ event }) => event.output, failedFor: null }) },
              ],
              onError: { target: 'none', actions: assign({ history: null, failedFor: ({ context }) => context.projectId }) },
            },
            on: { RELOAD: { target: 'loading', reenter: true } },
          },
          loaded: {
            always: [
              { guard: 'noProject', target: 'none' },
              { guard: 'stale', target: 'settling' },
            ],
            on: { RELOAD: 'loading' },
          },
          settling: {
            always: { guard: 'noProject', target: 'none' },
            after: { settle: 'loading' },
            on: { RELOAD: 'loading' },
          },
        },
      },

      moves: {
        initial: 'idle',
        on: {
          UNDO: [{ guard: 'knownImpossible', actions: 'tellImpossible' }, { guard: 'mayMove', actions: 'enqueue' }],
          REDO: [{ guard: 'knownImpossible', actions: 'tellImpossible' }, { guard: 'mayMove', actions: 'enqueue' }],
          RESTORE: { guard: 'mayMove', actions: 'enqueue' },
        },
        states: {
          idle: {
            always: { guard: 'queued', target: 'waiting' },
          },
          waiting: {
            always: [
              { guard: ({ context }) => context.queue.length === 0, target: 'idle' },
              { guard: 'projectIdle', target: 'moving' },
            ],
          },
          moving: {
            entry: assign(({ context }) => ({ moving: context.queue[0] ?? null, queue: context.queue.slice(1) })),
            invoke: {
              src: 'move',
              input: ({ context }) => ({ id: context.projectId!, move: context.moving! }),
              onDone: {
                target: 'waiting',
                actions: enqueueActions(({ context, enqueue }) => {
                  // Undo and redo show in the project at once; a restore from the list says so.
                  if (context.moving?.kind === 'restore') enqueue.raise({ type: 'NOTICE', notice: 'restored' });
                  enqueue.assign({ moving: null });
                  enqueue.raise({ type: 'RELOAD' });
                }),
              },
              onError: {
                target: 'idle',
                actions: enqueueActions(({ context, event, enqueue }) => {
                  const nothing = nothingToMove(event.error, context.moving);
                  if (nothing) enqueue.raise({ type: 'NOTICE', notice: nothing });
                  enqueue.assign({ moving: null, queue: [], error: nothing ? null : errorMessage(event.error, 'history.moveFailed') });
                  enqueue.raise({ type: 'RELOAD' });
                }),
              },
            },
          },
        },
      },

      notice: {
        initial: 'hidden',
        states: {
          hidden: {
            on: { NOTICE: { target: 'shown', actions: assign({ notice: ({ event }) => event.notice }) } },
          },
          shown: {
            after: { notice: { target: 'hidden', actions: assign({ notice: null }) } },
            on: { NOTICE: { target: 'shown', reenter: true, actions: assign({ notice: ({ event }) => event.notice }) } },
          },
        },
      },
    },
  });
}

export type HistoryMachine = ReturnType<typeof createHistoryMachine>;
export type HistoryActor = ActorRefFrom<HistoryMachine>;
export type HistorySnapshot = SnapshotFrom<HistoryMachine>;
