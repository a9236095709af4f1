import type { Country } from '../api/types';

// Codes the product uses that are not the ISO 3166 code of the flag.
const FLAG_CODE: Record<string, string> = { UK: 'GB', EL: 'GR' };

/** The flag emoji for an ISO 3166-1 alpha-2 code, or '' when the code names no region. */
export function flagEmoji(isoCode: string, regionNames?: Intl.DisplayNames): string {
  const upper = isoCode.toUpperCase();
  const code = FLAG_CODE[upper] ?? upper;
  if (!/^[A-Z]{2}$/.test(code)) return '';
  // An unknown code would render as two boxed letters, which reads like a glitch.
  if (regionNames && safeRegionName(regionNames, code) === undefined) return '';
  return String.fromCodePoint(...[...code].map((letter) => 0x1f1e6 + letter.charCodeAt(0) - 65));
}

export interface CountryOption {
  isoCode: string;
  label: string;
}

/** Country names in the interface language where the browser knows them, sorted for that language. */
export function countryOptions(countries: readonly Country[], locale: string): CountryOption[] {
  const regionNames = makeRegionNames(locale);
  const collator = new Intl.Collator(locale);
  return countries
    .map((country) => {
      const code = FLAG_CODE[country.iso_code.toUpperCase()] ?? country.iso_code.toUpperCase();
      const name = (regionNames && safeRegionName(regionNames, code)) ?? country.name;
      const flag = flagEmoji(country.iso_code, regionNames);
      return { isoCode: country.iso_code, name, label: flag ? `${flag} ${name}` : name };
    })
    .sort((a, b) => collator.compare(a.name, b.name))
    .map(({ isoCode, label }) => ({ isoCode, label }));
}

function makeRegionNames(locale: string): Intl.DisplayNames | undefined {
  try {
    return new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
  } catch {
    return undefined;
  }
}

function safeRegionName(names: Intl.DisplayNames, code: string): string | undefined {
  try {
    return names.of(code) ?? undefined;
  } catch {
    return undefined;
  }
}
