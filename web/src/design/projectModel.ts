// The project as the design screen holds it, and the pure rules that keep it
// in step with the server: command answers and the live stream's views of
// the project are taken field by field, and a field the user has just edited
// here is never overwritten by an older value still travelling back from the
// server.
import type { EditAnswer, LiveProject, LoadAnswer, LoadRunAnswer, RunHead, SaveAnswer, SavedRun, SavePayload } from '../api/projectTypes';
import { marginOf, marginSetting, NO_MARGIN, type FreeboardMargin } from './freeboard';
import { duplicateName, newRunName, renameName } from './runNames';
import { calculationBody } from './runRules';
import { emptyDetails, type ProjectDetails, type Results, type RunInputs, type RunState } from './types';
import { toRainfallUnit, type RainfallUnit } from './units';
import { relinkedInputs } from '../catchment/chains';

export interface RunData {
  id: string;
  name: string;
  notes: string;
  inputs: RunInputs;
  results: Results | null;
  /** The message of the last failed calculation. */
  error: string | null;
}

export interface ProjectData {
  /** The project's stream id: a draft's, a saved project's (its saveID), or a shared one's. */
  id: string;
  /** Edits go to the server as commands; false for a project of someone else, which must be saved as new. */
  editable: boolean;
  saved: boolean;
  /** The newest version of the stream known here, from answers and live events. */
  version: number;
  /** The version of the last live view taken; the stream is followed from here. */
  streamVersion: number;
  /** The version the run list (order, names, states) was last taken from. */
  structureVersion: number;
  details: ProjectDetails;
  notes: string;
  rainfallUnits: RainfallUnit;
  defaultRainfall: number | null;
  /** The project's own freeboard margin; null parts keep the default (see freeboard.ts). */
  freeboardMargin: FreeboardMargin;
  shareWithProvider: boolean;
  owner: string;
  runs: Record<string, RunData>;
  order: string[];
  /** Field keys with local writes the server has not answered yet. */
  pending: Record<string, number>;
  /** Field key → version of the answer to the last local write of it. */
  acked: Record<string, number>;
  /** Run id → the server's results as last seen (see applyView). */
  seenResults: Record<string, string>;
}

/** Field keys name what a local write touched. */
export const keys = {
  input: (runId: string, field: string) => `input:${runId}:${field}`,
  name: (runId: string) => `name:${runId}`,
  notes: (runId: string) => `notes:${runId}`,
  results: (runId: string) => `results:${runId}`,
  details: 'details',
  order: 'order',
};

export interface Applied {
  data: ProjectData;
  /** The server's state of each run, for the run machines. */
  states: Record<string, RunState>;
}

export function emptyRun(id: string, name: string): RunData {
  return { id, name, notes: '', inputs: {}, results: null, error: null };
}

export interface ProjectSettings {
  rainfallUnits: string;
  defaultRainfall?: number | null;
}

/** A fresh draft as POST /projects/ answers it. */
export function fromDraft(answer: EditAnswer, settings: ProjectSettings): Applied {
  const data: ProjectData = {
    id: answer.id,
    editable: true,
    saved: false,
    version: answer.version,
    streamVersion: answer.version,
    structureVersion: answer.version,
    details: emptyDetails(),
    notes: '',
    rainfallUnits: toRainfallUnit(settings.rainfallUnits),
    defaultRainfall: settings.defaultRainfall ?? null,
    freeboardMargin: NO_MARGIN,
    shareWithProvider: false,
    owner: '',
    runs: Object.fromEntries(answer.runs.map((run) => [run.id, emptyRun(run.id, run.name)])),
    order: answer.runs.map((run) => run.id),
    pending: {},
    acked: {},
    seenResults: Object.fromEntries(answer.runs.map((run) => [run.id, resultsMark(null, null)])),
  };
  return { data, states: statesOf(answer.runs) };
}

/** A project as POST /drainage/load/ and its run calls answer it. */
export function fromLoad(load: LoadAnswer, loaded: LoadRunAnswer[]): Applied {
  const runs: Record<string, RunData> = {};
  const states: Record<string, RunState> = {};
  const order: string[] = [];
  for (const { id, run } of loaded) {
    const { saveID: _saveID, name, notes, state, results, ...inputs } = run;
    runs[id] = { id, name, notes: notes ?? '', inputs: inputs as RunInputs, results: results ?? null, error: null };
    states[id] = state ?? (results?.calculated ? 'calculated' : 'unconfigured');
    order.push(id);
  }
  const data: ProjectData = {
    id: load.saveID,
    editable: load.editable,
    saved: true,
    version: load.version,
    streamVersion: load.version,
    structureVersion: load.version,
    details: { ...emptyDetails(), ...load.details },
    notes: load.notes ?? '',
    rainfallUnits: toRainfallUnit(load.rainfall_units),
    defaultRainfall: load.default_rainfall ?? null,
    freeboardMargin: marginOf(load),
    shareWithProvider: load.share,
    owner: load.owner ?? '',
    runs,
    order,
    pending: {},
    acked: {},
    seenResults: Object.fromEntries(order.map((id) => [id, resultsMark(runs[id]!.results, null)])),
  };
  return { data, states };
}

function statesOf(runs: RunHead[]): Record<string, RunState> {
  return Object.fromEntries(runs.map((run) => [run.id, run.state]));
}

const blocked = (data: ProjectData, key: string, version: number) =>
  (data.pending[key] ?? 0) > 0 || version < (data.acked[key] ?? 0);

/** Counts a local write of these keys as travelling to the server. */
export function markPending(data: ProjectData, fieldKeys: readonly string[]): ProjectData {
  const pending = { ...data.pending };
  for (const key of fieldKeys) pending[key] = (pending[key] ?? 0) + 1;
  return { ...data, pending };
}

/** The server answered (or refused) a write of these keys; `version` is given when it was taken. */
export function settlePending(data: ProjectData, fieldKeys: readonly string[], version: number | null): ProjectData {
  const pending = { ...data.pending };
  const acked = { ...data.acked };
  for (const key of fieldKeys) {
    const left = (pending[key] ?? 0) - 1;
    if (left > 0) pending[key] = left;
    else delete pending[key];
    if (version !== null) acked[key] = Math.max(acked[key] ?? 0, version);
  }
  return { ...data, pending, acked, version: version === null ? data.version : Math.max(data.version, version) };
}

/**
 * Takes the run list of the server at `version`: order, names (unless being
 * renamed here) and states. New runs get data from `source` (a duplicate's
 * original) or start empty; runs the server no longer has are dropped.
 */
export function applyStructure(
  data: ProjectData,
  version: number,
  heads: { id: string; name?: string; state: RunState }[],
  origin?: { duplicateOf?: string },
): Applied {
  if (version < data.structureVersion) return { data, states: {} };
  const runs: Record<string, RunData> = {};
  for (const head of heads) {
    let run = data.runs[head.id];
    if (!run) {
      const source = origin?.duplicateOf ? data.runs[origin.duplicateOf] : undefined;
      run = source ? { ...structuredClone(source), id: head.id, name: head.name ?? source.name } : emptyRun(head.id, head.name ?? '');
    }
    if (head.name !== undefined && head.name !== run.name && !blocked(data, keys.name(head.id), version)) {
      run = { ...run, name: head.name };
    }
    runs[head.id] = run;
  }
  const serverOrder = heads.map((head) => head.id);
  // A reorder made here and not yet answered keeps its order, as far as the runs still exist.
  const order = blocked(data, keys.order, version)
    ? [...data.order.filter((id) => id in runs), ...serverOrder.filter((id) => !data.order.includes(id))]
    : serverOrder;
  return {
    data: { ...data, runs, order, structureVersion: version, version: Math.max(data.version, version) },
    states: Object.fromEntries(heads.map((head) => [head.id, head.state])),
  };
}

/** Applies a command's answer. */
export function applyAnswer(data: ProjectData, answer: EditAnswer, duplicateOf?: string): Applied {
  return applyStructure(data, answer.version, answer.runs, { duplicateOf });
}

const canonical = (value: unknown): string => JSON.stringify(sortKeys(value));

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, sortKeys(v)]),
    );
  }
  return value;
}

/** Same inputs, as the server compares them (canonical JSON, nulls as absent). */
export function sameInputs(a: RunInputs, b: RunInputs): boolean {
  const strip = (inputs: RunInputs) => Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== null && v !== undefined));
  return canonical(strip(a)) === canonical(strip(b));
}

function updateRun(data: ProjectData, runId: string, update: (run: RunData) => RunData): ProjectData {
  const run = data.runs[runId];
  if (!run) return data;
  return { ...data, runs: { ...data.runs, [runId]: update(run) } };
}

/** What the server last said of a run's results, to tell a change of them from a view that merely repeats them. */
const resultsMark = (summary: Results | null | undefined, error: string | null | undefined) => canonical([summary ?? null, error || null]);

const runPending = (data: ProjectData, runId: string) =>
  Object.keys(data.pending).some((key) => key.startsWith(`input:${runId}:`) || key === keys.results(runId));

/**
 * Takes the server's view of the project (the live stream's message) into
 * the model. The server's view wins, except where this tab has written and
 * the server has not answered yet (pending) or answered at a later version
 * than the view's (acked): those fields keep the local value, so local
 * unsent edits stay on top. Views not newer than the last one taken are
 * ignored. A view older than the run list already taken from a command
 * answer changes the runs' content but not the list.
 */
export function applyView(data: ProjectData, message: LiveProject): Applied {
  const v = message.version;
  if (v <= data.streamVersion) return { data, states: {} };
  const view = message.view;
  let next: ProjectData = { ...data, streamVersion: v, version: Math.max(data.version, v) };

  if (!blocked(next, keys.details, v)) {
    next = {
      ...next,
      details: { ...emptyDetails(), ...view.details },
      notes: view.notes ?? '',
      rainfallUnits: view.rainfall_units ? toRainfallUnit(view.rainfall_units) : next.rainfallUnits,
      defaultRainfall: view.default_rainfall ?? null,
      freeboardMargin: marginOf(view),
      saved: view.saved,
      shareWithProvider: view.share_with_provider ?? next.shareWithProvider,
    };
  }

  const structural = v >= data.structureVersion;
  const serverRuns = new Map(view.runs.map((run) => [run.id, run]));
  const serverOrder = view.runs.map((run) => run.id);
  let order: string[];
  if (!structural) order = data.order;
  // A reorder made here and not yet answered keeps its order, as far as the runs still exist.
  else if (blocked(data, keys.order, v)) order = [...data.order.filter((id) => serverRuns.has(id)), ...serverOrder.filter((id) => !data.order.includes(id))];
  else order = serverOrder;

  const runs: Record<string, RunData> = {};
  const seenResults = { ...data.seenResults };
  const states: Record<string, RunState> = {};
  for (const id of order) {
    const local = data.runs[id];
    const server = serverRuns.get(id);
    if (!server) {
      if (local) runs[id] = local;
      continue;
    }
    let run = local ?? emptyRun(id, server.name);
    if (structural && server.name !== run.name && !blocked(data, keys.name(id), v)) run = { ...run, name: server.name };
    if (server.notes !== run.notes && !blocked(data, keys.notes(id), v)) run = { ...run, notes: server.notes ?? '' };
    run = { ...run, inputs: takeInputs(data, id, run.inputs, server.inputs ?? {}, v) };

    // Results: only a change of the server's results is taken (a view that
    // repeats them must not undo a calculation answered here since), and
    // results calculated here from the same inputs keep their profile.
    const mark = resultsMark(server.summary, server.last_error);
    if (!blocked(data, keys.results(id), v) && mark !== data.seenResults[id]) {
      if (!server.summary) {
        run = { ...run, results: null, error: server.last_error || null };
      } else {
        const keepLocal =
          !!local?.results?.calculated &&
          (sameInputs(local.inputs, server.inputs) || sameInputs(calculationBody(local.inputs, next.defaultRainfall) as RunInputs, server.inputs));
        run = { ...run, results: keepLocal ? local.results : server.summary, error: null };
      }
    }
    seenResults[id] = mark;
    runs[id] = run;
    // Local edits not yet answered keep the state the run machine gave them.
    if (structural && !runPending(data, id)) states[id] = server.state;
  }
  return {
    data: { ...next, runs, order, seenResults, structureVersion: structural ? v : data.structureVersion },
    states,
  };
}

/** The server's inputs, except fields written here that the server has not caught up with. */
function takeInputs(data: ProjectData, runId: string, local: RunInputs, server: RunInputs, version: number): RunInputs {
  const out: Record<string, unknown> = {};
  const mine = local as Record<string, unknown>;
  const theirs = server as Record<string, unknown>;
  for (const [field, value] of Object.entries(theirs)) {
    out[field] = blocked(data, keys.input(runId, field), version) && field in mine ? mine[field] : value;
  }
  for (const [field, value] of Object.entries(mine)) {
    if (!(field in theirs) && blocked(data, keys.input(runId, field), version)) out[field] = value;
  }
  return out as RunInputs;
}

/** Local edits, applied at once; `applyEditedInputs` is also what a live project shows before the answer. */
export function applyEditedInputs(data: ProjectData, runId: string, changes: Partial<RunInputs>): ProjectData {
  return updateRun(data, runId, (run) => ({ ...run, inputs: { ...run.inputs, ...changes } }));
}

export function setRunName(data: ProjectData, runId: string, name: string): ProjectData {
  const others = data.order.filter((id) => id !== runId).map((id) => data.runs[id]?.name ?? '');
  return updateRun(data, runId, (run) => ({ ...run, name: renameName(name, others) }));
}

export function setRunNotes(data: ProjectData, runId: string, notes: string): ProjectData {
  return updateRun(data, runId, (run) => ({ ...run, notes }));
}

export function setResults(data: ProjectData, runId: string, results: Results | null, error: string | null = null): ProjectData {
  return updateRun(data, runId, (run) => ({ ...run, results, error }));
}

export function resetRun(data: ProjectData, runId: string): ProjectData {
  return updateRun(data, runId, (run) => ({ ...run, inputs: {}, results: null, error: null }));
}

export function reorder(data: ProjectData, order: readonly string[]): ProjectData {
  const known = order.filter((id) => id in data.runs);
  if (known.length !== data.order.length) return data;
  return { ...data, order: known };
}

const runNames = (data: ProjectData) => data.order.map((id) => data.runs[id]?.name ?? '');

/** Local-only structure changes, for a project this user may not edit on the server. */
export function addRunLocally(data: ProjectData, id: string): ProjectData {
  const run = emptyRun(id, newRunName(runNames(data)));
  return { ...data, runs: { ...data.runs, [id]: run }, order: [...data.order, id] };
}

export function duplicateRunLocally(data: ProjectData, sourceId: string, id: string): ProjectData {
  const source = data.runs[sourceId];
  if (!source) return data;
  const copy = { ...structuredClone(source), id, name: duplicateName(source.name, runNames(data)) };
  const order = [...data.order];
  order.splice(order.indexOf(sourceId) + 1, 0, id);
  return { ...data, runs: { ...data.runs, [id]: copy }, order };
}

/** Deleting the only run leaves a fresh Run 1 (with `replacementId`). */
export function removeRunLocally(data: ProjectData, runId: string, replacementId: string): ProjectData {
  const runs = { ...data.runs };
  delete runs[runId];
  const order = data.order.filter((id) => id !== runId);
  if (order.length === 0) {
    runs[replacementId] = emptyRun(replacementId, 'Run 1');
    order.push(replacementId);
  }
  return { ...data, runs, order };
}

export interface SaveOptions {
  asNew: boolean;
  share: boolean;
}

/** The save call's payload. Save as new sends no save ids; a save over the project names the version it was made on. */
export function savePayload(data: ProjectData, options: SaveOptions): SavePayload {
  const runs: SavedRun[] = data.order.map((id) => {
    const run = data.runs[id]!;
    const saved: SavedRun = { ...run.inputs, name: run.name, notes: run.notes, results: run.results };
    // A save as new sends no save ids; the links between runs still name them by these.
    if (!options.asNew) saved.saveID = run.id;
    else saved.linkID = run.id;
    return saved;
  });
  const project: SavePayload['project'] = {
    details: data.details,
    notes: data.notes,
    rainfall_units: data.rainfallUnits,
    default_rainfall: data.defaultRainfall,
    ...marginSetting(data.freeboardMargin),
    runs,
  };
  if (!options.asNew) {
    project.saveID = data.id;
    project.version = data.version;
  }
  return { project, share: options.share };
}

/** After a save: a save as new continues on the new project, its runs under their new ids. */
export function applySave(data: ProjectData, answer: SaveAnswer, options: SaveOptions): ProjectData {
  if (!options.asNew && answer.saveID === data.id) {
    return { ...data, saved: true, shareWithProvider: options.share, version: Math.max(data.version, answer.version) };
  }
  const runs: Record<string, RunData> = {};
  const order: string[] = [];
  const renamed = new Map(data.order.map((oldId, index) => [oldId, answer.runSaveIDs[index] ?? oldId]));
  data.order.forEach((oldId) => {
    const id = renamed.get(oldId)!;
    const run = data.runs[oldId]!;
    // The links between the runs follow them to their new ids, as the server stored them.
    runs[id] = { ...run, id, inputs: relinkedInputs(run.inputs, renamed) };
    order.push(id);
  });
  return {
    ...data,
    id: answer.saveID,
    editable: true,
    saved: true,
    shareWithProvider: options.share,
    version: answer.version,
    streamVersion: answer.version,
    structureVersion: answer.version,
    runs,
    order,
    pending: {},
    acked: {},
    seenResults: Object.fromEntries(order.map((id) => [id, resultsMark(runs[id]!.results, runs[id]!.error)])),
  };
}

/** Runs not calculated, which keep a project from being saved. */
export function uncalculatedRuns(data: ProjectData): string[] {
  return data.order.filter((id) => !data.runs[id]?.results?.calculated).map((id) => data.runs[id]?.name ?? id);
}

/** Results kept in a project stream lack the profile's slices; such a run needs a fresh calculation to draw it. */
export function lacksProfile(results: Results | null | undefined): boolean {
  return !!results?.calculated && (results.segments ?? []).some((segment) => !segment.slices);
}
