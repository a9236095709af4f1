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
  | { type: 'change_details'; details: ProjectDetails; rainfall_units: string; default_rainfall: number | null };

/** One message of the live project stream (/api/ws). */
export interface LiveEvent {
  type: 'event';
  project: string;
  version: number;
  event_type: string;
  data: Record<string, unknown>;
  author: string;
  time: string;
  runs: Record<string, RunState>;
  order: string[];
}

export interface LiveError {
  type: 'error';
  project?: string;
  error: string;
}

/** A run as a save sends it: its inputs with identity, notes and results alongside. */
export type SavedRun = RunInputs & {
  name: string;
  saveID?: string;
  notes: string;
  results: Results | null;
};

export interface SavePayload {
  project: {
    saveID?: string;
    version?: number;
    details: ProjectDetails;
    notes: string;
    rainfall_units: string;
    default_rainfall: number | null;
    runs: SavedRun[];
  };
  share: boolean;
}

export interface SaveAnswer {
  saveID: string;
  runSaveIDs: string[];
  version: number;
}

export type LoadKey = { id: string } | { shareID: string } | { supportID: string } | { superID: string };

export interface LoadAnswer {
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
