import { describe, expect, it } from 'vitest';
import { applySave, emptyRun, savePayload, type ProjectData } from '../design/projectModel';
import { delivered, initialContext, step, withProfileRefreshes, type ProjectContext } from '../design/projectSteps';
import { poly100 } from '../design/testSystems';
import { emptyDetails, type Results, type RunInputs } from '../design/types';
import { NO_MARGIN } from '../design/freeboard';
import { calculationPartner, sharedBody } from './shared';

const ready: RunInputs = { selectedSystem: poly100, channel_group: 'poly-100', loading: 'C250', grating: 'poly-100-slot-iron', channel_length_m: 20, drainage_area_m2: 200 };

function project(inputs: Record<string, RunInputs>, editable = true): ProjectData {
  const order = Object.keys(inputs);
  return {
    id: 'p1',
    editable,
    saved: false,
    version: 1,
    streamVersion: 1,
    structureVersion: 1,
    details: emptyDetails(),
    notes: '',
    rainfallUnits: 'mm/h',
    defaultRainfall: null,
    freeboardMargin: NO_MARGIN,
    shareWithProvider: false,
    owner: '',
    runs: Object.fromEntries(order.map((id, i) => [id, { ...emptyRun(id, `Run ${i + 1}`), inputs: inputs[id]!, results: { calculated: true } }])),
    order,
    pending: {},
    acked: {},
    seenResults: {},
  };
}

const context = (data: ProjectData, selected: string): ProjectContext => ({ ...initialContext({ kind: 'new' }), data, selectedRunId: selected, spawned: data.order });
const options = { newId: () => 'x', superCriticalSkipped: true };
const intoBoxOf = (id: string): RunInputs => ({ ...ready, dischargeSetting: 'outflow-in-trashbox', outflowTrashbox: id });

describe('calculating linked runs together', () => {
  it('sends a run and the run whose trash box it flows into to calculate_shared, each with its id', () => {
    const data = project({ r1: { ...ready, dischargeSetting: 'outflow-in-trashbox' }, r2: intoBoxOf('r1') });
    const plan = step(context(data, 'r2'), { type: 'CALCULATE' }, options);
    expect(plan.ctx.queue.at(-1)).toEqual({ kind: 'calculate', runId: 'r2', partnerId: 'r1' });
    const body = sharedBody(plan.ctx.data!, 'r2', 'r1');
    expect(body.main).toMatchObject({ project_id: 'p1', run_id: 'r2', id: 'r2', outflowTrashbox: 'r1' });
    expect(body.second).toMatchObject({ project_id: 'p1', run_id: 'r1', id: 'r1' });
    // Someone else's project is not recorded, but the runs still know each other by id.
    expect(sharedBody(project({ r1: ready, r2: intoBoxOf('r1') }, false), 'r2', 'r1').main).not.toHaveProperty('run_id');
  });

  it('pairs a run with the one feeding it through an inflow', () => {
    const data = project({ r1: ready, r2: { ...ready, inflows: [{ id: 'i', distance_m: 5, source: 'r1', flow_lps: 0, connection: 'direct-pipe', toBeConfirmed: false }] } });
    expect(calculationPartner(data, 'r1')).toBe('r2');
    expect(calculationPartner(data, 'r2')).toBe('r1');
  });

  it('calculates alone when the linked run cannot be calculated', () => {
    const data = project({ r1: { ...ready, drainage_area_m2: 0 }, r2: intoBoxOf('r1') });
    expect(calculationPartner(data, 'r2')).toBeNull();
    expect(step(context(data, 'r2'), { type: 'CALCULATE' }, options).ctx.queue.at(-1)).toEqual({ kind: 'calculate', runId: 'r2' });
  });

  it('takes both answers, and both runs are calculated', () => {
    const data = project({ r1: ready, r2: intoBoxOf('r1') });
    const queued = step(context(data, 'r2'), { type: 'CALCULATE' }, options);
    const main: Results = { calculated: true, flow: 2.78 };
    const second: Results = { calculated: true, flow: 5.56 };
    const plan = delivered(queued.ctx, { kind: 'calculate', item: { kind: 'calculate', runId: 'r2', partnerId: 'r1' }, results: main, partnerResults: second }, options);
    expect(plan.ctx.data!.runs.r2!.results).toBe(main);
    expect(plan.ctx.data!.runs.r1!.results).toBe(second);
    expect(plan.ctx.data!.pending).toEqual({});
    expect(plan.effects.filter((e) => e.type === 'toRun').map((e) => e.type === 'toRun' && [e.id, e.event.type])).toEqual([
      ['run:0:r2', 'CALCULATION.DONE'],
      ['run:0:r1', 'CALCULATION.DONE'],
    ]);
  });

  it('calculates a linked run’s profile again with its partner', () => {
    const data = project({ r1: ready, r2: intoBoxOf('r1') });
    data.runs.r1!.results = { calculated: true, segments: [{ channelDescription: 'A', length_mm: 20000, stepRaise: 0, floorChange: 0 }] };
    const plan = withProfileRefreshes({ ctx: context(data, 'r1'), effects: [] });
    expect(plan.effects).toEqual([expect.objectContaining({ type: 'refreshProfile', runId: 'r1', partner: expect.objectContaining({ runId: 'r2' }) })]);
  });
});

describe('a save as new of linked runs', () => {
  it('names each run by a link id, and the links follow the runs to their new ids', () => {
    const data = { ...project({ r1: ready, r2: intoBoxOf('r1') }), details: { ...emptyDetails(), name: 'Yard' } };
    const payload = savePayload(data, { asNew: true, share: false });
    expect(payload.project.runs.map((r) => [r.saveID, r.linkID, r.outflowTrashbox ?? null])).toEqual([
      [undefined, 'r1', null],
      [undefined, 'r2', 'r1'],
    ]);
    const next = applySave(data, { saveID: 'p2', runSaveIDs: ['s1', 's2'], version: 3 }, { asNew: true, share: false });
    expect(next.order).toEqual(['s1', 's2']);
    expect(next.runs.s2!.inputs.outflowTrashbox).toBe('s1');
    expect(calculationPartner(next, 's2')).toBe('s1');
  });
});

describe('removing a run', () => {
  it('unlinks the runs that flowed into it, each by a run edit before the removal', () => {
    const data = project({ r1: ready, r2: intoBoxOf('r1'), r3: ready });
    const plan = step(context(data, 'r3'), { type: 'REMOVE', runId: 'r1' }, options);
    expect(plan.ctx.data!.runs.r2!.inputs).toMatchObject({ dischargeSetting: 'free-outflow', outflowTrashbox: null });
    expect(plan.ctx.queue.map((item) => item.kind === 'command' && item.command.type)).toEqual(['change_inputs', 'remove_run']);
    expect(plan.ctx.queue[0]).toMatchObject({ command: { run_id: 'r2', fields: { dischargeSetting: 'free-outflow', outflowTrashbox: null } } });
  });
});
