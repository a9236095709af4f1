// What each event does to the open project, as pure steps: the next context
// and the effects to carry out (run machines to start, stop or tell, the live
// stream to follow, side calls). projectMachine.ts wires them to XState.
import type { EventObject } from 'xstate';
import type { EditAnswer, LiveProject, LiveTarget, LoadKey, ProjectCommand, SaveAnswer } from '../api/projectTypes';
import type { Message } from '../forms/messages';
import { SessionExpiredError } from '../session/authedSend';
import { marginSetting, sameMargin, type FreeboardMargin } from './freeboard';
import { enqueueCommand, type Outgoing } from './outgoing';
import {
  addRunLocally,
  applyAnswer,
  applyEditedInputs,
  applySave,
  applyView,
  duplicateRunLocally,
  keys,
  lacksProfile,
  markPending,
  removeRunLocally,
  reorder,
  resetRun,
  setResults,
  setRunName,
  setRunNotes,
  settlePending,
  uncalculatedRuns,
  type Applied,
  type ProjectData,
} from './projectModel';
import type { RunEvent, RunInput } from './runMachine';
import {
  applyEdit,
  calculateBlockers,
  calculationBody,
  outOfRunItems,
  readyForFirstCalculation,
  type DesignWarning,
  type EditableField,
} from './runRules';
import { errorMessage } from './serverMessages';
import type { ProjectDetails, Results, RunInputs, RunState } from './types';
import { advancedBlockers, autoCut, autoCutDialog, isAdvanced, NO_ADVANCED_MODE, type AdvancedMode, type AutoCutChoice, type AutoCutDialog } from './advancedRules';
import { applyAdvancedEdit, calcErrorOf, modeChanges, type AdvancedEdit, type CalcError } from './advancedEdits';
import type { RunRainfall } from '../rainfall/types';
import { hasControlledDischarge } from '../storage/storageRules';
import { roundRainfall, type RainfallUnit } from './units';
import { calculationPartner } from '../catchment/shared';
import { withoutLinksTo } from '../catchment/chains';

/** Standard mode's tabs: system selection, design run (results), materials list, documents. */
export type DesignTab = 'system' | 'run' | 'materials' | 'documents';
/** The open panel: the project dialogs, the UK rainfall map and the controlled discharge dialog. */
export type Panel = 'save' | 'load' | 'share' | 'notes' | 'rainfallMap' | 'storage' | null;
export type ProjectDialog = DesignWarning | { kind: 'confirmNew' } | AutoCutDialog | { kind: 'resetAccessories' };
/** Advanced mode's design run tab: catchment, channels or results (spec section 2). */
export type AdvancedView = 'catchment' | 'channels' | 'results';

/** Why the live stream stopped following a project. */
export type LiveLoss = 'no_access' | 'deleted';

/** What to open: a fresh draft, or a project by one of its keys (`fallbackToNew` for the remembered one). */
export type OpenRequest = { kind: 'new' } | { kind: 'load'; key: LoadKey; fallbackToNew?: boolean };

export interface ProjectContext {
  data: ProjectData | null;
  /** Generation of the run machines; a replaced project gets new ones. */
  generation: number;
  spawned: string[];
  selectedRunId: string | null;
  tab: DesignTab;
  queue: Outgoing[];
  inFlight: Outgoing | null;
  progress: { done: number; total: number } | null;
  dialog: ProjectDialog | null;
  /** The error dialog's paragraphs. */
  error: Message[] | null;
  panel: Panel;
  saveError: Message | null;
  shareLink: string | null;
  dirty: boolean;
  open: OpenRequest;
  connected: boolean;
  /** The server stopped following the project for this viewer: no longer shared with them, or deleted. */
  liveClosed: LiveLoss | null;
  /** Runs being calculated again for their profile. */
  refreshing: string[];
  /** Saves the server confirmed since the screen opened; the save status shows when it grows. */
  saves: number;
  /** Advanced mode's view of the design run tab. */
  advancedView: AdvancedView;
  /** The last refused calculation of a run, with the field it concerns. */
  calcErrors: Record<string, CalcError>;
}

export type ProjectEvent =
  | { type: 'NEW' }
  | { type: 'NEW.CONFIRM' }
  | { type: 'LOAD'; key: LoadKey }
  | { type: 'RETRY' }
  | { type: 'SELECT_RUN'; runId: string }
  | { type: 'TAB'; tab: DesignTab }
  | { type: 'EDIT'; field: EditableField; value: unknown }
  | { type: 'RENAME'; runId: string; name: string }
  | { type: 'NOTES'; runId: string; notes: string }
  | { type: 'ADD_RUN' }
  | { type: 'DUPLICATE' }
  | { type: 'REMOVE'; runId: string }
  | { type: 'REORDER'; order: string[] }
  | { type: 'RESET' }
  | { type: 'CALCULATE' }
  | { type: 'DETAILS'; details: Partial<ProjectDetails> }
  | { type: 'PROJECT_UNITS'; units: RainfallUnit }
  /** The project's freeboard margin; null parts return to the default. */
  | { type: 'FREEBOARD_MARGIN'; margin: FreeboardMargin }
  /** The rainfall map's choice for the selected run; `makeDefault` also makes it the project's default for new runs. */
  | { type: 'RAINFALL.APPLY'; rainfall: RunRainfall; makeDefault: boolean }
  /** The controlled discharge dialog's confirmed fields for the selected run. */
  | { type: 'CONTROLLED.CONFIRM'; changes: Partial<RunInputs> }
  | { type: 'CONTROLLED.RESET'; changes: Partial<RunInputs> }
  | { type: 'SAVE'; asNew: boolean; share: boolean }
  | { type: 'SHARE' }
  | { type: 'PANEL'; panel: Panel }
  | { type: 'DIALOG.CLOSE' }
  | { type: 'DIALOG.SWAP' }
  | { type: 'DIALOG.SKIP' }
  | { type: 'ERROR.CLOSE' }
  | { type: 'PROJECT_DELETED'; id: string }
  /** The server's view of the followed project after a change. */
  | { type: 'LIVE.VIEW'; message: LiveProject }
  /** The followed project is gone for this viewer; it is followed no more. */
  | { type: 'LIVE.CLOSED'; project: string; reason: LiveLoss }
  | { type: 'LIVE.STATUS'; connected: boolean }
  | { type: 'PROFILE.REFRESHED'; runId: string; body: Record<string, unknown>; results: Results | null }
  /** The standard/advanced switch, for the selected run. */
  | { type: 'MODE'; advanced: boolean }
  | { type: 'ADVANCED.VIEW'; view: AdvancedView }
  /** An edit of advanced mode's channels screen, for the selected run. */
  | { type: 'ADVANCED.EDIT'; edit: AdvancedEdit }
  /** The auto-cut dialog's choice: the run is cut (or shortened) and calculated. */
  | { type: 'AUTOCUT'; choice: AutoCutChoice };

/** The outcome of one piece of outgoing work. */
export type Delivered =
  | { kind: 'command'; item: Extract<Outgoing, { kind: 'command' }>; answer: EditAnswer }
  /** `partnerResults`: the linked run's answer of a shared calculation. */
  | { kind: 'calculate'; item: Extract<Outgoing, { kind: 'calculate' }>; results: Results; partnerResults?: Results }
  | { kind: 'save'; item: Extract<Outgoing, { kind: 'save' }>; answer: SaveAnswer }
  | { kind: 'share'; link: string }
  | { kind: 'failed'; item: Outgoing; error: unknown };

export type Effect =
  | { type: 'spawn'; id: string; input: RunInput }
  | { type: 'stop'; id: string }
  | { type: 'toRun'; id: string; event: RunEvent }
  | { type: 'live'; event: EventObject & Partial<LiveTarget> & { from?: number } }
  | { type: 'remember'; id: string | null }
  | { type: 'saved' }
  | { type: 'skipSuperCritical' }
  /** Calculates a run again, unrecorded, for the profile its stored results lack (with its linked run, when it has one). */
  | { type: 'refreshProfile'; runId: string; body: Record<string, unknown>; partner?: { runId: string; body: Record<string, unknown> } };

export interface Plan {
  ctx: ProjectContext;
  effects: Effect[];
}

export interface StepOptions {
  newId: () => string;
  superCriticalSkipped: boolean;
  /** The user's advanced-mode right and default; none when not given. */
  advancedMode?: AdvancedMode;
}

const modeOf = (options: StepOptions) => options.advancedMode ?? NO_ADVANCED_MODE;

export const runActorId = (generation: number, runId: string) => `run:${generation}:${runId}`;

/** Edits that make a calculated run calculate again at once (spec section 4). */
const RECALCULATING_FIELDS: readonly EditableField[] = ['stepped', 'has_body_extension', 'selectedSystem'];

export function initialContext(open: OpenRequest): ProjectContext {
  return {
    data: null,
    generation: 0,
    spawned: [],
    selectedRunId: null,
    tab: 'system',
    queue: [],
    inFlight: null,
    progress: null,
    dialog: null,
    error: null,
    panel: null,
    saveError: null,
    shareLink: null,
    dirty: false,
    open,
    connected: false,
    liveClosed: null,
    refreshing: [],
    saves: 0,
    advancedView: 'catchment',
    calcErrors: {},
  };
}

const selectedRun = (ctx: ProjectContext) => (ctx.selectedRunId ? ctx.data?.runs[ctx.selectedRunId] : undefined);

function toRun(plan: Plan, runId: string, event: RunEvent): Plan {
  if (!plan.ctx.spawned.includes(runId)) return plan;
  return { ...plan, effects: [...plan.effects, { type: 'toRun', id: runActorId(plan.ctx.generation, runId), event }] };
}

function withData(plan: Plan, data: ProjectData, more: Partial<ProjectContext> = {}): Plan {
  return { ...plan, ctx: { ...plan.ctx, data, ...more } };
}

/** Starts run machines for new runs, stops those of removed ones and passes on the server's states. */
export function syncRuns(plan: Plan, applied: Applied): Plan {
  const { ctx } = plan;
  const effects = [...plan.effects];
  const order = applied.data.order;
  for (const runId of ctx.spawned) {
    if (!order.includes(runId)) effects.push({ type: 'stop', id: runActorId(ctx.generation, runId) });
  }
  for (const runId of order) {
    const id = runActorId(ctx.generation, runId);
    if (!ctx.spawned.includes(runId)) {
      effects.push({ type: 'spawn', id, input: { runId, state: applied.states[runId] ?? 'unconfigured' } });
    } else if (applied.states[runId]) {
      effects.push({ type: 'toRun', id, event: { type: 'SERVER.STATE', state: applied.states[runId] } });
    }
  }
  let selectedRunId = ctx.selectedRunId;
  let tab = ctx.tab;
  if (selectedRunId && !applied.data.runs[selectedRunId]) {
    selectedRunId = order[0] ?? null;
    tab = 'system';
  }
  return { ctx: { ...ctx, data: applied.data, spawned: [...order], selectedRunId, tab }, effects };
}

/** A new project in place of the old: fresh run machines, first run selected, followed live when editable. */
export function replaceProject(plan: Plan, applied: Applied): Plan {
  const { ctx } = plan;
  const effects: Effect[] = [...plan.effects];
  for (const runId of ctx.spawned) effects.push({ type: 'stop', id: runActorId(ctx.generation, runId) });
  const generation = ctx.generation + 1;
  const data = applied.data;
  for (const runId of data.order) {
    effects.push({ type: 'spawn', id: runActorId(generation, runId), input: { runId, state: applied.states[runId] ?? 'unconfigured' } });
  }
  // Someone else's project is followed too, so that the owner's changes
  // show and a withdrawn share ends it; a share link's project only by the
  // link's share id, which is what grants the access.
  effects.push({ type: 'live', event: { type: 'FOLLOW', ...followTarget(ctx.open, data), from: data.streamVersion } });
  if (data.editable) effects.push({ type: 'remember', id: data.id });
  const first = data.order[0] ?? null;
  const firstCalculated = !!(first && data.runs[first]?.results?.calculated);
  return {
    ctx: {
      ...ctx,
      data,
      generation,
      spawned: [...data.order],
      selectedRunId: first,
      // Spec: a loaded project whose first run is calculated opens on its results (tab 1).
      tab: firstCalculated ? 'run' : 'system',
      queue: [],
      dirty: false,
      dialog: null,
      panel: null,
      shareLink: null,
      saveError: null,
      liveClosed: null,
      refreshing: [],
      advancedView: firstCalculated ? 'results' : 'catchment',
      calcErrors: {},
    },
    effects,
  };
}

/** How the live stream asks for the project: by its share id when it was opened by a share link and is not this user's. */
export function followTarget(open: OpenRequest, data: ProjectData): LiveTarget {
  if (!data.editable && open.kind === 'load' && 'shareID' in open.key) return { project: data.id, share: open.key.shareID };
  return { project: data.id };
}

/** The step for one event of the ready project. */
export function step(ctx: ProjectContext, event: ProjectEvent, options: StepOptions): Plan {
  const plan: Plan = { ctx, effects: [] };
  const data = ctx.data;
  if (!data) return plan;
  switch (event.type) {
    case 'SELECT_RUN': {
      const run = data.runs[event.runId];
      if (!run) return plan;
      // Spec: selecting an uncalculated run goes to the first tab.
      return { ...plan, ctx: { ...ctx, selectedRunId: event.runId, tab: run.results?.calculated ? ctx.tab : 'system' } };
    }
    case 'EDIT':
      return edit(plan, event.field, event.value, {}, options);
    case 'DIALOG.SWAP': {
      const run = selectedRun(ctx);
      if (!run) return plan;
      const upper = run.inputs.lowerElevation ?? null;
      const lower = run.inputs.upperElevation ?? null;
      const cleared = { ...plan, ctx: { ...ctx, dialog: null } };
      return edit(edit(cleared, 'upperElevation', upper, { silent: true }, options), 'lowerElevation', lower, { silent: true }, options);
    }
    case 'DIALOG.SKIP':
      return { ctx: { ...ctx, dialog: null }, effects: [{ type: 'skipSuperCritical' }] };
    case 'RENAME':
      return rename(plan, event.runId, event.name);
    case 'NOTES':
      return notes(plan, event.runId, event.notes);
    case 'ADD_RUN':
      return structural(plan, { type: 'add_run' }, options);
    case 'DUPLICATE':
      return ctx.selectedRunId ? structural(plan, { type: 'duplicate_run', run_id: ctx.selectedRunId }, options) : plan;
    case 'REMOVE':
      return structural(plan, { type: 'remove_run', run_id: event.runId }, options);
    case 'REORDER':
      return structural(plan, { type: 'reorder_runs', order: event.order }, options);
    case 'RESET':
      // Spec: reset goes to the catchment.
      return ctx.selectedRunId ? structural({ ...plan, ctx: { ...ctx, advancedView: 'catchment' } }, { type: 'reset_run', run_id: ctx.selectedRunId }, options) : plan;
    case 'CALCULATE':
      return calculate(plan, options);
    case 'DETAILS':
      return details(plan, { ...data, details: { ...data.details, ...event.details } });
    case 'FREEBOARD_MARGIN':
      return sameMargin(data.freeboardMargin, event.margin) ? plan : details(plan, { ...data, freeboardMargin: event.margin });
    case 'PROJECT_UNITS':
      return data.rainfallUnits === event.units ? plan : details(plan, { ...data, rainfallUnits: event.units });
    case 'RAINFALL.APPLY': {
      const edited = closePanel(editFields(plan, { rainfall: event.rainfall }), 'rainfallMap');
      if (!event.makeDefault || !edited.ctx.data) return edited;
      // Spec section 9: the saved default follows the display rounding.
      return details(edited, { ...edited.ctx.data, defaultRainfall: roundRainfall(event.rainfall.rainfall_mm_per_hr) });
    }
    case 'CONTROLLED.CONFIRM':
      // Spec section 4: confirm saves and recalculates.
      return calculate(closePanel(editFields(plan, event.changes), 'storage'), options);
    case 'CONTROLLED.RESET': {
      const run = selectedRun(ctx);
      const reset = closePanel(editFields(plan, event.changes), 'storage');
      // Recalculating only when the run's results were designed with controlled discharge.
      return run && hasControlledDischarge(run.inputs) && run.results?.calculated ? calculate(reset, options) : reset;
    }
    case 'SAVE':
      return save(plan, event.asNew, event.share);
    case 'SHARE':
      if (!data.saved || !data.editable) return { ...plan, ctx: { ...ctx, error: [{ key: 'share.saveFirst' }] } };
      return { ...plan, ctx: { ...ctx, queue: [...ctx.queue, { kind: 'share' }], shareLink: null } };
    case 'LIVE.VIEW': {
      if (event.message.project !== data.id || ctx.liveClosed) return plan;
      // Someone else's project changed here stays as the user made it; until then it shows the owner's changes.
      if (!data.editable && ctx.dirty) return plan;
      return syncRuns(plan, applyView(data, event.message));
    }
    case 'LIVE.CLOSED':
      if (event.project !== data.id) return plan;
      return { ...plan, ctx: { ...ctx, liveClosed: event.reason } };
    case 'PROFILE.REFRESHED': {
      const refreshing = ctx.refreshing.filter((id) => id !== event.runId);
      const run = data.runs[event.runId];
      const current = run ? JSON.stringify(calculationBody(run.inputs, data.defaultRainfall)) : null;
      // Only for the inputs it was made from, and only to add the profile to results still there.
      if (!run || !event.results || current !== JSON.stringify(event.body) || !lacksProfile(run.results)) {
        return { ...plan, ctx: { ...ctx, refreshing } };
      }
      return withData(plan, setResults(data, event.runId, event.results, run.error), { refreshing });
    }
    case 'MODE':
      return switchMode(plan, event.advanced, options);
    case 'ADVANCED.VIEW':
      return { ...plan, ctx: { ...ctx, advancedView: event.view } };
    case 'ADVANCED.EDIT':
      return advancedEdit(plan, event.edit);
    case 'AUTOCUT':
      return autoCutChoice(plan, event.choice, options);
    default:
      return plan;
  }
}

/** The standard/advanced switch for the selected run; only for users with the right, and not once an advanced calculation has started. */
function switchMode(plan: Plan, advanced: boolean, options: StepOptions): Plan {
  const run = selectedRun(plan.ctx);
  if (!run || !modeOf(options).allowed || run.results?.advanced === true) return plan;
  const { changes, lostAccessories } = modeChanges(run.inputs, advanced);
  const edited = editFields(plan, changes);
  const tab: DesignTab = advanced ? 'run' : run.results?.calculated ? 'run' : 'system';
  const dialog: ProjectDialog | null = lostAccessories ? { kind: 'resetAccessories' } : edited.ctx.dialog;
  return { ...edited, ctx: { ...edited.ctx, tab, dialog, advancedView: run.results?.calculated ? 'results' : 'catchment' } };
}

function advancedEdit(plan: Plan, change: AdvancedEdit): Plan {
  const data = plan.ctx.data;
  const run = selectedRun(plan.ctx);
  if (!data || !run) return plan;
  const { changes, warning } = applyAdvancedEdit(run.inputs, change, data.defaultRainfall);
  const edited = editFields(plan, changes);
  return warning ? { ...edited, ctx: { ...edited.ctx, dialog: warning } } : edited;
}

/** The auto-cut dialog's choice, applied to the selected run, which is then calculated. */
function autoCutChoice(plan: Plan, choice: AutoCutChoice, options: StepOptions): Plan {
  const run = selectedRun(plan.ctx);
  const cleared = { ...plan, ctx: { ...plan.ctx, dialog: null } };
  if (!run) return cleared;
  const cut = autoCut(run.inputs, choice);
  if (!cut) return cleared;
  // A shortened run keeps its catchment consistent, as a typed length does (depth from area, slope from elevations).
  const changes = typeof cut.channel_length_m === 'number' ? { ...applyEdit(run.inputs, 'channel_length_m', cut.channel_length_m, cleared.ctx.data?.defaultRainfall).changes, ...cut } : cut;
  return calculate(editFields(cleared, changes), options);
}

function edit(plan: Plan, field: EditableField, value: unknown, editOptions: { silent?: boolean } = {}, options: StepOptions = { newId: () => '', superCriticalSkipped: false }): Plan {
  const { ctx } = plan;
  const data = ctx.data;
  const run = selectedRun(ctx);
  if (!data || !run) return plan;
  const { changes, warning } = applyEdit(run.inputs, field, value, data.defaultRainfall);
  let next = applyEditedInputs(data, run.id, changes);
  let queue = ctx.queue;
  if (data.editable) ({ queue, data: next } = enqueueCommand(queue, next, { type: 'change_inputs', run_id: run.id, fields: changes }));
  const inputs = next.runs[run.id]!.inputs;
  let result = withData(plan, next, { queue, dirty: true, dialog: warning && !editOptions.silent ? warning : ctx.dialog });
  result = toRun(result, run.id, { type: 'EDITED', ready: readyForFirstCalculation(inputs) });
  const calculated = !!run.results?.calculated;
  if (calculated && RECALCULATING_FIELDS.includes(field) && calculateBlockers(inputs, data.defaultRainfall).length === 0) {
    return calculate(result, options);
  }
  return result;
}

/** Several fields of the selected run at once, as a dialog hands them over. */
function editFields(plan: Plan, changes: Partial<RunInputs>): Plan {
  const { ctx } = plan;
  const data = ctx.data;
  const run = selectedRun(ctx);
  if (!data || !run || Object.keys(changes).length === 0) return plan;
  let next = applyEditedInputs(data, run.id, changes);
  let queue = ctx.queue;
  if (data.editable) ({ queue, data: next } = enqueueCommand(queue, next, { type: 'change_inputs', run_id: run.id, fields: changes }));
  const inputs = next.runs[run.id]!.inputs;
  return toRun(withData(plan, next, { queue, dirty: true }), run.id, { type: 'EDITED', ready: readyForFirstCalculation(inputs) });
}

function closePanel(plan: Plan, panel: Panel): Plan {
  return plan.ctx.panel === panel ? { ...plan, ctx: { ...plan.ctx, panel: null } } : plan;
}

function rename(plan: Plan, runId: string, name: string): Plan {
  const data = plan.ctx.data;
  const run = data?.runs[runId];
  if (!data || !run || name.trim() === '' || name.trim() === run.name) return plan;
  let next = setRunName(data, runId, name);
  let queue = plan.ctx.queue;
  if (data.editable) ({ queue, data: next } = enqueueCommand(queue, next, { type: 'rename_run', run_id: runId, name: name.trim() }));
  return withData(plan, next, { queue, dirty: true });
}

function notes(plan: Plan, runId: string, text: string): Plan {
  const data = plan.ctx.data;
  if (!data?.runs[runId]) return plan;
  let next = setRunNotes(data, runId, text);
  let queue = plan.ctx.queue;
  if (data.editable) ({ queue, data: next } = enqueueCommand(queue, next, { type: 'change_notes', run_id: runId, notes: text }));
  return withData(plan, next, { queue, dirty: true, panel: plan.ctx.panel === 'notes' ? null : plan.ctx.panel });
}

function details(plan: Plan, changed: ProjectData): Plan {
  let next = changed;
  let queue = plan.ctx.queue;
  if (changed.editable) {
    ({ queue, data: next } = enqueueCommand(queue, next, {
      type: 'change_details',
      details: changed.details,
      rainfall_units: changed.rainfallUnits,
      default_rainfall: changed.defaultRainfall,
      ...marginSetting(changed.freeboardMargin),
    }));
  }
  return withData(plan, next, { queue, dirty: true });
}

/** Adding, duplicating, removing, reordering and resetting runs. */
function structural(plan: Plan, command: ProjectCommand, options: StepOptions): Plan {
  const { ctx } = plan;
  const data = ctx.data;
  if (!data) return plan;
  if ((command.type === 'duplicate_run' || command.type === 'remove_run' || command.type === 'reset_run') && !data.runs[command.run_id]) {
    return plan;
  }
  let result = plan;
  let next = data;
  let queue = ctx.queue;
  if (command.type === 'reorder_runs') next = reorder(data, command.order);
  if (command.type === 'remove_run') {
    // Runs that flowed into the run's trash box or took its water lose the link.
    for (const id of data.order) {
      const changes = id === command.run_id ? null : withoutLinksTo(data.runs[id]!.inputs, command.run_id);
      if (!changes) continue;
      next = applyEditedInputs(next, id, changes);
      if (data.editable) ({ queue, data: next } = enqueueCommand(queue, next, { type: 'change_inputs', run_id: id, fields: changes }));
    }
  }
  if (command.type === 'reset_run') {
    next = resetRun(data, command.run_id);
    result = toRun(result, command.run_id, { type: 'RESET' });
  }
  const tab = command.type === 'reset_run' ? 'system' : ctx.tab;
  if (data.editable) {
    const extra =
      command.type === 'duplicate_run' ? { duplicateOf: command.run_id, selectNew: true } : command.type === 'add_run' ? { selectNew: true } : {};
    const queued = enqueueCommand(queue, next, command, extra);
    return withData(result, queued.data, { queue: queued.queue, dirty: true, tab });
  }
  // A project this user may not edit on the server changes here only, until saved as new.
  let selected = ctx.selectedRunId;
  let newTab: DesignTab = tab;
  const states: Record<string, RunState> = {};
  if (command.type === 'add_run') {
    const id = options.newId();
    next = addRunLocally(data, id);
    selected = id;
    newTab = 'system';
  } else if (command.type === 'duplicate_run') {
    const id = options.newId();
    next = duplicateRunLocally(data, command.run_id, id);
    states[id] = 'calculated';
    selected = id;
  } else if (command.type === 'remove_run') {
    next = removeRunLocally(data, command.run_id, options.newId());
    if (selected === command.run_id) {
      selected = next.order[0] ?? null;
      newTab = 'system';
    }
  }
  const synced = syncRuns(withData(result, next, { dirty: true }), { data: next, states });
  return { ...synced, ctx: { ...synced.ctx, selectedRunId: selected, tab: newTab } };
}

function calculate(start: Plan, options: StepOptions): Plan {
  let plan = start;
  const first = selectedRun(plan.ctx);
  if (!plan.ctx.data || !first) return plan;
  // The run is calculated in the mode this user has for it; a run that does not say takes it down.
  const advanced = isAdvanced(first.inputs, modeOf(options));
  if ((first.inputs.advanced === true) !== advanced) plan = editFields(plan, { advanced });
  const { ctx } = plan;
  const data = ctx.data!;
  const run = selectedRun(ctx)!;
  if (calculateBlockers(run.inputs, data.defaultRainfall).length > 0) return plan;
  if (advanced && advancedBlockers(run.inputs).length > 0) return plan;
  if (ctx.queue.some((item) => item.kind === 'calculate' && item.runId === run.id)) return plan;
  // Spec section 4: in advanced mode the channels must lay the run length, or the auto-cut dialog opens.
  const cut = advanced ? autoCutDialog(run.inputs) : null;
  if (cut) return { ...plan, ctx: { ...ctx, dialog: cut } };
  let next = data;
  let queue = ctx.queue;
  let dialog = ctx.dialog;
  if (outOfRunItems(run.inputs)) {
    // Spec: inflows and accessories beyond the length are reset, with the position warning.
    const cleared: Partial<RunInputs> = { inflows: [], accessories: [] };
    next = applyEditedInputs(next, run.id, cleared);
    if (next.editable) ({ queue, data: next } = enqueueCommand(queue, next, { type: 'change_inputs', run_id: run.id, fields: cleared }));
    dialog = { kind: 'position' };
  }
  // A run linked to another (a shared trash box, an inflow from it) is calculated with it.
  const partnerId = calculationPartner(next, run.id);
  next = markPending(next, partnerId ? [keys.results(run.id), keys.results(partnerId)] : [keys.results(run.id)]);
  queue = [...queue, partnerId ? { kind: 'calculate', runId: run.id, partnerId } : { kind: 'calculate', runId: run.id }];
  const { [run.id]: _cleared, ...calcErrors } = ctx.calcErrors;
  return toRun(withData(plan, next, { queue, dialog, error: null, calcErrors }), run.id, { type: 'CALCULATION.START' });
}

function save(plan: Plan, asNew: boolean, share: boolean): Plan {
  const data = plan.ctx.data;
  if (!data) return plan;
  if (data.details.name.trim() === '') return { ...plan, ctx: { ...plan.ctx, saveError: { key: 'save.needsName' } } };
  const todo = uncalculatedRuns(data);
  if (todo.length > 0) return { ...plan, ctx: { ...plan.ctx, saveError: { key: 'save.runsToCalculate', values: { runs: todo.join(', ') } } } };
  // Someone else's project can only be saved as a copy of one's own.
  const item: Outgoing = { kind: 'save', asNew: asNew || !data.editable, share };
  return withData(plan, markPending(data, [keys.details]), { queue: [...plan.ctx.queue, item], saveError: null });
}

/** The step for the outcome of the outgoing work that was under way. */
export function delivered(ctx: ProjectContext, outcome: Delivered, options: StepOptions): Plan {
  const plan: Plan = { ctx, effects: [] };
  const data = ctx.data;
  if (!data) return plan;
  switch (outcome.kind) {
    case 'command': {
      const settled = settlePending(data, outcome.item.keys, outcome.answer.version);
      const synced = syncRuns(plan, applyAnswer(settled, outcome.answer, outcome.item.duplicateOf));
      const newRun = outcome.item.selectNew ? outcome.answer.run_id : undefined;
      const run = newRun ? synced.ctx.data?.runs[newRun] : undefined;
      if (newRun && run) {
        return { ...synced, ctx: { ...synced.ctx, selectedRunId: newRun, tab: run.results?.calculated ? synced.ctx.tab : 'system' } };
      }
      return synced;
    }
    case 'calculate': {
      const runId = outcome.item.runId;
      const partnerId = outcome.item.partnerId;
      let next = setResults(settlePending(data, [keys.results(runId)], null), runId, outcome.results);
      if (partnerId) next = setResults(settlePending(next, [keys.results(partnerId)], null), partnerId, outcome.partnerResults ?? null);
      const superCritical = !!outcome.results.went_super_critical && !options.superCriticalSkipped && !ctx.dialog;
      const selected = ctx.selectedRunId === runId;
      const result = withData(plan, next, {
        // Spec: after a standard-mode calculation the design run tab shows; after an advanced one its results view.
        tab: selected ? 'run' : ctx.tab,
        advancedView: selected && next.runs[runId] && isAdvanced(next.runs[runId].inputs, modeOf(options)) ? 'results' : ctx.advancedView,
        dialog: superCritical ? { kind: 'superCritical' } : ctx.dialog,
      });
      const done = toRun(result, runId, { type: 'CALCULATION.DONE' });
      return partnerId && outcome.partnerResults ? toRun(done, partnerId, { type: 'CALCULATION.DONE' }) : done;
    }
    case 'save': {
      const saveOptions = { asNew: outcome.item.asNew, share: outcome.item.share };
      const next = applySave(settlePending(data, [keys.details], outcome.answer.version), outcome.answer, saveOptions);
      if (next.id === data.id) {
        return { ctx: { ...ctx, data: next, dirty: false, panel: null, saveError: null, saves: ctx.saves + 1 }, effects: [{ type: 'saved' }] };
      }
      const states = Object.fromEntries(next.order.map((id) => [id, 'calculated' as RunState]));
      const selectedIndex = Math.max(0, ctx.selectedRunId ? data.order.indexOf(ctx.selectedRunId) : 0);
      const replaced = replaceProject(plan, { data: next, states });
      return {
        ctx: { ...replaced.ctx, selectedRunId: next.order[selectedIndex] ?? null, tab: ctx.tab, saves: ctx.saves + 1 },
        effects: [...replaced.effects, { type: 'saved' }],
      };
    }
    case 'share':
      return { ...plan, ctx: { ...ctx, shareLink: outcome.link, panel: 'share' } };
    case 'failed':
      return failed(plan, outcome.item, outcome.error, options);
  }
}

function failed(plan: Plan, item: Outgoing, error: unknown, options: StepOptions): Plan {
  const data = plan.ctx.data!;
  // An ended session is the login form's business; the design stays as it is.
  const expired = error instanceof SessionExpiredError;
  switch (item.kind) {
    case 'command':
      return withData(plan, settlePending(data, item.keys, null), { error: expired ? null : [errorMessage(error, 'project.commandFailed')] });
    case 'calculate': {
      const message = expired ? { key: 'calc.expiredSession' } : errorMessage(error, 'calc.sendFailed');
      let next = setResults(settlePending(data, [keys.results(item.runId)], null), item.runId, null, 'text' in message ? message.text : null);
      // The linked run keeps the results it had.
      if (item.partnerId) next = settlePending(next, [keys.results(item.partnerId)], null);
      const run = next.runs[item.runId];
      // Advanced mode keeps the refusal beside its field; channels that do not lay the run open the auto-cut dialog instead (spec section 8).
      const calcError = calcErrorOf(error);
      const advanced = !!run && isAdvanced(run.inputs, modeOf(options));
      const calcErrors = calcError && advanced ? { ...plan.ctx.calcErrors, [item.runId]: calcError } : plan.ctx.calcErrors;
      const cut = advanced && calcError?.lengthMismatch && plan.ctx.selectedRunId === item.runId ? autoCutDialog(run.inputs) : null;
      return toRun(withData(plan, next, cut ? { dialog: cut, calcErrors } : { error: [message], calcErrors }), item.runId, {
        type: 'CALCULATION.FAILED',
        ready: !!run && readyForFirstCalculation(run.inputs),
      });
    }
    case 'save':
      return withData(plan, settlePending(data, [keys.details], null), {
        saveError: expired ? { key: 'save.expiredSession' } : errorMessage(error, 'save.failed'),
      });
    case 'share':
      // Spec: a failed share is reported only.
      console.error('sharing failed', error);
      return plan;
  }
}

/** The error dialog's paragraphs for a failed load: the spec's "load.failed" followed by the reason. */
export function loadFailure(error: unknown): Message[] {
  const reason = errorMessage(error, 'load.notFound');
  if ('key' in reason && reason.key === 'load.noRuns') return [reason];
  return [{ key: 'load.failed' }, reason];
}

/** Adds a profile refresh for each run whose results came without slices and is not being refreshed yet. */
export function withProfileRefreshes(plan: Plan): Plan {
  const data = plan.ctx.data;
  if (!data) return plan;
  const missing = data.order.filter(
    (id) => lacksProfile(data.runs[id]?.results) && !plan.ctx.refreshing.includes(id) && (data.pending[keys.results(id)] ?? 0) === 0,
  );
  if (missing.length === 0) return plan;
  const effects: Effect[] = missing.map((runId) => {
    const partnerId = calculationPartner(data, runId);
    const body = calculationBody(data.runs[runId]!.inputs, data.defaultRainfall);
    if (!partnerId) return { type: 'refreshProfile', runId, body };
    return { type: 'refreshProfile', runId, body, partner: { runId: partnerId, body: calculationBody(data.runs[partnerId]!.inputs, data.defaultRainfall) } };
  });
  return { ctx: { ...plan.ctx, refreshing: [...plan.ctx.refreshing, ...missing] }, effects: [...plan.effects, ...effects] };
}
