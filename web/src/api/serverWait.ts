/**
 * Counts the requests now waiting out an unreachable database (503, as in
 * a restart: http.ts sends repeatable ones again), so that the screen can
 * say why a click takes longer instead of leaving the designer guessing.
 */
export interface ServerWait {
  /** http.ts's HttpOptions.onWaiting. */
  onWaiting: (waiting: boolean) => void;
  /** For useSyncExternalStore. */
  subscribe: (listener: () => void) => () => void;
  /** Some request is waiting. */
  waiting: () => boolean;
}

export function createServerWait(): ServerWait {
  let count = 0;
  const listeners = new Set<() => void>();
  return {
    onWaiting: (waiting) => {
      const before = count > 0;
      count = Math.max(0, count + (waiting ? 1 : -1));
      if (before !== count > 0) listeners.forEach((listener) => listener());
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    waiting: () => count > 0,
  };
}
