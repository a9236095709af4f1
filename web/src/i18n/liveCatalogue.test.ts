import { describe, expect, it } from 'vitest';
import { createI18n } from './i18n';
import { startLiveCatalogue } from './liveCatalogue';

function fakeServer() {
  const state = { revisions: { de: 0, en: 0 } as Record<string, number>, de: {} as Record<string, string>, fetched: [] as string[] };
  const fetchFn = (async (input: RequestInfo | URL) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    state.fetched.push(url);
    if (url === '/api/locales/') return new Response(JSON.stringify({ revisions: state.revisions }));
    if (url === '/api/locales/de.json') return new Response(JSON.stringify(state.de));
    return new Response('{}', { status: 404 });
  }) as typeof fetch;
  return { state, fetchFn };
}

describe('live catalogue', () => {
  it('loads a language over the bundle only when its revision moves', async () => {
    const server = fakeServer();
    const i18n = createI18n('de');
    const shipped = i18n.t('nav.home');
    const live = startLiveCatalogue(i18n, { fetchFn: server.fetchFn, intervalMs: 3_600_000 });
    await live.check();
    expect(server.state.fetched).not.toContain('/api/locales/de.json');
    expect(i18n.t('nav.home')).toBe(shipped);

    server.state.revisions.de = 1;
    server.state.de = { 'nav.home': 'Zur Startseite' };
    await live.check();
    expect(i18n.t('nav.home')).toBe('Zur Startseite');
    // Other keys keep their bundled texts.
    expect(i18n.t('nav.logout')).not.toBe('nav.logout');

    // The same revision again: no second download.
    const before = server.state.fetched.filter((u) => u.endsWith('de.json')).length;
    await live.check();
    expect(server.state.fetched.filter((u) => u.endsWith('de.json')).length).toBe(before);
    live.stop();
  });
});
