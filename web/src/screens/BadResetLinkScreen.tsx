import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { Link } from '../router/Link';
import { paths } from '../router/routes';
import type { LoginPageState } from './LoginScreen';

export function BadResetLinkScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('badLink.title'));
  return (
    <section className="card" aria-labelledby="bad-link-title">
      <h1 id="bad-link-title">{t('badLink.title')}</h1>
      <p>{t('badLink.body')}</p>
      <p>{t('badLink.action')}</p>
      <Link to={paths.home} state={{ openReset: true } satisfies LoginPageState} className="button button--primary">
        {t('badLink.requestNew')}
      </Link>
    </section>
  );
}
