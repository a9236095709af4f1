// What an edit of advanced mode's screens changes in the run: the edited
// field and what the rules of advancedRules.ts make follow from it, and
// the server's refusals of an advanced calculation, kept with the field
// they concern so the screen shows them there.
import { ApiError } from '../api/http';
import type { Message } from '../forms/messages';
import {
  builtInFallChanges,
  channelTypeChanges,
  channelUses,
  clearedChannels,
  concreteOf,
  countChanges,
  cuttingOf,
  dischargeChanges,
  dischargeOptions,
  drillingOf,
  fitDrilling,
  gratingsOfType,
  loadingChanges,
  roughnessOfKst,
  roundAngle,
  steppedFor,
  ROUGHNESS,
  type ChannelOption,
  type ConcreteSection,
  type Cutting,
  type DischargeSetting,
  type Drilling,
} from './advancedRules';
import { applyEdit, gratingsFor, type DesignWarning, type EditOutcome } from './runRules';
import { serverMessage } from './serverMessages';
import type { DrainageSystem, RunInputs } from './types';

/** The edits of the channels screen; each carries what the rules need to know of the catalogue list on the screen. */
export type AdvancedEdit =
  | { kind: 'system'; system: DrainageSystem }
  | { kind: 'loading'; loading: string }
  | { kind: 'grating'; grating: string }
  | { kind: 'channelType'; type: string }
  | { kind: 'noBuiltInFall'; on: boolean }
  | { kind: 'count'; slug: string; count: number; options: ChannelOption[] }
  | { kind: 'discharge'; setting: DischargeSetting }
  /** A trash box by its discharge (l/s), or another run's trash box by the run's id. */
  | { kind: 'trashBox'; value: number | string | null }
  | { kind: 'endCap'; id: string | null }
  | { kind: 'drilling'; drilling: Partial<Drilling> }
  | { kind: 'cutting'; end: 'head' | 'discharge'; cutting: Cutting | null }
  | { kind: 'concrete'; section: Partial<ConcreteSection> }
  | { kind: 'kst'; kst: number | null };

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const controlledOf = (inputs: RunInputs) => (num(inputs.controlled_outflow) ?? 0) > 0;

/** Advanced mode offers every system but the point products (standard mode only). */
export function advancedSystems(systems: readonly DrainageSystem[]): DrainageSystem[] {
  return systems.filter((system) => system.product_type !== 'P');
}

export function applyAdvancedEdit(inputs: RunInputs, edit: AdvancedEdit, defaultRainfall?: number | null): EditOutcome {
  const changes: Partial<RunInputs> = inputs.advanced === true ? {} : { advanced: true };
  let warning: DesignWarning | null = null;
  switch (edit.kind) {
    case 'system': {
      // Section 4, choosing a system: loading, grating, method and stepping as in standard mode; channel use cleared.
      const chosen = applyEdit(inputs, 'selectedSystem', edit.system, defaultRainfall);
      warning = chosen.warning;
      Object.assign(changes, chosen.changes, clearedChannels({ ...inputs, ...chosen.changes }), { selectedChannelType: null });
      if (edit.system.product_type === 'M') changes.concreteChannel = concreteOf(inputs.concreteChannel);
      break;
    }
    case 'loading': {
      const loaded = applyEdit(inputs, 'loading', edit.loading, defaultRainfall);
      Object.assign(changes, loaded.changes, loadingChanges(inputs, edit.loading));
      const type = typeof changes.selectedChannelType === 'string' ? changes.selectedChannelType : (inputs.selectedChannelType as string | undefined);
      const offered = gratingsOfType(gratingsFor(inputs.selectedSystem, edit.loading), type);
      const grating = (changes.grating ?? inputs.grating) as string | undefined;
      if (offered.length > 0 && !offered.some((g) => g.slug === grating)) changes.grating = offered[0]!.slug;
      break;
    }
    case 'grating':
      changes.grating = edit.grating;
      break;
    case 'channelType':
      Object.assign(changes, channelTypeChanges(inputs, edit.type, gratingsFor(inputs.selectedSystem, inputs.loading)));
      break;
    case 'noBuiltInFall':
      Object.assign(changes, builtInFallChanges(inputs, edit.on));
      break;
    case 'count':
      Object.assign(changes, countChanges(inputs, edit.options, edit.slug, edit.count));
      break;
    case 'discharge':
      if (!dischargeOptions(inputs.selectedSystem, channelUses(inputs))[edit.setting]) return { changes: {}, warning: null };
      Object.assign(changes, dischargeChanges(inputs, edit.setting));
      break;
    case 'trashBox':
      changes.outflowTrashbox = edit.value;
      break;
    case 'endCap':
      changes.outflowEndcap = edit.id;
      break;
    case 'drilling': {
      const current = drillingOf(inputs.drilling);
      const next: Drilling = { ...current, ...edit.drilling };
      if (edit.drilling.hole_distance_mm !== undefined) next.hole_distance_mm = Math.round(edit.drilling.hole_distance_mm);
      // A new position or diameter brings the rest within the rules; a distance typed stays as typed (and is flagged).
      const refit = edit.drilling.position !== undefined || edit.drilling.hole_diameter_mm !== undefined;
      changes.drilling = refit ? fitDrilling(next, channelUses(inputs), cuttingOf(inputs.headCutting), cuttingOf(inputs.dischargeCutting)) : next;
      break;
    }
    case 'cutting': {
      const field = edit.end === 'head' ? 'headCutting' : 'dischargeCutting';
      changes[field] = edit.cutting && {
        ...edit.cutting,
        distance_in_mm: Math.round(edit.cutting.distance_in_mm),
        angle_deg: roundAngle(edit.cutting.angle_deg),
      };
      const cuts = { ...inputs, ...changes };
      if (inputs.dischargeSetting === 'modification-last-element') {
        changes.drilling = fitDrilling(drillingOf(inputs.drilling), channelUses(inputs), cuttingOf(cuts.headCutting), cuttingOf(cuts.dischargeCutting));
      }
      break;
    }
    case 'concrete': {
      const section = { ...concreteOf(inputs.concreteChannel), ...edit.section };
      changes.concreteChannel = { ...section, width: Math.round(section.width), depth: Math.round(section.depth) };
      break;
    }
    case 'kst':
      changes.concreteChannel = { ...concreteOf(inputs.concreteChannel), roughness: edit.kst ? roughnessOfKst(edit.kst) : ROUGHNESS.default };
      break;
  }
  return { changes, warning };
}

/**
 * The mode switch (section 4): a run going advanced loses its accessories,
 * except those of its access-box inflows, with a warning when any were
 * lost; its stepping then follows the channels.
 */
export function modeChanges(inputs: RunInputs, advanced: boolean): { changes: Partial<RunInputs>; lostAccessories: boolean } {
  const changes: Partial<RunInputs> = { advanced };
  if (!advanced) return { changes, lostAccessories: false };
  const accessories = (Array.isArray(inputs.accessories) ? inputs.accessories : []) as { id?: unknown }[];
  const inflows = (Array.isArray(inputs.inflows) ? inputs.inflows : []) as { connection?: unknown; accessoryId?: unknown }[];
  const kept = new Set(inflows.filter((inflow) => inflow.connection === 'access-box' && inflow.accessoryId !== undefined).map((inflow) => inflow.accessoryId));
  const remaining = accessories.filter((accessory) => accessory.id !== undefined && kept.has(accessory.id));
  if (remaining.length !== accessories.length) changes.accessories = remaining as RunInputs['accessories'];
  const uses = channelUses(inputs);
  if (uses.length > 0) changes.stepped = steppedFor(uses, inputs.selectedSystem, controlledOf(inputs));
  return { changes, lostAccessories: remaining.length !== accessories.length };
}

/** The fields of the channels screen: a refusal naming one of them marks the channels radio red. */
export const CHANNEL_FIELDS = [
  'channels',
  'stepped',
  'headCutting',
  'dischargeCutting',
  'drilling',
  'dischargeSetting',
  'outflowTrashbox',
  'outflowEndcap',
  'concreteChannel',
  'loading',
  'grating',
  'channel_group',
] as const;

export interface CalcError {
  field: string;
  message: Message;
  /** The channels do not lay the run length (the server's lengthDoNotMatch). */
  lengthMismatch?: boolean;
}

/**
 * A refused calculation's field, from the server's answer: its field, or
 * for the catalogue's refusals that name none the field they concern (no
 * trash box or end-cap outlet for the channel; an element cut too short, an
 * L channel placed or cut wrongly). Null when the refusal is no field's.
 */
export function calcErrorOf(error: unknown): CalcError | null {
  if (!(error instanceof ApiError) || error.status >= 500 || typeof error.body !== 'object' || error.body === null) return null;
  const body = error.body as { error?: unknown; field?: unknown; lengthDoNotMatch?: unknown };
  const text = typeof body.error === 'string' ? body.error : '';
  const message = serverMessage(text);
  if (body.lengthDoNotMatch === true) return { field: 'channels', message, lengthMismatch: true };
  if (typeof body.field === 'string' && body.field !== '') return { field: body.field, message };
  if (/trash box/i.test(text)) return { field: 'outflowTrashbox', message };
  if (/end-cap outlet/i.test(text)) return { field: 'outflowEndcap', message };
  if (/\b(element|L channel|channel .* system|cut)\b/i.test(text)) return { field: 'channels', message };
  return null;
}

export const isChannelError = (error: CalcError | null | undefined) => !!error && (CHANNEL_FIELDS as readonly string[]).includes(error.field);
