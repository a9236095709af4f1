import type * as Sentry from '@sentry/react';
import { API_BASE } from '../api/http';

/** What GET /api/client-config/ tells the client. */
export type ClientConfig = { sentryDsn: string; sentryEnvironment: string };

type SentryOptions = Parameters<typeof Sentry.init>[0];
/** The part of the SDK used here; loaded only where a tracker is named, so the login page stays light. */
export type SentrySdk = Pick<typeof Sentry, 'init' | 'browserTracingIntegration'>;
type ReportedEvent = Sentry.ErrorEvent;

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const PERSONAL_HEADERS = new Set(['authorization', 'cookie', 'set-cookie', 'x-forwarded-for', 'x-real-ip', 'forwarded']);

function withoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return email(cut < 0 ? url : url.slice(0, cut));
}

function email(text: string): string {
  return text.replace(EMAIL, '[email]');
}

/**
 * Takes personal data out of an event before it leaves the browser: the
 * user, cookies, request bodies (log-in, registration and settings carry
 * passwords and names), query strings (reset and confirmation links carry
 * tokens), identifying headers and e-mail addresses in messages.
 */
export function scrubEvent<E extends ReportedEvent>(event: E): E {
  delete event.user;
  if (event.request) {
    delete event.request.cookies;
    delete event.request.data;
    delete event.request.query_string;
    if (event.request.url) event.request.url = withoutQuery(event.request.url);
    if (event.request.headers) {
      for (const name of Object.keys(event.request.headers)) {
        if (PERSONAL_HEADERS.has(name.toLowerCase())) delete event.request.headers[name];
      }
    }
  }
  if (event.message) event.message = email(event.message);
  for (const exception of event.exception?.values ?? []) {
    if (exception.value) exception.value = email(exception.value);
  }
  for (const crumb of event.breadcrumbs ?? []) scrubBreadcrumb(crumb);
  return event;
}

function scrubBreadcrumb(crumb: Sentry.Breadcrumb): Sentry.Breadcrumb {
  if (crumb.message) crumb.message = email(crumb.message);
  if (crumb.data) {
    const { url, method, status_code: status } = crumb.data as { url?: unknown; method?: unknown; status_code?: unknown };
    // Only where a call went and how it ended: never bodies or addresses typed in.
    crumb.data = { ...(typeof url === 'string' ? { url: withoutQuery(url) } : {}), method, status_code: status };
  }
  return crumb;
}

/** The spec's settings for the browser SDK. */
export function sentryOptions(sdk: SentrySdk, config: ClientConfig): SentryOptions {
  return {
    dsn: config.sentryDsn,
    environment: config.sentryEnvironment || undefined,
    tracesSampleRate: 1,
    attachStacktrace: true,
    normalizeDepth: 5,
    // SDK 11's replacement of sendDefaultPii: collect no user, cookies,
    // headers, bodies or query strings in the first place; scrubEvent
    // removes what could still slip through.
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false },
    integrations: [sdk.browserTracingIntegration()],
    beforeSend: (event) => scrubEvent(event),
    beforeBreadcrumb: (crumb) => scrubBreadcrumb(crumb),
  };
}

/**
 * Starts error reporting when the server names a tracker; without one (or
 * when the server cannot say) nothing is sent anywhere.
 */
export async function startErrorReporting(
  fetchFn: typeof fetch = fetch,
  loadSdk: () => Promise<SentrySdk> = () => import('@sentry/react'),
): Promise<boolean> {
  try {
    const res = await fetchFn(`${API_BASE}/client-config/`, { credentials: 'same-origin' });
    if (!res.ok) return false;
    const config = (await res.json()) as Partial<ClientConfig>;
    if (!config.sentryDsn) return false;
    const sdk = await loadSdk();
    sdk.init(sentryOptions(sdk, { sentryDsn: config.sentryDsn, sentryEnvironment: config.sentryEnvironment ?? '' }));
    return true;
  } catch {
    return false;
  }
}
