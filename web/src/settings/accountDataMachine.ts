import { assign, fromPromise, setup } from 'xstate';
import { ApiError } from '../api/http';
import { errorMessage } from '../design/serverMessages';
import type { Message } from '../forms/messages';

export interface AccountDataDeps {
  /** DELETE /api/account/ with the password: the account is closed and its personal data erased. */
  deleteAccount: (password: string) => Promise<unknown>;
}

interface Context {
  password: string;
  error: Message | null;
}

type Event = { type: 'DELETE' } | { type: 'PASSWORD'; value: string } | { type: 'CONFIRM' } | { type: 'CANCEL' };

/** A wrong password is worded here; anything else as errorMessage does. */
function deleteError(error: unknown): Message {
  if (error instanceof ApiError && error.status === 400 && (error.body as { password?: unknown } | null)?.password) {
    return { key: 'accountData.wrongPassword' };
  }
  return errorMessage(error, 'accountData.deleteFailed');
}

/**
 * Deleting one's own account from the settings dialog: the button asks for
 * the password and a second, explicit confirmation; the machine ends in
 * `deleted`, after which the caller signs the session out.
 */
export function createAccountDataMachine(deps: AccountDataDeps) {
  return setup({
    types: { context: {} as Context, events: {} as Event },
    actors: {
      deleteAccount: fromPromise<unknown, string>(({ input }) => deps.deleteAccount(input)),
    },
    guards: {
      hasPassword: ({ context }) => context.password !== '',
    },
  }).createMachine({
    id: 'accountData',
    context: { password: '', error: null },
    initial: 'idle',
    states: {
      idle: { on: { DELETE: { target: 'confirming', actions: assign({ error: null, password: '' }) } } },
      confirming: {
        on: {
          PASSWORD: { actions: assign({ password: ({ event }) => event.value, error: null }) },
          CONFIRM: { guard: 'hasPassword', target: 'deleting' },
          CANCEL: { target: 'idle', actions: assign({ password: '', error: null }) },
        },
      },
      deleting: {
        entry: assign({ error: null }),
        invoke: {
          src: 'deleteAccount',
          input: ({ context }) => context.password,
          onDone: { target: 'deleted', actions: assign({ password: '' }) },
          onError: { target: 'confirming', actions: assign({ error: ({ event }) => deleteError(event.error), password: '' }) },
        },
      },
      deleted: { type: 'final' },
    },
  });
}
