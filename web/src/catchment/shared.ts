// Two linked runs calculated together (design-tool.md section 4, "Shared
// trash box"): a run whose outflow goes into another run's trash box, or
// whose inflow comes from another run, is sent with that run to
// calculate_shared, so that the downstream run takes the upstream run's
// discharge as the server calculates it, and both answers come back.
import type { ProjectData } from '../design/projectModel';
import { calculateBlockers, calculationBody, outOfRunItems } from '../design/runRules';
import type { Results } from '../design/types';
import { partnerOf, type LinkedRun } from './chains';

export interface SharedBody {
  main: Record<string, unknown>;
  second: Record<string, unknown>;
}

export interface SharedAnswer {
  main: { results: Results };
  second: { results: Results };
}

export function linkedRuns(data: Pick<ProjectData, 'order' | 'runs'>): LinkedRun[] {
  return data.order.flatMap((id) => {
    const run = data.runs[id];
    return run ? [{ id, inputs: run.inputs }] : [];
  });
}

/**
 * The run to calculate with `runId`, when it has one that can be calculated
 * now (nothing keeps its Calculate disabled and nothing of it lies beyond
 * its length); null to calculate the run alone.
 */
export function calculationPartner(data: Pick<ProjectData, 'order' | 'runs' | 'defaultRainfall'>, runId: string): string | null {
  const partner = partnerOf(linkedRuns(data), runId);
  const run = partner ? data.runs[partner] : undefined;
  if (!partner || !run) return null;
  if (calculateBlockers(run.inputs, data.defaultRainfall).length > 0 || outOfRunItems(run.inputs)) return null;
  return partner;
}

/**
 * A run's calculation body with its identity: the project and run ids when
 * the calculation is recorded in the project, and its id always, which the
 * server tells the two runs of a shared calculation apart by (the links
 * name runs by these ids).
 */
export function identifiedBody(data: Pick<ProjectData, 'id' | 'editable' | 'runs' | 'defaultRainfall'>, runId: string): Record<string, unknown> {
  const run = data.runs[runId];
  if (!run) throw new Error(`no run ${runId}`);
  const body = calculationBody(run.inputs, data.defaultRainfall);
  body.id = run.id;
  if (data.editable) Object.assign(body, { project_id: data.id, run_id: run.id });
  return body;
}

export function sharedBody(data: Pick<ProjectData, 'id' | 'editable' | 'runs' | 'defaultRainfall'>, runId: string, partnerId: string): SharedBody {
  return { main: identifiedBody(data, runId), second: identifiedBody(data, partnerId) };
}
