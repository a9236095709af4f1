import { QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { createActor, waitFor } from 'xstate';
import { createAuthApi, createDrainageApi, createProjectApi, type AuthApi, type DrainageApi, type ProjectApi } from '../api/endpoints';
import { ApiError, createFileHttp, createHttp } from '../api/http';
import { createServerWait, type ServerWait } from '../api/serverWait';
import { createWorkspace, type Workspace } from '../design/workspace';
import { createHistoryApi, type HistoryApi } from '../history/historyApi';
import { applyLanguage, createI18n, initialLanguage } from '../i18n/i18n';
import { startLiveCatalogue, type LiveCatalogue } from '../i18n/liveCatalogue';
import { createTranslationApi, type TranslationApi } from '../translate/api';
import { FALLBACK_LANGUAGE, isLanguageCode, toBcp47 } from '../i18n/languages';
import { SessionExpiredError, sessionGate, withSessionRefresh, withSessionRefreshFile } from '../session/authedSend';
import { createSessionMachine, type SessionActor } from '../session/sessionMachine';
import { localUserStore, type UserStore } from '../session/userStore';
import { createStaffApi, type StaffApi } from '../staff/staffApi';

/** Everything the screens talk to, built once at start-up. */
export interface Services {
  session: SessionActor;
  auth: AuthApi;
  drainage: DrainageApi;
  projects: ProjectApi;
  /** A project's versions, undo, redo, restore and copies of a version. */
  history: HistoryApi;
  /** The staff area's calls. */
  staff: StaffApi;
  workspace: Workspace;
  i18n: I18n;
  /** Translators' calls, help topics and web links. */
  translations: TranslationApi;
  /** Loads translators' changes over the bundled catalogues. */
  liveCatalogue: LiveCatalogue | null;
  queryClient: QueryClient;
  /** Requests waiting out an unreachable database, for the notice on screen. */
  serverWait: ServerWait;
  /** Logs out and closes the open project. */
  signOut(): void;
}

export interface ServiceOptions {
  fetchFn?: typeof fetch;
  store?: UserStore;
  /** Follow projects over the WebSocket (off in jsdom tests). */
  live?: boolean;
  /** Poll for translators' changes (off in jsdom tests unless asked). */
  liveCatalogue?: boolean;
}

export function createServices(options: ServiceOptions = {}): Services {
  const store = options.store ?? localUserStore();
  const i18n = createI18n(initialLanguage(store.load()?.language));
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) => failures < 2 && isWorthRetrying(error),
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
    },
  });

  // Accept-Language wants BCP 47: the product's rs and si are sent as sr-Latn and sl.
  const serverWait = createServerWait();
  const open = createHttp({
    fetchFn: options.fetchFn,
    language: () => toBcp47(isLanguageCode(i18n.language) ? i18n.language : FALLBACK_LANGUAGE),
    onWaiting: serverWait.onWaiting,
  });
  const auth = createAuthApi(open);
  const session = createActor(
    createSessionMachine({
      api: auth,
      store,
      applyLanguage: (code) => applyLanguage(i18n, code),
      // After the signed-in screens have unmounted: cleared under them, their
      // queries would fetch again for a user who is no longer there.
      onSignedOut: () => setTimeout(() => queryClient.clear(), 0),
    }),
  );
  const gate = sessionGate(session, store);
  const authed = withSessionRefresh(open, gate);
  const files = withSessionRefreshFile(
    createFileHttp({
      fetchFn: options.fetchFn,
      language: () => toBcp47(isLanguageCode(i18n.language) ? i18n.language : FALLBACK_LANGUAGE),
    }),
    gate,
  );
  const drainage = createDrainageApi(open, authed, files);
  const projects = createProjectApi(authed);
  const staff = createStaffApi(authed);
  const workspace = createWorkspace({
    drainage,
    projects,
    queryClient,
    live: options.live,
    // The live stream's session ended: refreshed like any call's 401, or,
    // when it cannot be, back once the user has logged in again.
    sessionBack: async () => {
      if (await gate.refresh()) return;
      await waitFor(session, (snapshot) => snapshot.matches('signedIn'), { timeout: Infinity });
    },
    userRainfallUnits: () => session.getSnapshot().context.user?.rainfall_units ?? 'mm/h',
    advancedMode: () => {
      const user = session.getSnapshot().context.user;
      return { allowed: user?.has_advanced_mode === true, byDefault: user?.has_advanced_mode === true && user.default_advanced_mode === true };
    },
  });
  session.start();
  const translations = createTranslationApi(open, authed);
  const liveCatalogue = (options.liveCatalogue ?? options.live ?? true) ? startLiveCatalogue(i18n, { fetchFn: options.fetchFn }) : null;

  return {
    session,
    auth,
    drainage,
    projects,
    history: createHistoryApi(authed),
    staff,
    workspace,
    i18n,
    translations,
    liveCatalogue,
    queryClient,
    serverWait,
    signOut() {
      workspace.dispose();
      session.send({ type: 'LOGOUT' });
    },
  };
}

// Client errors and an ended session will not heal by asking again.
function isWorthRetrying(error: unknown): boolean {
  if (error instanceof SessionExpiredError) return false;
  if (error instanceof ApiError) return error.status >= 500;
  return true;
}
