import { useTranslation } from 'react-i18next';
import { useSession } from '../app/ServicesContext';
import { dateLocale } from '../i18n/locale';

/** The locale for dates: the interface language with the signed-in user's country (i18n/locale.ts). */
export function useDateLocale(): string {
  const { i18n } = useTranslation();
  const country = useSession((s) => s.context.user?.country ?? null);
  return dateLocale(i18n.language, country);
}
