import { waitFor } from 'xstate';
import { isUnauthorized, type Method, type Send, type SendFile, type SendOptions } from '../api/http';
import type { SessionActor } from './sessionMachine';
import type { UserStore } from './userStore';

/** The session ended under a call; the login form is showing with the expired message. */
export class SessionExpiredError extends Error {
  constructor() {
    super('session expired');
    this.name = 'SessionExpiredError';
  }
}

/** What an authenticated call needs from the session when it meets a 401. */
export interface SessionGate {
  hasStoredUser(): boolean;
  /** Resolves true once the session was refreshed, false when it could not be. */
  refresh(): Promise<boolean>;
  expire(): void;
}

/**
 * Wraps send so that a 401 (when a user is stored locally) refreshes the
 * session once and repeats the call; a second 401 ends the session.
 */
export function withSessionRefresh(send: Send, gate: SessionGate): Send {
  return async function authed<T>(method: Method, path: string, body?: unknown, options?: SendOptions): Promise<T> {
    return refreshing(() => send<T>(method, path, body, options), gate);
  };
}

/** The same for downloads. */
export function withSessionRefreshFile(send: SendFile, gate: SessionGate): SendFile {
  return (method, path, body) => refreshing(() => send(method, path, body), gate);
}

async function refreshing<T>(call: () => Promise<T>, gate: SessionGate): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isUnauthorized(error) || !gate.hasStoredUser()) throw error;
  }
  if (!(await gate.refresh())) throw new SessionExpiredError();
  try {
    return await call();
  } catch (error) {
    if (isUnauthorized(error)) {
      gate.expire();
      throw new SessionExpiredError();
    }
    throw error;
  }
}

export function sessionGate(actor: SessionActor, store: UserStore): SessionGate {
  return {
    hasStoredUser: () => store.load() !== null,
    async refresh() {
      actor.send({ type: 'UNAUTHORIZED' });
      const settled = await waitFor(
        actor,
        (snapshot) => !snapshot.matches({ signedIn: 'refreshing' }),
      );
      return settled.matches({ signedIn: 'active' });
    },
    expire: () => actor.send({ type: 'EXPIRED' }),
  };
}
