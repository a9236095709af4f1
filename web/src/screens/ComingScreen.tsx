import { useTranslation } from 'react-i18next';
import { useSession } from '../app/ServicesContext';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { Link } from '../router/Link';
import { paths } from '../router/routes';

export type ComingWhat = 'help' | 'calculatorTranslations' | 'documentTranslations' | 'helpTranslations';

/** A page a link already leads to whose screen is not built yet: it says so, instead of "Page not found". */
export function ComingScreen({ what }: { what: ComingWhat }) {
  const { t } = useTranslation();
  const signedIn = useSession((s) => s.matches('signedIn'));
  const title = t(`coming.${what}`);
  useDocumentTitle(title);
  return (
    <section className="card card--centered coming" aria-labelledby="coming-title">
      <h1 id="coming-title">{title}</h1>
      <p>{t('coming.body')}</p>
      <Link to={paths.home} className="button button--primary">
        {signedIn ? t('coming.backToDesign') : t('notFound.home')}
      </Link>
    </section>
  );
}
