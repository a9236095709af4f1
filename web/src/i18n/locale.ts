// Which Intl locale formats what. Dates follow the user's language AND
// country (an English user in the UK reads 03/04/2025 as 3 April, one in the
// US as 4 March); numbers follow the language alone, so a decimal separator
// never changes with the country (CLDR's en-DE, for one, writes 0,9).
import type { Country } from '../api/types';
import { FALLBACK_LANGUAGE, isLanguageCode, toBcp47 } from './languages';

/** The user's country as a BCP 47 region subtag, or null. */
function regionOf(country: Pick<Country, 'iso_code' | 'region'> | null | undefined): string | null {
  const code = country?.iso_code?.toUpperCase() ?? '';
  // "UK" is reserved in ISO 3166 for GB; some lists still use it.
  if (code === 'UK') return 'GB';
  if (/^[A-Z]{2}$/.test(code)) return code;
  return country?.region === 'UK' ? 'GB' : null;
}

/** The locale numbers are written in: the interface language's. */
export function numberLocale(language: string): string {
  return toBcp47(isLanguageCode(language) ? language : FALLBACK_LANGUAGE);
}

/**
 * The locale dates are written in: the interface language with the user's
 * country as region (en + GB gives en-GB, de + AT gives de-AT). English with
 * no known country is British: the product's English is British English, and
 * Intl's bare "en" would write American month-first dates.
 */
export function dateLocale(language: string, country?: Pick<Country, 'iso_code' | 'region'> | null): string {
  const base = numberLocale(language);
  const region = regionOf(country) ?? (base === 'en' ? 'GB' : null);
  if (!region) return base;
  const tag = `${base}-${region}`;
  try {
    // Intl falls back to the language for pairs CLDR has no data for (bg-GB
    // is written as bg), so a supported tag is never worse than the base.
    return Intl.DateTimeFormat.supportedLocalesOf([tag]).length > 0 ? tag : base;
  } catch {
    return base;
  }
}

/** Day, month, year and time as digits, in the order the user's locale writes them. */
export const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
};

/** Today's date as YYYY-MM-DD in the user's own time zone (toISOString would give UTC's). */
export function todayISO(now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
