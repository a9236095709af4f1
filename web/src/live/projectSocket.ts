import type { LiveError, LiveEvent } from '../api/projectTypes';

/** The part of the browser's WebSocket the live stream uses; tests pass a fake. */
export interface SocketLike {
  readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(): void;
}

export type SocketFactory = (url: string) => SocketLike;

export interface LiveHandlers {
  onEvent: (event: LiveEvent) => void;
  onError?: (error: LiveError) => void;
  /** Connected (true) or waiting to reconnect (false). */
  onStatus?: (connected: boolean) => void;
}

export interface LiveStream {
  /** Follows one project from a version; any project followed before is let go. */
  follow(project: string, from: number): void;
  unfollow(): void;
  close(): void;
}

const OPEN = 1;

/** ws(s)://<this host>/api/ws */
export function liveURL(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`;
}

/**
 * The project WebSocket: one connection, one followed project. Every event
 * moves the version it would resume from, so after a dropped connection
 * (server restart, network, an ended session) it reconnects with growing
 * pauses and subscribes from the last version seen: nothing is missed and
 * nothing comes twice.
 */
export function openLiveStream(
  handlers: LiveHandlers,
  options: { url?: string; createSocket?: SocketFactory; retryDelays?: readonly number[] } = {},
): LiveStream {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  const delays = options.retryDelays ?? [250, 500, 1000, 2000, 5000];
  const url = options.url ?? liveURL();
  let socket: SocketLike | null = null;
  let followed: { project: string; version: number } | null = null;
  let attempts = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  const sendJSON = (message: unknown) => {
    if (socket?.readyState === OPEN) socket.send(JSON.stringify(message));
  };

  function connect() {
    if (closed || socket) return;
    const current = createSocket(url);
    socket = current;
    current.onopen = () => {
      attempts = 0;
      handlers.onStatus?.(true);
      if (followed) sendJSON({ type: 'subscribe', project: followed.project, from: followed.version });
    };
    current.onmessage = ({ data }) => {
      let message: LiveEvent | LiveError;
      try {
        message = JSON.parse(String(data)) as LiveEvent | LiveError;
      } catch {
        return;
      }
      if (message.type === 'event') {
        if (!followed || message.project !== followed.project || message.version <= followed.version) return;
        followed.version = message.version;
        handlers.onEvent(message);
      } else if (message.type === 'error') {
        handlers.onError?.(message);
      }
    };
    current.onclose = () => {
      if (socket !== current) return;
      socket = null;
      handlers.onStatus?.(false);
      if (!closed && followed) scheduleReconnect();
    };
    current.onerror = () => {
      // A close always follows; reconnecting is its job.
    };
  }

  function scheduleReconnect() {
    if (timer) return;
    const delay = delays[Math.min(attempts, delays.length - 1)] ?? 1000;
    attempts++;
    timer = setTimeout(() => {
      timer = null;
      connect();
    }, delay);
  }

  return {
    follow(project, from) {
      if (followed && followed.project !== project) sendJSON({ type: 'unsubscribe', project: followed.project });
      followed = { project, version: from };
      if (socket?.readyState === OPEN) sendJSON({ type: 'subscribe', project, from });
      else connect();
    },
    unfollow() {
      if (followed) sendJSON({ type: 'unsubscribe', project: followed.project });
      followed = null;
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      socket?.close();
      socket = null;
    },
  };
}
