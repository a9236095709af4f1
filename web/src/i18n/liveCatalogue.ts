import type { i18n as I18n } from 'i18next';
import { API_BASE } from '../api/http';

/**
 * Keeps the bundled catalogues in step with the translators' changes: the
 * server's merged catalogue of a language (shipped texts with the overrides
 * over them) is loaded over the bundled one whenever its revision moves,
 * which the client learns by polling the revisions. A language nobody has
 * changed (revision 0) is never fetched: the bundle is already right.
 */
export interface LiveCatalogue {
  /** Polls now and loads the current language if it moved. */
  check(): Promise<void>;
  stop(): void;
}

export interface LiveCatalogueOptions {
  fetchFn?: typeof fetch;
  intervalMs?: number;
}

export function startLiveCatalogue(i18n: I18n, options: LiveCatalogueOptions = {}): LiveCatalogue {
  const fetchFn = options.fetchFn ?? ((input, init) => globalThis.fetch(input, init));
  const intervalMs = options.intervalMs ?? 10_000;
  let revisions: Record<string, number> = {};
  const loaded: Record<string, number> = {};
  let stopped = false;

  async function load(language: string): Promise<void> {
    const revision = revisions[language] ?? 0;
    if ((loaded[language] ?? 0) === revision) return;
    const response = await fetchFn(`${API_BASE}/locales/${language}.json`, { credentials: 'include', headers: { Accept: 'application/json' } });
    if (!response.ok) return;
    const texts = (await response.json()) as Record<string, string>;
    // Deep and overwrite: every key is replaced, and 'added' re-renders the screens.
    i18n.addResourceBundle(language, 'translation', texts, true, true);
    loaded[language] = revision;
  }

  async function check(): Promise<void> {
    if (stopped) return;
    try {
      const response = await fetchFn(`${API_BASE}/locales/`, { credentials: 'include', headers: { Accept: 'application/json' } });
      if (!response.ok) return;
      revisions = ((await response.json()) as { revisions: Record<string, number> }).revisions;
      await load(i18n.language);
      // English is every language's fallback: a change there shows too.
      if (i18n.language !== 'en') await load('en');
    } catch {
      // Offline for a moment: the next poll tries again.
    }
  }

  const onLanguage = () => void check();
  i18n.on('languageChanged', onLanguage);
  const timer = setInterval(() => {
    if (globalThis.document?.visibilityState !== 'hidden') void check();
  }, intervalMs);
  void check();

  return {
    check,
    stop() {
      stopped = true;
      clearInterval(timer);
      i18n.off('languageChanged', onLanguage);
    },
  };
}
