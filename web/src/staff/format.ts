import { useMemo } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type en from '../../locales/en.json';
import { ApiError } from '../api/http';
import { isLanguageCode, toBcp47 } from '../i18n/languages';
import { SessionExpiredError } from '../session/authedSend';


/** The reader's formats for the staff tables: dates with time, whole numbers, measured values. */
export function useFormats() {
  const { i18n } = useTranslation();
  const locale = isLanguageCode(i18n.language) ? toBcp47(i18n.language) : 'en';
  return useMemo(
    () => ({
      locale,
      dateTime: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }),
      date: new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }),
      shortDateTime: new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' }),
      integer: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }),
      number: new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }),
      duration: new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 2 }),
    }),
    [locale],
  );
}

/** A number as the server keeps it in text ("12.5"), in the reader's format; '' stays ''. */
export function formatNumber(format: Intl.NumberFormat, value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? format.format(n) : String(value);
}

export function formatTime(format: Intl.DateTimeFormat, value: string | null | undefined): string {
  if (!value) return '';
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : format.format(time);
}

/** The server's message for a refused call, or a general one. */
export function errorText(t: TFunction, error: unknown): string {
  if (error instanceof SessionExpiredError) return t('login.sessionExpired');
  if (error instanceof ApiError) {
    const body = error.body as { error?: unknown } | null;
    if (body && typeof body.error === 'string' && error.status < 500) return body.error;
    return t('common.serverError');
  }
  return t('common.networkError');
}

type GroupKey = Extract<keyof typeof en, `staff.group.${string}`>;

/** A permission group's name in the reader's language; an unknown code as it is. */
export function groupName(t: TFunction, code: string): string {
  const key = `staff.group.${code}` as GroupKey;
  const value = t(key, { defaultValue: code });
  return value === key ? code : value;
}
