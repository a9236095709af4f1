import { describe, expect, it } from 'vitest';
import { fakeFetch } from '../test/fakes';
import { createDrainageApi, createProjectApi } from './endpoints';
import type { SavePayload } from './projectTypes';
import { ApiError, createHttp, NetworkError, type Method, type SendOptions } from './http';

describe('createHttp', () => {
  it('sends JSON to /api with the session cookie and the interface language', async () => {
    const fake = fakeFetch(() => ({ status: 200, body: { ok: true } }));
    const send = createHttp({ fetchFn: fake.fetchFn, language: () => 'sr-Latn' });
    await expect(send('PATCH', '/drainage/user_settings/', { language: 'rs' })).resolves.toEqual({ ok: true });
    const [call] = fake.calls;
    expect(call?.path).toBe('/drainage/user_settings/');
    expect(call?.init.credentials).toBe('include');
    const headers = new Headers(call?.init.headers);
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('Accept-Language')).toBe('sr-Latn');
    expect(call?.body).toEqual({ language: 'rs' });
  });

  it('marks bodiless writes as JSON too, and sends no body', async () => {
    const fake = fakeFetch(() => ({ status: 204 }));
    await expect(createHttp({ fetchFn: fake.fetchFn })('POST', '/auth/logout/')).resolves.toBeNull();
    expect(fake.calls[0]?.init.body).toBeUndefined();
    expect(new Headers(fake.calls[0]?.init.headers).get('Content-Type')).toBe('application/json');
  });

  it('turns an error status into ApiError carrying the parsed body', async () => {
    const fake = fakeFetch(() => ({ status: 400, body: { email: ['Enter a valid email address.'] } }));
    const error = await createHttp({ fetchFn: fake.fetchFn })('POST', '/auth/password/reset/', { email: 'x' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, body: { email: ['Enter a valid email address.'] } });
  });

  it('turns a failed connection into NetworkError', async () => {
    const send = createHttp({ fetchFn: async () => Promise.reject(new TypeError('Failed to fetch')) });
    await expect(send('GET', '/auth/me/')).rejects.toBeInstanceOf(NetworkError);
  });
});

// An instance stopped while a request was on its way: the balancer answers
// 502, or the connection drops unanswered. A repeatable request goes once
// more (to another instance), up to twice; nothing else is repeated.
describe('createHttp after a failover', () => {
  // fetch answers in turn: a status, or 'drop' for a connection lost unanswered.
  function turns(...answers: (number | 'drop')[]) {
    const fake = fakeFetch(() => ({ status: 200, body: { ok: true } }));
    let n = 0;
    const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const answer = answers[Math.min(n++, answers.length - 1)];
      if (answer === 'drop') throw new TypeError('Failed to fetch');
      const reply = await fake.fetchFn(input, init);
      return answer === 200 ? reply : new Response(JSON.stringify({ error: 'x' }), { status: answer });
    }) as typeof fetch;
    return { send: createHttp({ fetchFn, failoverPausesMs: [1, 1] }), tries: () => n };
  }

  it.each([
    ['a dropped connection', 'drop'],
    ['a 502 from the balancer', 502],
  ] as const)('sends a repeatable request again after %s', async (_, first) => {
    const http = turns(first, 200);
    await expect(http.send('POST', '/drainage/calculate/', {}, { repeatable: true })).resolves.toEqual({ ok: true });
    expect(http.tries()).toBe(2);
  });

  it.each([
    ['not repeatable', 'drop', undefined, NetworkError],
    ['not repeatable', 502, { repeatable: false }, ApiError],
    ['an answer from the instance (500)', 500, { repeatable: true }, ApiError],
    ['an answer from the instance (409)', 409, { repeatable: true }, ApiError],
  ] as const)('does not repeat when %s', async (_, first, options: SendOptions | undefined, kind) => {
    const http = turns(first, 200);
    await expect(http.send('POST', '/drainage/save/', {}, options)).rejects.toBeInstanceOf(kind);
    expect(http.tries()).toBe(1);
  });

  it('sends a repeatable request again when the answer breaks off', async () => {
    let n = 0;
    const fetchFn = (async () => {
      n++;
      if (n > 1) return new Response('{"ok":true}', { status: 200 });
      const broken = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"ok":'));
          controller.error(new TypeError('network error'));
        },
      });
      return new Response(broken, { status: 200 });
    }) as typeof fetch;
    const send = createHttp({ fetchFn, failoverPausesMs: [1, 1] });
    await expect(send('POST', '/drainage/calculate/', {}, { repeatable: true })).resolves.toEqual({ ok: true });
    expect(n).toBe(2);
  });

  it('tries twice more at most', async () => {
    const twice = turns('drop', 502, 200);
    await expect(twice.send('POST', '/drainage/calculate/', {}, { repeatable: true })).resolves.toEqual({ ok: true });
    expect(twice.tries()).toBe(3);
    const never = turns('drop', 502, 'drop', 200);
    await expect(never.send('POST', '/drainage/calculate/', {}, { repeatable: true })).rejects.toBeInstanceOf(NetworkError);
    expect(never.tries()).toBe(3);
  });
});

describe('createHttp while the database restarts', () => {
  // fetch answers 503 with Retry-After (seconds) so many times, then 200.
  function unavailableFor(times: number, retryAfter = '0') {
    let n = 0;
    const fetchFn = (async () => {
      n++;
      if (n > times) return new Response('{"ok":true}', { status: 200 });
      return new Response(JSON.stringify({ error: 'The server cannot reach its database at the moment.' }), {
        status: 503,
        headers: { 'Retry-After': retryAfter },
      });
    }) as typeof fetch;
    const waits: boolean[] = [];
    const send = createHttp({ fetchFn, unavailableBudgetMs: 2000, onWaiting: (waiting) => waits.push(waiting) });
    return { send, tries: () => n, waits };
  }

  it('sends a repeatable request again after Retry-After until it is answered, telling the screen it waits', async () => {
    const http = unavailableFor(2);
    await expect(http.send('POST', '/projects/p1/commands', {}, { repeatable: true })).resolves.toEqual({ ok: true });
    expect(http.tries()).toBe(3);
    expect(http.waits).toEqual([true, false]);
  });

  it('gives up with the 503 once the budget is spent, and stops waiting on screen', async () => {
    // Each pause is at least 500 ms: a budget of 2 s allows four.
    const http = unavailableFor(10);
    const error = await http.send('POST', '/drainage/calculate/', {}, { repeatable: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, retryAfterMs: 0 });
    expect(http.tries()).toBe(5);
    expect(http.waits).toEqual([true, false]);
  });

  it('once waiting, waits out a try that gets no answer too (the balancer resets a large save)', async () => {
    const answers: (number | 'drop')[] = [503, 'drop', 'drop', 'drop', 200];
    let n = 0;
    const fetchFn = (async () => {
      const answer = answers[n++]!;
      if (answer === 'drop') throw new TypeError('Failed to fetch');
      return new Response(answer === 200 ? '{"ok":true}' : '{"error":"x"}', { status: answer, headers: { 'Retry-After': '0' } });
    }) as typeof fetch;
    const waits: boolean[] = [];
    const send = createHttp({ fetchFn, failoverPausesMs: [1, 1], unavailableBudgetMs: 5000, onWaiting: (waiting) => waits.push(waiting) });
    await expect(send('POST', '/drainage/save/', {}, { repeatable: true })).resolves.toEqual({ ok: true });
    expect(n).toBe(5);
    expect(waits).toEqual([true, false]);
  });

  it('does not wait out a 503 for a request that must not be sent twice', async () => {
    const http = unavailableFor(1);
    await expect(http.send('POST', '/projects/p1/commands', {})).rejects.toMatchObject({ status: 503 });
    expect(http.tries()).toBe(1);
    expect(http.waits).toEqual([]);
  });
});

describe('which calls are repeatable', () => {
  function recording() {
    const calls: { method: Method; path: string; repeatable: boolean }[] = [];
    const send = (async (method: Method, path: string, _body?: unknown, options?: SendOptions) => {
      calls.push({ method, path, repeatable: options?.repeatable === true });
      return null;
    }) as Parameters<typeof createProjectApi>[0];
    return { send, calls };
  }

  it('repeats calculations, edits that set values and named saves over a project; not other saves, or edits that add, remove or reset', async () => {
    const { send, calls } = recording();
    const drainage = createDrainageApi(send, send);
    const projects = createProjectApi(send);
    await drainage.calculate({});
    await drainage.calculateShared({ main: {}, second: {} });
    await drainage.calculateStorage({});
    await projects.command('p', { type: 'change_inputs', run_id: 'r', fields: {} });
    await projects.command('p', { type: 'change_notes', run_id: 'r', notes: 'n' });
    await projects.command('p', { type: 'rename_run', run_id: 'r', name: 'n' });
    await projects.command('p', { type: 'add_run' });
    await projects.command('p', { type: 'duplicate_run', run_id: 'r' });
    await projects.command('p', { type: 'remove_run', run_id: 'r' });
    await projects.command('p', { type: 'reset_run', run_id: 'r' });
    const over = { project: { saveID: 'p', version: 3, runs: [] }, share: false } as unknown as SavePayload;
    await drainage.save({ ...over, request_id: 'r1' });
    await drainage.save(over);
    await drainage.save({ ...over, project: { ...over.project, saveID: undefined }, request_id: 'r2' });
    expect(calls.map((c) => c.repeatable)).toEqual([true, true, true, true, true, true, false, false, false, false, true, false, false]);
  });
});
