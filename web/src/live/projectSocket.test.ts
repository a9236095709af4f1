import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '../api/projectTypes';
import { liveURL, openLiveStream, type SocketLike } from './projectSocket';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: unknown[] = [];
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
    this.onclose?.({});
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
}

const event = (version: number, project = 'p1'): LiveEvent => ({
  type: 'event', project, version, event_type: 'project.run_renamed', data: {}, author: 'u', time: '', runs: {}, order: [],
});

describe('live stream', () => {
  let sockets: FakeSocket[];
  const createSocket = (url: string) => {
    const socket = new FakeSocket(url);
    sockets.push(socket);
    return socket;
  };

  beforeEach(() => {
    sockets = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('builds the address from the page', () => {
    expect(liveURL({ protocol: 'https:', host: 'example.org' })).toBe('wss://example.org/api/ws');
    expect(liveURL({ protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/api/ws');
  });

  it('subscribes once open and passes on the project’s events in order, once each', () => {
    const events: number[] = [];
    const stream = openLiveStream({ onEvent: (e) => events.push(e.version) }, { url: 'ws://x/api/ws', createSocket });
    stream.follow('p1', 4);
    const socket = sockets[0]!;
    socket.open();
    expect(socket.sent).toEqual([{ type: 'subscribe', project: 'p1', from: 4 }]);
    socket.receive(event(5));
    socket.receive(event(5));
    socket.receive(event(4));
    socket.receive(event(6, 'other'));
    socket.receive(event(6));
    expect(events).toEqual([5, 6]);
  });

  it('reconnects after a drop and resumes from the last version seen', () => {
    const stream = openLiveStream({ onEvent: () => undefined }, { url: 'ws://x/api/ws', createSocket, retryDelays: [100, 200] });
    stream.follow('p1', 1);
    sockets[0]!.open();
    sockets[0]!.receive(event(2));
    sockets[0]!.receive(event(3));
    sockets[0]!.drop();
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(sockets).toHaveLength(2);
    sockets[1]!.drop();
    vi.advanceTimersByTime(199);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    sockets[2]!.open();
    expect(sockets[2]!.sent).toEqual([{ type: 'subscribe', project: 'p1', from: 3 }]);
  });

  it('lets go of one project when following another', () => {
    const stream = openLiveStream({ onEvent: () => undefined }, { url: 'ws://x/api/ws', createSocket });
    stream.follow('p1', 1);
    sockets[0]!.open();
    stream.follow('p2', 7);
    expect(sockets[0]!.sent).toEqual([
      { type: 'subscribe', project: 'p1', from: 1 },
      { type: 'unsubscribe', project: 'p1' },
      { type: 'subscribe', project: 'p2', from: 7 },
    ]);
  });

  it('stays closed once closed', () => {
    const stream = openLiveStream({ onEvent: () => undefined }, { url: 'ws://x/api/ws', createSocket });
    stream.follow('p1', 1);
    sockets[0]!.open();
    stream.close();
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(1);
  });
});
