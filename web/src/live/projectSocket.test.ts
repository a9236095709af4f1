import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveProject } from '../api/projectTypes';
import { emptyDetails } from '../design/types';
import { liveURL, openLiveStream, SESSION_ENDED, type LiveHandlers, type SocketLike } from './projectSocket';

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
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

const view = (version: number, project = 'p1'): LiveProject => ({
  type: 'project', project, version,
  view: {
    id: project, owner: 'ada', editable: true, details: emptyDetails(), rainfall_units: 'mm/h', default_rainfall: null, notes: '',
    created: '', saved: true, deleted: false, runs: [],
  },
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

  const quiet = (more: Partial<LiveHandlers> = {}): LiveHandlers => ({ onView: () => undefined, ...more });

  it('passes on that the products offered changed, whatever project is followed', () => {
    const changed = vi.fn();
    const views = vi.fn();
    const stream = openLiveStream({ onView: views, onCatalogue: changed }, { url: 'ws://x/api/ws', createSocket });
    stream.follow({ project: 'p1' }, 1);
    const socket = sockets[0]!;
    socket.open();
    socket.receive({ type: 'catalogue', country: 'GB' });
    expect(changed).toHaveBeenCalledTimes(1);
    expect(views).not.toHaveBeenCalled();
    stream.close();
  });

  it('subscribes once open and passes on the project’s views, newer ones only', () => {
    const versions: number[] = [];
    const stream = openLiveStream({ onView: (m) => versions.push(m.version) }, { url: 'ws://x/api/ws', createSocket });
    stream.follow({ project: 'p1' }, 4);
    const socket = sockets[0]!;
    socket.open();
    expect(socket.sent).toEqual([{ type: 'subscribe', project: 'p1', from: 4 }]);
    socket.receive(view(5));
    socket.receive(view(5));
    socket.receive(view(4));
    socket.receive(view(9, 'other'));
    socket.receive(view(8));
    socket.receive(view(7));
    expect(versions).toEqual([5, 8]);
  });

  it('follows a shared project by its share id', () => {
    const versions: number[] = [];
    const stream = openLiveStream({ onView: (m) => versions.push(m.version) }, { url: 'ws://x/api/ws', createSocket });
    stream.follow({ project: 'p1', share: 's1' }, 2);
    sockets[0]!.open();
    expect(sockets[0]!.sent).toEqual([{ type: 'subscribe', share: 's1', from: 2 }]);
    sockets[0]!.receive(view(3));
    expect(versions).toEqual([3]);
  });

  it('reconnects after a drop and resumes from the last version seen', () => {
    const stream = openLiveStream(quiet(), { url: 'ws://x/api/ws', createSocket, retryDelays: [100, 200] });
    stream.follow({ project: 'p1' }, 1);
    sockets[0]!.open();
    sockets[0]!.receive(view(2));
    sockets[0]!.receive(view(3));
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

  it('stops following a project the server closed, and does not reconnect for it', () => {
    const closed: unknown[] = [];
    const versions: number[] = [];
    const stream = openLiveStream(
      { onView: (m) => versions.push(m.version), onClosed: (project, reason) => closed.push([project, reason]) },
      { url: 'ws://x/api/ws', createSocket, retryDelays: [100] },
    );
    stream.follow({ project: 'p1', share: 's1' }, 1);
    sockets[0]!.open();
    sockets[0]!.receive({ type: 'closed', project: 'other', reason: 'deleted' });
    sockets[0]!.receive({ type: 'closed', project: 'p1', reason: 'no_access' });
    sockets[0]!.receive(view(2));
    expect(closed).toEqual([['p1', 'no_access']]);
    expect(versions).toEqual([]);
    sockets[0]!.drop();
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(1);
  });

  it('takes a refusal as not found for the followed project as closed, and retries after a server fault', () => {
    const closed: unknown[] = [];
    const stream = openLiveStream(quiet({ onClosed: (project, reason) => closed.push([project, reason]) }), {
      url: 'ws://x/api/ws', createSocket, retryDelays: [100],
    });
    stream.follow({ project: 'p1', share: 's1' }, 1);
    const socket = sockets[0]!;
    socket.open();
    socket.receive({ type: 'error', share: 's1', code: 'server', error: 'Server error, try again later' });
    expect(closed).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(socket.sent).toEqual([
      { type: 'subscribe', share: 's1', from: 1 },
      { type: 'subscribe', share: 's1', from: 1 },
    ]);
    socket.receive({ type: 'error', project: 'p1', code: 'not_found', error: 'not found' }); // not how p1 was asked for
    expect(closed).toEqual([]);
    socket.receive({ type: 'error', share: 's1', code: 'not_found', error: 'not found' });
    expect(closed).toEqual([['p1', 'no_access']]);
  });

  it('waits after the session ended until resumed, then subscribes again from the last version', () => {
    let ended = 0;
    const statuses: boolean[] = [];
    const stream = openLiveStream(quiet({ onSessionEnded: () => ended++, onStatus: (up) => statuses.push(up) }), {
      url: 'ws://x/api/ws', createSocket, retryDelays: [100],
    });
    stream.follow({ project: 'p1' }, 1);
    sockets[0]!.open();
    sockets[0]!.receive(view(4));
    sockets[0]!.receive({ type: 'closed', reason: 'session' });
    sockets[0]!.drop(SESSION_ENDED);
    expect(ended).toBe(1);
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(1);
    stream.resume();
    expect(sockets).toHaveLength(2);
    sockets[1]!.open();
    expect(sockets[1]!.sent).toEqual([{ type: 'subscribe', project: 'p1', from: 4 }]);
    expect(statuses).toEqual([true, false, true]);
  });

  it('also takes the close code alone as the end of the session', () => {
    let ended = 0;
    const stream = openLiveStream(quiet({ onSessionEnded: () => ended++ }), { url: 'ws://x/api/ws', createSocket, retryDelays: [100] });
    stream.follow({ project: 'p1' }, 1);
    sockets[0]!.open();
    sockets[0]!.drop(SESSION_ENDED);
    vi.advanceTimersByTime(10_000);
    expect(ended).toBe(1);
    expect(sockets).toHaveLength(1);
  });

  it('lets go of one project when following another', () => {
    const stream = openLiveStream(quiet(), { url: 'ws://x/api/ws', createSocket });
    stream.follow({ project: 'p1' }, 1);
    sockets[0]!.open();
    stream.follow({ project: 'p2' }, 7);
    expect(sockets[0]!.sent).toEqual([
      { type: 'subscribe', project: 'p1', from: 1 },
      { type: 'unsubscribe', project: 'p1' },
      { type: 'subscribe', project: 'p2', from: 7 },
    ]);
  });

  it('stays closed once closed', () => {
    const stream = openLiveStream(quiet(), { url: 'ws://x/api/ws', createSocket });
    stream.follow({ project: 'p1' }, 1);
    sockets[0]!.open();
    stream.close();
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(1);
  });
});
