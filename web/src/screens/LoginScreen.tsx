import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { useLocation } from '../router/history';
import { LoginPanel } from './LoginPanel';

/** One-off notices other pages leave for the login page through history state. */
export interface LoginPageState {
  notice?: 'passwordChanged';
  openReset?: boolean;
}

export function LoginScreen() {
  const { t } = useTranslation();
  const { state } = useLocation();
  const pageState = (state ?? {}) as LoginPageState;
  useDocumentTitle(t('login.title'));
  return (
    <div className="login-layout">
      <ProductAdvert />
      <LoginPanel notice={pageState.notice} openReset={pageState.openReset === true} />
    </div>
  );
}

function ProductAdvert() {
  const { t } = useTranslation();
  return (
    <section className="advert" aria-labelledby="advert-title">
      <h1 id="advert-title">{t('advert.title')}</h1>
      <p className="advert__lead">{t('advert.threeClicks')}</p>
      <p>{t('advert.description')}</p>
      <ul className="advert__points">
        <li>{t('advert.validated')}</li>
        <li>{t('advert.secure')}</li>
        <li>{t('advert.devices')}</li>
      </ul>
      <p className="advert__contact">{t('advert.contact')}</p>
    </section>
  );
}
