import * as Sentry from '@sentry/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scrubEvent, sentryOptions, startErrorReporting } from './errorReporting';

function answering(body: unknown, status = 200): typeof fetch {
  return vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status }))) as unknown as typeof fetch;
}

describe('startErrorReporting', () => {
  afterEach(async () => {
    await Sentry.close();
  });

  it('stays off when the server names no tracker or cannot be asked', async () => {
    const load = vi.fn(() => Promise.resolve(Sentry));
    expect(await startErrorReporting(answering({ sentryDsn: '', sentryEnvironment: '' }), load)).toBe(false);
    expect(await startErrorReporting(answering({ error: 'x' }, 500), load)).toBe(false);
    expect(await startErrorReporting(vi.fn(() => Promise.reject(new TypeError('offline'))) as unknown as typeof fetch, load)).toBe(false);
    // Not even loaded: the SDK's code stays off the page.
    expect(load).not.toHaveBeenCalled();
  });

  it('starts with the spec’s settings when the server names a tracker', async () => {
    const init = vi.fn();
    const fetchFn = answering({ sentryDsn: 'https://pub@tracker.example/7', sentryEnvironment: 'production' });
    expect(await startErrorReporting(fetchFn, () => Promise.resolve({ init, browserTracingIntegration: Sentry.browserTracingIntegration }))).toBe(true);
    expect(fetchFn).toHaveBeenCalledWith('/api/client-config/', expect.anything());
    expect(init).toHaveBeenCalledWith(
      expect.objectContaining({
        dsn: 'https://pub@tracker.example/7',
        environment: 'production',
        tracesSampleRate: 1,
        attachStacktrace: true,
        normalizeDepth: 5,
      }),
    );
  });

  it('sends an error with its stack and without personal data', async () => {
    const sent: string[] = [];
    const transport = () => ({
      send: (envelope: unknown) => {
        sent.push(JSON.stringify(envelope));
        return Promise.resolve({});
      },
      flush: () => Promise.resolve(true),
    });
    Sentry.init({ ...sentryOptions(Sentry, { sentryDsn: 'https://pub@tracker.example/7', sentryEnvironment: 'test' }), transport, integrations: [] });
    Sentry.setUser({ email: 'alice.designer@example.com', username: 'Alice' });
    Sentry.captureException(new Error('saving settings of alice.designer@example.com failed'));
    await Sentry.flush(2000);
    const payload = sent.join('\n');
    expect(payload).toContain('saving settings of [email] failed');
    expect(payload).toContain('"stacktrace"');
    expect(payload).not.toContain('alice.designer');
    expect(payload).not.toContain('Alice');
  });
});

describe('scrubEvent', () => {
  it('takes out the user, cookies, bodies, query strings, credentials and e-mail addresses', () => {
    const event = scrubEvent({
      type: undefined,
      user: { email: 'bob@example.org' },
      message: 'reset for bob@example.org',
      request: {
        url: 'https://drains.example/reset?token=abc&email=bob@example.org',
        cookies: { session: 'secret' },
        data: '{"password":"hunter2"}',
        query_string: 'token=abc',
        headers: { Authorization: 'Bearer tok', Cookie: 'session=secret', 'User-Agent': 'test' },
      },
      exception: { values: [{ type: 'Error', value: 'no account bob@example.org' }] },
      breadcrumbs: [{ category: 'fetch', data: { url: '/api/auth/login/?next=x', method: 'POST', body: '{"password":"hunter2"}' } }],
    });
    const text = JSON.stringify(event);
    for (const secret of ['bob@example.org', 'secret', 'hunter2', 'Bearer tok', 'token=abc']) expect(text).not.toContain(secret);
    expect(event.request?.url).toBe('https://drains.example/reset');
    expect(event.request?.headers).toEqual({ 'User-Agent': 'test' });
    expect(event.exception?.values?.[0]?.value).toBe('no account [email]');
    expect(event.breadcrumbs?.[0]?.data).toEqual({ url: '/api/auth/login/', method: 'POST', status_code: undefined });
  });
});
