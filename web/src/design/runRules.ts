// The design rules of design-tool.md sections 4, 5 and 9 for standard mode, as
// pure functions: what a run's inputs default to, what an edit changes besides
// the edited field, which warning it raises, and what keeps Calculate disabled.
import type { CalculationMethod, DrainageSystem, GratingOption, RunInputs } from './types';
import { round } from './units';
import { catchmentEdit, regenerateAreas, type CatchmentField } from '../catchment/edits';
import { confirmedOnly } from '../catchment/items';

export const DEFAULT_RAINFALL_MM_PER_HR = 50;
export const LENGTH_WARNING_M = 500;
export const MAX_AREA_M2 = 100000;
export const MAX_DEPTH_M = 10000;

const MAX_LENGTH_M: Record<CalculationMethod, number> = { GVF: 3000, HRW: 500 };
const MAX_SLOPE: Record<CalculationMethod, number> = { GVF: 9.9, HRW: 3.3 };

export function maxLength(method: CalculationMethod): number {
  return MAX_LENGTH_M[method];
}

export function maxSlope(method: CalculationMethod): number {
  return MAX_SLOPE[method];
}

/**
 * A slope in % as "1 in N" (N = 100 / slope), to one decimal. The slope
 * dialogs state the cap both ways; the spec's round "1 in 10" for GVF was a
 * steeper slope (10 %) than the 9.9 % the field is capped at.
 */
export function slopeRatio(percent: number): number {
  return round(100 / percent, 1);
}

/** Permeability options (name, value) of spec section 3; custom takes any value from 0 to 1. */
export const SURFACES = [
  { code: 'concretePavement', value: 1 },
  { code: 'resinSurface', value: 1 },
  { code: 'bpCement', value: 1 },
  { code: 'asphalt', value: 0.9 },
  { code: 'bpSand', value: 0.6 },
  { code: 'gravel', value: 0.6 },
  { code: 'facade', value: 0.5 },
  { code: 'softLandscape', value: 0.3 },
  { code: 'custom', value: null },
] as const;
export type SurfaceCode = (typeof SURFACES)[number]['code'];

/** What a fresh run's form shows; `defaultRainfall` is the project's default, if set. */
export function runDefaults(defaultRainfall: number | null | undefined): Required<
  Pick<
    RunInputs,
    | 'location'
    | 'catchmentShape'
    | 'calculation_method'
    | 'slopeSetting'
    | 'ground_slope'
    | 'permeability'
    | 'permeabilitySurface'
    | 'stepped'
    | 'rainfall'
    | 'dischargeSetting'
  >
> {
  return {
    location: '',
    catchmentShape: 'uniform',
    calculation_method: 'GVF',
    slopeSetting: 'slope',
    ground_slope: 0,
    permeability: 1,
    permeabilitySurface: 'concretePavement',
    stepped: false,
    rainfall: { rainfall_mm_per_hr: defaultRainfall && defaultRainfall > 0 ? defaultRainfall : DEFAULT_RAINFALL_MM_PER_HR },
    dischargeSetting: 'free-outflow',
  };
}

export type EffectiveInputs = RunInputs & ReturnType<typeof runDefaults>;

/** The inputs with the defaults filled in where the run has no value. */
export function effectiveInputs(inputs: RunInputs, defaultRainfall?: number | null): EffectiveInputs {
  const out: Record<string, unknown> = { ...runDefaults(defaultRainfall) };
  for (const [key, value] of Object.entries(inputs)) {
    if (value !== undefined && value !== null) out[key] = value;
  }
  return out as EffectiveInputs;
}

export const isPointProduct = (system: DrainageSystem | null | undefined) => system?.product_type === 'P';
export const isHighCapacity = (system: DrainageSystem | null | undefined) => system?.product_type === 'C';
export const isConcrete = (system: DrainageSystem | null | undefined) => system?.product_type === 'M';
export const needsLoading = (system: DrainageSystem | null | undefined) =>
  !!system && !isPointProduct(system) && !isConcrete(system) && system.loading_classes.length > 0;
export const needsGrating = (system: DrainageSystem | null | undefined) => !!system?.grated;

/** Standard mode offers neither the concrete channel (advanced only) nor anything of an unknown shape. */
export function standardSystems(systems: readonly DrainageSystem[]): DrainageSystem[] {
  return systems.filter((system) => !isConcrete(system));
}

/** EN 1433 classes are written with a space (C 250); LCN classes as they are. */
export function loadingLabel(loading: string): string {
  return /^[A-F]\d+$/.test(loading) ? `${loading[0]} ${loading.slice(1)}` : loading;
}

/** The gratings offered for the run's loading. */
export function gratingsFor(system: DrainageSystem | null | undefined, loading: string | undefined): GratingOption[] {
  if (!system?.grated) return [];
  return system.gratings.filter((grating) => !loading || grating.loading_classes.includes(loading));
}

/** A system family whose stepped runs get the theoretical-stepping warning (catalogue TheoreticalSteppingPrefix). */
export function theoreticalStepping(system: DrainageSystem | null | undefined): boolean {
  return !!system && system.canStep && !isHighCapacity(system) && system.slug.startsWith('poly-');
}

export function pipeDiameters(system: DrainageSystem | null | undefined): number[] {
  if (!system) return [];
  return Object.values(system.pipeDiameters)
    .map((pipe) => pipe.diameter_mm)
    .sort((a, b) => a - b);
}

/** A system as a dialog names it: the slug finds its name in the interface language, the name is the English fallback. */
export interface SystemRef {
  slug: string;
  name: string;
}

const systemRef = (system: DrainageSystem): SystemRef => ({ slug: system.slug, name: system.name });

/** The dialogs an edit or a calculation may raise. */
export type DesignWarning =
  | { kind: 'lengthOver500'; excess: number }
  | { kind: 'lengthOverLimit'; method: CalculationMethod; limit: number; excess: number }
  | { kind: 'areaTooLarge'; excess: number }
  /** limit: the method's steepest slope in %, the value the field is capped at. */
  | { kind: 'slopeTooSteep'; method: CalculationMethod; limit: number }
  | { kind: 'elevationTooSteep'; method: CalculationMethod; limit: number }
  | { kind: 'uphill' }
  | { kind: 'steppedNotAllowed'; system: SystemRef; material: 'steelOrConcrete' | 'other' }
  | { kind: 'theoreticalStepping'; system: SystemRef }
  | { kind: 'superCritical' }
  | { kind: 'position' };

export interface EditOutcome {
  /** Every field to store, the edited one included. */
  changes: Partial<RunInputs>;
  warning: DesignWarning | null;
}

/** The fields the design form edits. */
export type EditableField =
  | 'location'
  | 'selectedSystem'
  | 'loading'
  | 'grating'
  | 'channel_length_m'
  | 'catchment_depth_m'
  | 'drainage_area_m2'
  | 'calculation_method'
  | 'slopeSetting'
  | 'ground_slope'
  | 'upperElevation'
  | 'lowerElevation'
  | 'permeabilitySurface'
  | 'permeability'
  | 'stepped'
  | 'minimumSize'
  | 'rainfall_mm_per_hr'
  | 'pipe_diameter_mm'
  | 'has_body_extension'
  | 'water_inflow'
  /** The catchment shape, its areas, the inflows and accessories and the trash-box outflow (catchment/edits.ts). */
  | CatchmentField;

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** Depth = area / length / 2, kept to the form's 3 decimals. */
export function depthFor(area: number | null, length: number | null): number | null {
  if (area === null || length === null || length <= 0) return null;
  return round(area / length / 2, 3);
}

/** Area = 2 × depth × length. */
export function areaFor(depth: number | null, length: number | null): number | null {
  if (depth === null || length === null) return null;
  return round(2 * depth * length, 2);
}

/** Slope in % from the elevations over the length, to 2 decimals. */
export function slopeFromElevations(upper: number | null, lower: number | null, length: number | null): number | null {
  if (upper === null || lower === null || length === null || length <= 0) return null;
  return round(((upper - lower) / length) * 100, 2);
}

function lengthWarning(length: number | null, method: CalculationMethod): DesignWarning | null {
  if (length === null) return null;
  const limit = maxLength(method);
  if (length > limit) return { kind: 'lengthOverLimit', method, limit, excess: round(length - limit, 2) };
  if (length > LENGTH_WARNING_M) return { kind: 'lengthOver500', excess: round(length - LENGTH_WARNING_M, 2) };
  return null;
}

function areaWarning(area: number | null): DesignWarning | null {
  if (area !== null && area >= MAX_AREA_M2) return { kind: 'areaTooLarge', excess: round(area - (MAX_AREA_M2 - 1), 2) };
  return null;
}

/**
 * Applies one edit to a run: the edited field and everything the spec makes
 * follow from it (loading, grating, method and stepping on a system change,
 * depth and area kept consistent with the length, slope from elevations,
 * slope capped at the method's maximum), and the warning to show, if any.
 */
export function applyEdit(current: RunInputs, field: EditableField, value: unknown, defaultRainfall?: number | null): EditOutcome {
  const run = effectiveInputs(current, defaultRainfall);
  const method = run.calculation_method;
  const changes: Partial<RunInputs> = {};
  let warning: DesignWarning | null = null;

  switch (field) {
    case 'selectedSystem': {
      const system = value as DrainageSystem;
      return chooseSystem(run, system);
    }
    case 'loading': {
      changes.loading = String(value);
      const offered = gratingsFor(run.selectedSystem, changes.loading);
      if (needsGrating(run.selectedSystem) && !offered.some((grating) => grating.slug === run.grating)) {
        changes.grating = offered[0]?.slug ?? '';
      }
      break;
    }
    case 'channel_length_m': {
      const length = num(value);
      changes.channel_length_m = length;
      const area = num(run.drainage_area_m2);
      if (area !== null && length !== null && length > 0) changes.catchment_depth_m = depthFor(area, length);
      if (run.slopeSetting === 'elevation') {
        const slope = slopeFromElevations(num(run.upperElevation), num(run.lowerElevation), length);
        if (slope !== null) changes.ground_slope = slope;
      }
      warning = lengthWarning(length, method);
      break;
    }
    case 'drainage_area_m2': {
      const area = num(value);
      changes.drainage_area_m2 = area;
      const depth = depthFor(area, num(run.channel_length_m));
      if (depth !== null) changes.catchment_depth_m = depth;
      warning = areaWarning(area);
      break;
    }
    case 'catchment_depth_m': {
      const depth = num(value);
      changes.catchment_depth_m = depth;
      const length = num(run.channel_length_m);
      if (depth !== null && length !== null && length > 0) {
        changes.drainage_area_m2 = areaFor(depth, length);
        warning = areaWarning(changes.drainage_area_m2 ?? null);
      }
      break;
    }
    case 'calculation_method': {
      const next = value === 'HRW' && isHighCapacity(run.selectedSystem) ? 'HRW' : 'GVF';
      changes.calculation_method = next;
      // The spec re-checks length and slope against the new method's limits.
      const slope = num(run.ground_slope);
      if (slope !== null && slope > maxSlope(next)) {
        if (run.slopeSetting === 'slope') changes.ground_slope = maxSlope(next);
        warning = {
          kind: run.slopeSetting === 'slope' ? 'slopeTooSteep' : 'elevationTooSteep',
          method: next,
          limit: maxSlope(next),
        };
      }
      const length = lengthWarning(num(run.channel_length_m), next);
      if (length?.kind === 'lengthOverLimit') warning = length;
      break;
    }
    case 'slopeSetting': {
      const setting = value === 'elevation' ? 'elevation' : 'slope';
      changes.slopeSetting = setting;
      if (setting === 'elevation') {
        const slope = slopeFromElevations(num(run.upperElevation), num(run.lowerElevation), num(run.channel_length_m));
        if (slope !== null) changes.ground_slope = slope;
      }
      break;
    }
    case 'ground_slope': {
      const slope = num(value);
      if (slope !== null && slope > maxSlope(method)) {
        changes.ground_slope = maxSlope(method);
        warning = { kind: 'slopeTooSteep', method, limit: maxSlope(method) };
      } else {
        changes.ground_slope = slope;
      }
      break;
    }
    case 'upperElevation':
    case 'lowerElevation': {
      changes[field] = num(value);
      const upper = field === 'upperElevation' ? num(value) : num(run.upperElevation);
      const lower = field === 'lowerElevation' ? num(value) : num(run.lowerElevation);
      const slope = slopeFromElevations(upper, lower, num(run.channel_length_m));
      if (slope !== null) {
        changes.ground_slope = slope;
        if (slope < 0) warning = { kind: 'uphill' };
        else if (slope > maxSlope(method)) warning = { kind: 'elevationTooSteep', method, limit: maxSlope(method) };
      }
      break;
    }
    case 'permeabilitySurface': {
      const surface = SURFACES.find((option) => option.code === value);
      if (!surface) break;
      changes.permeabilitySurface = surface.code;
      if (surface.value !== null) changes.permeability = surface.value;
      break;
    }
    case 'permeability': {
      const permeability = num(value);
      changes.permeability = permeability === null ? 1 : Math.min(1, Math.max(0, permeability));
      changes.permeabilitySurface = 'custom';
      break;
    }
    case 'stepped': {
      const stepped = value === true;
      const system = run.selectedSystem;
      if (stepped && system && !system.canStep) {
        changes.stepped = false;
        warning = steppedRefusal(system);
      } else if (stepped && (num(run.controlled_outflow) ?? 0) > 0) {
        // Spec section 5: never stepped with controlled discharge; the radio is disabled then.
        changes.stepped = false;
      } else {
        changes.stepped = stepped;
        if (stepped && theoreticalStepping(system)) warning = { kind: 'theoreticalStepping', system: systemRef(system!) };
      }
      break;
    }
    case 'rainfall_mm_per_hr': {
      const rate = num(value);
      const typed = rate === null ? 0 : Math.max(0, rate);
      const { rainfall_mm_per_hr: before, return_period, storm_duration, climate_change_factor } = run.rainfall;
      // A typed intensity is the designer's own: the map's place, M5-60, r and rates no longer describe it.
      changes.rainfall =
        typed === before
          ? run.rainfall
          : { rainfall_mm_per_hr: typed, ...definedOnly({ return_period, storm_duration, climate_change_factor }) };
      break;
    }
    case 'pipe_diameter_mm': {
      const diameter = num(value);
      if (diameter === null) break;
      changes.pipe_diameter_mm = diameter;
      if (run.has_body_extension && !run.selectedSystem?.pipeDiameters[String(diameter)]?.extension_hat) {
        changes.has_body_extension = false;
      }
      break;
    }
    case 'has_body_extension': {
      const wanted = value === true;
      const allowed = !!run.selectedSystem?.pipeDiameters[String(run.pipe_diameter_mm)]?.extension_hat;
      changes.has_body_extension = wanted && allowed;
      break;
    }
    case 'water_inflow': {
      const inflow = num(value);
      changes.water_inflow = inflow === null ? null : Math.max(0, inflow);
      break;
    }
    case 'minimumSize': {
      const size = num(value);
      if (size !== null) changes.minimumSize = size;
      break;
    }
    case 'grating':
    case 'location':
      changes[field] = typeof value === 'string' ? value : '';
      break;
    case 'catchmentShape':
    case 'catchmentAreas':
    case 'items':
    case 'discharge':
      return catchmentEdit(run, field, value);
  }
  if (field === 'channel_length_m' || field === 'drainage_area_m2' || field === 'catchment_depth_m') Object.assign(changes, regenerateAreas(run, changes));
  return { changes, warning };
}

function definedOnly(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined && value !== null));
}

function steppedRefusal(system: DrainageSystem): DesignWarning {
  const steelOrConcrete = isConcrete(system) || system.slug.includes('steel');
  return { kind: 'steppedNotAllowed', system: systemRef(system), material: steelOrConcrete ? 'steelOrConcrete' : 'other' };
}

/** Choosing a system (spec section 4, "Choosing a system"). */
function chooseSystem(run: ReturnType<typeof effectiveInputs>, system: DrainageSystem): EditOutcome {
  const previous = run.selectedSystem;
  const changes: Partial<RunInputs> = { selectedSystem: system, channel_group: system.slug };
  let warning: DesignWarning | null = null;

  if (needsLoading(system)) {
    const highest = system.loading_classes[system.loading_classes.length - 1] ?? '';
    changes.loading = run.loading && system.loading_classes.includes(run.loading) ? run.loading : highest;
  } else {
    changes.loading = '';
  }
  if (needsGrating(system)) {
    const offered = gratingsFor(system, changes.loading);
    changes.grating = offered.some((grating) => grating.slug === run.grating) ? run.grating : (offered[0]?.slug ?? '');
  } else {
    changes.grating = '';
  }
  if (!isHighCapacity(system)) changes.calculation_method = 'GVF';
  // Controlled discharge belongs to the high-capacity system alone.
  if (!isHighCapacity(system) && (num(run.controlled_outflow) ?? 0) > 0) {
    changes.controlled_outflow = 0;
    changes.controlled_discharge = null;
    changes.controlled_discharge_details = null;
  }

  if (isHighCapacity(system)) {
    changes.stepped = (num(run.controlled_outflow) ?? 0) <= 0;
  } else if (run.stepped && !system.canStep) {
    changes.stepped = false;
    if (!isPointProduct(system)) warning = steppedRefusal(system);
  } else if (run.stepped && theoreticalStepping(system)) {
    warning = { kind: 'theoreticalStepping', system: systemRef(system) };
  }

  const sizes = system.minimumSizeOptions;
  if (sizes.length > 0) {
    changes.minimumSize = run.minimumSize !== undefined && sizes.includes(run.minimumSize) ? run.minimumSize : sizes[0];
  } else {
    changes.minimumSize = 0;
  }

  if (isPointProduct(system)) {
    changes.catchmentShape = 'uniform';
    changes.channel_length_m = 0;
    changes.ground_slope = 0;
    changes.catchment_depth_m = null;
    const diameters = pipeDiameters(system);
    const keep = run.pipe_diameter_mm !== undefined && diameters.includes(run.pipe_diameter_mm);
    changes.pipe_diameter_mm = keep ? run.pipe_diameter_mm : diameters[0];
    if (run.has_body_extension && !system.pipeDiameters[String(changes.pipe_diameter_mm)]?.extension_hat) {
      changes.has_body_extension = false;
    }
  } else if (isPointProduct(previous)) {
    changes.pipe_diameter_mm = undefined;
    changes.has_body_extension = false;
    changes.water_inflow = null;
    changes.channel_length_m = null;
  }
  // change_inputs cannot remove a field: an emptied one is sent as null.
  for (const key of Object.keys(changes) as (keyof RunInputs)[]) {
    if (changes[key] === undefined) changes[key] = null;
  }
  return { changes, warning };
}

/**
 * Spec section 4: what makes a run ready for its first calculation. The
 * server decides run states by the same rule (domain/project/state.go);
 * both are held to one table of cases, domain/project/testdata/readiness.json.
 */
export function readyForFirstCalculation(inputs: RunInputs): boolean {
  const type = productType(inputs);
  if (type === null) return false;
  const area = num(inputs.drainage_area_m2) ?? 0;
  const length = num(inputs.channel_length_m) ?? 0;
  if (type === 'P') return area > 0;
  if (type === 'M') {
    const section = inputs.concreteChannel as { width?: unknown; depth?: unknown } | null | undefined;
    return (num(section?.width) ?? 0) > 0 && (num(section?.depth) ?? 0) > 0 && length > 0 && area > 0;
  }
  return length > 0 && area > 0;
}

/** The run's product type: its system's, M for the in-situ concrete group, '' for another group; null when nothing is chosen. */
function productType(inputs: RunInputs): string | null {
  const system = inputs.selectedSystem;
  if (system?.slug) return system.product_type ?? '';
  const group = typeof inputs.channel_group === 'string' ? inputs.channel_group : '';
  if (group === 'concrete') return 'M';
  return group ? '' : null;
}

/** Why Calculate is disabled (spec section 5, standard mode); empty when it may run. */
export type Blocker =
  | 'noSystem'
  | 'noRainfall'
  | 'noLoading'
  | 'noGrating'
  | 'noArea'
  | 'areaTooLarge'
  | 'depthTooLarge'
  | 'noLength'
  | 'lengthOverLimit'
  | 'slopeNegative'
  | 'slopeTooSteep';

export function calculateBlockers(inputs: RunInputs, defaultRainfall?: number | null): Blocker[] {
  const run = effectiveInputs(inputs, defaultRainfall);
  const system = run.selectedSystem;
  if (!system) return ['noSystem'];
  const blockers: Blocker[] = [];
  if (!(run.rainfall.rainfall_mm_per_hr > 0)) blockers.push('noRainfall');
  if (needsLoading(system) && !run.loading) blockers.push('noLoading');
  if (needsGrating(system) && !run.grating) blockers.push('noGrating');
  const area = num(run.drainage_area_m2) ?? 0;
  if (!(area > 0)) blockers.push('noArea');
  if (area >= MAX_AREA_M2) blockers.push('areaTooLarge');
  if (!isPointProduct(system)) {
    const length = num(run.channel_length_m) ?? 0;
    if (!(length > 0)) blockers.push('noLength');
    else if (length > maxLength(run.calculation_method)) blockers.push('lengthOverLimit');
    if (length > 0 && area > 0 && area / length / 2 >= MAX_DEPTH_M) blockers.push('depthTooLarge');
    const slope = num(run.ground_slope) ?? 0;
    if (slope < 0) blockers.push('slopeNegative');
    if (slope > maxSlope(run.calculation_method)) blockers.push('slopeTooSteep');
  }
  return blockers;
}

/** Inflows and accessories placed beyond the run's length (the position warning). */
export function outOfRunItems(inputs: RunInputs): boolean {
  const length = num(inputs.channel_length_m);
  if (length === null) return false;
  const beyond = (items: { distance_m: number }[] | undefined) => (items ?? []).some((item) => item.distance_m > length);
  return beyond(inputs.inflows) || beyond(inputs.accessories);
}

/** The run calculation data the server's calculate call expects; advanced when the run says so (the project steps settle that before calculating). */
export function calculationBody(inputs: RunInputs, defaultRainfall?: number | null): Record<string, unknown> {
  const run = effectiveInputs(inputs, defaultRainfall);
  const body: Record<string, unknown> = { ...run, advanced: run.advanced === true };
  // Items not yet accepted in their popup do not count (spec section 4).
  if (run.inflows) body.inflows = confirmedOnly(run.inflows);
  if (run.accessories) body.accessories = confirmedOnly(run.accessories);
  if (!needsLoading(run.selectedSystem)) delete body.loading;
  if (!needsGrating(run.selectedSystem)) delete body.grating;
  if (isPointProduct(run.selectedSystem)) {
    body.channel_length_m = 0;
    body.ground_slope = 0;
  }
  return body;
}
