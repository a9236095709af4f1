/** The screens this client knows, decoded from the address bar. */
export type Route =
  | { name: 'home'; shareID: string | null }
  | { name: 'signUp' }
  | { name: 'passwordResetBadLink' }
  | { name: 'passwordReset'; userID: string; token: string }
  | { name: 'notFound' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function matchRoute(pathname: string, search: string): Route {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return { name: 'home', shareID: null };
  if (path === '/sign-up') return { name: 'signUp' };
  if (path === '/password-reset') return { name: 'passwordResetBadLink' };

  const reset = /^\/password-reset\/([^/]+)$/.exec(path);
  if (reset?.[1]) {
    const token = new URLSearchParams(search).get('token') ?? '';
    return { name: 'passwordReset', userID: decodeURIComponent(reset[1]), token };
  }

  const share = /^\/([^/]+)$/.exec(path);
  if (share?.[1] && UUID.test(share[1])) return { name: 'home', shareID: share[1] };

  return { name: 'notFound' };
}

export const paths = {
  home: '/',
  signUp: '/sign-up',
  passwordResetBadLink: '/password-reset',
} as const;
