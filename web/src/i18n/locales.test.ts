import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './languages';

// Read from disk, as the Go server does through web.Locales, not through the bundler.
const dir = join(import.meta.dirname, '../../locales');
const load = (code: string) => JSON.parse(readFileSync(join(dir, `${code}.json`), 'utf8')) as Record<string, unknown>;
const en = load('en');
const enKeys = Object.keys(en).sort();
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)].map((m) => m[1]).sort();

describe('message catalogues', () => {
  it('exist for exactly the eleven interface languages', () => {
    const files = readdirSync(dir).filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -5));
    expect(files.sort()).toEqual(LANGUAGES.map((language) => language.code).sort());
  });

  it('are flat objects of strings', () => {
    for (const { code } of LANGUAGES) {
      for (const [key, value] of Object.entries(load(code))) {
        expect(typeof value, `${code}: ${key}`).toBe('string');
      }
    }
  });

  for (const { code } of LANGUAGES) {
    describe(code, () => {
      const catalogue = load(code) as Record<string, string>;

      it('has exactly the keys of en', () => {
        expect(Object.keys(catalogue).sort()).toEqual(enKeys);
      });

      it('translates every key (no value is empty or equal to its key)', () => {
        for (const [key, value] of Object.entries(catalogue)) {
          expect(value.trim(), `${code}: ${key}`).not.toBe('');
          expect(value, `${code}: ${key}`).not.toBe(key);
        }
      });

      it('keeps the placeholders of en, written {{name}}', () => {
        for (const [key, value] of Object.entries(catalogue)) {
          expect(placeholders(value), `${code}: ${key}`).toEqual(placeholders(String(en[key])));
          // go-i18n's own {{.name}} form is made from these on the server; it must not appear here.
          expect(value, `${code}: ${key}`).not.toMatch(/\{\{\s*\./);
          for (const name of placeholders(value)) expect(name, `${code}: ${key}`).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
        }
      });
    });
  }
});
