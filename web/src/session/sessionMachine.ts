import { assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { ApiError, isServerSide, isUnauthorized, NetworkError } from '../api/http';
import type { AuthApi } from '../api/endpoints';
import type { User } from '../api/types';
import type { UserStore } from './userStore';

export type LoginFailure = 'credentials' | 'notConfirmed' | 'blocked' | 'throttled' | 'server' | 'network';

export interface SessionContext {
  user: User | null;
  username: string;
  password: string;
  loginError: LoginFailure | null;
}

export type SessionEvent =
  | { type: 'CREDENTIALS.CHANGE'; username?: string; password?: string }
  | { type: 'LOGIN' }
  | { type: 'LOGOUT' }
  /** An authenticated call met a 401: refresh the session once. */
  | { type: 'UNAUTHORIZED' }
  /** A call still met a 401 after a successful refresh. */
  | { type: 'EXPIRED' }
  | { type: 'USER.UPDATE'; changes: Partial<User> };

export interface SessionDeps {
  api: Pick<AuthApi, 'login' | 'logout' | 'me' | 'refresh'>;
  store: UserStore;
  applyLanguage: (language: string) => void;
  /** Forget server data cached for the user who just left. */
  onSignedOut?: () => void;
}

export function canLogin(context: SessionContext): boolean {
  return context.username.trim() !== '' && context.password !== '';
}

export function createSessionMachine(deps: SessionDeps) {
  return setup({
    types: {
      context: {} as SessionContext,
      events: {} as SessionEvent,
    },
    actors: {
      verify: fromPromise<User>(async () => {
        // The stored user may hold an expired access token: the spec's one
        // refresh-and-repeat applies to this call like to any authenticated one.
        try {
          return (await deps.api.me()).user;
        } catch (error) {
          if (!isUnauthorized(error)) throw error;
        }
        await deps.api.refresh();
        return (await deps.api.me()).user;
      }),
      login: fromPromise<User, { username: string; password: string }>(async ({ input }) => {
        return (await deps.api.login(input.username, input.password)).user;
      }),
      refresh: fromPromise<unknown>(() => deps.api.refresh()),
      logout: fromPromise<unknown>(() => deps.api.logout()),
    },
    guards: {
      noStoredUser: ({ context }) => context.user === null,
      canLogin: ({ context }) => canLogin(context),
    },
    actions: {
      rememberUser: ({ context }) => {
        if (context.user) deps.store.save(context.user);
      },
      applyUserLanguage: ({ context }) => {
        if (context.user?.language) deps.applyLanguage(context.user.language);
      },
      forgetUser: assign(() => {
        deps.store.clear();
        deps.onSignedOut?.();
        return { user: null, password: '' };
      }),
      keepUsernameForNextLogin: assign(({ context }) => ({
        username: context.user?.username ?? context.username,
      })),
    },
  }).createMachine({
    id: 'session',
    context: () => ({
      user: deps.store.load(),
      username: '',
      password: '',
      loginError: null,
    }),
    initial: 'checking',
    states: {
      checking: {
        always: { guard: 'noStoredUser', target: 'signedOut' },
        invoke: {
          src: 'verify',
          onDone: {
            target: 'signedIn',
            actions: assign({ user: ({ event }) => event.output }),
          },
          onError: [
            {
              guard: ({ event }) => isUnauthorized(event.error),
              target: 'signedOut.expired',
              actions: 'keepUsernameForNextLogin',
            },
            // Server unreachable: trust the stored user; the next call that
            // meets a 401 will sort the session out.
            { target: 'signedIn' },
          ],
        },
      },

      signedOut: {
        entry: 'forgetUser',
        initial: 'idle',
        on: {
          'CREDENTIALS.CHANGE': {
            actions: assign(({ context, event }) => ({
              username: event.username ?? context.username,
              password: event.password ?? context.password,
            })),
          },
        },
        states: {
          idle: {
            on: { LOGIN: { guard: 'canLogin', target: 'loggingIn' } },
          },
          /** The session ran out: the login form shows with the expired-session message. */
          expired: {
            on: { LOGIN: { guard: 'canLogin', target: 'loggingIn' } },
          },
          loggingIn: {
            entry: assign({ loginError: null }),
            invoke: {
              src: 'login',
              input: ({ context }) => ({
                username: context.username.trim(),
                password: context.password,
              }),
              onDone: {
                target: '#session.signedIn',
                actions: assign({
                  user: ({ event }) => event.output,
                  password: '',
                  loginError: null,
                }),
              },
              onError: {
                target: 'idle',
                actions: assign({
                  password: '',
                  loginError: ({ event }) => loginFailure(event.error),
                }),
              },
            },
          },
        },
      },

      signedIn: {
        entry: ['rememberUser', 'applyUserLanguage'],
        initial: 'active',
        on: {
          EXPIRED: {
            target: 'signedOut.expired',
            actions: 'keepUsernameForNextLogin',
          },
          'USER.UPDATE': {
            actions: [
              assign({
                user: ({ context, event }) =>
                  context.user ? { ...context.user, ...event.changes } : context.user,
              }),
              'rememberUser',
              'applyUserLanguage',
            ],
          },
        },
        states: {
          active: {
            on: { UNAUTHORIZED: 'refreshing', LOGOUT: 'loggingOut' },
          },
          // Further 401s while a refresh runs wait for this one instead of starting their own.
          refreshing: {
            on: { LOGOUT: 'loggingOut' },
            invoke: {
              src: 'refresh',
              onDone: 'active',
              onError: {
                target: '#session.signedOut.expired',
                actions: 'keepUsernameForNextLogin',
              },
            },
          },
          loggingOut: {
            invoke: {
              src: 'logout',
              // Whatever the server says, the user asked to leave: forget them locally.
              onDone: '#session.signedOut',
              onError: '#session.signedOut',
            },
          },
        },
      },
    },
  });
}

function loginFailure(error: unknown): LoginFailure {
  if (error instanceof NetworkError) return 'network';
  if (isServerSide(error)) return 'server';
  if (error instanceof ApiError && error.status === 429) return 'throttled';
  // 403: the password was right but the account may not log in yet, or at all.
  if (error instanceof ApiError && error.status === 403) {
    return /confirm/i.test(errorText(error.body)) ? 'notConfirmed' : 'blocked';
  }
  return 'credentials';
}

function errorText(body: unknown): string {
  const text = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : body;
  return typeof text === 'string' ? text : '';
}

export type SessionMachine = ReturnType<typeof createSessionMachine>;
export type SessionActor = ActorRefFrom<SessionMachine>;
export type SessionSnapshot = SnapshotFrom<SessionMachine>;
