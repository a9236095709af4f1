import type { DrainageApi } from '../api/endpoints';
import type { LoadAnswer, LoadRunAnswer } from '../api/projectTypes';
import { createProjectMachine, type ProjectDeps } from '../design/projectMachine';
import type { OpenRequest } from '../design/projectSteps';
import type { HistoryApi } from './historyApi';
import type { VersionState } from './types';

// A version of a project, shown read-only with the design screen's own
// parts: the design screen's project machine opens it as it opens a
// loaded project, from the timeline call's state at that version instead
// of the load calls. It is someone else's project to that machine (not
// editable, nothing sent), it follows no live stream, and it calculates
// only to draw profiles, unrecorded.

/** The load answer of a version, as the load call would give it. */
export function versionLoad(projectId: string, state: VersionState): { load: LoadAnswer; runs: LoadRunAnswer[] } {
  const load: LoadAnswer = {
    saveID: projectId,
    version: state.version,
    schedule: state.runs.map((run) => `${projectId}.${run.saveID}`),
    details: state.details,
    notes: state.notes ?? '',
    rainfall_units: state.rainfall_units,
    default_rainfall: state.default_rainfall,
    freeboard_min_mm: state.freeboard_min_mm ?? null,
    freeboard_min_percent: state.freeboard_min_percent ?? null,
    share: state.share_with_provider,
    owner: state.owner,
    editable: false,
  };
  return { load, runs: state.runs.map((run) => ({ id: run.saveID, run })) };
}

const refused = () => Promise.reject(new Error('a version is read only'));

/** A project machine that opens version `version` of project `projectId`, with the input to start it with. */
export function versionMachine(api: Pick<HistoryApi, 'version'>, drainage: Pick<DrainageApi, 'calculate'>, projectId: string, version: number) {
  let loaded: Promise<{ load: LoadAnswer; runs: LoadRunAnswer[] }> | null = null;
  const read = () => {
    loaded ??= api.version(projectId, version).then((answer) => {
      if (!answer.state) throw new Error(`no state of version ${version}`);
      return versionLoad(projectId, answer.state);
    });
    return loaded;
  };
  const deps: ProjectDeps = {
    projects: { create: refused, command: refused },
    drainage: {
      calculate: (body) => drainage.calculate(body),
      save: refused,
      share: refused,
      load: async () => (await read()).load,
      loadRun: async (key) => {
        const { runs } = await read();
        const run = runs.find((r) => `${projectId}.${r.id}` === key);
        if (!run) throw new Error(`no run ${key}`);
        return run;
      },
    },
    newId: () => crypto.randomUUID(),
    remember: () => undefined,
    superCriticalSkipped: () => true,
    skipSuperCritical: () => undefined,
    userRainfallUnits: () => 'mm/h',
  };
  const open: OpenRequest = { kind: 'load', key: { id: projectId } };
  return { machine: createProjectMachine(deps), input: { open } };
}
