import { useTranslation } from 'react-i18next';
import { isLanguageCode, toBcp47 } from '../i18n/languages';

/** Numbers in the interface language's notation, to a fixed number of decimals at most. */
export function useNumberFormat(): (value: number | null | undefined, decimals: number) => string {
  const { i18n } = useTranslation();
  const locale = isLanguageCode(i18n.language) ? toBcp47(i18n.language) : 'en';
  return (value, decimals) => {
    if (value === null || value === undefined || !Number.isFinite(value)) return '–';
    return new Intl.NumberFormat(locale, { maximumFractionDigits: decimals, minimumFractionDigits: 0 }).format(value);
  };
}
