import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const COOKIE = 'draindesign_cookie_notice';
/** Spec section 9: the notice is acknowledged for 30 days. */
export const COOKIE_NOTICE_DAYS = 30;

export function cookieNoticeSeen(cookies: string = document.cookie): boolean {
  return cookies.split(';').some((part) => part.trim().startsWith(`${COOKIE}=`));
}

/** The cookie notice, until acknowledged (for 30 days). */
export function CookieNotice() {
  const { t } = useTranslation();
  const [seen, setSeen] = useState(() => cookieNoticeSeen());
  if (seen) return null;
  return (
    <div className="cookie-notice" role="region" aria-label={t('cookies.label')}>
      <p>{t('cookies.text')}</p>
      <button
        type="button"
        className="button button--primary button--small"
        onClick={() => {
          document.cookie = `${COOKIE}=1; Max-Age=${COOKIE_NOTICE_DAYS * 24 * 3600}; Path=/; SameSite=Lax`;
          setSeen(true);
        }}
      >
        {t('cookies.accept')}
      </button>
    </div>
  );
}
