import { describe, expect, it } from 'vitest';
import { DATE_TIME, dateLocale, formatISODate, numberLocale, parseLocalDate, todayISO } from './locale';

// 3 April 2025, 14:05 local time: day and month differ, so their order shows.
const APRIL_3 = new Date(2025, 3, 3, 14, 5);
const formatDate = (language: string, country?: { iso_code: string; region?: string } | null) =>
  new Intl.DateTimeFormat(dateLocale(language, country), DATE_TIME).format(APRIL_3);

describe('dateLocale', () => {
  it.each([
    // language, country, locale, how 3 April 2025 is written
    ['en', { iso_code: 'GB', region: 'UK' }, 'en-GB', '03/04/2025, 14:05'],
    ['en', { iso_code: 'UK', region: 'UK' }, 'en-GB', '03/04/2025, 14:05'],
    ['en', null, 'en-GB', '03/04/2025, 14:05'],
    ['en', { iso_code: 'US' }, 'en-US', '04/03/2025, 02:05 PM'],
    ['en', { iso_code: 'IE', region: 'EU' }, 'en-IE', '03/04/2025, 14:05'],
    ['de', { iso_code: 'AT', region: 'EU' }, 'de-AT', '03.04.2025, 14:05'],
    ['de', null, 'de', '03.04.2025, 14:05'],
    ['hu', { iso_code: 'HU' }, 'hu-HU', '2025. 04. 03. 14:05'],
    ['rs', { iso_code: 'RS' }, 'sr-Latn-RS', '03.04.2025. 14:05'],
  ])('%s in %j writes dates as %s', (language, country, locale, written) => {
    expect(dateLocale(language, country)).toBe(locale);
    expect(formatDate(language, country)).toBe(written);
  });

  it('keeps the language when the country is unusable', () => {
    expect(dateLocale('fr', { iso_code: '' })).toBe('fr');
    expect(dateLocale('xx', { iso_code: 'GB' })).toBe('en-GB');
  });
});

describe('numberLocale', () => {
  it("keeps the language's decimal separator whatever the country", () => {
    // en-DE would write 0,9 and de-CH 0.9: numbers ignore the country.
    expect(new Intl.NumberFormat(numberLocale('en')).format(0.9)).toBe('0.9');
    expect(new Intl.NumberFormat(numberLocale('de')).format(0.9)).toBe('0,9');
    expect(new Intl.NumberFormat(numberLocale('fr')).format(0.9)).toBe('0,9');
    expect(numberLocale('si')).toBe('sl');
  });
});

describe('todayISO', () => {
  it("gives the local calendar day, not UTC's", () => {
    expect(todayISO(new Date(2025, 0, 1, 0, 30))).toBe('2025-01-01');
    expect(todayISO(new Date(2025, 11, 31, 23, 59))).toBe('2025-12-31');
  });
});

describe('formatISODate and parseLocalDate', () => {
  it.each([
    ['en-GB', '31/12/2025'],
    ['en-US', '12/31/2025'],
    ['de', '31.12.2025'],
    ['hu-HU', '2025. 12. 31.'],
    ['nl', '31-12-2025'],
    ['sr-Latn-RS', '31.12.2025.'],
  ])('%s writes 2025-12-31 as %s and reads it back', (locale, written) => {
    expect(formatISODate('2025-12-31', locale)).toBe(written);
    expect(parseLocalDate(written, locale)).toBe('2025-12-31');
  });

  it('reads the day first in en-GB and the month first in en-US', () => {
    expect(parseLocalDate('3/4/2025', 'en-GB')).toBe('2025-04-03');
    expect(parseLocalDate('3/4/2025', 'en-US')).toBe('2025-03-04');
    expect(parseLocalDate('3.4.25', 'de')).toBe('2025-04-03');
  });

  it('takes ISO dates and empty text, and refuses what is no date', () => {
    expect(parseLocalDate('2025-04-03', 'en-GB')).toBe('2025-04-03');
    expect(parseLocalDate('  ', 'en-GB')).toBe('');
    expect(parseLocalDate('31/02/2025', 'en-GB')).toBeNull();
    expect(parseLocalDate('13/13/2025', 'en-GB')).toBeNull();
    expect(parseLocalDate('next Tuesday', 'en-GB')).toBeNull();
    expect(parseLocalDate('1/2', 'en-GB')).toBeNull();
  });

  it('leaves text that is no ISO date as it is', () => {
    expect(formatISODate('', 'en-GB')).toBe('');
    expect(formatISODate('spring 2025', 'en-GB')).toBe('spring 2025');
  });
});
