import { useTranslation } from 'react-i18next';
import { useSession } from '../app/ServicesContext';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { ProjectTable } from './ProjectTable';

export function HomeScreen() {
  const { t } = useTranslation();
  const username = useSession((snapshot) => snapshot.context.user?.username ?? '');
  useDocumentTitle(t('projects.title'));
  return (
    <section className="card projects" aria-labelledby="projects-title">
      <header className="projects__header">
        <div>
          <p className="projects__welcome">{t('home.welcome', { username })}</p>
          <h1 id="projects-title">{t('projects.title')}</h1>
          <p className="form__intro">{t('projects.intro')}</p>
        </div>
      </header>
      <ProjectTable />
    </section>
  );
}
