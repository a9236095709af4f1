import { assign, fromPromise, setup } from 'xstate';
import type { StaffApi, StaffUser } from './staffApi';

/** What a staff member does to an account; deleting waits for a confirmation. */
export type UserAction =
  | { kind: 'block'; user: StaffUser }
  | { kind: 'unblock'; user: StaffUser }
  | { kind: 'group'; user: StaffUser; group: string }
  | { kind: 'delete'; user: StaffUser };

export interface StaffUsersContext {
  search: string;
  hideBlocked: boolean;
  /** The action waiting for a confirmation or being carried out. */
  action: UserAction | null;
  /** The last action carried out, for the status line. */
  done: UserAction | null;
  error: unknown;
  /** Grows after every change, so that the list is read again. */
  revision: number;
}

export type StaffUsersEvent =
  | { type: 'SEARCH'; search: string }
  | { type: 'HIDE_BLOCKED'; hide: boolean }
  | { type: 'ACT'; action: UserAction }
  | { type: 'CONFIRM' }
  | { type: 'CANCEL' };

export function carryOut(api: Pick<StaffApi, 'block' | 'unblock' | 'changeGroup' | 'deleteUser'>, action: UserAction): Promise<unknown> {
  switch (action.kind) {
    case 'block':
      return api.block(action.user.id);
    case 'unblock':
      return api.unblock(action.user.id);
    case 'group':
      return api.changeGroup(action.user.id, action.group);
    case 'delete':
      return api.deleteUser(action.user.id);
  }
}

/**
 * The staff user list: its search and hide-blocked filter, and the actions
 * on an account. Blocking, unblocking and moving between groups are carried
 * out at once; deleting asks first. After each change the list is read
 * again (revision).
 */
export function createStaffUsersMachine(api: Pick<StaffApi, 'block' | 'unblock' | 'changeGroup' | 'deleteUser'>) {
  return setup({
    types: { context: {} as StaffUsersContext, events: {} as StaffUsersEvent },
    actors: {
      act: fromPromise<unknown, UserAction>(({ input }) => carryOut(api, input)),
    },
  }).createMachine({
    id: 'staffUsers',
    context: { search: '', hideBlocked: false, action: null, done: null, error: null, revision: 0 },
    on: {
      SEARCH: { actions: assign({ search: ({ event }) => event.search }) },
      HIDE_BLOCKED: { actions: assign({ hideBlocked: ({ event }) => event.hide }) },
    },
    initial: 'idle',
    states: {
      idle: {
        on: {
          ACT: [
            { guard: ({ event }) => event.action.kind === 'delete', target: 'confirming', actions: assign({ action: ({ event }) => event.action, error: null }) },
            { target: 'acting', actions: assign({ action: ({ event }) => event.action, error: null }) },
          ],
        },
      },
      confirming: {
        on: {
          CONFIRM: 'acting',
          CANCEL: { target: 'idle', actions: assign({ action: null }) },
        },
      },
      acting: {
        invoke: {
          src: 'act',
          input: ({ context }) => context.action!,
          onDone: {
            target: 'idle',
            actions: assign({ done: ({ context }) => context.action, action: null, revision: ({ context }) => context.revision + 1 }),
          },
          onError: {
            target: 'idle',
            // The list is read again too: the account may have changed under us.
            actions: assign({ error: ({ event }) => event.error, action: null, done: null, revision: ({ context }) => context.revision + 1 }),
          },
        },
      },
    },
  });
}
