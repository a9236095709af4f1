import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { TextRow, TranslationApi } from './api';
import { editorMachine, isMissing, visibleRows } from './editorMachine';
import { fillPlaceholders } from './preview';
import { mayTranslate, startLanguage } from './rights';

const row = (key: string, english: string, text: string, extra: Partial<TextRow> = {}): TextRow => ({
  key,
  english,
  text,
  shipped: text,
  overridden: false,
  stale: false,
  placeholders: [],
  ...extra,
});

const rows = [
  row('nav.home', 'Home', 'Startseite'),
  row('nav.logout', 'Log out', 'Log out'),
  row('login.title', 'Log in', '', {}),
  row('runs.defaultName', 'Run {{n}}', 'Strecke {{n}}', { overridden: true, by_name: 'tina' }),
  row('common.ok', 'OK', 'OK'),
  row('documents.pdf.title', 'Report', 'Bericht', { stale: true }),
];

describe('translation grid filters', () => {
  it('finds missing texts: empty, or the English words unchanged (not a short code such as OK)', () => {
    expect(rows.filter((r) => isMissing(r, 'de')).map((r) => r.key)).toEqual(['nav.logout', 'login.title']);
    expect(isMissing(rows[1]!, 'en')).toBe(false);
  });

  it('filters by state and searches keys and both texts', () => {
    const keys = (filter: Parameters<typeof visibleRows>[2], search = '') => visibleRows(rows, 'de', filter, search).map((r) => r.key);
    expect(keys('stale')).toEqual(['documents.pdf.title']);
    expect(keys('changed')).toEqual(['runs.defaultName']);
    expect(keys('all', 'startseite')).toEqual(['nav.home']);
    expect(keys('all', 'RUN')).toEqual(['runs.defaultName']);
    expect(keys('missing', 'log')).toEqual(['nav.logout', 'login.title']);
  });
});

describe('translation editor machine', () => {
  function fakeApi(refuse: string | null) {
    const calls: string[] = [];
    const api = {
      texts: async () => ({ language: 'de', kind: 'message', plural_forms: ['one', 'other'], revision: calls.length, rows }),
      set: async (_kind: string, language: string, key: string, text: string) => {
        calls.push(`${language} ${key}=${text}`);
        if (refuse) throw Object.assign(new Error('HTTP 400'), { status: 400, body: { error: refuse } });
        return { revision: 1 };
      },
    } as unknown as TranslationApi;
    return { api, calls };
  }

  it('keeps only the keys of its scope, saves an edit and reloads', async () => {
    const { api, calls } = fakeApi(null);
    let changed = 0;
    const actor = createActor(editorMachine, {
      input: { api, kind: 'message', language: 'de', scope: (k) => !k.startsWith('documents.'), onChanged: () => changed++ },
    }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.rows.map((r) => r.key)).not.toContain('documents.pdf.title');
    actor.send({ type: 'EDIT', key: 'nav.home', text: 'Zur Startseite' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(calls).toEqual(['de nav.home=Zur Startseite']);
    expect(changed).toBe(1);
    expect(actor.getSnapshot().context.notice).toEqual({ key: 'translate.saved', values: { key: 'nav.home' } });
  });

  it('shows the server\'s refusal and tells nobody of a change', async () => {
    const { api } = fakeApi('The text must keep the placeholders of the English text: {{n}} missing');
    let changed = 0;
    const actor = createActor(editorMachine, { input: { api, kind: 'message', language: 'de', scope: () => true, onChanged: () => changed++ } }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'EDIT', key: 'runs.defaultName', text: 'Lauf' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toMatch(/\{\{n\}\} missing/);
    expect(changed).toBe(0);
  });
});

describe('translator helpers', () => {
  it('fills placeholders with sample values and names unknown ones', () => {
    expect(fillPlaceholders('Run {{n}} of {{ count }} in {{mystery}}')).toBe('Run 1 of 3 in ‹mystery›');
  });
  it('starts in the translator\'s own language unless it is English', () => {
    expect(startLanguage('fr')).toBe('fr');
    expect(startLanguage('en')).toBe('de');
    expect(startLanguage(undefined)).toBe('de');
  });
  it('lets translators and administrators in', () => {
    expect(mayTranslate({ is_translator: true })).toBe(true);
    expect(mayTranslate({ is_admin: true })).toBe(true);
    expect(mayTranslate({})).toBe(false);
    expect(mayTranslate(null)).toBe(false);
  });
});
