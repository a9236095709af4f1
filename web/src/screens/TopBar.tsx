import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useServices, useSession } from '../app/ServicesContext';
import { Brand } from '../components/Brand';
import { LanguageSelect } from '../components/LanguageSelect';
import { navigate } from '../router/history';
import { Link } from '../router/Link';
import { paths } from '../router/routes';

export function TopBar() {
  const { t } = useTranslation();
  const { session } = useServices();
  const username = useSession((snapshot) => snapshot.context.user?.username ?? '');
  const loggingOut = useSession((snapshot) => snapshot.matches({ signedIn: 'loggingOut' }));

  function logout() {
    session.send({ type: 'LOGOUT' });
    navigate(paths.home);
  }

  return (
    <header className="topbar">
      <Brand />
      <nav className="topbar__nav" aria-label={t('nav.main')}>
        <Link to={paths.home} className="topbar__link">
          {t('nav.home')}
        </Link>
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
      <button type="button" className="button button--quiet" onClick={logout} disabled={loggingOut}>
        {t('nav.logout')}
      </button>
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
