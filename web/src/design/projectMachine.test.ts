import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../api/http';
import type { EditAnswer, LiveProject, LiveRunView, LoadAnswer, ProjectCommand, ProjectView, SavePayload } from '../api/projectTypes';
import type { LiveHandlers } from '../live/projectSocket';
import { deferred } from '../test/fakes';
import { createProjectMachine, type ProjectDeps } from './projectMachine';
import { runActorId, type OpenRequest } from './projectSteps';
import { runStateOf, type RunSnapshot } from './runMachine';
import { hicap, poly100 } from './testSystems';
import { emptyDetails, type Results } from './types';

const results: Results = { calculated: true, flow_velocity: 0.8, segments: [] };

const liveRun = (id: string, fields: Partial<LiveRunView> = {}): LiveRunView => ({
  id, name: 'Run 1', notes: '', state: 'unconfigured', inputs: {}, summary: null, last_error: '', ...fields,
});

/** The live stream's message: project p1 (or another) as the server shows it at a version. */
function liveView(version: number, runs: LiveRunView[], fields: Partial<ProjectView> = {}, project = 'p1'): LiveProject {
  return {
    type: 'project', project, version,
    view: { id: project, owner: 'ada', editable: true, details: emptyDetails(), rainfall_units: 'l/s/m2', default_rainfall: null, notes: '', created: '', saved: false, deleted: false, runs, ...fields },
  };
}

/** A server that keeps one project's run list and answers commands like the Go server. */
function fakeServer() {
  let version = 1;
  let runs = [{ id: 'r1', name: 'Run 1', state: 'unconfigured' as const }] as EditAnswer['runs'];
  const commands: ProjectCommand[] = [];
  const answer = (extra: Partial<EditAnswer> = {}): EditAnswer => ({ id: 'p1', version, runs: runs.map((run) => ({ ...run })), ...extra });
  const projects: ProjectDeps['projects'] = {
    create: vi.fn(async () => answer()),
    command: vi.fn(async (_id: string, command: ProjectCommand) => {
      commands.push(command);
      version++;
      if (command.type === 'add_run') {
        runs = [...runs, { id: `r${runs.length + 1}`, name: `Run ${runs.length + 1}`, state: 'unconfigured' }];
        return answer({ run_id: runs[runs.length - 1]!.id });
      }
      if (command.type === 'change_inputs') runs = runs.map((run) => (run.id === command.run_id ? { ...run, state: 'ready' } : run));
      if (command.type === 'rename_run') runs = runs.map((run) => (run.id === command.run_id ? { ...run, name: command.name } : run));
      return answer();
    }),
  };
  const drainage: ProjectDeps['drainage'] = {
    calculate: vi.fn(async () => ({ results })),
    save: vi.fn(async (payload: SavePayload) => ({ saveID: payload.project.saveID ?? 'p2', runSaveIDs: payload.project.runs.map((_, i) => `s${i + 1}`), version: ++version })),
    load: vi.fn(),
    loadRun: vi.fn(),
    share: vi.fn(async () => 'http://host/3f2b8c1e-9a4d-4e1b-8f7a-2c6d5e4f3a2b'),
  };
  return { projects, drainage, commands, bump: () => ++version };
}

function start(server = fakeServer(), open: OpenRequest = { kind: 'new' }, extra: Partial<ProjectDeps> = {}) {
  let live: LiveHandlers | null = null;
  const follow = vi.fn();
  const resume = vi.fn();
  const remember = vi.fn();
  const deps: ProjectDeps = {
    projects: server.projects,
    drainage: server.drainage,
    openLive: (handlers) => {
      live = handlers;
      return { follow, unfollow: vi.fn(), resume, close: vi.fn() };
    },
    newId: (() => {
      let n = 0;
      return () => `local${++n}`;
    })(),
    remember,
    superCriticalSkipped: () => false,
    skipSuperCritical: vi.fn(),
    userRainfallUnits: () => 'l/s/m2',
    conflictRetryMs: 1,
    ...extra,
  };
  const actor = createActor(createProjectMachine(deps), { input: { open } });
  actor.start();
  const settled = () => waitFor(actor, (s) => s.matches({ ready: 'idle' }) && s.context.queue.length === 0);
  const runState = (runId: string) => {
    const snapshot = actor.getSnapshot();
    const child = snapshot.children[runActorId(snapshot.context.generation, runId)];
    return child ? runStateOf(child.getSnapshot() as RunSnapshot) : null;
  };
  return { actor, server, settled, runState, follow, resume, remember, live: () => live!, emit: (message: LiveProject) => live!.onView(message) };
}

async function designRun(setup: ReturnType<typeof start>) {
  await setup.settled();
  setup.actor.send({ type: 'EDIT', field: 'selectedSystem', value: poly100 });
  setup.actor.send({ type: 'EDIT', field: 'channel_length_m', value: 20 });
  setup.actor.send({ type: 'EDIT', field: 'drainage_area_m2', value: 144 });
  await setup.settled();
}

describe('project machine', () => {
  it('opens a draft, follows it live and remembers it', async () => {
    const setup = start();
    await setup.settled();
    const { context } = setup.actor.getSnapshot();
    expect(context.data?.order).toEqual(['r1']);
    expect(context.data?.rainfallUnits).toBe('l/s/m2');
    expect(context.selectedRunId).toBe('r1');
    expect(setup.follow).toHaveBeenCalledWith({ project: 'p1' }, 1);
    expect(setup.remember).toHaveBeenCalledWith('p1');
    expect(setup.runState('r1')).toBe('unconfigured');
  });

  it('shows an edit at once, sends it, and the run becomes ready', async () => {
    const setup = start();
    await setup.settled();
    setup.actor.send({ type: 'EDIT', field: 'selectedSystem', value: poly100 });
    setup.actor.send({ type: 'EDIT', field: 'channel_length_m', value: 20 });
    setup.actor.send({ type: 'EDIT', field: 'drainage_area_m2', value: 144 });
    expect(setup.actor.getSnapshot().context.data?.runs.r1?.inputs.drainage_area_m2).toBe(144);
    expect(setup.runState('r1')).toBe('ready');
    await setup.settled();
    const sent = setup.server.commands.filter((c) => c.type === 'change_inputs');
    // The first edit goes at once; the two made while it travelled go together.
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({ fields: { channel_length_m: 20, drainage_area_m2: 144, catchment_depth_m: 3.6 } });
    expect(setup.actor.getSnapshot().context.data?.pending).toEqual({});
  });

  it('calculates with the project and run ids, then shows the design run tab', async () => {
    const setup = start();
    await designRun(setup);
    setup.actor.send({ type: 'CALCULATE' });
    const child = setup.actor.getSnapshot().children[runActorId(1, 'r1')];
    expect((child?.getSnapshot() as RunSnapshot).hasTag('calculating')).toBe(true);
    await setup.settled();
    expect(setup.server.drainage.calculate).toHaveBeenCalledWith(
      expect.objectContaining({ advanced: false, project_id: 'p1', run_id: 'r1', channel_length_m: 20, channel_group: 'poly-100' }),
    );
    // Named, so that the server records it once if it is sent again.
    const named = vi.mocked(setup.server.drainage.calculate).mock.calls[0]![0];
    expect(named.request_id).toMatch(/^local\d+$/);
    setup.actor.send({ type: 'CALCULATE' });
    await setup.settled();
    expect(vi.mocked(setup.server.drainage.calculate).mock.calls[1]![0].request_id).not.toBe(named.request_id);
    const { context } = setup.actor.getSnapshot();
    expect(context.data?.runs.r1?.results).toEqual(results);
    expect(context.tab).toBe('run');
    expect(setup.runState('r1')).toBe('calculated');
  });

  it('shows the server’s message when a calculation fails, and the run is not calculated', async () => {
    const server = fakeServer();
    server.drainage.calculate = vi.fn(async () => {
      throw new ApiError(400, { error: 'No channel could be designed to fulfil the current parameters' });
    });
    const setup = start(server);
    await designRun(setup);
    setup.actor.send({ type: 'CALCULATE' });
    await setup.settled();
    expect(setup.actor.getSnapshot().context.error).toEqual([{ key: 'calc.noChannel' }]);
    expect(setup.runState('r1')).toBe('ready');
  });

  it('takes another tab’s edits from the live stream’s views', async () => {
    const setup = start();
    await setup.settled();
    setup.emit(liveView(2, [liveRun('r1', { inputs: { channel_length_m: 42 } })]));
    setup.emit(liveView(3, [liveRun('r1', { inputs: { channel_length_m: 42 } }), liveRun('r9', { name: 'Run 2' })]));
    setup.emit(liveView(3, [liveRun('r1', { inputs: { channel_length_m: 1 } })], {}, 'other'));
    const { context } = setup.actor.getSnapshot();
    expect(context.data?.runs.r1?.inputs.channel_length_m).toBe(42);
    expect(context.data?.order).toEqual(['r1', 'r9']);
    expect(context.data?.runs.r9?.name).toBe('Run 2');
    expect(setup.runState('r9')).toBe('unconfigured');
  });

  it('keeps an edit made here on top of a view that does not have it yet', async () => {
    const server = fakeServer();
    const answered = deferred<void>();
    const command = server.projects.command;
    server.projects.command = vi.fn(async (id: string, c: ProjectCommand) => {
      await answered.promise;
      return command(id, c);
    });
    const setup = start(server);
    await setup.settled();
    setup.actor.send({ type: 'EDIT', field: 'channel_length_m', value: 30 });
    setup.emit(liveView(2, [liveRun('r1', { name: 'Yard', inputs: { drainage_area_m2: 7 } })]));
    expect(setup.actor.getSnapshot().context.data?.runs.r1).toMatchObject({ name: 'Yard', inputs: { channel_length_m: 30, drainage_area_m2: 7 } });
    answered.resolve();
    await setup.settled();
    expect(setup.actor.getSnapshot().context.data?.runs.r1?.inputs.channel_length_m).toBe(30);
  });

  it('drives the run machines by the server’s run states', async () => {
    const setup = start();
    await setup.settled();
    const inputs = { selectedSystem: poly100, channel_group: 'poly-100', channel_length_m: 20, drainage_area_m2: 144 };
    setup.emit(liveView(2, [liveRun('r1', { inputs, state: 'ready' })]));
    expect(setup.runState('r1')).toBe('ready');
    setup.emit(liveView(3, [liveRun('r1', { inputs, state: 'changed', summary: { calculated: true } })]));
    expect(setup.runState('r1')).toBe('changed');
    setup.emit(liveView(4, [liveRun('r1')]));
    expect(setup.runState('r1')).toBe('unconfigured');
  });

  it('calculates another tab’s run again, unrecorded, for the profile its summary lacks', async () => {
    const setup = start();
    await setup.settled();
    const inputs = { selectedSystem: poly100, channel_group: 'poly-100', channel_length_m: 20, drainage_area_m2: 144 };
    const full: Results = { calculated: true, segments: [{ channelDescription: 'P100', length_mm: 20000, stepRaise: 0, floorChange: 0, slices: [] }] };
    vi.mocked(setup.server.drainage.calculate).mockResolvedValueOnce({ results: full });
    setup.emit(
      liveView(2, [
        liveRun('r1', { inputs, state: 'calculated', summary: { calculated: true, segments: [{ channelDescription: 'P100', length_mm: 20000, stepRaise: 0, floorChange: 0 }] } }),
      ]),
    );
    await waitFor(setup.actor, (s) => s.context.data?.runs.r1?.results === full);
    const body = vi.mocked(setup.server.drainage.calculate).mock.calls[0]![0];
    expect(body).not.toHaveProperty('project_id');
    expect(body).toMatchObject({ channel_length_m: 20, advanced: false });
    expect(setup.runState('r1')).toBe('calculated');
  });

  it('starts afresh when another tab deletes the project', async () => {
    const setup = start();
    await setup.settled();
    vi.mocked(setup.server.projects.create).mockResolvedValueOnce({ id: 'p9', version: 1, runs: [{ id: 'x1', name: 'Run 1', state: 'unconfigured' }] });
    setup.live().onClosed!('other', 'deleted');
    expect(setup.actor.getSnapshot().context.data?.id).toBe('p1');
    setup.live().onClosed!('p1', 'deleted');
    await waitFor(setup.actor, (s) => s.context.data?.id === 'p9');
    expect(setup.remember).toHaveBeenCalledWith(null);
    expect(setup.follow).toHaveBeenLastCalledWith({ project: 'p9' }, 1);
  });

  it('reconnects once the session is back after the live stream’s session ended', async () => {
    const back = deferred<void>();
    const setup = start(fakeServer(), { kind: 'new' }, { sessionBack: () => back.promise });
    await setup.settled();
    setup.live().onSessionEnded!();
    await Promise.resolve();
    expect(setup.resume).not.toHaveBeenCalled();
    back.resolve();
    await vi.waitFor(() => expect(setup.resume).toHaveBeenCalledTimes(1));
  });

  it('adds a run and selects it', async () => {
    const setup = start();
    await setup.settled();
    setup.actor.send({ type: 'ADD_RUN' });
    await setup.settled();
    const { context } = setup.actor.getSnapshot();
    expect(context.data?.order).toEqual(['r1', 'r2']);
    expect(context.selectedRunId).toBe('r2');
    expect(context.tab).toBe('system');
  });

  it('refuses to save without a name or with runs to calculate', async () => {
    const setup = start();
    await setup.settled();
    setup.actor.send({ type: 'SAVE', asNew: false, share: false });
    expect(setup.actor.getSnapshot().context.saveError).toEqual({ key: 'save.needsName' });
    setup.actor.send({ type: 'DETAILS', details: { name: 'Depot' } });
    setup.actor.send({ type: 'SAVE', asNew: false, share: false });
    expect(setup.actor.getSnapshot().context.saveError).toEqual({ key: 'save.runsToCalculate', values: { runs: 'Run 1' } });
    expect(setup.server.drainage.save).not.toHaveBeenCalled();
  });

  it('saves over the draft with the newest version, retrying once on a conflict', async () => {
    const server = fakeServer();
    const save = server.drainage.save;
    let refused = false;
    server.drainage.save = vi.fn(async (payload: SavePayload) => {
      if (!refused) {
        refused = true;
        throw new ApiError(409, { error: 'stale' });
      }
      return save(payload);
    });
    const setup = start(server);
    await designRun(setup);
    setup.actor.send({ type: 'CALCULATE' });
    setup.actor.send({ type: 'DETAILS', details: { name: 'Depot' } });
    await setup.settled();
    setup.actor.send({ type: 'SAVE', asNew: false, share: true });
    await setup.settled();
    expect(server.drainage.save).toHaveBeenCalledTimes(2);
    const payload = vi.mocked(server.drainage.save).mock.calls[1]![0];
    expect(payload.share).toBe(true);
    expect(payload.project).toMatchObject({ saveID: 'p1', details: { name: 'Depot' } });
    expect(payload.project.runs[0]).toMatchObject({ saveID: 'r1', name: 'Run 1', results, channel_length_m: 20 });
    // Both tries name one request: a first try stored but unanswered is answered as stored.
    const first = vi.mocked(server.drainage.save).mock.calls[0]![0];
    expect(first.request_id).toEqual(expect.any(String));
    expect(payload.request_id).toBe(first.request_id);
    const { context } = setup.actor.getSnapshot();
    expect(context.data?.saved).toBe(true);
    expect(context.dirty).toBe(false);
  });

  it('continues on the new project after Save as new', async () => {
    const setup = start();
    await designRun(setup);
    setup.actor.send({ type: 'CALCULATE' });
    setup.actor.send({ type: 'DETAILS', details: { name: 'Depot' } });
    await setup.settled();
    setup.actor.send({ type: 'SAVE', asNew: true, share: false });
    await setup.settled();
    // A new project is not named: sent again, it would be made twice.
    expect(vi.mocked(setup.server.drainage.save).mock.calls[0]![0].request_id).toBeUndefined();
    const { context } = setup.actor.getSnapshot();
    expect(context.data?.id).toBe('p2');
    expect(context.data?.order).toEqual(['s1']);
    expect(context.selectedRunId).toBe('s1');
    expect(setup.follow).toHaveBeenLastCalledWith({ project: 'p2' }, expect.any(Number));
    expect(setup.runState('s1')).toBe('calculated');
  });

  it('loads a project with progress, opening on the first run’s results', async () => {
    const server = fakeServer();
    const gate = deferred<void>();
    const load: LoadAnswer = {
      saveID: 'p7', version: 12, schedule: ['p7.a', 'p7.b'], details: { name: 'Depot', location: '', reference: '', date: '', company: '', designer: '', telephone: '', email: '' },
      notes: '', rainfall_units: 'mm/h', default_rainfall: null, share: false, owner: 'ada', editable: true,
    };
    server.drainage.load = vi.fn(async () => load);
    server.drainage.loadRun = vi.fn(async (key: string) => {
      if (key === 'p7.b') await gate.promise;
      const id = key.split('.')[1]!;
      return { id, run: { saveID: id, name: id, state: 'calculated' as const, results, channel_length_m: 5 } };
    });
    const setup = start(server, { kind: 'load', key: { id: 'p7' } });
    await waitFor(setup.actor, (s) => s.context.progress?.done === 1);
    expect(setup.actor.getSnapshot().context.progress).toEqual({ done: 1, total: 2 });
    gate.resolve();
    await setup.settled();
    const { context } = setup.actor.getSnapshot();
    expect(context.data?.order).toEqual(['a', 'b']);
    expect(context.tab).toBe('run');
    expect(setup.follow).toHaveBeenCalledWith({ project: 'p7' }, 12);
    expect(setup.runState('b')).toBe('calculated');
  });

  it('edits a shared project here only, and saves it as new', async () => {
    const server = fakeServer();
    server.drainage.load = vi.fn(async () => ({
      saveID: 'p7', version: 3, schedule: ['p7.a'], details: { name: 'Theirs', location: '', reference: '', date: '', company: '', designer: '', telephone: '', email: '' },
      notes: '', rainfall_units: 'mm/h', default_rainfall: null, share: false, owner: 'bob', editable: false,
    }));
    server.drainage.loadRun = vi.fn(async () => ({ id: 'a', run: { saveID: 'a', name: 'Run 1', state: 'calculated' as const, results } }));
    const setup = start(server, { kind: 'load', key: { shareID: 'x' } });
    await setup.settled();
    // Followed by the link's share id, never the bare project id.
    expect(setup.follow).toHaveBeenCalledWith({ project: 'p7', share: 'x' }, 3);
    setup.actor.send({ type: 'DUPLICATE' });
    setup.actor.send({ type: 'RENAME', runId: 'a', name: 'Yard' });
    await setup.settled();
    expect(server.projects.command).not.toHaveBeenCalled();
    const { context } = setup.actor.getSnapshot();
    expect(context.data?.order).toEqual(['a', 'local1']);
    expect(context.data?.runs.local1?.name).toBe('Run 2');
    setup.actor.send({ type: 'SAVE', asNew: false, share: false });
    await setup.settled();
    const payload = vi.mocked(server.drainage.save).mock.calls[0]![0];
    expect(payload.project.saveID).toBeUndefined();
    expect(payload.project.runs.map((run) => run.name)).toEqual(['Yard', 'Run 2']);
    expect(setup.actor.getSnapshot().context.data).toMatchObject({ id: 'p2', editable: true });
  });

  it('shows the owner’s changes to a share-link holder until they change it here, and keeps it when sharing stops', async () => {
    const server = fakeServer();
    server.drainage.load = vi.fn(async () => ({
      saveID: 'p7', version: 3, schedule: ['p7.a'], details: { ...emptyDetails(), name: 'Theirs' },
      notes: '', rainfall_units: 'mm/h', default_rainfall: null, share: false, owner: 'bob', editable: false,
    }));
    server.drainage.loadRun = vi.fn(async () => ({ id: 'a', run: { saveID: 'a', name: 'Run 1', state: 'calculated' as const, results } }));
    const setup = start(server, { kind: 'load', key: { shareID: 'x' } });
    await setup.settled();
    const theirs = (version: number, name: string) =>
      liveView(version, [liveRun('a', { state: 'calculated', summary: results })], { details: { ...emptyDetails(), name }, editable: false, owner: 'bob' }, 'p7');
    setup.emit(theirs(4, 'Theirs 2'));
    expect(setup.actor.getSnapshot().context.data?.details.name).toBe('Theirs 2');

    setup.actor.send({ type: 'RENAME', runId: 'a', name: 'Mine' });
    setup.emit(theirs(5, 'Theirs 3'));
    expect(setup.actor.getSnapshot().context.data).toMatchObject({ details: { name: 'Theirs 2' }, runs: { a: { name: 'Mine' } } });

    setup.live().onClosed!('p7', 'no_access');
    const { context } = setup.actor.getSnapshot();
    expect(context.liveClosed).toBe('no_access');
    expect(context.data?.id).toBe('p7');
    expect(server.projects.create).not.toHaveBeenCalled();
  });

  it('starts afresh when the remembered project is gone', async () => {
    const server = fakeServer();
    server.drainage.load = vi.fn(async () => {
      throw new ApiError(404, { error: 'The project could not be loaded: it does not exist or you have no access to it' });
    });
    const setup = start(server, { kind: 'load', key: { id: 'gone' }, fallbackToNew: true });
    await setup.settled();
    expect(setup.actor.getSnapshot().context.error).toBeNull();
    expect(setup.actor.getSnapshot().context.data?.id).toBe('p1');
  });

  it('warns of a length over 500 m and keeps the value', async () => {
    const setup = start();
    await designRun(setup);
    setup.actor.send({ type: 'EDIT', field: 'channel_length_m', value: 620 });
    const { context } = setup.actor.getSnapshot();
    expect(context.dialog).toEqual({ kind: 'lengthOver500', excess: 120 });
    expect(context.data?.runs.r1?.inputs.channel_length_m).toBe(620);
  });
});

describe('rainfall map and controlled discharge', () => {
  async function hicapRun(setup: ReturnType<typeof start>) {
    await setup.settled();
    setup.actor.send({ type: 'EDIT', field: 'selectedSystem', value: hicap });
    setup.actor.send({ type: 'EDIT', field: 'channel_length_m', value: 50 });
    setup.actor.send({ type: 'EDIT', field: 'drainage_area_m2', value: 300 });
    await setup.settled();
  }

  it('gives the run the map’s rainfall and, when asked, the project its default', async () => {
    const setup = start();
    await hicapRun(setup);
    setup.actor.send({ type: 'PANEL', panel: 'rainfallMap' });
    const rainfall = { rainfall_mm_per_hr: 49.3384, town: 'Leeds', M5: 19.5, r: 0.36, storm_duration: 30 };
    setup.actor.send({ type: 'RAINFALL.APPLY', rainfall, makeDefault: true });
    const { context } = setup.actor.getSnapshot();
    expect(context.panel).toBeNull();
    expect(context.data?.runs.r1?.inputs.rainfall).toEqual(rainfall);
    expect(context.data?.defaultRainfall).toBe(49.338);
    await setup.settled();
    expect(setup.server.commands).toContainEqual({ type: 'change_inputs', run_id: 'r1', fields: { rainfall } });
    expect(setup.server.commands).toContainEqual(expect.objectContaining({ type: 'change_details', default_rainfall: 49.338 }));
  });

  it('sends the project its freeboard margin once, and an emptied field returns to the default', async () => {
    const setup = start();
    await setup.settled();
    setup.actor.send({ type: 'FREEBOARD_MARGIN', margin: { minMM: 35, minPercent: null } });
    setup.actor.send({ type: 'FREEBOARD_MARGIN', margin: { minMM: 35, minPercent: null } });
    await setup.settled();
    const sent = setup.server.commands.filter((c) => c.type === 'change_details');
    expect(sent).toEqual([expect.objectContaining({ freeboard_min_mm: 35, freeboard_min_percent: null })]);
    expect(setup.actor.getSnapshot().context.data?.freeboardMargin).toEqual({ minMM: 35, minPercent: null });
  });

  it('keeps the default when the designer says no', async () => {
    const setup = start();
    await hicapRun(setup);
    setup.actor.send({ type: 'RAINFALL.APPLY', rainfall: { rainfall_mm_per_hr: 40 }, makeDefault: false });
    await setup.settled();
    expect(setup.actor.getSnapshot().context.data?.defaultRainfall).toBeNull();
    expect(setup.server.commands.some((c) => c.type === 'change_details')).toBe(false);
  });

  it('saves a confirmed controlled discharge, then calculates the run with it', async () => {
    const setup = start();
    await hicapRun(setup);
    setup.actor.send({ type: 'PANEL', panel: 'storage' });
    const changes = { controlled_outflow: 2, controlled_discharge: { flooded: false }, controlled_discharge_details: { channel_name: 'H600', max_depth_mm: 464.7, orifice_diameter_mm: 37.9 }, stepped: false };
    setup.actor.send({ type: 'CONTROLLED.CONFIRM', changes });
    expect(setup.actor.getSnapshot().context.panel).toBeNull();
    await setup.settled();
    expect(setup.server.commands).toContainEqual({ type: 'change_inputs', run_id: 'r1', fields: changes });
    expect(setup.server.drainage.calculate).toHaveBeenCalledWith(expect.objectContaining({ controlled_outflow: 2, stepped: false }));
    expect(setup.runState('r1')).toBe('calculated');
  });

  it('recalculates on reset only a calculated run that had controlled discharge', async () => {
    const setup = start();
    await hicapRun(setup);
    const reset = { controlled_outflow: 0, controlled_discharge: null, controlled_discharge_details: null, stepped: true };
    setup.actor.send({ type: 'CONTROLLED.RESET', changes: reset });
    await setup.settled();
    expect(setup.server.drainage.calculate).not.toHaveBeenCalled();
    setup.actor.send({ type: 'CONTROLLED.CONFIRM', changes: { controlled_outflow: 2, stepped: false } });
    await setup.settled();
    expect(setup.server.drainage.calculate).toHaveBeenCalledTimes(1);
    setup.actor.send({ type: 'CONTROLLED.RESET', changes: reset });
    await setup.settled();
    expect(setup.server.drainage.calculate).toHaveBeenCalledTimes(2);
    expect(setup.server.drainage.calculate).toHaveBeenLastCalledWith(expect.objectContaining({ controlled_outflow: 0, stepped: true }));
  });

  it('drops controlled discharge when the run leaves the high-capacity system', async () => {
    const setup = start();
    await hicapRun(setup);
    setup.actor.send({ type: 'CONTROLLED.CONFIRM', changes: { controlled_outflow: 2, stepped: false } });
    await setup.settled();
    setup.actor.send({ type: 'EDIT', field: 'stepped', value: true });
    expect(setup.actor.getSnapshot().context.data?.runs.r1?.inputs.stepped).toBe(false);
    setup.actor.send({ type: 'EDIT', field: 'selectedSystem', value: poly100 });
    expect(setup.actor.getSnapshot().context.data?.runs.r1?.inputs).toMatchObject({ controlled_outflow: 0, controlled_discharge: null, controlled_discharge_details: null });
  });
});
