import type { Send } from './http';
import type {
  Country,
  PasswordResetConfirmation,
  ProjectListItem,
  Registration,
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
export function createDrainageApi(open: Send, authed: Send) {
  return {
    countries: () => open<Country[]>('GET', '/drainage/countries/'),
    register: (registration: Registration) =>
      open<unknown>('POST', '/drainage/register/', registration),
    projects: () => authed<ProjectListItem[]>('GET', '/drainage/projects/'),
    updateUserSettings: (patch: UserSettingsPatch) =>
      authed<unknown>('PATCH', '/drainage/user_settings/', patch),
  };
}

export type DrainageApi = ReturnType<typeof createDrainageApi>;
