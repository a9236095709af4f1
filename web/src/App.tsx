import { useSession } from './app/ServicesContext';
import { ChunkSuspense, lazyChunk } from './components/chunk';
import { Redirect } from './components/Redirect';
import { useLocation } from './router/history';
import { matchRoute, paths } from './router/routes';
import { BadResetLinkScreen } from './screens/BadResetLinkScreen';
import { LoginScreen } from './screens/LoginScreen';
import { NewPasswordScreen } from './screens/NewPasswordScreen';
import { NotFoundScreen } from './screens/NotFoundScreen';
import { PageLayout } from './screens/PageLayout';
import { SignUpScreen } from './screens/SignUpScreen';
import { SplashScreen } from './screens/SplashScreen';

// The design screen and the project tables bring the data grid and the design
// code, which visitors on the login page never need. A chunk that does not
// arrive (a new release replaced it, the network failed) offers a retry.
const DesignScreen = lazyChunk(() => import('./design/DesignScreen').then((module) => ({ default: module.DesignScreen })));
const TimelineScreen = lazyChunk(() => import('./history/TimelineScreen').then((module) => ({ default: module.TimelineScreen })));
const SharedProjectsScreen = lazyChunk(() =>
  import('./projects/SharedProjectsScreen').then((module) => ({ default: module.SharedProjectsScreen })),
);
// Spec: the staff area is loaded on demand.
const StaffScreen = lazyChunk(() => import('./staff/StaffScreen').then((module) => ({ default: module.StaffScreen })));

const TranslateScreens = lazyChunk(() => import('./translate/TranslateScreens').then((module) => ({ default: module.TranslateScreens })));
const FeaturesScreen = lazyChunk(() => import('./home/FeaturesScreen').then((module) => ({ default: module.FeaturesScreen })));
const FeedbackScreen = lazyChunk(() => import('./home/FeedbackScreen').then((module) => ({ default: module.FeedbackScreen })));
const HelpScreen = lazyChunk(() => import('./help/HelpScreen').then((module) => ({ default: module.HelpScreen })));

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
      // A share or support link waits behind the login form and opens once signed in.
      return presence === 'signedIn' ? (
        <PageLayout wide>
          <ChunkSuspense>
            <DesignScreen shareID={route.shareID} supportID={route.supportID} />
          </ChunkSuspense>
        </PageLayout>
      ) : (
        <PageLayout>
          <LoginScreen />
        </PageLayout>
      );
    case 'sharedProjects':
      return presence === 'signedIn' ? (
        <PageLayout>
          <ChunkSuspense>
            <SharedProjectsScreen creator={route.creator} />
          </ChunkSuspense>
        </PageLayout>
      ) : (
        <PageLayout>
          <LoginScreen />
        </PageLayout>
      );
    case 'timeline':
      return presence === 'signedIn' ? (
        <PageLayout wide>
          <ChunkSuspense>
            <TimelineScreen key={route.projectId} projectId={route.projectId} />
          </ChunkSuspense>
        </PageLayout>
      ) : (
        <PageLayout>
          <LoginScreen />
        </PageLayout>
      );
    case 'staff':
      return presence === 'signedIn' ? (
        <PageLayout wide={route.view.kind === 'userProject' || route.view.kind === 'calculations'}>
          <ChunkSuspense>
            <StaffScreen view={route.view} />
          </ChunkSuspense>
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
    case 'help':
      // Help is for everyone, signed in or not (spec section 6).
      return (
        <PageLayout wide>
          <ChunkSuspense>
            <HelpScreen topic={route.topic} />
          </ChunkSuspense>
        </PageLayout>
      );
    case 'features':
      // The marketing pages are for everyone, signed in or not (spec section 2).
      return (
        <PageLayout>
          <ChunkSuspense>
            <FeaturesScreen />
          </ChunkSuspense>
        </PageLayout>
      );
    case 'feedback':
      return (
        <PageLayout>
          <ChunkSuspense>
            <FeedbackScreen />
          </ChunkSuspense>
        </PageLayout>
      );
    case 'translate':
      if (route.redirected) return <Redirect to={paths.helpTranslations} />;
      return presence === 'signedIn' ? (
        <PageLayout wide>
          <ChunkSuspense>
            <TranslateScreens editor={route.editor} />
          </ChunkSuspense>
        </PageLayout>
      ) : (
        <PageLayout>
          <LoginScreen />
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
