import { useSyncExternalStore } from 'react';

export interface AppLocation {
  pathname: string;
  search: string;
  /** history.state of the entry: one-off notices carried across a navigation. */
  state: unknown;
}

const listeners = new Set<() => void>();
let current: AppLocation | null = null;

function read(): AppLocation {
  const { pathname, search } = window.location;
  const state: unknown = window.history.state;
  if (!current || current.pathname !== pathname || current.search !== search || current.state !== state) {
    current = { pathname, search, state };
  }
  return current;
}

function notify() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

export function navigate(to: string, options: { replace?: boolean; state?: unknown } = {}) {
  const state = options.state ?? null;
  const here = window.location.pathname + window.location.search;
  // Going where one already is must not leave a second identical Back step.
  if (options.replace || to === here) window.history.replaceState(state, '', to);
  else window.history.pushState(state, '', to);
  notify();
}

export function useLocation(): AppLocation {
  return useSyncExternalStore(subscribe, read, read);
}
