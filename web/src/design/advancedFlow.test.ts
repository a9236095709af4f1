import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../api/http';
import type { EditAnswer, ProjectCommand } from '../api/projectTypes';
import type { AdvancedMode, ChannelOption } from './advancedRules';
import { createProjectMachine, type ProjectDeps } from './projectMachine';
import { super_ } from './testSystems';
import type { Results } from './types';

// Advanced mode through the project machine: the switch, the channels
// screen's edits as run edits, the auto-cut dialog before a calculation,
// and the server's refusals kept with their fields.

const results: Results = { calculated: true, advanced: true, flow_velocity: 0.8, segments: [] };
const channel = (slug: string, kind: ChannelOption['kind'] = 'standard', body = 620): ChannelOption => ({
  slug, name: slug, channel_length_mm: 1000, body_height_mm: body, width_mm: 400, max_downstream_water_depth_mm: 450, upstream_water_depth_mm: 0, kind,
});
const options = [channel('super-400-500'), channel('super-400-650', 'standard', 770), channel('super-400-650-l', 'l', 770)];

function start(mode: AdvancedMode | undefined, calculate: ProjectDeps['drainage']['calculate'] = vi.fn(async () => ({ results }))) {
  let version = 1;
  const commands: ProjectCommand[] = [];
  const answer = (): EditAnswer => ({ id: 'p1', version, runs: [{ id: 'r1', name: 'Run 1', state: 'ready' }] });
  const deps: ProjectDeps = {
    projects: {
      create: vi.fn(async () => answer()),
      command: vi.fn(async (_id: string, command: ProjectCommand) => {
        commands.push(command);
        version++;
        return answer();
      }),
    },
    drainage: { calculate, save: vi.fn(), load: vi.fn(), loadRun: vi.fn(), share: vi.fn() },
    newId: () => 'x',
    remember: vi.fn(),
    superCriticalSkipped: () => false,
    skipSuperCritical: vi.fn(),
    userRainfallUnits: () => 'mm/h',
    advancedMode: mode && (() => mode),
  };
  const actor = createActor(createProjectMachine(deps), { input: { open: { kind: 'new' } } });
  actor.start();
  const settled = () => waitFor(actor, (s) => s.matches({ ready: 'idle' }) && s.context.queue.length === 0);
  const inputs = () => actor.getSnapshot().context.data!.runs.r1!.inputs;
  return { actor, settled, commands, inputs, calculate };
}

const planner: AdvancedMode = { allowed: true, byDefault: false };

/** A 12 m super run of 400 channels picked by hand, in a 11.6 m run. */
async function handPicked(setup: ReturnType<typeof start>) {
  await setup.settled();
  setup.actor.send({ type: 'MODE', advanced: true });
  setup.actor.send({ type: 'EDIT', field: 'channel_length_m', value: 11.6 });
  setup.actor.send({ type: 'EDIT', field: 'drainage_area_m2', value: 200 });
  setup.actor.send({ type: 'ADVANCED.EDIT', edit: { kind: 'system', system: super_ } });
  setup.actor.send({ type: 'ADVANCED.EDIT', edit: { kind: 'channelType', type: '400' } });
  setup.actor.send({ type: 'ADVANCED.EDIT', edit: { kind: 'count', slug: 'super-400-500', count: 6, options } });
  setup.actor.send({ type: 'ADVANCED.EDIT', edit: { kind: 'count', slug: 'super-400-650', count: 6, options } });
  await setup.settled();
}

describe('advanced mode in the project machine', () => {
  it('switches only for users with the right, sending the mode as a run edit', async () => {
    const standard = start(undefined);
    await standard.settled();
    standard.actor.send({ type: 'MODE', advanced: true });
    await standard.settled();
    expect(standard.inputs().advanced).toBeUndefined();
    expect(standard.commands).toEqual([]);

    const setup = start(planner);
    await setup.settled();
    setup.actor.send({ type: 'MODE', advanced: true });
    expect(setup.actor.getSnapshot().context).toMatchObject({ tab: 'run', advancedView: 'catchment' });
    await setup.settled();
    expect(setup.commands).toEqual([{ type: 'change_inputs', run_id: 'r1', fields: { advanced: true } }]);
  });

  it('drops the accessories going advanced, keeping those of access-box inflows, with the warning', async () => {
    const setup = start(planner);
    await setup.settled();
    const accessories = [{ id: 'a1', distance_m: 2 }, { id: 'a2', distance_m: 4 }];
    setup.actor.send({ type: 'CONTROLLED.CONFIRM', changes: { accessories, inflows: [{ distance_m: 4, connection: 'access-box', accessoryId: 'a2' } as never] } });
    await setup.settled();
    setup.actor.send({ type: 'MODE', advanced: true });
    expect(setup.inputs().accessories).toEqual([{ id: 'a2', distance_m: 4 }]);
    expect(setup.actor.getSnapshot().context.dialog).toEqual({ kind: 'resetAccessories' });
  });

  it('edits the channels as run edits: stepped follows, the table\'s order is kept', async () => {
    const setup = start(planner);
    await handPicked(setup);
    expect(setup.inputs()).toMatchObject({ advanced: true, channel_group: 'super', selectedChannelType: '400', stepped: true });
    expect((setup.inputs().channels as { slug: string; count: number }[]).map((c) => [c.slug, c.count])).toEqual([['super-400-500', 6], ['super-400-650', 6]]);
    const sent = setup.commands.filter((c) => c.type === 'change_inputs').flatMap((c) => Object.keys(c.type === 'change_inputs' ? c.fields : {}));
    expect(sent).toEqual(expect.arrayContaining(['channels', 'stepped', 'selectedChannelType', 'selectedSystem']));
  });

  it('opens the auto-cut dialog instead of calculating channels longer than the run; a cut at the discharge calculates', async () => {
    const setup = start(planner);
    await handPicked(setup);
    setup.actor.send({ type: 'ADVANCED.EDIT', edit: { kind: 'discharge', setting: 'outflow-in-trashbox' } });
    setup.actor.send({ type: 'ADVANCED.EDIT', edit: { kind: 'trashBox', value: 60 } });
    setup.actor.send({ type: 'CALCULATE' });
    await setup.settled();
    expect(setup.calculate).not.toHaveBeenCalled();
    expect(setup.actor.getSnapshot().context.dialog).toEqual({ kind: 'autoCut', short: false, differenceMM: 400, choices: ['head', 'discharge'] });

    setup.actor.send({ type: 'AUTOCUT', choice: 'discharge' });
    await setup.settled();
    expect(setup.calculate).toHaveBeenCalledWith(
      expect.objectContaining({ advanced: true, channel_length_m: 11.6, dischargeCutting: { distance_in_mm: 400, angle_deg: 90, cut_from_left: false }, outflowTrashbox: 60 }),
    );
    expect(setup.actor.getSnapshot().context).toMatchObject({ dialog: null, tab: 'run', advancedView: 'results' });
  });

  it('shortens a run to short channels, keeping its catchment depth in step, and calculates', async () => {
    const setup = start(planner);
    await handPicked(setup);
    setup.actor.send({ type: 'EDIT', field: 'channel_length_m', value: 12.5 });
    setup.actor.send({ type: 'CALCULATE' });
    expect(setup.actor.getSnapshot().context.dialog).toEqual({ kind: 'autoCut', short: true, differenceMM: 500, choices: ['shorten'] });
    setup.actor.send({ type: 'AUTOCUT', choice: 'shorten' });
    await setup.settled();
    expect(setup.inputs()).toMatchObject({ channel_length_m: 12, catchment_depth_m: 8.333 });
    expect(setup.calculate).toHaveBeenCalledWith(expect.objectContaining({ channel_length_m: 12 }));
  });

  it('keeps a refusal beside its field, and the server\'s length mismatch with the channels', async () => {
    const calculate = vi.fn(async () => {
      throw new ApiError(400, { error: 'There are no trash boxes for the loading rating and channel type' });
    });
    const setup = start(planner, calculate);
    await handPicked(setup);
    setup.actor.send({ type: 'EDIT', field: 'channel_length_m', value: 12 });
    setup.actor.send({ type: 'ADVANCED.EDIT', edit: { kind: 'discharge', setting: 'outflow-in-trashbox' } });
    setup.actor.send({ type: 'ADVANCED.EDIT', edit: { kind: 'trashBox', value: 60 } });
    setup.actor.send({ type: 'CALCULATE' });
    await setup.settled();
    expect(setup.actor.getSnapshot().context.calcErrors.r1).toEqual({ field: 'outflowTrashbox', message: { key: 'advanced.noTrashBoxes' } });

    calculate.mockImplementation(async () => {
      throw new ApiError(400, { error: "The channels selected don't match the specified run length. The channels are 0.4 m long.", lengthDoNotMatch: true, short: false, difference_m: 0.4 });
    });
    setup.actor.send({ type: 'ERROR.CLOSE' });
    setup.actor.send({ type: 'EDIT', field: 'channel_length_m', value: 11.6 });
    // As if the screen thought the lengths matched: the server's word opens the dialog.
    setup.actor.send({ type: 'ADVANCED.EDIT', edit: { kind: 'cutting', end: 'discharge', cutting: { distance_in_mm: 400, angle_deg: 90, cut_from_left: false } } });
    setup.actor.send({ type: 'CALCULATE' });
    await setup.settled();
    expect(setup.actor.getSnapshot().context.calcErrors.r1?.lengthMismatch).toBe(true);
  });

  it('calculates a run that says advanced in standard mode for a user without the right', async () => {
    const setup = start(undefined);
    await setup.settled();
    setup.actor.send({ type: 'CONTROLLED.CONFIRM', changes: { advanced: true } });
    setup.actor.send({ type: 'ADVANCED.EDIT', edit: { kind: 'system', system: super_ } });
    setup.actor.send({ type: 'EDIT', field: 'channel_length_m', value: 12 });
    setup.actor.send({ type: 'EDIT', field: 'drainage_area_m2', value: 200 });
    setup.actor.send({ type: 'CALCULATE' });
    await setup.settled();
    expect(setup.calculate).toHaveBeenCalledWith(expect.objectContaining({ advanced: false }));
  });
});
