import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, fromBrowserLanguage, isLanguageCode, toBcp47, type LanguageCode } from './languages';

type Catalogue = Record<string, string>;

// All catalogues are bundled: they are small, and the language can switch at
// once without a round trip. The same files feed the Go server's go-i18n.
const modules = import.meta.glob<Catalogue>('../../locales/*.json', {
  eager: true,
  import: 'default',
});

export const catalogues: Record<string, Catalogue> = Object.fromEntries(
  Object.entries(modules).map(([path, catalogue]) => [
    path.replace(/^.*\/([a-z]+)\.json$/, '$1'),
    catalogue,
  ]),
);

const LANGUAGE_KEY = 'draindesign.language';

/** The language for a visitor nobody has signed in as yet. */
export function initialLanguage(storedUserLanguage: string | undefined): LanguageCode {
  if (storedUserLanguage && isLanguageCode(storedUserLanguage)) return storedUserLanguage;
  const remembered = safeStorage()?.getItem(LANGUAGE_KEY);
  if (remembered && isLanguageCode(remembered)) return remembered;
  for (const tag of globalThis.navigator?.languages ?? []) {
    const code = fromBrowserLanguage(tag);
    if (code) return code;
  }
  return FALLBACK_LANGUAGE;
}

export function createI18n(language: LanguageCode): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources: Object.fromEntries(
      Object.entries(catalogues).map(([code, catalogue]) => [code, { translation: catalogue }]),
    ),
    lng: language,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: Object.keys(catalogues),
    // Keys are flat strings with dots ("login.title"), shared verbatim with go-i18n.
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
    // A translator's change loaded over the bundle (liveCatalogue) re-renders the screens.
    react: { bindI18nStore: 'added' },
  });
  instance.on('languageChanged', (code) => {
    if (isLanguageCode(code)) {
      document.documentElement.lang = toBcp47(code);
      safeStorage()?.setItem(LANGUAGE_KEY, code);
    }
  });
  document.documentElement.lang = toBcp47(language);
  return instance;
}

/** Switches the interface language; unknown codes fall back to English. */
export function applyLanguage(instance: I18n, code: string): void {
  const language = isLanguageCode(code) ? code : FALLBACK_LANGUAGE;
  if (instance.language !== language) void instance.changeLanguage(language);
}

function safeStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
