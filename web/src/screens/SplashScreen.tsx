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
