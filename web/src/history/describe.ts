// Words for the history: what an entry and each of its changes did, a
// field's label, a value as the comparison shows it. Pure functions of the
// server's answer and the translation function, so the panel, the timeline
// and the comparison say the same things.
import type { Results } from '../design/types';
import type { HistoryChange, HistoryEntry } from './types';

/**
 * The translation function as these words use it: their keys are made at
 * run time (history.kind.<kind>), so the catalogue's key type cannot check
 * them; describe.test.ts checks every key they can make instead.
 */
export type Translate = (key: string, values?: Record<string, unknown>) => string;

/** Field name (an input's, a detail's or a setting's) → the catalogue key of its label. */
const FIELD_LABELS: Record<string, string> = {
  selectedSystem: 'form.system',
  channel_group: 'form.system',
  loading: 'form.loading',
  grating: 'form.grating',
  minimumSize: 'form.minimumSize',
  stepped: 'form.configuration',
  pipe_diameter_mm: 'form.pipeDiameter',
  has_body_extension: 'form.extensionHat',
  water_inflow: 'form.waterInflow',
  location: 'form.location',
  rainfall: 'form.rainfall',
  channel_length_m: 'form.length',
  catchment_depth_m: 'form.depth',
  drainage_area_m2: 'form.area',
  permeability: 'form.permeabilityValue',
  permeabilitySurface: 'form.permeability',
  catchmentShape: 'history.field.catchmentShape',
  advanced: 'settings.advancedMode',
  calculation_method: 'form.method',
  slopeSetting: 'form.slopeSetting',
  ground_slope: 'form.slope',
  upperElevation: 'form.upperElevation',
  lowerElevation: 'form.lowerElevation',
  controlled_outflow: 'storage.controlled',
  controlled_discharge: 'storage.controlled',
  controlled_discharge_details: 'storage.controlled',
  inflows: 'history.field.inflows',
  accessories: 'history.field.accessories',
  dischargeSetting: 'history.field.discharge',
  name: 'history.field.name',
  notes: 'results.notes',
  reference: 'details.reference',
  date: 'details.date',
  company: 'details.company',
  designer: 'details.designer',
  telephone: 'details.telephone',
  email: 'details.email',
  rainfall_units: 'history.field.rainfallUnits',
  default_rainfall: 'history.field.defaultRainfall',
  freeboard_min_mm: 'column.freeboardMinMM',
  freeboard_min_percent: 'column.freeboardMinPercent',
};

/** Project details share some names with run inputs (name, location); these are the details'. */
const DETAIL_LABELS: Record<string, string> = { name: 'details.name', location: 'details.location' };

/** A field's label; `detail` for the project's own fields. Fields the catalogue does not name show their name. */
export function fieldLabel(t: Translate, field: string, detail = false): string {
  const key = (detail && DETAIL_LABELS[field]) || FIELD_LABELS[field];
  return key ? t(key) : field.replace(/_/g, ' ');
}

/** Several fields' labels, each once, in a list. */
export function fieldList(t: Translate, fields: readonly string[] | undefined, detail = false): string {
  return [...new Set((fields ?? []).map((field) => fieldLabel(t, field, detail)))].join(', ');
}

/** A calculation's outcome in a few words: flow and filling, flooding, super-critical flow. */
export function resultText(t: Translate, result: Partial<Results> | null | undefined, format: (n: number, digits: number) => string): string {
  if (!result) return '';
  const parts: string[] = [];
  if (typeof result.flow === 'number' || typeof result.percentage_full === 'number') {
    parts.push(t('history.result.flow', { flow: format(result.flow ?? 0, 2), full: format(result.percentage_full ?? 0, 1) }));
  }
  if (result.overflowed) parts.push(t('history.result.flooded'));
  if (result.went_super_critical) parts.push(t('history.result.superCritical'));
  return parts.join(', ');
}

/** What one change did. */
export function changeText(t: Translate, change: HistoryChange, format: (n: number, digits: number) => string): string {
  const run = change.run ?? '';
  const kind = change.type.replace(/^project\./, '');
  switch (kind) {
    case 'created':
      return t('history.change.created');
    case 'details_changed':
      return t('history.change.detailsChanged', { fields: fieldList(t, change.fields, true) });
    case 'run_added':
      return t('history.change.runAdded', { run });
    case 'run_renamed':
      return t('history.change.runRenamed', { run, from: change.from ?? '' });
    case 'run_duplicated':
      return t('history.change.runDuplicated', { run, from: change.from ?? '' });
    case 'run_removed':
      return t('history.change.runRemoved', { run });
    case 'runs_reordered':
      return t('history.change.runsReordered');
    case 'run_inputs_changed':
      return t('history.change.inputs', { run, fields: fieldList(t, change.fields) });
    case 'run_notes_changed':
      return t('history.change.notes', { run });
    case 'run_calculated':
      return t('history.change.calculated', { run, result: resultText(t, change.result, format) });
    case 'calculation_failed':
      return t('history.change.failed', { run, error: change.error ?? '' });
    case 'run_reset':
      return t('history.change.reset', { run });
    case 'saved':
      return t(change.shared ? 'history.change.savedShared' : 'history.change.saved');
    case 'shared_by_link':
      return t('history.change.shareLink');
    case 'sharing_stopped':
      return t('history.change.shareStopped');
    case 'document_created':
      return t('history.change.document', { kind: change.document?.kind ?? '', format: change.document?.format.toUpperCase() ?? '', language: change.document?.language ?? '' });
    case 'deleted':
      return t('history.change.deleted');
    case 'run_restored':
      return change.fields?.length ? t('history.change.runRestoredFields', { run, fields: fieldList(t, change.fields) }) : t('history.change.runRestored', { run });
    case 'restored':
      return t('history.change.restored', { version: change.restored?.from_version ?? 0 });
    default:
      return t('history.change.unknown');
  }
}

/** The headline of an entry: what kind of version it is. */
export function entryTitle(t: Translate, entry: HistoryEntry): string {
  // An undo or a redo names the edit it moved; a restore or a copy the version it brought back.
  const restored = entry.changes.find((change) => change.restored)?.restored;
  const version = entry.kind === 'undo' || entry.kind === 'redo' ? (entry.reverts ?? 0) : (restored?.from_version ?? 0);
  return t(`history.kind.${entry.kind}`, { version });
}

/** The lines under an entry's title: its changes, the restore's own marker left out (the title says it). */
export function entryLines(t: Translate, entry: HistoryEntry, format: (n: number, digits: number) => string): string[] {
  return entry.changes.filter((change) => change.type !== 'project.restored' || entry.kind === 'copy').map((change) => changeText(t, change, format));
}

/** Coded values of some fields → the catalogue key that words them. */
const VALUE_LABELS: Record<string, Record<string, string>> = {
  slopeSetting: { slope: 'form.bySlope', elevation: 'form.byElevation' },
  calculation_method: { GVF: 'form.methodGVF', HRW: 'form.methodHRW' },
  stepped: { true: 'form.stepped', false: 'form.singleSize' },
  catchmentShape: { uniform: 'history.value.uniform', irregular: 'history.value.irregular' },
  dischargeSetting: {
    'free-outflow': 'history.value.freeOutflow',
    'outflow-in-trashbox': 'history.value.outflowInTrashbox',
    'end-cap-with-outlet': 'history.value.endCapWithOutlet',
    'modification-last-element': 'history.value.modificationLastElement',
  },
};

/** The surfaces' keys (surface.<code>) by code. */
const SURFACE_CODES = ['concretePavement', 'resinSurface', 'bpCement', 'asphalt', 'bpSand', 'gravel', 'facade', 'softLandscape', 'custom'];

/**
 * A stored value as the comparison shows it: a coded value in words
 * (`field` says whose), numbers in the interface's format, a system by its
 * name, nothing as a dash.
 */
export function valueText(t: Translate, value: unknown, format: (n: number, digits: number) => string, field?: string): string {
  const coded = field ? VALUE_LABELS[field]?.[String(value)] : undefined;
  if (coded) return t(coded);
  if (field === 'permeabilitySurface' && typeof value === 'string' && SURFACE_CODES.includes(value)) return t(`surface.${value}`);
  if (value === null || value === undefined || value === '') return t('diff.empty');
  if (typeof value === 'number') return format(value, 3);
  if (typeof value === 'boolean') return t(value ? 'common.yes' : 'common.no');
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return t('diff.items', { count: value.length });
  if (typeof value === 'object') {
    const named = value as { name?: unknown; rainfall_mm_per_hr?: unknown; channel_name?: unknown };
    if (typeof named.name === 'string') return named.name;
    if (typeof named.rainfall_mm_per_hr === 'number') return `${format(named.rainfall_mm_per_hr, 3)} mm/h`;
    if (typeof named.channel_name === 'string') return named.channel_name;
  }
  return JSON.stringify(value);
}

/** The rows of the comparison's results: label, value before and after, for the headline keys either side has. */
export const RESULT_ROWS: { key: keyof Results & string; label: string; unit?: string; digits: number }[] = [
  { key: 'largest_channel', label: 'spec.channel', digits: 0 },
  { key: 'flow', label: 'spec.flow', unit: 'l/s', digits: 2 },
  { key: 'channel_discharge', label: 'spec.channelDischarge', unit: 'l/s', digits: 2 },
  { key: 'max_possible_discharge', label: 'spec.maxDischarge', unit: 'l/s', digits: 2 },
  { key: 'percentage_full', label: 'spec.percentageFull', unit: '%', digits: 1 },
  { key: 'freeboard', label: 'spec.freeboard', unit: 'mm', digits: 1 },
  { key: 'overflowed', label: 'spec.flooding', digits: 0 },
  { key: 'went_super_critical', label: 'spec.superCritical', digits: 0 },
];

/** The keys of field labels and coded values, for the test that every key exists. */
export const FIELD_LABEL_KEYS: readonly string[] = [
  ...new Set([
    ...Object.values(FIELD_LABELS),
    ...Object.values(DETAIL_LABELS),
    ...Object.values(VALUE_LABELS).flatMap((values) => Object.values(values)),
    ...SURFACE_CODES.map((code) => `surface.${code}`),
  ]),
];
