import type { DrainageSystem } from '../design/types';
import type { ChannelOption } from '../design/advancedRules';

/** An end cap with outlet as GET /drainage/endcap/with_outlet/ lists it; the id is its article number. */
export interface EndCapOption {
  id: string;
  material: string;
  outlet_diameter_mm: number;
}
import type { FindRainStatsQuery, RainStats, UpdateRainStatsQuery } from '../rainfall/types';
import type { StorageResult } from '../storage/types';
import type { SendFile, Send, SendOptions } from './http';
import type {
  CalculateAnswer,
  DocumentFormat,
  DocumentRequest,
  EditAnswer,
  LoadAnswer,
  LoadKey,
  LoadRunAnswer,
  ProjectCommand,
  SaveAnswer,
  SavePayload,
} from './projectTypes';
import type {
  ApiToken,
  Country,
  CreatedApiToken,
  PasswordResetConfirmation,
  ProjectListItem,
  Registration,
  UserCountryAnswer,
  UserEnvelope,
  UserSettingsPatch,
} from './types';

/** Calls that establish or end the session; they never go through the 401 refresh. */
export function createAuthApi(send: Send) {
  return {
    login: (username: string, password: string) =>
      send<UserEnvelope>('POST', '/auth/login/', { username, password }),
    logout: () => send<unknown>('POST', '/auth/logout/'),
    me: () => send<UserEnvelope>('GET', '/auth/me/'),
    refresh: () => send<unknown>('POST', '/auth/token/refresh/'),
    requestPasswordReset: (email: string) =>
      send<unknown>('POST', '/auth/password/reset/', { email }),
    confirmPasswordReset: (confirmation: PasswordResetConfirmation) =>
      send<unknown>('POST', '/auth/password/reset/confirm/', confirmation),
  };
}

export type AuthApi = ReturnType<typeof createAuthApi>;

/**
 * Drainage calls. `open` is for calls anonymous visitors make; `authed` retries
 * once after a session refresh when it meets a 401.
 */
/**
 * Calls that may be sent twice (SendOptions.repeatable): the calculations
 * and look-ups change nothing but the run's calculation history (a second
 * entry, the same as the first), and these edits set values, so a second
 * try finds them set and changes nothing. Adding, duplicating, removing or
 * resetting a run are not repeated: a second try would act again (a reset
 * would also clear what another tab entered since), or fail on what the
 * first did. A save is, when it names its request (see save).
 */
const repeatable: SendOptions = { repeatable: true };

export const REPEATABLE_COMMANDS: ReadonlySet<ProjectCommand['type']> = new Set([
  'change_inputs',
  'change_notes',
  'change_details',
  'rename_run',
  'reorder_runs',
] as const);

export function createDrainageApi(open: Send, authed: Send, files?: SendFile) {
  return {
    countries: () => open<Country[]>('GET', '/drainage/countries/'),
    register: (registration: Registration) =>
      open<unknown>('POST', '/drainage/register/', registration),
    projects: () => authed<ProjectListItem[]>('GET', '/drainage/projects/'),
    sharedProjects: (creator?: string) =>
      authed<ProjectListItem[]>(
        'GET',
        `/drainage/shared_projects/${creator ? `?creator=${encodeURIComponent(creator)}` : ''}`,
      ),
    updateUserSettings: (patch: UserSettingsPatch) =>
      authed<UserEnvelope>('PATCH', '/drainage/user_settings/', patch),
    updateUserCountry: (country: string) =>
      authed<UserCountryAnswer>('PATCH', '/drainage/user_settings/country/', { country }),
    /** Personal API tokens (settings): list, create (shown once), revoke. */
    apiTokens: () => authed<ApiToken[]>('GET', '/auth/tokens/'),
    createApiToken: (name: string) => authed<CreatedApiToken>('POST', '/auth/tokens/', { name }),
    revokeApiToken: (id: string) => authed<unknown>('DELETE', `/auth/tokens/${encodeURIComponent(id)}/`),
    /** Closes the user's own account and erases its personal data (docs/privacy.md). */
    deleteAccount: (password: string) => authed<{ detail: string }>('DELETE', '/account/', { password }),
    products: () => authed<DrainageSystem[]>('GET', '/drainage/product/'),
    calculate: (body: Record<string, unknown>) => authed<CalculateAnswer>('POST', '/drainage/calculate/', body, repeatable),
    /** Two runs of which one discharges into the other (its trash box, or an inflow): both answers. */
    calculateShared: (body: { main: Record<string, unknown>; second: Record<string, unknown> }) =>
      authed<{ main: CalculateAnswer; second: CalculateAnswer }>('POST', '/drainage/calculate_shared/', body, repeatable),
    /** A save over an existing project that names its request may be sent again: the server answers a stored one as stored. */
    save: (payload: SavePayload) =>
      authed<SaveAnswer>('POST', '/drainage/save/', payload, {
        repeatable: payload.request_id !== undefined && payload.project.saveID !== undefined,
      }),
    load: (key: LoadKey) => authed<LoadAnswer>('POST', '/drainage/load/', key),
    loadRun: (key: string) => authed<LoadRunAnswer>('GET', `/drainage/load/${encodeURIComponent(key)}/`),
    share: (id: string) => authed<string>('POST', '/drainage/share/', { id }),
    /** Withdraws the share link: the old link opens nothing any more. */
    unshare: (id: string) => authed<{ id: string; shared: false }>('POST', '/drainage/unshare/', { id }),
    deleteProject: (id: string) => authed<unknown>('DELETE', '/drainage/delete/', { id }),
    findRainStats: (query: FindRainStatsQuery) => authed<RainStats>('POST', '/rainfall/findRainStats/', query, repeatable),
    updateRainStats: (query: UpdateRainStatsQuery) => authed<RainStats>('POST', '/rainfall/updateRainStats/', query, repeatable),
    calculateStorage: (body: Record<string, unknown>) => authed<StorageResult>('POST', '/drainage/calculate_storage/', body, repeatable),
    /** Advanced mode's look-ups (spec section 7): channel types, channels, trash boxes and end-cap outlets. */
    channelTypes: (product: string, loading: string) =>
      authed<Record<string, string[]>>('GET', `/drainage/channel/subproducts/?${new URLSearchParams({ product, loading })}`),
    channels: (query: { product: string; loading?: string; subProduct?: string; noBuiltInFall?: boolean }) => {
      const params = new URLSearchParams({ product: query.product });
      if (query.loading) params.set('loading', query.loading);
      if (query.subProduct) params.set('sub_product', query.subProduct);
      if (query.noBuiltInFall) params.set('upstream', '0');
      return authed<ChannelOption[]>('GET', `/drainage/channel/?${params}`);
    },
    trashBoxDischarges: (query: { product: string; loading?: string; channel?: string }) => {
      const params = new URLSearchParams({ product: query.product });
      if (query.loading) params.set('loading', query.loading);
      if (query.channel) params.set('channel', query.channel);
      return authed<number[]>('GET', `/drainage/trashbox/discharges/?${params}`);
    },
    endCapsWithOutlet: (channel: string) =>
      authed<EndCapOption[]>('GET', `/drainage/endcap/with_outlet/?${new URLSearchParams({ channel })}`),
    /**
     * A document of the project: format pdf or csv, kind introduction,
     * materials, information, all or hydraulics/<run number from 1>. The
     * server calculates every run again for it.
     */
    document: (format: DocumentFormat, language: string, kind: string, body: DocumentRequest) => {
      if (!files) return Promise.reject(new Error('downloads are not set up'));
      return files('POST', `/drainage/document/${format}/${encodeURIComponent(language)}/${kind}/`, body);
    },
  };
}

export type DrainageApi = ReturnType<typeof createDrainageApi>;

/** Live editing: a draft project stream and the commands that edit it. */
export function createProjectApi(authed: Send) {
  return {
    create: () => authed<EditAnswer>('POST', '/projects/', {}),
    command: (id: string, command: ProjectCommand) =>
      authed<EditAnswer>('POST', `/projects/${encodeURIComponent(id)}/commands`, command, {
        repeatable: REPEATABLE_COMMANDS.has(command.type),
      }),
  };
}

export type ProjectApi = ReturnType<typeof createProjectApi>;
