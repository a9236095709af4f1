/** The screens this client knows, decoded from the address bar. */
export type Route =
  | { name: 'home'; shareID: string | null; supportID?: string }
  | { name: 'sharedProjects'; creator: string | null }
  | { name: 'timeline'; projectId: string }
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
  if (path === '/projects') return { name: 'sharedProjects', creator: new URLSearchParams(search).get('creator') };

  const timeline = /^\/staff\/timeline\/([^/]+)$/.exec(path);
  if (timeline?.[1]) return { name: 'timeline', projectId: decodeURIComponent(timeline[1]) };

  const support = /^\/projects\/(\d+)$/.exec(path);
  if (support?.[1]) return { name: 'home', shareID: null, supportID: support[1] };

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
  sharedProjects: '/projects',
  supportProject: (supportID: string | number) => `/projects/${supportID}`,
  help: '/help',
  staff: '/staff',
  staffChannels: '/staff/channels',
  timeline: (projectId: string) => `/staff/timeline/${encodeURIComponent(projectId)}`,
  calculatorTranslations: '/staff/translate/calculator',
  documentTranslations: '/staff/translate/documents',
  helpTranslations: '/staff/translate/help',
} as const;
