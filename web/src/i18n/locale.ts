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

const DATE_ONLY: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };
type DatePart = 'day' | 'month' | 'year';

/** A calendar date (YYYY-MM-DD) as the locale writes it, e.g. 31/12/2025 in en-GB; other text is returned as it is. */
export function formatISODate(iso: string, locale: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return iso;
  // Noon, so no time zone moves the day.
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12);
  return new Intl.DateTimeFormat(locale, DATE_ONLY).format(date);
}

/** The order the locale writes day, month and year in. */
export function datePartOrder(locale: string): DatePart[] {
  return new Intl.DateTimeFormat(locale, DATE_ONLY)
    .formatToParts(new Date(2025, 11, 31, 12))
    .map((part) => part.type)
    .filter((type): type is DatePart => type === 'day' || type === 'month' || type === 'year');
}

/**
 * A date typed the locale's way (31/12/2025, 31.12.2025, 2025. 12. 31.; any
 * separators, two-digit years in this century) as YYYY-MM-DD; '' for no
 * text, null for text that is no calendar date.
 */
export function parseLocalDate(text: string, locale: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) return validDate(trimmed.split('-').map(Number) as [number, number, number]);
  const numbers = trimmed.split(/\D+/).filter(Boolean).map(Number);
  if (numbers.length !== 3) return null;
  const value: Record<DatePart, number> = { day: 0, month: 0, year: 0 };
  datePartOrder(locale).forEach((part, index) => {
    value[part] = numbers[index] ?? 0;
  });
  if (value.year < 100) value.year += 2000;
  return validDate([value.year, value.month, value.day]);
}

function validDate([year, month, day]: [number, number, number]): string | null {
  const date = new Date(year, month - 1, day, 12);
  if (year < 1000 || date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return todayISO(date);
}
