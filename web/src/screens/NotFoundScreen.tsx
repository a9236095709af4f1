import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { Link } from '../router/Link';
import { paths } from '../router/routes';

export function NotFoundScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('notFound.title'));
  return (
    <section className="card card--centered">
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.body')}</p>
      <Link to={paths.home} className="button button--primary">
        {t('notFound.home')}
      </Link>
    </section>
  );
}
