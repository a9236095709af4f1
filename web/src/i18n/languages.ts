/** Interface languages, by the codes the server stores on the user. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'bg', name: 'Български' },
  { code: 'de', name: 'Deutsch' },
  { code: 'fr', name: 'Français' },
  { code: 'hr', name: 'Hrvatski' },
  { code: 'it', name: 'Italiano' },
  { code: 'hu', name: 'Magyar' },
  { code: 'nl', name: 'Nederlands' },
  { code: 'pl', name: 'Polski' },
  { code: 'rs', name: 'Srpski' },
  { code: 'si', name: 'Slovenščina' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

export const FALLBACK_LANGUAGE: LanguageCode = 'en';

const CODES: ReadonlySet<string> = new Set(LANGUAGES.map((language) => language.code));

export function isLanguageCode(value: string): value is LanguageCode {
  return CODES.has(value);
}

// The product's codes rs and si are country codes; browsers and Intl speak
// the language codes sr and sl.
const TO_BCP47: Record<LanguageCode, string> = {
  en: 'en',
  bg: 'bg',
  de: 'de',
  fr: 'fr',
  hr: 'hr',
  it: 'it',
  hu: 'hu',
  nl: 'nl',
  pl: 'pl',
  rs: 'sr-Latn',
  si: 'sl',
};

export function toBcp47(code: LanguageCode): string {
  return TO_BCP47[code];
}

/** Picks the product language closest to a browser language tag, if any. */
export function fromBrowserLanguage(tag: string): LanguageCode | null {
  const primary = tag.toLowerCase().split('-')[0] ?? '';
  if (primary === 'sr') return 'rs';
  if (primary === 'sl') return 'si';
  return isLanguageCode(primary) ? primary : null;
}
