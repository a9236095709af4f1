import type { LiveClosedReason, LiveError, LiveMessage, LiveProject, LiveTarget } from '../api/projectTypes';

/** The part of the browser's WebSocket the live stream uses; tests pass a fake. */
export interface SocketLike {
  readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code?: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(): void;
}

export type SocketFactory = (url: string) => SocketLike;

export interface LiveHandlers {
  /** The followed project after a change: newer than anything passed on before. */
  onView: (message: LiveProject) => void;
  /**
   * The followed project is no longer there for this viewer: sharing
   * stopped, it was deleted, or a subscription was refused as not found. It
   * is not followed any more.
   */
  onClosed?: (project: string, reason: Exclude<LiveClosedReason, 'session'>) => void;
  /** The session ended under the connection: nothing reconnects until `resume()`. */
  onSessionEnded?: () => void;
  onError?: (error: LiveError) => void;
  /** Connected (true) or waiting to reconnect (false). */
  onStatus?: (connected: boolean) => void;
  /** The products offered in the user's country changed. */
  onCatalogue?: () => void;
}

export interface LiveStream {
  /** Follows one project from a version; any project followed before is let go. */
  follow(target: LiveTarget, from: number): void;
  unfollow(): void;
  /** Connects again after the session ended, once it is back (refreshed, or logged in again). */
  resume(): void;
  close(): void;
}

const OPEN = 1;
/** The server's close code after {"type":"closed","reason":"session"}. */
export const SESSION_ENDED = 4401;

/** ws(s)://<this host>/api/ws */
export function liveURL(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`;
}

/**
 * The project WebSocket: one connection, one followed project. The server
 * sends the whole project after each change, with its version; a message
 * not newer than the last one passed on is dropped. After a dropped
 * connection (server restart, network) it reconnects with growing pauses
 * and subscribes from the last version seen. It stops for good for a
 * project the server closed (no access, deleted), and until `resume()`
 * when the session ended.
 */
export function openLiveStream(
  handlers: LiveHandlers,
  options: { url?: string; createSocket?: SocketFactory; retryDelays?: readonly number[] } = {},
): LiveStream {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  const delays = options.retryDelays ?? [250, 500, 1000, 2000, 5000];
  const url = options.url ?? liveURL();
  let socket: SocketLike | null = null;
  let followed: (LiveTarget & { version: number }) | null = null;
  let attempts = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let resubscribeTimer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  let sessionEnded = false;

  const delay = (attempt: number) => delays[Math.min(attempt, delays.length - 1)] ?? 1000;

  const sendJSON = (message: unknown) => {
    if (socket?.readyState === OPEN) socket.send(JSON.stringify(message));
  };

  const subscribe = () => {
    if (!followed) return;
    sendJSON(
      followed.share
        ? { type: 'subscribe', share: followed.share, from: followed.version }
        : { type: 'subscribe', project: followed.project, from: followed.version },
    );
  };

  // A refusal names what the request named: the share id for a share link.
  const refusesFollowed = (error: LiveError) =>
    !!followed && (followed.share ? error.share === followed.share : error.project === followed.project && !error.share);

  function onMessage(message: LiveMessage) {
    switch (message.type) {
      case 'project':
        if (!followed || message.project !== followed.project || message.version <= followed.version) return;
        followed.version = message.version;
        handlers.onView(message);
        return;
      case 'closed':
        if (message.reason === 'session') {
          sessionEnded = true;
          handlers.onSessionEnded?.();
          return;
        }
        if (!followed || message.project !== followed.project) return;
        followed = null;
        handlers.onClosed?.(message.project, message.reason);
        return;
      case 'catalogue':
        handlers.onCatalogue?.();
        return;
      case 'error':
        if (refusesFollowed(message)) {
          if (message.code === 'not_found') {
            const project = followed!.project;
            followed = null;
            handlers.onClosed?.(project, 'no_access');
            return;
          }
          if (message.code === 'server') scheduleResubscribe();
        }
        handlers.onError?.(message);
        return;
    }
  }

  function connect() {
    if (closed || sessionEnded || socket) return;
    const current = createSocket(url);
    socket = current;
    current.onopen = () => {
      attempts = 0;
      handlers.onStatus?.(true);
      subscribe();
    };
    current.onmessage = ({ data }) => {
      let message: LiveMessage;
      try {
        message = JSON.parse(String(data)) as LiveMessage;
      } catch {
        return;
      }
      onMessage(message);
    };
    current.onclose = (event) => {
      if (socket !== current) return;
      socket = null;
      handlers.onStatus?.(false);
      if (event?.code === SESSION_ENDED && !sessionEnded) {
        sessionEnded = true;
        handlers.onSessionEnded?.();
      }
      if (!closed && !sessionEnded && followed) scheduleReconnect();
    };
    current.onerror = () => {
      // A close always follows; reconnecting is its job.
    };
  }

  function scheduleReconnect() {
    if (timer) return;
    const wait = delay(attempts);
    attempts++;
    timer = setTimeout(() => {
      timer = null;
      connect();
    }, wait);
  }

  // The server could not answer a subscription just now: ask again later.
  function scheduleResubscribe() {
    if (resubscribeTimer) return;
    resubscribeTimer = setTimeout(() => {
      resubscribeTimer = null;
      subscribe();
    }, delay(delays.length));
  }

  return {
    follow(target, from) {
      if (followed && followed.project !== target.project) sendJSON({ type: 'unsubscribe', project: followed.project });
      followed = { ...target, version: from };
      if (socket?.readyState === OPEN) subscribe();
      else connect();
    },
    unfollow() {
      if (followed) sendJSON({ type: 'unsubscribe', project: followed.project });
      followed = null;
    },
    resume() {
      if (!sessionEnded) return;
      sessionEnded = false;
      attempts = 0;
      if (followed) connect();
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (resubscribeTimer) clearTimeout(resubscribeTimer);
      socket?.close();
      socket = null;
    },
  };
}
