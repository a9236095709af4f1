import type { User } from '../api/types';

/** Where the signed-in user is remembered between visits (spec: stored locally). */
export interface UserStore {
  load(): User | null;
  save(user: User): void;
  clear(): void;
}

const USER_KEY = 'draindesign.user';

export function localUserStore(storage: Storage = window.localStorage): UserStore {
  return {
    load() {
      const raw = storage.getItem(USER_KEY);
      if (raw === null) return null;
      try {
        const parsed = JSON.parse(raw) as unknown;
        return isUser(parsed) ? parsed : null;
      } catch {
        // A damaged entry must not lock the visitor out: treat it as signed out.
        return null;
      }
    },
    save(user) {
      storage.setItem(USER_KEY, JSON.stringify(user));
    },
    clear() {
      storage.removeItem(USER_KEY);
    },
  };
}

export function memoryUserStore(initial: User | null = null): UserStore {
  let user = initial;
  return {
    load: () => user,
    save: (next) => {
      user = next;
    },
    clear: () => {
      user = null;
    },
  };
}

function isUser(value: unknown): value is User {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { username?: unknown }).username === 'string'
  );
}
