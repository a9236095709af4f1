// Runs that feed one another (design-tool.md section 4, "Shared trash
// box"): a run's outflow may go into another run's trash box, and a run's
// point inflow may come from another run. Each such link carries water
// from an upstream run to a downstream one; a chain of links must never
// come back to where it started. The server calculates two linked runs
// together (calculate_shared) and verifies a save the same way, taking at
// most one run feeding any run (domain/design verify.go).
import type { RunInputs } from '../design/types';
import { confirmedOnly, inflowsOf } from './items';

/** A run as the links see it. */
export interface LinkedRun {
  id: string;
  inputs: Pick<RunInputs, 'dischargeSetting' | 'inflows'> & { outflowTrashbox?: unknown };
}

/** An upstream run's water reaching a downstream run. */
export interface Link {
  from: string;
  to: string;
  via: 'trashBox' | 'inflow';
}

/** The run whose trash box the run's outflow goes into, when it names one of the project's runs. */
export function trashBoxTarget(run: LinkedRun, ids: ReadonlySet<string>): string | null {
  if (run.inputs.dischargeSetting !== 'outflow-in-trashbox') return null;
  const target = run.inputs.outflowTrashbox;
  // In advanced mode the field holds a trash box's discharge instead: a number.
  return typeof target === 'string' && ids.has(target) ? target : null;
}

export function linksOf(runs: readonly LinkedRun[]): Link[] {
  const ids = new Set(runs.map((run) => run.id));
  const links: Link[] = [];
  for (const run of runs) {
    const target = trashBoxTarget(run, ids);
    if (target) links.push({ from: run.id, to: target, via: 'trashBox' });
    for (const inflow of confirmedOnly(inflowsOf(run.inputs))) {
      if (inflow.source && ids.has(inflow.source)) links.push({ from: inflow.source, to: run.id, via: 'inflow' });
    }
  }
  return links;
}

/** Whether water from `from` reaches `to` along the links (a run reaches itself). */
export function reaches(links: readonly Link[], from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (at === to) return true;
    if (seen.has(at)) continue;
    seen.add(at);
    for (const link of links) if (link.from === at) stack.push(link.to);
  }
  return false;
}

/** Whether the links hold a circular chain. */
export function hasCycle(links: readonly Link[]): boolean {
  return links.some((link) => reaches(links, link.to, link.from));
}

/** Whether a new link from `from` to `to` would close a circle with the links there are. */
export function wouldCycle(links: readonly Link[], from: string, to: string): boolean {
  return from === to || reaches(links, to, from);
}

/** The runs feeding a run. */
export function feedersOf(links: readonly Link[], runId: string): string[] {
  return [...new Set(links.filter((link) => link.to === runId).map((link) => link.from))];
}

/**
 * The runs whose trash box a run's outflow may go into (spec section 4): both
 * calculated, no circular chain, and the target fed by no other run (the
 * server calculates a run with one feeder at most). The run's own current
 * trash-box link does not count against it.
 */
export function trashBoxTargets(runs: readonly LinkedRun[], runId: string, calculated: (id: string) => boolean): string[] {
  if (!calculated(runId)) return [];
  const others = linksOf(runs).filter((link) => !(link.from === runId && link.via === 'trashBox'));
  return runs
    .map((run) => run.id)
    .filter((id) => id !== runId && calculated(id) && !wouldCycle(others, runId, id) && feedersOf(others, id).every((feeder) => feeder === runId));
}

/**
 * The runs an inflow of `runId` may take its water from: another run, not
 * fed by this one (no circle), and the only run feeding this one. The
 * inflow being edited (`editing`) does not count against it.
 */
export function inflowSources(runs: readonly LinkedRun[], runId: string, editing?: string): string[] {
  const others = linksOf(
    runs.map((run) =>
      run.id === runId ? { ...run, inputs: { ...run.inputs, inflows: inflowsOf(run.inputs).filter((i) => i.id !== editing) } } : run,
    ),
  );
  return runs
    .map((run) => run.id)
    .filter((id) => id !== runId && !wouldCycle(others, id, runId) && feedersOf(others, runId).every((feeder) => feeder === id));
}

/**
 * The run to calculate together with a run: the one feeding it (its results
 * depend on that run's discharge), or else the one it feeds (whose results
 * depend on this run's).
 */
export function partnerOf(runs: readonly LinkedRun[], runId: string): string | null {
  const links = linksOf(runs);
  const feeder = links.find((link) => link.to === runId && link.from !== runId);
  if (feeder) return feeder.from;
  const fed = links.find((link) => link.from === runId && link.to !== runId);
  return fed ? fed.to : null;
}

/** Links to runs that are gone, cleared from a run's inputs; null when it has none. */
export function withoutLinksTo(inputs: LinkedRun['inputs'], removed: string): Partial<RunInputs> | null {
  const changes: Partial<RunInputs> = {};
  // Its box gone, the run flows out freely rather than into a box of its own it never had.
  if (inputs.dischargeSetting === 'outflow-in-trashbox' && inputs.outflowTrashbox === removed) {
    changes.dischargeSetting = 'free-outflow';
    changes.outflowTrashbox = null;
  }
  const inflows = inflowsOf(inputs);
  if (inflows.some((i) => i.source === removed)) changes.inflows = inflows.map((i) => (i.source === removed ? { ...i, source: null } : i));
  return Object.keys(changes).length > 0 ? changes : null;
}

/** A run's inputs with its links to renamed runs (a save as new) naming their new ids. */
export function relinkedInputs<T extends LinkedRun['inputs']>(inputs: T, renamed: ReadonlyMap<string, string>): T {
  let out = inputs;
  const target = inputs.outflowTrashbox;
  if (typeof target === 'string' && renamed.has(target)) out = { ...out, outflowTrashbox: renamed.get(target) };
  const inflows = inputs.inflows;
  if (Array.isArray(inflows) && inflows.some((i) => typeof i.source === 'string' && renamed.has(i.source))) {
    out = { ...out, inflows: inflows.map((i) => (typeof i.source === 'string' && renamed.has(i.source) ? { ...i, source: renamed.get(i.source) } : i)) };
  }
  return out;
}
