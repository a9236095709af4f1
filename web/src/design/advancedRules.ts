// The rules of advanced mode (design-tool.md sections 4, 5 and 9) as pure
// functions: the channels picked by hand, the discharge options, cutting,
// drilling, the in-situ concrete channel and the auto-cut arithmetic. Where
// the server applies the same rule (domain/design/validate.go,
// domain/catalogue), both sides are held to one table of cases,
// domain/design/testdata/advanced.json (advancedRules.test.ts and the Go
// test advanced_table_test.go read it).
import type { DrainageSystem, GratingOption, RunInputs } from './types';

export type ChannelKind = 'standard' | 'l' | 'height-range';

/** A channel as GET /drainage/channel/ lists it (domain/catalogue Channel). */
export interface ChannelOption {
  slug: string;
  name: string;
  product_type?: string;
  sub_product?: string;
  channel_length_mm: number;
  body_height_mm: number;
  width_mm: number;
  outer_width_mm?: number;
  max_downstream_water_depth_mm: number;
  /** Above 0 only for an element with a built-in fall. */
  upstream_water_depth_mm: number;
  display_order?: number;
  kind: ChannelKind;
  height_range?: { min_mm: number; max_mm: number } | null;
}

/**
 * A channel used in the run, head to outlet: its count and what the rules
 * and the drawing need of it, so that a loaded run is drawn and checked
 * without asking the catalogue again (the spec's Channel entity with its
 * "number used"). The server reads slug and count.
 */
export interface ChannelUse {
  slug: string;
  count: number;
  name: string;
  channel_length_mm: number;
  width_mm: number;
  body_height_mm: number;
  kind: ChannelKind;
  max_downstream_water_depth_mm: number;
  upstream_water_depth_mm: number;
}

export interface Cutting {
  distance_in_mm: number;
  angle_deg: number;
  cut_from_left: boolean;
}

export type DrillPosition = 'bottom' | 'leftWall' | 'rightWall';
export const DRILL_POSITIONS: readonly DrillPosition[] = ['bottom', 'leftWall', 'rightWall'];

export interface Drilling {
  position: DrillPosition;
  hole_distance_mm: number;
  hole_diameter_mm: number;
}

export interface ConcreteSection {
  width: number;
  depth: number;
  /** Manning's n. */
  roughness: number;
}

export const DISCHARGE_SETTINGS = ['free-outflow', 'outflow-in-trashbox', 'end-cap-with-outlet', 'modification-last-element'] as const;
export type DischargeSetting = (typeof DISCHARGE_SETTINGS)[number];

// Section 9 and the catalogue (domain/catalogue drilling.go, concrete.go, layout.go).
export const DRILL_DIAMETERS = [50, 75, 110, 125, 160, 200, 225, 250, 315] as const;
export const DRILL_MARGIN_MM = 100;
export const DEFAULT_DRILLING: Drilling = { position: 'bottom', hole_distance_mm: 150, hole_diameter_mm: 50 };
export const MIN_PIECE_MM = 100;
export const HEAD_CUTTING: Cutting = { distance_in_mm: 0, angle_deg: 90, cut_from_left: false };
export const DISCHARGE_CUTTING: Cutting = { distance_in_mm: 100, angle_deg: 90, cut_from_left: false };
export const ROUGHNESS = { min: 0.00001, max: 0.2, default: 0.025 } as const;
export const KST = { min: 5, max: 100000 } as const;

/**
 * The L channel's preset outlet by width: diameter and centre distance (mm).
 * 100, 150, 200 and 500 are the spec's; 300 and 400 are "not shown" and
 * follow domain/catalogue (docs/decisions.md, "L-channel presets").
 */
export const L_PRESETS: Readonly<Record<number, readonly [number, number]>> = {
  100: [110, 106],
  150: [160, 131],
  200: [200, 152],
  300: [250, 178],
  400: [200, 153],
  500: [200, 153],
};

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const isConcrete = (system: DrainageSystem | null | undefined) => system?.product_type === 'M';
const isHighCapacity = (system: DrainageSystem | null | undefined) => system?.product_type === 'C';

/** Who may use advanced mode, and the mode a run without its own flag takes. */
export interface AdvancedMode {
  allowed: boolean;
  byDefault: boolean;
}

export const NO_ADVANCED_MODE: AdvancedMode = { allowed: false, byDefault: false };

/** Whether the run is designed in advanced mode for this user: never without the right; a run that says nothing takes the user's default. */
export function isAdvanced(inputs: RunInputs, mode: AdvancedMode): boolean {
  if (!mode.allowed) return false;
  return typeof inputs.advanced === 'boolean' ? inputs.advanced : mode.byDefault;
}

/** The run's channels, head to outlet, as stored; counts of 0 are not kept. */
export function channelUses(inputs: RunInputs): ChannelUse[] {
  const list = inputs.channels;
  if (!Array.isArray(list)) return [];
  return (list as ChannelUse[]).filter((use) => use && typeof use.slug === 'string' && (num(use.count) ?? 0) > 0);
}

export function channelUseOf(option: ChannelOption, count: number): ChannelUse {
  return {
    slug: option.slug,
    count,
    name: option.name,
    channel_length_mm: option.channel_length_mm,
    width_mm: option.width_mm,
    body_height_mm: option.body_height_mm,
    kind: option.kind,
    max_downstream_water_depth_mm: option.max_downstream_water_depth_mm,
    upstream_water_depth_mm: option.upstream_water_depth_mm,
  };
}

export const hasLChannel = (uses: readonly ChannelUse[]) => uses.some((use) => use.kind === 'l');
export const lastUse = (uses: readonly ChannelUse[]): ChannelUse | undefined => uses[uses.length - 1];

export function cuttingOf(value: unknown): Cutting | null {
  if (!value || typeof value !== 'object') return null;
  const cut = value as Partial<Cutting>;
  return { distance_in_mm: num(cut.distance_in_mm) ?? 0, angle_deg: num(cut.angle_deg) ?? 90, cut_from_left: cut.cut_from_left === true };
}

export function drillingOf(value: unknown): Drilling {
  if (!value || typeof value !== 'object') return { ...DEFAULT_DRILLING };
  const d = value as Partial<Drilling>;
  return {
    position: DRILL_POSITIONS.includes(d.position as DrillPosition) ? (d.position as DrillPosition) : 'bottom',
    hole_distance_mm: num(d.hole_distance_mm) ?? DEFAULT_DRILLING.hole_distance_mm,
    hole_diameter_mm: num(d.hole_diameter_mm) ?? DEFAULT_DRILLING.hole_diameter_mm,
  };
}

export function concreteOf(value: unknown): ConcreteSection {
  const c = (value && typeof value === 'object' ? value : {}) as Partial<ConcreteSection>;
  return { width: num(c.width) ?? 0, depth: num(c.depth) ?? 0, roughness: num(c.roughness) || ROUGHNESS.default };
}

export function dischargeOf(inputs: RunInputs): DischargeSetting {
  const setting = inputs.dischargeSetting;
  return DISCHARGE_SETTINGS.includes(setting as DischargeSetting) ? (setting as DischargeSetting) : 'free-outflow';
}

/** The channels' whole length, mm. */
export function channelsLengthMM(uses: readonly ChannelUse[]): number {
  return uses.reduce((sum, use) => sum + use.count * use.channel_length_mm, 0);
}

/** The length the run's channels lay, cuttings taken off (mm). */
export function laidLengthMM(uses: readonly ChannelUse[], head: Cutting | null, discharge: Cutting | null): number {
  return channelsLengthMM(uses) - (head?.distance_in_mm ?? 0) - (discharge?.distance_in_mm ?? 0);
}

/** The run's length as the catchment gives it (the length the channels must lay), mm. */
export function targetLengthMM(inputs: RunInputs): number {
  return Math.round((num(inputs.channel_length_m) ?? 0) * 1000);
}

/** The laid length of the last element: its length less the discharge cut, and the head cut when it is the only element. */
export function lastElementLengthMM(uses: readonly ChannelUse[], head: Cutting | null, discharge: Cutting | null): number {
  const last = lastUse(uses);
  if (!last) return 0;
  let length = last.channel_length_mm - (discharge?.distance_in_mm ?? 0);
  if (uses.length === 1 && last.count === 1) length -= head?.distance_in_mm ?? 0;
  return length;
}

// Channel counts (section 5: whole numbers 0 or more; L and height-range channels 0 or 1).

export type CountProblem = 'notWhole' | 'negative' | 'once';

export const togglesOnce = (kind: ChannelKind) => kind === 'l' || kind === 'height-range';

export function countProblem(kind: ChannelKind, count: number): CountProblem | null {
  if (!Number.isFinite(count) || !Number.isInteger(count)) return 'notWhole';
  if (count < 0) return 'negative';
  if (togglesOnce(kind) && count > 1) return 'once';
  return null;
}

/**
 * Stepped follows the channels (section 4: on by itself when more than one
 * type is used), where stepping is allowed at all: not on a system that
 * cannot step, with a built-in fall or with controlled discharge. The
 * high-capacity system is always stepped unless its discharge is controlled.
 */
export function steppedFor(uses: readonly ChannelUse[], system: DrainageSystem | null | undefined, controlled: boolean): boolean {
  if (!system) return false;
  if (controlled) return false;
  if (isHighCapacity(system)) return true;
  const builtInFall = uses.some((use) => use.upstream_water_depth_mm > 0);
  return uses.length > 1 && system.canStep && !builtInFall;
}

/** The L channel's preset drilling, by width; null for a width without one. */
export function lChannelPreset(widthMM: number): Drilling | null {
  const preset = L_PRESETS[widthMM];
  return preset ? { position: 'bottom', hole_diameter_mm: preset[0], hole_distance_mm: preset[1] } : null;
}

// Discharge (section 5, "Discharge radios").

export type DischargeOptions = Record<DischargeSetting, boolean>;

/**
 * Which discharge settings may be chosen: none without channels or with an
 * L channel (its outlet fixes the discharge); the trash box and the end cap
 * not for the concrete channel, which has no channels and whose run the
 * calculation also refuses a modified last element; the modification not
 * for the high-capacity system.
 */
export function dischargeOptions(system: DrainageSystem | null | undefined, uses: readonly ChannelUse[]): DischargeOptions {
  const none: DischargeOptions = { 'free-outflow': false, 'outflow-in-trashbox': false, 'end-cap-with-outlet': false, 'modification-last-element': false };
  if (!system) return none;
  if (isConcrete(system)) return { ...none, 'free-outflow': true };
  if (uses.length === 0 || hasLChannel(uses)) return none;
  return { 'free-outflow': true, 'outflow-in-trashbox': true, 'end-cap-with-outlet': true, 'modification-last-element': !isHighCapacity(system) };
}

/**
 * Choosing a discharge setting clears what no longer applies: the trash
 * box, the end cap, and the drilling flag (hasDrillingAtLast: the last
 * element is drilled, which is what the modification is, unless an L
 * channel brings its own outlet); the modification fits the drilling to
 * the last element. The drilling's values stay for another time: the
 * calculation reads them only with the modification.
 */
export function dischargeChanges(inputs: RunInputs, setting: DischargeSetting): Partial<RunInputs> {
  const changes: Partial<RunInputs> = { dischargeSetting: setting };
  if (setting !== 'outflow-in-trashbox') changes.outflowTrashbox = null;
  if (setting !== 'end-cap-with-outlet') changes.outflowEndcap = null;
  if (setting === 'modification-last-element') {
    const uses = channelUses(inputs);
    changes.hasDrillingAtLast = !hasLChannel(uses) && uses.length > 0;
    changes.drilling = fitDrilling(drillingOf(inputs.drilling), uses, cuttingOf(inputs.headCutting), cuttingOf(inputs.dischargeCutting));
  } else {
    changes.hasDrillingAtLast = false;
  }
  return changes;
}

// Cutting (section 5: distance 0 to the run length in mm; angle 1 to 90 degrees, one decimal).

export type CuttingProblem = 'distance' | 'angle';

export function cuttingProblem(cut: Cutting, runLengthM: number): CuttingProblem | null {
  if (!(cut.distance_in_mm >= 0) || cut.distance_in_mm > runLengthM * 1000) return 'distance';
  if (!(cut.angle_deg >= 1 && cut.angle_deg <= 90)) return 'angle';
  return null;
}

/** Angles are kept to one decimal, distances to the whole mm. */
export const roundAngle = (angle: number) => Math.round(angle * 10) / 10;

// Drilling (section 5).

/** The diameters allowed: up to the first at or above the channel width; in a side wall no larger than the maximum downstream water depth. */
export function drillDiameters(widthMM: number, maxDownstreamMM: number, position: DrillPosition): number[] {
  const out: number[] = [];
  for (const diameter of DRILL_DIAMETERS) {
    if (position !== 'bottom' && diameter > maxDownstreamMM) break;
    out.push(diameter);
    if (diameter >= widthMM) break;
  }
  return out;
}

/** The hole centre's distance from the element end: diameter/2 + 100 to length − diameter/2 − 100 (whole mm, as the server counts). */
export function drillDistanceRange(elementMM: number, diameterMM: number): { min: number; max: number } {
  const half = Math.floor(diameterMM / 2);
  return { min: half + DRILL_MARGIN_MM, max: elementMM - half - DRILL_MARGIN_MM };
}

/** A distance brought into the range of a new diameter (section 5: adjusted automatically when the diameter changes). */
export function adjustDrillDistance(distanceMM: number, elementMM: number, diameterMM: number): number {
  const { min, max } = drillDistanceRange(elementMM, diameterMM);
  if (max < min) return min;
  return Math.min(max, Math.max(min, distanceMM));
}

export type DrillingProblem = 'diameter' | 'distance' | 'noFit';

export function drillingProblem(drilling: Drilling, last: Pick<ChannelUse, 'width_mm' | 'max_downstream_water_depth_mm' | 'kind'> | undefined, elementMM: number): DrillingProblem | null {
  if (!last || last.kind === 'l') return null;
  if (!drillDiameters(last.width_mm, last.max_downstream_water_depth_mm, drilling.position).includes(drilling.hole_diameter_mm)) return 'diameter';
  const { min, max } = drillDistanceRange(elementMM, drilling.hole_diameter_mm);
  if (max < min) return 'noFit';
  if (drilling.hole_distance_mm < min || drilling.hole_distance_mm > max) return 'distance';
  return null;
}

/** A drilling made to fit the last element: the L channel's preset, or an allowed diameter and a distance within the margins. */
export function fitDrilling(drilling: Drilling, uses: readonly ChannelUse[], head: Cutting | null, discharge: Cutting | null): Drilling {
  const last = lastUse(uses);
  if (!last) return drilling;
  if (last.kind === 'l') return lChannelPreset(last.width_mm) ?? drilling;
  const allowed = drillDiameters(last.width_mm, last.max_downstream_water_depth_mm, drilling.position);
  const diameter = allowed.includes(drilling.hole_diameter_mm)
    ? drilling.hole_diameter_mm
    : (allowed.filter((d) => d <= drilling.hole_diameter_mm).pop() ?? allowed[0] ?? drilling.hole_diameter_mm);
  const element = lastElementLengthMM(uses, head, discharge);
  return { ...drilling, hole_diameter_mm: diameter, hole_distance_mm: adjustDrillDistance(drilling.hole_distance_mm, element, diameter) };
}

// Channel selection (section 4, "Channel selection (advanced)").

/**
 * A channel's count changed in the table: the run's channels in the
 * table's order (an L channel last, and only one of them), stepped, and
 * what an L channel brings or takes away (the modification of the last
 * element with its preset drilling and no discharge cutting; free outflow
 * again without it). Clearing the channels sets free outflow.
 */
export function countChanges(inputs: RunInputs, options: readonly ChannelOption[], slug: string, count: number): Partial<RunInputs> {
  const option = options.find((o) => o.slug === slug);
  const before = channelUses(inputs);
  if (!option) return {};
  const wanted = togglesOnce(option.kind) ? (count > 0 ? 1 : 0) : Math.max(0, Math.round(count));
  const counts = new Map(before.map((use) => [use.slug, use.count]));
  counts.set(slug, wanted);
  // One L channel at a time: it is the run's last element.
  if (option.kind === 'l' && wanted > 0) for (const other of options) if (other.kind === 'l' && other.slug !== slug) counts.delete(other.slug);
  const order = (o: ChannelOption) => (o.kind === 'l' ? 1 : 0);
  const known = [...options].sort((a, b) => order(a) - order(b) || (a.display_order ?? 0) - (b.display_order ?? 0));
  const uses: ChannelUse[] = [];
  for (const o of known) {
    const n = counts.get(o.slug) ?? 0;
    if (n > 0) uses.push(channelUseOf(o, n));
  }
  // Channels of the run the list does not show (another loading, say) keep their place ahead of the L channel.
  for (const use of before) {
    if (known.some((o) => o.slug === use.slug) || (counts.get(use.slug) ?? 0) === 0) continue;
    const lAt = uses.findIndex((u) => u.kind === 'l');
    uses.splice(lAt < 0 ? uses.length : lAt, 0, use);
  }

  const changes: Partial<RunInputs> = { channels: uses };
  const system = inputs.selectedSystem ?? null;
  changes.stepped = steppedFor(uses, system, (num(inputs.controlled_outflow) ?? 0) > 0);
  const hadL = hasLChannel(before);
  const hasL = hasLChannel(uses);
  const head = cuttingOf(inputs.headCutting);
  if (hasL) {
    changes.dischargeSetting = 'modification-last-element';
    changes.outflowTrashbox = null;
    changes.outflowEndcap = null;
    changes.hasDrillingAtLast = false;
    changes.drilling = lChannelPreset(lastUse(uses)!.width_mm) ?? drillingOf(inputs.drilling);
    changes.dischargeCutting = null;
  } else if (hadL || uses.length === 0) {
    Object.assign(changes, dischargeChanges(inputs, 'free-outflow'));
    // The L channel's preset goes with it ("free outflow with no drilling").
    if (hadL) changes.drilling = { ...DEFAULT_DRILLING };
  } else if (dischargeOf(inputs) === 'modification-last-element') {
    changes.drilling = fitDrilling(drillingOf(inputs.drilling), uses, head, cuttingOf(inputs.dischargeCutting));
  }
  return changes;
}

/** No built-in fall: the list reloads without the falling elements, and the counts of the channels still in it stay. */
export function builtInFallChanges(inputs: RunInputs, noBuiltInFall: boolean): Partial<RunInputs> {
  const changes: Partial<RunInputs> = { noBuiltInFall };
  if (!noBuiltInFall) return changes;
  const before = channelUses(inputs);
  const kept = before.filter((use) => use.upstream_water_depth_mm <= 0);
  if (kept.length !== before.length) {
    changes.channels = kept;
    changes.stepped = steppedFor(kept, inputs.selectedSystem, (num(inputs.controlled_outflow) ?? 0) > 0);
    if (kept.length === 0) Object.assign(changes, dischargeChanges(inputs, 'free-outflow'));
  }
  return changes;
}

/** Choosing a channel type clears the channels. */
export function channelTypeChanges(inputs: RunInputs, type: string, gratings: readonly GratingOption[]): Partial<RunInputs> {
  const changes: Partial<RunInputs> = { selectedChannelType: type, ...clearedChannels(inputs) };
  const family = familyOf(type);
  if (family && inputs.grating && !gratings.some((g) => g.slug === inputs.grating && (!g.family || g.family === family))) {
    changes.grating = gratings.find((g) => !g.family || g.family === family)?.slug ?? '';
  }
  return changes;
}

export function clearedChannels(inputs: RunInputs): Partial<RunInputs> {
  return { channels: [], stepped: steppedFor([], inputs.selectedSystem, (num(inputs.controlled_outflow) ?? 0) > 0), ...dischargeChanges(inputs, 'free-outflow'), headCutting: null, dischargeCutting: null };
}

/** The fibre range's channel types: 10xxx the standard family, 8xxx the ks family (docs/catalogue.md). */
export function familyOf(type: string | undefined): 'standard' | 'ks' | null {
  if (!type) return null;
  if (/^10\d{3}$/.test(type)) return 'standard';
  if (/^8\d{3}$/.test(type)) return 'ks';
  return null;
}

/** A family's gratings only, when the channel type belongs to one. */
export function gratingsOfType(gratings: readonly GratingOption[], type: string | undefined): GratingOption[] {
  const family = familyOf(type);
  return family ? gratings.filter((g) => !g.family || g.family === family) : [...gratings];
}

/**
 * A loading change in advanced mode (section 4): the big-bls system has
 * other articles at each loading, so its channels are cleared; E 600 takes
 * the fibre range's ks type to the standard family (the ks family has no
 * E 600), clearing the channels.
 */
export function loadingChanges(inputs: RunInputs, loading: string): Partial<RunInputs> {
  const system = inputs.selectedSystem;
  const type = typeof inputs.selectedChannelType === 'string' ? inputs.selectedChannelType : '';
  if (system?.slug === 'big-bls' && loading !== inputs.loading) return clearedChannels(inputs);
  if (loading === 'E600' && familyOf(type) === 'ks') return { selectedChannelType: `10${type.slice(1)}`, ...clearedChannels(inputs) };
  return {};
}

// Auto-cut (section 4, "Auto-cut dialog").

export type AutoCutChoice = 'head' | 'discharge' | 'shorten';

export interface AutoCutDialog {
  kind: 'autoCut';
  /** The channels lay less than the run length. */
  short: boolean;
  differenceMM: number;
  /** The choices that can be made (a cut leaving a piece under 100 mm, or at an L channel, cannot). */
  choices: AutoCutChoice[];
}

/** The dialog to open before an advanced calculation, or null when the channels lay the run length to the mm. */
export function autoCutDialog(inputs: RunInputs): AutoCutDialog | null {
  const uses = channelUses(inputs);
  if (uses.length === 0) return null;
  const laid = laidLengthMM(uses, cuttingOf(inputs.headCutting), cuttingOf(inputs.dischargeCutting));
  const target = targetLengthMM(inputs);
  if (laid === target) return null;
  const choices = (['shorten', 'head', 'discharge'] as const).filter((choice) => autoCut(inputs, choice) !== null);
  return { kind: 'autoCut', short: laid < target, differenceMM: Math.abs(laid - target), choices };
}

/**
 * The auto-cut's arithmetic. Short channels: the run is shortened to what
 * they lay. Long channels: cut at the head or the discharge, whole elements
 * taken away from that end first and the rest cut off the element there;
 * null when that leaves a piece under 100 mm, no channels, or would cut an
 * L channel's outlet off.
 */
export function autoCut(inputs: RunInputs, choice: AutoCutChoice): Partial<RunInputs> | null {
  const uses = channelUses(inputs).map((use) => ({ ...use }));
  const head = cuttingOf(inputs.headCutting);
  const discharge = cuttingOf(inputs.dischargeCutting);
  const laid = laidLengthMM(uses, head, discharge);
  const target = targetLengthMM(inputs);
  if (uses.length === 0 || laid === target) return null;
  if (choice === 'shorten') return laid < target && laid > 0 ? { channel_length_m: laid / 1000 } : null;
  if (laid < target) return null;
  if (choice === 'discharge' && lastUse(uses)!.kind === 'l') return null;
  const atHead = choice === 'head';
  const existing = atHead ? head : discharge;
  let rest = (existing?.distance_in_mm ?? 0) + (laid - target);
  const end = () => (atHead ? 0 : uses.length - 1);
  while (uses.length > 0 && rest >= uses[end()]!.channel_length_mm) {
    const use = uses[end()]!;
    rest -= use.channel_length_mm;
    use.count -= 1;
    if (use.count === 0) uses.splice(end(), 1);
  }
  if (uses.length === 0) return null;
  const other = atHead ? discharge : head;
  let piece = uses[end()]!.channel_length_mm - rest;
  if (uses.length === 1 && uses[0]!.count === 1) piece -= other?.distance_in_mm ?? 0;
  if (piece < MIN_PIECE_MM) return null;
  const cutting: Cutting | null = rest > 0 || existing ? { ...(existing ?? (atHead ? HEAD_CUTTING : DISCHARGE_CUTTING)), distance_in_mm: rest } : null;
  const changes: Partial<RunInputs> = { channels: uses, [atHead ? 'headCutting' : 'dischargeCutting']: cutting };
  changes.stepped = steppedFor(uses, inputs.selectedSystem, (num(inputs.controlled_outflow) ?? 0) > 0);
  if (dischargeOf(inputs) === 'modification-last-element' && !hasLChannel(uses)) {
    changes.drilling = fitDrilling(drillingOf(inputs.drilling), uses, atHead ? cutting : head, atHead ? discharge : cutting);
  }
  return changes;
}

// The in-situ concrete channel (section 5: width and depth whole mm; n 0.00001 to 0.2; Kst = 1/n, 5 to 100000).

export type ConcreteProblem = 'size' | 'roughness';

export function concreteProblem(section: ConcreteSection): ConcreteProblem | null {
  for (const size of [section.width, section.depth]) if (!(size > 0) || !Number.isInteger(size)) return 'size';
  if (!(section.roughness >= ROUGHNESS.min && section.roughness <= ROUGHNESS.max)) return 'roughness';
  return null;
}

/** Strickler's Kst from Manning's n, and back (Kst = 1/n). */
export const kstOf = (n: number) => (n > 0 ? 1 / n : 0);
export const roughnessOfKst = (kst: number) => (kst > 0 ? Number((1 / kst).toPrecision(6)) : 0);

// Calculate (section 5, advanced mode's extra conditions).

export type AdvancedBlocker = 'noChannels' | 'noConcreteSection' | 'chooseTrashBox' | 'chooseEndCap' | 'cutting' | 'drilling';

export function advancedBlockers(inputs: RunInputs): AdvancedBlocker[] {
  const system = inputs.selectedSystem;
  if (!system) return [];
  const blockers: AdvancedBlocker[] = [];
  if (isConcrete(system)) {
    if (concreteProblem(concreteOf(inputs.concreteChannel)) !== null) blockers.push('noConcreteSection');
    return blockers;
  }
  const uses = channelUses(inputs);
  if (uses.length === 0) blockers.push('noChannels');
  const setting = dischargeOf(inputs);
  if (setting === 'outflow-in-trashbox' && (inputs.outflowTrashbox === null || inputs.outflowTrashbox === undefined || inputs.outflowTrashbox === '')) blockers.push('chooseTrashBox');
  if (setting === 'end-cap-with-outlet' && !inputs.outflowEndcap) blockers.push('chooseEndCap');
  const length = num(inputs.channel_length_m) ?? 0;
  const head = cuttingOf(inputs.headCutting);
  const discharge = cuttingOf(inputs.dischargeCutting);
  if ((head && cuttingProblem(head, length)) || (discharge && cuttingProblem(discharge, length))) blockers.push('cutting');
  if (setting === 'modification-last-element' && !hasLChannel(uses)) {
    if (drillingProblem(drillingOf(inputs.drilling), lastUse(uses), lastElementLengthMM(uses, head, discharge)) !== null) blockers.push('drilling');
  }
  return blockers;
}
