import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices, useSession } from '../app/ServicesContext';
import { Brand } from '../components/Brand';
import { LanguageSelect } from '../components/LanguageSelect';
import { useFitLevel } from '../components/useFitLevel';
import { navigate, useLocation } from '../router/history';
import { Link } from '../router/Link';
import { paths } from '../router/routes';
import { UserSettingsDialog } from '../settings/UserSettingsDialog';
import { helpHref } from '../help/topics';
import { mayTranslate } from '../translate/rights';

// How the bar fits its width, by level: everything; without the username's
// text and the globe; the links on the bar and the user's own actions behind a
// menu button (a staff user's many links); everything behind the menu button
// (a phone).
const LEVELS = ['topbar--full', 'topbar--compact', 'topbar--account', 'topbar--menu'] as const;
const ACCOUNT = 2;
const MENU = 3;

/**
 * The signed-in top bar: links by role, the user, settings, language, help and
 * logout, on one line. What does not fit folds behind a menu button (a
 * disclosure: Escape or a click elsewhere closes it, focus goes back to the
 * button).
 */
export function TopBar() {
  const { t, i18n } = useTranslation();
  const services = useServices();
  const user = useSession((snapshot) => snapshot.context.user);
  const loggingOut = useSession((snapshot) => snapshot.matches({ signedIn: 'loggingOut' }));
  const { pathname } = useLocation();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const bar = useRef<HTMLElement>(null);
  const row = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const username = user?.username ?? '';
  const inStaff = pathname.startsWith(paths.staff);
  const away = pathname !== paths.home;
  // The web links and the partner logo by the user's country (a data file staff keep).
  const country = user?.country?.iso_code ?? '';
  const webLinks = useQuery({ queryKey: ['weblinks', country], queryFn: services.translations.webLinks, enabled: Boolean(user), staleTime: 600_000 });
  const partner = webLinks.data?.partner ?? null;
  const roles = [user?.shared_projects, user?.is_admin, user?.is_translator, user?.is_marketing].map(Boolean).join();
  const level = useFitLevel(bar, row, LEVELS.length, `${i18n.language}|${username}|${roles}|${away}|${inStaff}|${webLinks.data?.links.length ?? 0}|${partner ? 1 : 0}`);
  const folded = level >= ACCOUNT;
  // A menu left open when the window grew does not spring open when it narrows again.
  if (!folded && menuOpen) setMenuOpen(false);
  const open = folded && menuOpen;

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      toggle.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!bar.current?.contains(event.target as Node)) setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  // An action chosen from the menu closes it; focus waits on the menu button,
  // where a dialog opened by the action (Settings) hands it back.
  function chosen(event: MouseEvent<HTMLDivElement>) {
    if (!open || !(event.target as HTMLElement).closest('a, button')) return;
    toggle.current?.focus();
    setMenuOpen(false);
  }

  function logout() {
    services.signOut();
    navigate(paths.home);
  }

  const nav = (
    <nav className="topbar__nav" aria-label={t('nav.main')}>
      {away && (
        <button type="button" className="topbar__link topbar__back" onClick={() => window.history.back()}>
          ← {t('nav.back')}
        </button>
      )}
      <Link to={paths.home} className="topbar__link">
        {t('nav.home')}
      </Link>
      {(webLinks.data?.links.length ?? 0) > 0 && (
        <details className="menu">
          <summary className="topbar__link">{t('nav.webLinks')}</summary>
          <div className="menu__list">
            {webLinks.data?.links.map((link) => (
              <a key={link.url} href={link.url} className="menu__item" target="_blank" rel="noopener noreferrer">
                {link.label}
              </a>
            ))}
          </div>
        </details>
      )}
      {(user?.shared_projects || user?.is_admin) && (
        <Link to={paths.sharedProjects} className="topbar__link">
          {t('nav.sharedProjects')}
        </Link>
      )}
      {mayTranslate(user) && (
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
  );

  return (
    <header ref={bar} className={`topbar ${LEVELS[level] ?? ''}`}>
      <Brand />
      {partner && (
        <span className="topbar__partner">
          <img src={partner.logo} alt={partner.name} height={28} />
        </span>
      )}
      {/* One line, measured by useFitLevel; the menu button comes before what it shows, in reading order too. */}
      <div ref={row} className="topbar__row">
        {level < MENU && nav}
        <div className="topbar__spacer" />
        {folded && (
          <button
            ref={toggle}
            type="button"
            className="button button--quiet button--small topbar__toggle"
            aria-expanded={open}
            aria-controls="topbar-menu"
            onClick={() => setMenuOpen(!open)}
          >
            <span aria-hidden="true" className="topbar__toggle-icon">
              {open ? '✕' : '☰'}
            </span>
            {t('nav.menu')}
          </button>
        )}
        <div id="topbar-menu" className="topbar__panel" hidden={folded && !open} onClick={chosen}>
          {level === MENU && nav}
          <span className="topbar__user" title={t('nav.signedInAs', { username })}>
            <span aria-hidden="true" className="topbar__avatar">
              {username.slice(0, 1).toUpperCase()}
            </span>
            <span className="visually-hidden">{t('nav.signedInAs', { username })}</span>
            <span aria-hidden="true" className="topbar__username">
              {username}
            </span>
          </span>
          <UserLanguageSelect />
          <button type="button" className="button button--quiet button--small" onClick={() => setSettingsOpen(true)}>
            {t('nav.settings')}
          </button>
          <a className="button button--quiet button--small" href={helpHref(pathname)} target="_blank" rel="noopener">
            {t('nav.help')}
          </a>
          <button type="button" className="button button--quiet button--small" onClick={logout} disabled={loggingOut}>
            {t('nav.logout')}
          </button>
        </div>
      </div>
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
