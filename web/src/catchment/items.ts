// Point inflows and accessories placed along a run (design-tool.md sections
// 3 to 5): what the inflow and accessory popups offer at a position, what
// they accept, and how accepted items go into the run's inputs. Inflows are
// placed by their distance from the head, accessories by their distance
// from the discharge end, as the server reads them (domain/design
// request.go); the profile's clicks give a distance from the head.
import type { DrainageSystem, Results, RunInputs, SegmentResult } from '../design/types';

export const CONNECTIONS = ['direct-pipe', 'access-box', 'concrete-channel'] as const;
export type Connection = (typeof CONNECTIONS)[number];

export const ACCESSORY_TYPES = ['trash-box', 'access-box', 'access-cover', 'end-cap', 'end-cap-with-outlet', 'concrete-chamber', 'connection-plate', 'no-automatic'] as const;
export type AccessoryType = (typeof ACCESSORY_TYPES)[number];

/** A point inflow (spec section 3, Inflow). */
export interface Inflow {
  id: string;
  /** From the head, m. */
  distance_m: number;
  /** Another run of the project whose discharge flows in, or null for a given flow rate. */
  source: string | null;
  flow_lps: number;
  connection: Connection | '';
  /** Unconfirmed items are ignored by the calculation and by saving until accepted. */
  toBeConfirmed: boolean;
  /** The access box an access-box connection stands in. */
  accessoryId?: string | null;
}

/** A placed accessory (spec section 3, Accessory). */
export interface Accessory {
  id: string;
  /** From the discharge end, m. */
  distance_m: number;
  type: AccessoryType | '';
  toBeConfirmed: boolean;
  automatic?: boolean;
  diameter_mm?: number;
  /** A trash box's discharge or an end cap's id; empty for the catalogue's choice. */
  product?: string | number | null;
}

/** What the catalogue offers along a channel at the run's loading (domain/catalogue AvailableAccessories). */
export interface AvailableAccessories {
  available_boxes?: { type: string; han: string; description: string; length_mm: number; discharge_lps?: number }[];
  use_access_cover: boolean;
  use_access_box: boolean;
  use_trash_box: boolean;
  use_concrete_chamber: boolean;
}

/** A stretch of the calculated run with what may be placed along it, m from the head. */
export interface PlacementStretch {
  from: number;
  to: number;
  available: AvailableAccessories | null;
}

/** Where items are being placed: the run, its calculated channels and its discharge. */
export interface PlacementEnv {
  lengthM: number;
  system: Pick<DrainageSystem, 'slug' | 'product_type'> | null;
  /** The largest channel's name (results.largest_channel); an L channel takes no box at its discharge. */
  largestChannel: string | null;
  stretches: PlacementStretch[];
  dischargeSetting: string;
}

/** Items within this of an end snap to it when nothing can be placed where they are (spec section 4). */
export const SNAP_M = 1;
/** The system whose discharge end takes no end cap with outlet (catalogue systems.json: end_cap_with_outlet false). */
const NO_OUTLET_CAP_SYSTEMS = ['big-bls'];

const EPS = 1e-6;
const round1 = (value: number) => Math.round(value * 10) / 10;

type SegmentWithAccessories = SegmentResult & { available_accessories?: AvailableAccessories | null };

export function placementEnv(inputs: RunInputs, results: Results | null | undefined): PlacementEnv {
  const lengthM = typeof inputs.channel_length_m === 'number' ? inputs.channel_length_m : 0;
  const segments = (results?.segments ?? []) as SegmentWithAccessories[];
  let at = 0;
  const stretches = segments.map((segment) => {
    const from = typeof segment.start_m === 'number' ? segment.start_m : at;
    const to = typeof segment.end_m === 'number' ? segment.end_m : from + segment.length_mm / 1000;
    at = to;
    return { from, to, available: segment.available_accessories ?? null };
  });
  return {
    lengthM,
    system: inputs.selectedSystem ?? null,
    largestChannel: typeof results?.largest_channel === 'string' ? results.largest_channel : null,
    stretches,
    dischargeSetting: typeof inputs.dischargeSetting === 'string' ? inputs.dischargeSetting : 'free-outflow',
  };
}

/** What may be placed at a distance from the head; null when the results do not say. */
export function availableAt(env: PlacementEnv, fromHead: number): AvailableAccessories | null {
  if (env.stretches.length === 0) return null;
  // A joint belongs to the downstream channel, as the catalogue lays it.
  const stretch = [...env.stretches].reverse().find((s) => fromHead >= s.from - EPS) ?? env.stretches[0]!;
  return stretch.available;
}

export const isConcreteSystem = (env: PlacementEnv) => env.system?.product_type === 'M';

// --- Inflows -----------------------------------------------------------------

export type InflowField = 'position' | 'flow' | 'connection';
export type InflowError = 'outOfRun' | 'needsFlow' | 'flowNegative' | 'needsConnection' | 'noBox';

/** Whether an inflow may be connected through an access box at its position (spec section 5). */
export function accessBoxConnectionAllowed(env: PlacementEnv, fromHead: number): boolean {
  const available = availableAt(env, fromHead);
  return available === null ? !isConcreteSystem(env) : available.use_access_box;
}

/** The inflow popup's checks: position within the run, a source or a flow rate, a connection that exists there. */
export function validateInflow(draft: Inflow, env: PlacementEnv): Partial<Record<InflowField, InflowError>> {
  const errors: Partial<Record<InflowField, InflowError>> = {};
  if (!(draft.distance_m >= 0) || draft.distance_m > env.lengthM + EPS) errors.position = 'outOfRun';
  if (!draft.source) {
    if (!Number.isFinite(draft.flow_lps) || draft.flow_lps < 0) errors.flow = 'flowNegative';
    else if (!(draft.flow_lps > 0)) errors.flow = 'needsFlow';
  }
  if (!draft.connection) errors.connection = 'needsConnection';
  else if (draft.connection === 'access-box' && !errors.position && !accessBoxConnectionAllowed(env, draft.distance_m)) errors.connection = 'noBox';
  return errors;
}

export function newInflow(id: string, fromHead: number, env: PlacementEnv): Inflow {
  return { id, distance_m: clampPosition(fromHead, env.lengthM), source: null, flow_lps: 0, connection: 'direct-pipe', toBeConfirmed: true, accessoryId: null };
}

/** A position on the run to 0.1 m, within it. */
export function clampPosition(value: number, lengthM: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(Math.max(0, round1(value)), Math.max(0, lengthM));
}

// --- Accessories ---------------------------------------------------------------

export type AccessoryError = 'outOfRun' | 'needsType' | 'unavailable';

/** From the discharge end, as accessories are placed, to the head and back. */
export const fromDischarge = (fromHead: number, lengthM: number) => Math.max(0, Math.round((lengthM - fromHead) * 1000) / 1000);
export const fromHeadOf = (distanceFromDischarge: number, lengthM: number) => Math.max(0, Math.round((lengthM - distanceFromDischarge) * 1000) / 1000);

/**
 * Which accessory types the popup offers at a distance from the discharge
 * (spec section 5): boxes only where the channel takes them (and never at
 * the discharge of a run ending in an L channel), covers and chambers where
 * the catalogue has them, end caps not for concrete channels, and no end
 * cap with outlet for the system that has none.
 */
export function accessoryTypesAt(env: PlacementEnv, distanceFromDischarge: number): Record<AccessoryType, boolean> {
  const fromHead = fromHeadOf(distanceFromDischarge, env.lengthM);
  const available = availableAt(env, fromHead);
  const concrete = isConcreteSystem(env);
  const atDischarge = Math.abs(distanceFromDischarge) <= EPS;
  const lChannel = !!env.largestChannel && /L$/i.test(env.largestChannel.trim());
  const atEnd = atDischarge || Math.abs(distanceFromDischarge - env.lengthM) <= EPS;
  const boxes = !(atDischarge && lChannel);
  return {
    'trash-box': boxes && !concrete && (available ? available.use_trash_box : true),
    'access-box': boxes && !concrete && (available ? available.use_access_box : true),
    'access-cover': !concrete && (available ? available.use_access_cover : true),
    'end-cap': !concrete && atEnd,
    'end-cap-with-outlet': !concrete && atEnd && !(env.system && NO_OUTLET_CAP_SYSTEMS.includes(env.system.slug)),
    'concrete-chamber': available ? available.use_concrete_chamber : concrete,
    'connection-plate': !concrete,
    'no-automatic': atEnd,
  };
}

/** The accessories the catalogue offers along a channel (available_accessories): boxes, covers and chambers. */
const CATALOGUE_TYPES: readonly AccessoryType[] = ['trash-box', 'access-box', 'access-cover', 'concrete-chamber'];

/**
 * Whether the catalogue offers any accessory at a place; when it offers none
 * the popup shows the "no accessories available" notice with the advice to
 * contact the provider.
 */
export function anyAccessoryAt(env: PlacementEnv, distanceFromDischarge: number): boolean {
  const offered = accessoryTypesAt(env, distanceFromDischarge);
  return CATALOGUE_TYPES.some((type) => offered[type]);
}

/**
 * An accessory within 1 m of an end snaps to that end when nothing can be
 * placed where it is (spec section 4); otherwise it stays.
 */
export function snapAccessory(env: PlacementEnv, distanceFromDischarge: number): number {
  const d = clampPosition(distanceFromDischarge, env.lengthM);
  if (anyAccessoryAt(env, d)) return d;
  if (d <= SNAP_M + EPS) return 0;
  if (env.lengthM - d <= SNAP_M + EPS) return env.lengthM;
  return d;
}

export function validateAccessory(draft: Accessory, env: PlacementEnv): Partial<Record<'position' | 'type', AccessoryError>> {
  const errors: Partial<Record<'position' | 'type', AccessoryError>> = {};
  if (!(draft.distance_m >= 0) || draft.distance_m > env.lengthM + EPS) errors.position = 'outOfRun';
  if (!draft.type) errors.type = 'needsType';
  else if (!errors.position && !accessoryTypesAt(env, draft.distance_m)[draft.type]) errors.type = 'unavailable';
  return errors;
}

/** The trash box or end cap with outlet at the discharge that stands for the run's discharge setting cannot be deleted (spec section 5). */
export function canDeleteAccessory(accessory: Accessory, dischargeSetting: string): boolean {
  if (Math.abs(accessory.distance_m) > EPS) return true;
  if (accessory.type === 'trash-box' && dischargeSetting === 'outflow-in-trashbox') return false;
  if (accessory.type === 'end-cap-with-outlet' && dischargeSetting === 'end-cap-with-outlet') return false;
  return true;
}

export function newAccessory(id: string, fromHead: number, env: PlacementEnv): Accessory {
  const distance = snapAccessory(env, fromDischarge(clampPosition(fromHead, env.lengthM), env.lengthM));
  const offered = accessoryTypesAt(env, distance);
  const type = ACCESSORY_TYPES.find((t) => t === 'access-box' && offered[t]) ?? '';
  return { id, distance_m: round1(distance), type, toBeConfirmed: true };
}

// --- The run's lists -------------------------------------------------------------

/** The run's inflows, with the defaults of fields an older save may lack. */
export function inflowsOf(inputs: Pick<RunInputs, 'inflows'>): Inflow[] {
  if (!Array.isArray(inputs.inflows)) return [];
  return inputs.inflows.map((inflow, i) => ({
    id: inflow.id ?? `inflow-${i}`,
    distance_m: inflow.distance_m,
    source: inflow.source ?? null,
    flow_lps: typeof inflow.flow_lps === 'number' ? inflow.flow_lps : 0,
    connection: inflow.connection ?? 'direct-pipe',
    toBeConfirmed: inflow.toBeConfirmed === true,
    accessoryId: inflow.accessoryId ?? null,
  }));
}

export function accessoriesOf(inputs: Pick<RunInputs, 'accessories'>): Accessory[] {
  if (!Array.isArray(inputs.accessories)) return [];
  return inputs.accessories.map((accessory, i) => ({ ...accessory, id: accessory.id ?? `accessory-${i}`, type: accessory.type ?? '', toBeConfirmed: accessory.toBeConfirmed === true }));
}

export interface Items {
  inflows: Inflow[];
  accessories: Accessory[];
}

/**
 * Accepts an inflow into the run's lists: confirmed, in place of the one with
 * its id. An access-box connection brings its access box at the same place
 * (kept with the inflow: moved, or removed, with it).
 */
export function acceptInflow(items: Items, draft: Inflow, env: PlacementEnv, newId: () => string): Items {
  const previous = items.inflows.find((i) => i.id === draft.id);
  let accessories = items.accessories;
  let accessoryId = previous?.accessoryId ?? draft.accessoryId ?? null;
  if (draft.connection === 'access-box') {
    const box: Accessory = { id: accessoryId ?? newId(), distance_m: round1(fromDischarge(draft.distance_m, env.lengthM)), type: 'access-box', toBeConfirmed: false };
    accessoryId = box.id;
    accessories = accessories.some((a) => a.id === box.id) ? accessories.map((a) => (a.id === box.id ? box : a)) : [...accessories, box];
  } else if (accessoryId) {
    const linked = accessoryId;
    accessories = accessories.filter((a) => a.id !== linked);
    accessoryId = null;
  }
  const accepted: Inflow = { ...draft, flow_lps: draft.flow_lps || 0, toBeConfirmed: false, accessoryId };
  const inflows = previous ? items.inflows.map((i) => (i.id === draft.id ? accepted : i)) : [...items.inflows, accepted];
  return { inflows: sortInflows(inflows), accessories: sortAccessories(accessories) };
}

export function removeInflow(items: Items, id: string): Items {
  const inflow = items.inflows.find((i) => i.id === id);
  return {
    inflows: items.inflows.filter((i) => i.id !== id),
    accessories: inflow?.accessoryId ? items.accessories.filter((a) => a.id !== inflow.accessoryId) : items.accessories,
  };
}

export function acceptAccessory(items: Items, draft: Accessory): Items {
  const accepted: Accessory = { ...draft, toBeConfirmed: false, automatic: false };
  const exists = items.accessories.some((a) => a.id === draft.id);
  const accessories = exists ? items.accessories.map((a) => (a.id === draft.id ? accepted : a)) : [...items.accessories, accepted];
  return { ...items, accessories: sortAccessories(accessories) };
}

/** Removes an accessory; an inflow it stood in for goes back to a direct pipe. */
export function removeAccessory(items: Items, id: string): Items {
  return {
    accessories: items.accessories.filter((a) => a.id !== id),
    inflows: items.inflows.map((i) => (i.accessoryId === id ? { ...i, accessoryId: null, connection: 'direct-pipe' as const } : i)),
  };
}

const sortInflows = (list: Inflow[]) => [...list].sort((a, b) => a.distance_m - b.distance_m);
const sortAccessories = (list: Accessory[]) => [...list].sort((a, b) => b.distance_m - a.distance_m);

/** Only accepted items count for the calculation and the save (spec section 4). */
export function confirmedOnly<T extends { toBeConfirmed?: boolean }>(items: readonly T[] | undefined): T[] {
  return (items ?? []).filter((item) => item.toBeConfirmed !== true);
}

/** Inflows whose source is another run: each carries that run's discharge. */
export function sourcedInflows(inputs: RunInputs): Inflow[] {
  return confirmedOnly(inflowsOf(inputs)).filter((i) => !!i.source);
}
