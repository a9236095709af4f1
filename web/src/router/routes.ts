/** The screens this client knows, decoded from the address bar. */
export type Route =
  | { name: 'home'; shareID: string | null; supportID?: string }
  | { name: 'sharedProjects'; creator: string | null }
  | { name: 'timeline'; projectId: string }
  | { name: 'signUp' }
  | { name: 'passwordResetBadLink' }
  | { name: 'passwordReset'; userID: string; token: string }
  | { name: 'help' }
  | { name: 'staff'; view: StaffView }
  | { name: 'notFound' };

/** The screens of the staff area (/staff and its children). */
export type StaffView =
  | { kind: 'home' }
  | { kind: 'calculations' }
  | { kind: 'channels' }
  | { kind: 'map' }
  | { kind: 'user'; userID: string }
  | { kind: 'userProject'; userID: string; superID: string }
  /** /staff/translate redirects to the help translations. */
  | { kind: 'translate'; which: 'calculator' | 'documents' | 'help' | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function matchRoute(pathname: string, search: string): Route {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return { name: 'home', shareID: null };
  if (path === '/sign-up') return { name: 'signUp' };
  if (path === '/password-reset') return { name: 'passwordResetBadLink' };
  if (path === '/projects') return { name: 'sharedProjects', creator: new URLSearchParams(search).get('creator') };

  if (path === '/help') return { name: 'help' };
  // The timeline first: the staff area owns every other /staff path.
  const timeline = /^\/staff\/timeline\/([^/]+)$/.exec(path);
  if (timeline?.[1]) return { name: 'timeline', projectId: decodeURIComponent(timeline[1]) };
  if (path === '/staff' || path.startsWith('/staff/')) {
    const view = matchStaff(path.slice('/staff'.length));
    return view ? { name: 'staff', view } : { name: 'notFound' };
  }

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

function matchStaff(rest: string): StaffView | null {
  switch (rest) {
    case '':
      return { kind: 'home' };
    case '/calculations':
      return { kind: 'calculations' };
    case '/channels':
      return { kind: 'channels' };
    case '/map':
      return { kind: 'map' };
    case '/translate':
      return { kind: 'translate', which: null };
    case '/translate/calculator':
      return { kind: 'translate', which: 'calculator' };
    case '/translate/documents':
      return { kind: 'translate', which: 'documents' };
    case '/translate/help':
      return { kind: 'translate', which: 'help' };
  }
  const user = /^\/user\/([^/]+)(?:\/([^/]+))?$/.exec(rest);
  if (!user?.[1]) return null;
  const userID = decodeURIComponent(user[1]);
  return user[2] ? { kind: 'userProject', userID, superID: decodeURIComponent(user[2]) } : { kind: 'user', userID };
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
  staffCalculations: '/staff/calculations',
  staffMap: '/staff/map',
  staffUser: (userID: string) => `/staff/user/${encodeURIComponent(userID)}`,
  staffUserProject: (userID: string, superID: string) => `/staff/user/${encodeURIComponent(userID)}/${encodeURIComponent(superID)}`,
  translate: '/staff/translate',
  calculatorTranslations: '/staff/translate/calculator',
  documentTranslations: '/staff/translate/documents',
  helpTranslations: '/staff/translate/help',
} as const;
