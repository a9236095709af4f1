import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices, useSession } from '../app/ServicesContext';
import { Brand } from '../components/Brand';
import { LanguageSelect } from '../components/LanguageSelect';
import { navigate, useLocation } from '../router/history';
import { Link } from '../router/Link';
import { paths } from '../router/routes';
import { UserSettingsDialog } from '../settings/UserSettingsDialog';

/** The signed-in top bar: links by role, the user, settings, language, help and logout. */
export function TopBar() {
  const { t } = useTranslation();
  const services = useServices();
  const user = useSession((snapshot) => snapshot.context.user);
  const loggingOut = useSession((snapshot) => snapshot.matches({ signedIn: 'loggingOut' }));
  const { pathname } = useLocation();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const username = user?.username ?? '';
  const inStaff = pathname.startsWith(paths.staff);
  const away = pathname !== paths.home;

  function logout() {
    services.signOut();
    navigate(paths.home);
  }

  return (
    <header className="topbar">
      <Brand />
      <nav className="topbar__nav" aria-label={t('nav.main')}>
        {away && (
          <button type="button" className="topbar__link topbar__back" onClick={() => window.history.back()}>
            ← {t('nav.back')}
          </button>
        )}
        <Link to={paths.home} className="topbar__link">
          {t('nav.home')}
        </Link>
        {(user?.shared_projects || user?.is_admin) && (
          <Link to={paths.sharedProjects} className="topbar__link">
            {t('nav.sharedProjects')}
          </Link>
        )}
        {user?.is_translator && (
          <details className="menu">
            <summary className="topbar__link">{t('nav.translations')}</summary>
            <div className="menu__list">
              <Link to={paths.calculatorTranslations} className="menu__item">
                {t('nav.calculatorTranslations')}
              </Link>
              <Link to={paths.documentTranslations} className="menu__item">
                {t('nav.documentTranslations')}
              </Link>
              <Link to={paths.helpTranslations} className="menu__item">
                {t('nav.helpTranslations')}
              </Link>
            </div>
          </details>
        )}
        {user?.is_marketing && (
          <Link to={paths.staffChannels} className="topbar__link">
            {t('nav.channelAvailability')}
          </Link>
        )}
        {user?.is_admin && (
          <Link to={paths.staff} className="topbar__link" {...(inStaff ? {} : { target: '_blank', rel: 'noopener' })}>
            {t('nav.staff')}
          </Link>
        )}
      </nav>
      <div className="topbar__spacer" />
      <span className="topbar__user" title={t('nav.signedInAs', { username })}>
        <span aria-hidden="true" className="topbar__avatar">
          {username.slice(0, 1).toUpperCase()}
        </span>
        <span className="visually-hidden">{t('nav.signedInAs', { username })}</span>
        <span aria-hidden="true">{username}</span>
      </span>
      <UserLanguageSelect />
      <button type="button" className="button button--quiet button--small" onClick={() => setSettingsOpen(true)}>
        {t('nav.settings')}
      </button>
      <a className="button button--quiet button--small" href={paths.help} target="_blank" rel="noopener">
        {t('nav.help')}
      </a>
      <button type="button" className="button button--quiet button--small" onClick={logout} disabled={loggingOut}>
        {t('nav.logout')}
      </button>
      {settingsOpen && <UserSettingsDialog onClose={() => setSettingsOpen(false)} />}
    </header>
  );
}

/** Applies the language at once and stores it on the user's account. */
function UserLanguageSelect() {
  const { i18n } = useTranslation();
  const { session, drainage } = useServices();
  const save = useMutation({
    mutationFn: (language: string) => drainage.updateUserSettings({ language }),
    onError: (error) => console.error('saving the language failed', error),
  });

  function choose(language: string) {
    session.send({ type: 'USER.UPDATE', changes: { language } });
    save.mutate(language);
  }

  return <LanguageSelect id="user-language" value={i18n.language} onChange={choose} />;
}
