import { API_BASE as API, type Send } from '../api/http';
import type { ProjectListItem } from '../api/types';

/** A permission group the acting staff member may grant (api/usecase/staff.go). */
export interface GroupChoice {
  code: string;
  label: string;
}

/** A row of the staff user list. */
export interface StaffUser {
  id: string;
  username: string;
  full_name: string;
  email: string;
  company: string;
  country: string;
  group: string;
  confirmed: boolean;
  blocked: boolean;
  projects: number;
  deleted_projects: number;
  /** The actor may block, unblock, delete and re-group this account. */
  manageable: boolean;
}

export interface UserPage {
  rows: StaffUser[];
  total: number;
  grantable: GroupChoice[];
}

export interface UserQuery {
  search: string;
  hideBlocked: boolean;
  offset: number;
  limit: number;
  sort?: string;
  desc?: boolean;
}

export interface StaffSummary {
  users: number;
  projects: number;
  calculations_today: number;
  failures_today: number;
}

export type Outcome = 'calculated' | 'flooded' | 'supercritical' | 'failed';
export const OUTCOMES: Outcome[] = ['calculated', 'flooded', 'supercritical', 'failed'];

/** A calculation in the staff history; numbers as the designer entered them. */
export interface CalculationRow {
  id: string;
  time: string;
  user_id: string;
  user: string;
  project_id: string;
  project: string;
  version: number;
  run_id: string;
  run: string;
  system: string;
  method: string;
  length_m: string;
  area_m2: string;
  intensity_mm_h: string;
  discharge_l_s: string;
  outcome: Outcome;
  message: string;
  duration_ms: number | null;
}

export interface CalculationPage {
  rows: CalculationRow[];
  total: number;
}

export interface CalculationDetail extends CalculationRow {
  inputs: Record<string, unknown>;
  results: Record<string, unknown> | null;
  error?: string;
}

/** The history's filters; empty strings do not filter. Dates are the user's local days (YYYY-MM-DD). */
export interface CalculationFilter {
  user: string;
  project: string;
  system: string;
  outcome: '' | Outcome;
  from: string;
  to: string;
}

export const NO_FILTER: CalculationFilter = { user: '', project: '', system: '', outcome: '', from: '', to: '' };

export interface StaffLogEntry {
  id: string;
  time: string;
  kind: 'users' | 'availability';
  actor_id: string;
  actor: string;
  action: 'blocked' | 'unblocked' | 'group_changed' | 'deleted' | 'offered' | 'withdrawn';
  target: string;
  target_name: string;
  subject: string;
  detail: string;
}

export interface MapCountry {
  country: string;
  name: string;
  users: number;
  projects: number;
}

export interface MapPlace {
  lat: number;
  lng: number;
  town: string;
  projects: number;
  runs: number;
}

export interface StaffMap {
  countries: MapCountry[] | null;
  places: MapPlace[] | null;
}

export interface ChannelOffer {
  code: string;
  width_mm: number;
  offered: boolean;
}

export interface SystemOffer {
  slug: string;
  name: string;
  offered: boolean;
  channels: ChannelOffer[];
}

export interface CountryOffer {
  country: string;
  name: string;
  region: string;
  systems: SystemOffer[];
}

export interface OfferChange {
  country: string;
  system: string;
  channel?: string;
  offered: boolean;
}

/** The start of a local day (YYYY-MM-DD) as an instant, for the server's from/to. */
export function dayStart(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return '';
  return new Date(y, m - 1, d).toISOString();
}

/** The query string of a history filter: `to` is the whole of that day. */
export function filterQuery(filter: CalculationFilter): URLSearchParams {
  const query = new URLSearchParams();
  if (filter.user.trim()) query.set('user', filter.user.trim());
  if (filter.project.trim()) query.set('project', filter.project.trim());
  if (filter.system) query.set('system', filter.system);
  if (filter.outcome) query.set('outcome', filter.outcome);
  if (filter.from) query.set('from', dayStart(filter.from));
  if (filter.to) {
    const [y, m, d] = filter.to.split('-').map(Number);
    if (y && m && d) query.set('to', new Date(y, m - 1, d + 1).toISOString());
  }
  return query;
}


/** The staff area's calls (api/staff_calls.go). */
export function createStaffApi(authed: Send) {
  return {
    summary: () => {
      const midnight = new Date();
      midnight.setHours(0, 0, 0, 0);
      return authed<StaffSummary>('GET', `/staff/summary/?since=${encodeURIComponent(midnight.toISOString())}`);
    },
    users: (q: UserQuery) => {
      const query = new URLSearchParams({ offset: String(q.offset), limit: String(q.limit) });
      if (q.search.trim()) query.set('search', q.search.trim());
      if (q.hideBlocked) query.set('hide_blocked', '1');
      if (q.sort) query.set('sort', q.sort);
      if (q.desc) query.set('desc', '1');
      return authed<UserPage>('GET', `/staff/users/page/?${query.toString()}`);
    },
    user: (id: string) => authed<StaffUser>('GET', `/staff/users/${encodeURIComponent(id)}/`),
    userProjects: (id: string) => authed<(ProjectListItem & { deleted_at?: string })[]>('GET', `/staff/users/${encodeURIComponent(id)}/projects/`),
    block: (id: string) => authed<unknown>('POST', `/staff/users/${encodeURIComponent(id)}/block/`),
    unblock: (id: string) => authed<unknown>('POST', `/staff/users/${encodeURIComponent(id)}/unblock/`),
    changeGroup: (id: string, group: string) => authed<unknown>('POST', `/staff/users/${encodeURIComponent(id)}/group/`, { group }),
    deleteUser: (id: string) => authed<unknown>('DELETE', `/staff/users/${encodeURIComponent(id)}/`),
    calculations: (filter: CalculationFilter, offset: number, limit: number, ascending = false) => {
      const query = filterQuery(filter);
      query.set('offset', String(offset));
      query.set('limit', String(limit));
      if (ascending) query.set('order', 'asc');
      return authed<CalculationPage>('GET', `/staff/calculations/page/?${query.toString()}`);
    },
    calculation: (id: string) => authed<CalculationDetail>('GET', `/staff/calculations/${encodeURIComponent(id)}/`),
    calculationSystems: () => authed<string[]>('GET', '/staff/calculations/systems/'),
    /** The address of the CSV export of a filter: an ordinary download, the session cookie goes with it. */
    csvURL: (filter: CalculationFilter) => `${API}/staff/calculations/csv/?${filterQuery(filter).toString()}`,
    history: (kind?: 'users' | 'availability', limit = 20) =>
      authed<StaffLogEntry[]>('GET', `/staff/history/?limit=${limit}${kind ? `&kind=${kind}` : ''}`),
    map: () => authed<StaffMap>('GET', '/staff/map/'),
    offers: () => authed<CountryOffer[]>('GET', '/staff/availability/'),
    changeOffer: (change: OfferChange) => authed<CountryOffer>('POST', '/staff/availability/', change),
  };
}

export type StaffApi = ReturnType<typeof createStaffApi>;
