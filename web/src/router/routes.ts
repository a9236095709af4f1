/** The screens this client knows, decoded from the address bar. */
export type Route =
  | { name: 'home'; shareID: string | null; supportID?: string }
  | { name: 'sharedProjects'; creator: string | null }
  | { name: 'timeline'; projectId: string }
  | { name: 'signUp' }
  | { name: 'passwordResetBadLink' }
  | { name: 'passwordReset'; userID: string; token: string }
  | { name: 'help'; topic: string | null }
  | { name: 'features' }
  | { name: 'feedback' }
  | { name: 'translate'; editor: 'calculator' | 'documents' | 'help'; redirected?: boolean }
  | { name: 'staff'; view: StaffView }
  | { name: 'notFound' };

/** The screens of the staff area (/staff and its children). */
export type StaffView =
  | { kind: 'home' }
  | { kind: 'calculations' }
  | { kind: 'channels' }
  | { kind: 'map' }
  | { kind: 'user'; userID: string }
  | { kind: 'userProject'; userID: string; superID: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function matchRoute(pathname: string, search: string): Route {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return { name: 'home', shareID: null };
  if (path === '/sign-up') return { name: 'signUp' };
  if (path === '/password-reset') return { name: 'passwordResetBadLink' };
  if (path === '/projects') return { name: 'sharedProjects', creator: new URLSearchParams(search).get('creator') };
  if (path === '/features') return { name: 'features' };
  if (path === '/feedback') return { name: 'feedback' };
  if (path === '/help') return { name: 'help', topic: new URLSearchParams(search).get('topic') };
  // The translators' screens; /staff/translate itself leads to the help translations (spec section 2).
  if (path === '/staff/translate') return { name: 'translate', editor: 'help', redirected: true };
  const translate = /^\/staff\/translate\/(calculator|documents|help)$/.exec(path);
  if (translate?.[1]) return { name: 'translate', editor: translate[1] as 'calculator' | 'documents' | 'help' };

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
  features: '/features',
  feedback: '/feedback',
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
