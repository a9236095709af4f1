import type { ProjectDetails, Results, RunInputs, RunState } from '../design/types';

/** A run as the edit calls answer it. */
export interface RunHead {
  id: string;
  name: string;
  state: RunState;
}

/** POST /projects/ and POST /projects/{id}/commands. */
export interface EditAnswer {
  id: string;
  version: number;
  run_id?: string;
  runs: RunHead[];
}

export type ProjectCommand =
  | { type: 'add_run' }
  | { type: 'rename_run'; run_id: string; name: string }
  | { type: 'duplicate_run'; run_id: string }
  | { type: 'remove_run'; run_id: string }
  | { type: 'reorder_runs'; order: string[] }
  | { type: 'change_inputs'; run_id: string; fields: Partial<RunInputs> }
  | { type: 'change_notes'; run_id: string; notes: string }
  | { type: 'reset_run'; run_id: string }
  | ({ type: 'change_details'; details: ProjectDetails; rainfall_units: string; default_rainfall: number | null } & FreeboardSetting);

/** The project's freeboard margin (domain/project/freeboard.go); null or absent keeps the server's default. */
export interface FreeboardSetting {
  freeboard_min_mm?: number | null;
  freeboard_min_percent?: number | null;
}

/** A run as the live stream shows it, in the project's run order. */
export interface LiveRunView {
  id: string;
  name: string;
  notes: string;
  /** The server's state of the run, which drives its run machine. */
  state: RunState;
  inputs: RunInputs;
  /** The stored calculation result (without the profile's slices); null when there is none. */
  summary: Results | null;
  /** The message of the last failed calculation, or ''. */
  last_error: string;
}

/** The project as the server shows it to this viewer (api/projectview.go). */
export interface ProjectView extends FreeboardSetting {
  id: string;
  owner: string;
  editable: boolean;
  details: ProjectDetails;
  rainfall_units: string;
  default_rainfall: number | null;
  notes: string;
  created: string;
  saved: boolean;
  last_saved?: string;
  saved_by?: string;
  /** Only for the owner, admins and provider staff. */
  share_with_provider?: boolean;
  /** Only for the owner and admins. */
  shared_by_link?: boolean;
  deleted: boolean;
  runs: LiveRunView[];
}

/** The live project stream (/api/ws), server to client. */
export type LiveMessage = LiveProject | LiveClosed | LiveError | LiveCatalogue;

/** What the user's country is offered changed (channel availability): the product list is to be loaded again. */
export interface LiveCatalogue {
  type: 'catalogue';
  country: string;
}

/** The project after a change, at `version`; older or equal versions are dropped. */
export interface LiveProject {
  type: 'project';
  project: string;
  version: number;
  view: ProjectView;
}

export type LiveClosedReason = 'no_access' | 'deleted' | 'session';

/**
 * The subscription to `project` ended for good (`no_access`, `deleted`), or,
 * without a project and with reason `session`, the whole connection: the
 * session ended (logout, expiry, a blocked or deleted account).
 */
export interface LiveClosed {
  type: 'closed';
  project?: string;
  reason: LiveClosedReason;
}

/** A refused request; a project that is missing or not readable gets the same error. */
export interface LiveError {
  type: 'error';
  project?: string;
  share?: string;
  /** not_found: missing or not readable, asking again will not help; server: may work later. */
  code: 'not_found' | 'bad_request' | 'server';
  error: string;
}

/** What a client follows: a project by its id, or a shared one by its share id. */
export interface LiveTarget {
  project: string;
  share?: string;
}

/** A run as a save sends it: its inputs with identity, notes and results alongside. */
export type SavedRun = RunInputs & {
  name: string;
  saveID?: string;
  /** Without a save id (save as new): the id the other runs' links name this run by. */
  linkID?: string;
  notes: string;
  results: Results | null;
};

export interface SavePayload {
  project: FreeboardSetting & {
    saveID?: string;
    version?: number;
    details: ProjectDetails;
    notes: string;
    rainfall_units: string;
    default_rainfall: number | null;
    runs: SavedRun[];
  };
  share: boolean;
  /** Names this save over an existing project, so that it may be sent again (SendOptions.repeatable). */
  request_id?: string;
}

export interface SaveAnswer {
  saveID: string;
  runSaveIDs: string[];
  version: number;
}

export type LoadKey = { id: string } | { shareID: string } | { supportID: string } | { superID: string };

export interface LoadAnswer extends FreeboardSetting {
  saveID: string;
  version: number;
  schedule: string[];
  details: ProjectDetails;
  notes: string;
  rainfall_units: string;
  default_rainfall: number | null;
  share: boolean;
  owner: string;
  editable: boolean;
}

/** GET /drainage/load/{key}/: a run's inputs with saveID, name, notes, state and results. */
export interface LoadRunAnswer {
  id: string;
  run: RunInputs & { saveID: string; name: string; notes?: string; state?: RunState; results?: Results | null };
}

export interface CalculateAnswer {
  results: Results;
}

/** The body of the document calls: the project details with the rainfall units, and the runs as calculated. */
export interface DocumentRequest {
  project_id?: string;
  /** The project's details with its rainfall units and freeboard margin. */
  details: ProjectDetails & FreeboardSetting & { rainfall_units: string };
  runs: Record<string, unknown>[];
}

export type DocumentFormat = 'pdf' | 'rtf' | 'csv';
