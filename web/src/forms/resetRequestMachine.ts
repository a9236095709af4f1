import { assign, fromPromise, setup } from 'xstate';
import { ApiError, NetworkError } from '../api/http';

export type ResetRequestOutcome = 'sent' | 'invalid' | 'serverError' | 'networkError';

export interface ResetRequestContext {
  email: string;
  outcome: ResetRequestOutcome | null;
  /** Open straight away, as when arriving from the bad-link page to ask again. */
  startOpen: boolean;
}

export type ResetRequestEvent =
  | { type: 'TOGGLE' }
  | { type: 'CHANGE'; email: string }
  | { type: 'SEND' };

export function canSendReset(context: ResetRequestContext): boolean {
  return context.email.trim() !== '';
}

/**
 * The login panel's second face: closed shows the login form, open asks for
 * the e-mail address to send a reset link to.
 */
export function createResetRequestMachine(requestReset: (email: string) => Promise<unknown>) {
  return setup({
    types: {
      context: {} as ResetRequestContext,
      events: {} as ResetRequestEvent,
      input: {} as { open?: boolean } | undefined,
    },
    actors: {
      request: fromPromise<unknown, string>(({ input }) => requestReset(input)),
    },
  }).createMachine({
    id: 'resetRequest',
    context: ({ input }) => ({ email: '', outcome: null, startOpen: input?.open ?? false }),
    initial: 'start',
    states: {
      start: {
        always: [{ guard: ({ context }) => context.startOpen, target: 'open' }, { target: 'closed' }],
      },
      closed: {
        on: { TOGGLE: { target: 'open', actions: assign({ outcome: null }) } },
      },
      open: {
        initial: 'editing',
        on: { TOGGLE: 'closed' },
        states: {
          editing: {
            on: {
              CHANGE: { actions: assign({ email: ({ event }) => event.email, outcome: null }) },
              SEND: { guard: ({ context }) => canSendReset(context), target: 'sending' },
            },
          },
          sending: {
            entry: assign({ outcome: null }),
            invoke: {
              src: 'request',
              input: ({ context }) => context.email.trim(),
              onDone: { target: 'editing', actions: assign({ outcome: 'sent' }) },
              onError: {
                target: 'editing',
                actions: assign({ outcome: ({ event }) => failure(event.error) }),
              },
            },
          },
        },
      },
    },
  });
}

function failure(error: unknown): ResetRequestOutcome {
  if (error instanceof ApiError && error.status === 400) return 'invalid';
  if (error instanceof NetworkError) return 'networkError';
  return 'serverError';
}
