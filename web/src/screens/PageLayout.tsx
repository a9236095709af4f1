import type { ReactNode } from 'react';
import { useSession } from '../app/ServicesContext';
import { PublicHeader } from './PublicHeader';
import { TopBar } from './TopBar';

/** The signed-in top bar or the visitor's header, above the page. */
export function PageLayout({ children, narrow }: { children: ReactNode; narrow?: boolean }) {
  const signedIn = useSession((snapshot) => snapshot.matches('signedIn'));
  return (
    <div className="page">
      {signedIn ? <TopBar /> : <PublicHeader />}
      <main className={narrow ? 'page__main page__main--narrow' : 'page__main'} id="main">
        {children}
      </main>
    </div>
  );
}
