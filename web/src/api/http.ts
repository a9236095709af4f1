/** Base path of the Go server's JSON API; the dev and preview servers proxy it. */
export const API_BASE = '/api';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Sends one JSON request and resolves with the parsed answer (null for an empty body). */
export type Send = <T>(method: Method, path: string, body?: unknown, options?: SendOptions) => Promise<T>;

export interface SendOptions {
  /**
   * Sending the request twice does no harm (a calculation, an edit that sets
   * values): when a try got no answer from the instance, because it stopped
   * while the request was on its way (the balancer answers 502 or closes the
   * connection unanswered), it is sent again after each of
   * FAILOVER_PAUSES_MS in turn, and the balancer takes it to another
   * instance. A stopped instance goes on taking connections, and dropping
   * them, while the kernel frees its memory: a fraction of a second, which
   * a try 300 ms later could still meet. An answer 503 (the server cannot
   * reach its database, as in a restart) is waited out too, for up to
   * UNAVAILABLE_BUDGET_MS, sending the request again after each answer's
   * Retry-After; HttpOptions.onWaiting tells the screen meanwhile.
   */
  repeatable?: boolean;
}

/** The pauses before a repeatable request is sent again after a failover. */
export const FAILOVER_PAUSES_MS: readonly number[] = [300, 1000];

/**
 * How long a repeatable request waits out 503 answers (the server cannot
 * reach its database: a restart takes a few seconds), sent again after
 * each answer's Retry-After, before the 503 is given to the caller.
 */
export const UNAVAILABLE_BUDGET_MS = 20_000;

/** The server answered with a status outside 2xx; body is its parsed JSON, text, or null. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  /** The answer's Retry-After, in milliseconds (null: none). */
  readonly retryAfterMs: number | null;

  constructor(status: number, body: unknown, retryAfterMs: number | null = null) {
    super(`HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.retryAfterMs = retryAfterMs;
  }
}

/** The request never got an HTTP answer (server down, connection lost). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('network error', { cause });
    this.name = 'NetworkError';
  }
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/** The request reached no instance that answered: the balancer lost it (502) or the connection dropped. */
export function isFailover(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof ApiError && error.status === 502);
}

/** The server is up but cannot reach its database for a moment (503), or the balancer has no instance to offer. */
export function isUnavailable(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 503;
}

export function isServerSide(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof ApiError && error.status >= 500);
}

export interface HttpOptions {
  base?: string;
  fetchFn?: typeof fetch;
  /** The interface language, sent so the server can word its messages in it. */
  language?: () => string;
  /** The pauses before a repeatable request is sent again (SendOptions); FAILOVER_PAUSES_MS by default. */
  failoverPausesMs?: readonly number[];
  /** How long a repeatable request waits out 503 answers; UNAVAILABLE_BUDGET_MS by default. */
  unavailableBudgetMs?: number;
  /** Told when a request starts (true) and stops (false) waiting out 503 answers, for a notice on screen. */
  onWaiting?: (waiting: boolean) => void;
}

export function createHttp(options: HttpOptions = {}): Send {
  const base = options.base ?? API_BASE;
  const fetchFn = options.fetchFn ?? ((input, init) => globalThis.fetch(input, init));
  const language = options.language ?? (() => 'en');
  const pauses = options.failoverPausesMs ?? FAILOVER_PAUSES_MS;
  const budget = options.unavailableBudgetMs ?? UNAVAILABLE_BUDGET_MS;

  async function once<T>(method: Method, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Accept-Language': language(),
    };
    // Every write carries the JSON content type, even with no body: the server
    // can then refuse cross-site form posts that would ride on the session cookie.
    if (method !== 'GET') headers['Content-Type'] = 'application/json';

    let response: Response;
    try {
      response = await fetchFn(base + path, {
        method,
        credentials: 'include',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (cause) {
      throw new NetworkError(cause);
    }

    let text: string;
    try {
      text = await response.text();
    } catch (cause) {
      // The connection dropped in the middle of the answer.
      throw new NetworkError(cause);
    }
    const data = parseBody(text);
    if (!response.ok) throw new ApiError(response.status, data, retryAfterMs(response.headers.get('Retry-After')));
    return data as T;
  }

  return async function send<T>(method: Method, path: string, body?: unknown, sendOptions?: SendOptions): Promise<T> {
    if (!sendOptions?.repeatable) return once<T>(method, path, body);
    let failovers = 0;
    let waited = 0;
    let waiting = false;
    try {
      for (;;) {
        try {
          return await once<T>(method, path, body);
        } catch (error) {
          let pause: number;
          if (isFailover(error) && failovers < pauses.length) {
            pause = pauses[failovers++]!;
          } else if ((isUnavailable(error) || (waiting && isFailover(error))) && waited < budget) {
            // Once waiting, a try that gets no answer is waited out too: the
            // balancer, with every instance out of rotation, answers a large
            // save before reading it, and the connection is reset.
            const asked = isUnavailable(error) ? error.retryAfterMs : null;
            pause = Math.min(Math.max(asked ?? 2000, 500), 5000, budget - waited);
            waited += pause;
            if (!waiting) {
              waiting = true;
              options.onWaiting?.(true);
            }
          } else {
            throw error;
          }
          await new Promise((done) => setTimeout(done, pause));
        }
      }
    } finally {
      if (waiting) options.onWaiting?.(false);
    }
  };
}

/** Retry-After in milliseconds: its delay-seconds form (the server's), else null. */
function retryAfterMs(header: string | null): number | null {
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  return Number(header.trim()) * 1000;
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A file the server made: its content and the name it suggests. */
export interface FileAnswer {
  blob: Blob;
  filename: string;
}

/** Sends one JSON request whose answer is a file (a document download). */
export type SendFile = (method: Method, path: string, body?: unknown) => Promise<FileAnswer>;

export function createFileHttp(options: HttpOptions = {}): SendFile {
  const base = options.base ?? API_BASE;
  const fetchFn = options.fetchFn ?? ((input, init) => globalThis.fetch(input, init));
  const language = options.language ?? (() => 'en');

  return async function sendFile(method: Method, path: string, body?: unknown): Promise<FileAnswer> {
    let response: Response;
    try {
      response = await fetchFn(base + path, {
        method,
        credentials: 'include',
        headers: { 'Accept-Language': language(), 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (cause) {
      throw new NetworkError(cause);
    }
    if (!response.ok) throw new ApiError(response.status, parseBody(await response.text()));
    return { blob: await response.blob(), filename: filenameOf(response.headers.get('Content-Disposition')) };
  };
}

/** The file name of a Content-Disposition header (RFC 6266, with RFC 5987's filename*). */
export function filenameOf(header: string | null): string {
  if (!header) return 'document';
  const extended = /filename\*=(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename="?([^";]+)"?/.exec(header);
  return plain?.[1] ? plain[1].trim() : 'document';
}
