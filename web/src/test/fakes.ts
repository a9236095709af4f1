import { ApiError } from '../api/http';
import type { User } from '../api/types';

export function aUser(overrides: Partial<User> = {}): User {
  return {
    username: 'ada',
    language: 'de',
    rainfall_units: 'mm/hr',
    has_advanced_mode: false,
    shared_projects: false,
    is_admin: false,
    ...overrides,
  };
}

export const unauthorized = () => new ApiError(401, { detail: 'Authentication credentials were not provided.' });

/** A promise with its settle functions, for steering timing in tests. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

type Route = (request: { method: string; path: string; body: unknown }) => { status: number; body?: unknown } | undefined;

/** A fetch stand-in answering from a route function, recording each request. */
export function fakeFetch(route: Route) {
  const calls: { method: string; path: string; body: unknown; init: RequestInit }[] = [];
  const fetchFn = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : input, 'http://localhost');
    const path = url.pathname.replace(/^\/api/, '') + url.search;
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path, body, init });
    const answer = route({ method, path, body }) ?? { status: 404, body: { detail: 'Not found.' } };
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return new Response(text === '' ? null : text, {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  }) as typeof fetch;
  return { fetchFn, calls };
}
