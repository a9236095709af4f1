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
   * a try 300 ms later could still meet.
   */
  repeatable?: boolean;
}

/** The pauses before a repeatable request is sent again after a failover. */
export const FAILOVER_PAUSES_MS: readonly number[] = [300, 1000];

/** The server answered with a status outside 2xx; body is its parsed JSON, text, or null. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    super(`HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
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
}

export function createHttp(options: HttpOptions = {}): Send {
  const base = options.base ?? API_BASE;
  const fetchFn = options.fetchFn ?? ((input, init) => globalThis.fetch(input, init));
  const language = options.language ?? (() => 'en');
  const pauses = options.failoverPausesMs ?? FAILOVER_PAUSES_MS;

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
    if (!response.ok) throw new ApiError(response.status, data);
    return data as T;
  }

  return async function send<T>(method: Method, path: string, body?: unknown, sendOptions?: SendOptions): Promise<T> {
    for (const pause of sendOptions?.repeatable ? pauses : []) {
      try {
        return await once<T>(method, path, body);
      } catch (error) {
        if (!isFailover(error)) throw error;
      }
      await new Promise((done) => setTimeout(done, pause));
    }
    return once<T>(method, path, body);
  };
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
