import { useTranslation } from 'react-i18next';
import { PRODUCT_NAME } from '../components/Brand';

export function SplashScreen() {
  const { t } = useTranslation();
  return (
    <div className="splash" role="status" aria-live="polite">
      <div className="splash__spinner" aria-hidden="true" />
      <p>
        <strong>{PRODUCT_NAME}</strong>
        <br />
        {t('session.checking')}
      </p>
    </div>
  );
}

/** Stands in for a screen whose code is still on its way. */
export function LoadingPanel() {
  const { t } = useTranslation();
  return (
    <div className="loading-panel" role="status" aria-live="polite">
      <div className="splash__spinner" aria-hidden="true" />
      <p>{t('app.loading')}</p>
    </div>
  );
}
