import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { HomeTexts } from '../home/HomeTexts';
import { useLocation } from '../router/history';
import { LoginPanel } from './LoginPanel';

/** One-off notices other pages leave for the login page through history state. */
export interface LoginPageState {
  notice?: 'passwordChanged' | 'emailConfirmed' | 'confirmationFailed';
  openReset?: boolean;
}

/** The server's e-mail confirmation link lands on /?confirmed=1 (or 0 for a bad link). */
export function confirmationNotice(search: string): LoginPageState['notice'] {
  const confirmed = new URLSearchParams(search).get('confirmed');
  if (confirmed === '1') return 'emailConfirmed';
  if (confirmed === '0') return 'confirmationFailed';
  return undefined;
}

export function LoginScreen() {
  const { t } = useTranslation();
  const { state, search } = useLocation();
  const pageState = (state ?? {}) as LoginPageState;
  const notice = pageState.notice ?? confirmationNotice(search);
  useDocumentTitle(t('login.title'));
  return (
    <>
      <div className="login-layout">
        <ProductAdvert />
        <LoginPanel notice={notice} openReset={pageState.openReset === true} />
      </div>
      <HomeTexts />
    </>
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
