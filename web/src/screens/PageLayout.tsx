import type { ReactNode } from 'react';
import { useSession } from '../app/ServicesContext';
import { CookieNotice } from '../components/CookieNotice';
import { ServerWaitNotice } from '../components/ServerWaitNotice';
import { PublicHeader } from './PublicHeader';
import { TopBar } from './TopBar';

/** The signed-in top bar or the visitor's header, above the page, and the cookie notice. */
export function PageLayout({ children, narrow, wide }: { children: ReactNode; narrow?: boolean; wide?: boolean }) {
  const signedIn = useSession((snapshot) => snapshot.matches('signedIn'));
  const width = narrow ? ' page__main--narrow' : wide ? ' page__main--wide' : '';
  return (
    <div className="page">
      {signedIn ? <TopBar /> : <PublicHeader />}
      <ServerWaitNotice />
      <main className={`page__main${width}`} id="main">
        {children}
      </main>
      <CookieNotice />
    </div>
  );
}
