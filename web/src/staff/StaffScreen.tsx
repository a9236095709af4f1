import { useTranslation } from 'react-i18next';
import { useSession } from '../app/ServicesContext';
import { ChunkSuspense, lazyChunk } from '../components/chunk';
import { Notice } from '../components/Notice';
import { Link } from '../router/Link';
import { paths, type StaffView } from '../router/routes';
import { CalculationsScreen } from './CalculationsScreen';
import { ChannelsScreen } from './ChannelsScreen';
import { StaffHome } from './StaffHome';
import { StaffProjectView } from './StaffProjectView';
import { UserProjectsScreen } from './UserProjectsScreen';

// The map brings Leaflet and the world outline, which the other staff screens never need.
const StaffMapScreen = lazyChunk(() => import('./StaffMapScreen').then((module) => ({ default: module.StaffMapScreen })));

type NavItem = 'home' | 'calculations' | 'channels' | 'map';

/**
 * The staff area: administrators reach every screen; marketing users the
 * channel availability; translators the translation pages (not built yet).
 */
export function StaffScreen({ view }: { view: StaffView }) {
  const { t } = useTranslation();
  const user = useSession((s) => s.context.user);
  const admin = !!user?.is_admin;

  if (view.kind === 'channels' ? !user?.is_marketing : !admin) return <NotAllowed />;
  if (view.kind === 'userProject') return <StaffProjectView userID={view.userID} superID={view.superID} />;

  const current: NavItem = view.kind === 'user' ? 'home' : view.kind;
  return (
    <div className="staff">
      {admin && (
        <nav className="staff__nav" aria-label={t('staff.navLabel')}>
          <NavLink to={paths.staff} current={current === 'home'}>
            {t('staff.nav.home')}
          </NavLink>
          <NavLink to={paths.staffCalculations} current={current === 'calculations'}>
            {t('staff.nav.calculations')}
          </NavLink>
          <NavLink to={paths.staffChannels} current={current === 'channels'}>
            {t('staff.nav.channels')}
          </NavLink>
          <NavLink to={paths.staffMap} current={current === 'map'}>
            {t('staff.nav.map')}
          </NavLink>
        </nav>
      )}
      {view.kind === 'home' && <StaffHome />}
      {view.kind === 'user' && <UserProjectsScreen userID={view.userID} />}
      {view.kind === 'calculations' && <CalculationsScreen />}
      {view.kind === 'channels' && <ChannelsScreen />}
      {view.kind === 'map' && (
        <ChunkSuspense>
          <StaffMapScreen />
        </ChunkSuspense>
      )}
    </div>
  );
}

function NavLink({ to, current, children }: { to: string; current: boolean; children: string }) {
  return (
    <Link to={to} className={current ? 'staff__link staff__link--current' : 'staff__link'} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}

function NotAllowed() {
  const { t } = useTranslation();
  return (
    <section className="card">
      <Notice tone="error">{t('staff.notAllowed')}</Notice>
    </section>
  );
}
