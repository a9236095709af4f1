import { useTranslation } from 'react-i18next';
import { Brand } from '../components/Brand';
import { LanguageSelect } from '../components/LanguageSelect';
import { applyLanguage } from '../i18n/i18n';
import { Link } from '../router/Link';
import { paths } from '../router/routes';

/** Header for visitors who are not signed in: their language choice stays in this browser. */
export function PublicHeader() {
  const { t, i18n } = useTranslation();
  return (
    <header className="topbar topbar--public">
      <Brand />
      <span className="topbar__tagline">{t('app.tagline')}</span>
      <div className="topbar__spacer" />
      <nav className="topbar__public-nav" aria-label={t('nav.main')}>
        <Link to={paths.features} className="topbar__link">
          {t('home.features.title')}
        </Link>
        <Link to={paths.feedback} className="topbar__link">
          {t('home.feedback.title')}
        </Link>
        <a href={paths.help} className="topbar__link" target="_blank" rel="noopener">
          {t('nav.help')}
        </a>
      </nav>
      <LanguageSelect id="public-language" value={i18n.language} onChange={(code) => applyLanguage(i18n, code)} />
    </header>
  );
}
