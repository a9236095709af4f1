import { lazy, Suspense } from 'react';
import { useSession } from './app/ServicesContext';
import { Redirect } from './components/Redirect';
import { useLocation } from './router/history';
import { matchRoute, paths } from './router/routes';
import { BadResetLinkScreen } from './screens/BadResetLinkScreen';
import { LoginScreen } from './screens/LoginScreen';
import { NewPasswordScreen } from './screens/NewPasswordScreen';
import { NotFoundScreen } from './screens/NotFoundScreen';
import { PageLayout } from './screens/PageLayout';
import { SignUpScreen } from './screens/SignUpScreen';
import { LoadingPanel, SplashScreen } from './screens/SplashScreen';

// The project table brings the data grid, which visitors on the login page never need.
const HomeScreen = lazy(() => import('./screens/HomeScreen').then((module) => ({ default: module.HomeScreen })));

type Presence = 'checking' | 'signedIn' | 'signedOut';

/** Picks the screen for the address and the session. */
export function App() {
  const presence = useSession<Presence>((snapshot) =>
    snapshot.matches('checking') ? 'checking' : snapshot.matches('signedIn') ? 'signedIn' : 'signedOut',
  );
  const location = useLocation();
  const route = matchRoute(location.pathname, location.search);

  if (presence === 'checking') return <SplashScreen />;

  switch (route.name) {
    case 'home':
      return presence === 'signedIn' ? (
        <PageLayout>
          <Suspense fallback={<LoadingPanel />}>
            <HomeScreen />
          </Suspense>
        </PageLayout>
      ) : (
        <PageLayout>
          <LoginScreen />
        </PageLayout>
      );
    case 'signUp':
      return presence === 'signedIn' ? (
        <Redirect to={paths.home} />
      ) : (
        <PageLayout>
          <SignUpScreen />
        </PageLayout>
      );
    case 'passwordReset':
      return (
        <PageLayout narrow>
          <NewPasswordScreen userID={route.userID} token={route.token} />
        </PageLayout>
      );
    case 'passwordResetBadLink':
      return (
        <PageLayout narrow>
          <BadResetLinkScreen />
        </PageLayout>
      );
    case 'notFound':
      return (
        <PageLayout narrow>
          <NotFoundScreen />
        </PageLayout>
      );
  }
}
