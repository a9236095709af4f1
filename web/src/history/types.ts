// The project history as the server answers it (domain/project/history.go,
// compare.go; api/usecase/history.go).
import type { EditAnswer, LoadAnswer } from '../api/projectTypes';
import type { ProjectDetails, Results, RunInputs, RunState } from '../design/types';

/** What one event did. */
export interface HistoryChange {
  version: number;
  /** The event type, e.g. project.run_inputs_changed. */
  type: string;
  run_id?: string;
  /** The run's name after the event. */
  run?: string;
  /** The former name (renamed), or the run a duplicate copies. */
  from?: string;
  /** Input fields (or, for the project, details) the event changed. */
  fields?: string[];
  /** A calculation's headline results. */
  result?: Partial<Results>;
  error?: string;
  document?: { kind: string; format: string; language: string };
  restored?: { reason: RestoreReason; from_version: number; from_project?: string };
  shared?: boolean;
}

export type RestoreReason = 'restore' | 'undo' | 'redo' | 'copy';

export type EntryKind =
  | 'created'
  | 'copy'
  | 'edit'
  | 'save'
  | 'calculation'
  | 'restore'
  | 'undo'
  | 'redo'
  | 'share'
  | 'document'
  | 'delete'
  | 'other';

/** One version in the history: the events one request wrote. */
export interface HistoryEntry {
  from: number;
  /** The version the project stood at after it. */
  version: number;
  /** The author's user id; `authors` names it. */
  author: string;
  at: string;
  kind: EntryKind;
  changes: HistoryChange[];
  /** An edit the undo steps count. */
  undoable: boolean;
  /** Taken back by undo; redo would bring it again. */
  undone: boolean;
  /** For an undo, the version of the edit it took back; for a redo, of the edit it brought again. */
  reverts?: number;
}

export interface HistoryMove {
  /** The entry undo takes back or redo brings again. */
  entry: number;
  /** The version whose content the move restores. */
  target: number;
}

/** GET /api/projects/{id}/history. */
export interface ProjectHistory {
  project: string;
  /** The project's name now. */
  name: string;
  version: number;
  editable: boolean;
  entries: HistoryEntry[];
  undo: HistoryMove | null;
  redo: HistoryMove | null;
  authors: Record<string, string>;
}

/** A run of a version as GET /api/projects/{id}/timeline?version=N shows it: its inputs with identity, state and results. */
export type VersionRun = RunInputs & { saveID: string; name: string; notes?: string; state?: RunState; results?: Results | null };

/** The project as it stood at a version (the timeline call's `state`). */
export interface VersionState {
  version: number;
  details: ProjectDetails;
  notes: string;
  runs: VersionRun[];
  saved: boolean;
  deleted: boolean;
  share_with_provider: boolean;
  rainfall_units: string;
  default_rainfall: number | null;
  freeboard_min_mm?: number | null;
  freeboard_min_percent?: number | null;
  owner: string;
}

export interface TimelineAnswer {
  project: string;
  version: number;
  state?: VersionState;
}

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface RunDiff {
  id: string;
  name: string;
  status: 'added' | 'removed' | 'changed' | 'same';
  state_before?: RunState;
  state_after?: RunState;
  fields: FieldChange[];
  results_before: Partial<Results> | null;
  results_after: Partial<Results> | null;
  results_changed: boolean;
}

/** GET /api/projects/{id}/diff?from=A&to=B. */
export interface VersionDiff {
  from: number;
  to: number;
  details: FieldChange[];
  runs: RunDiff[];
}

export type { EditAnswer, LoadAnswer };
