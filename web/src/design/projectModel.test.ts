import { describe, expect, it } from 'vitest';
import type { LiveProject, LiveRunView, ProjectView } from '../api/projectTypes';
import {
  addRunLocally,
  applyAnswer,
  applyEditedInputs,
  applySave,
  applyView,
  duplicateRunLocally,
  fromDraft,
  fromLoad,
  keys,
  markPending,
  removeRunLocally,
  savePayload,
  setResults,
  setRunName,
  settlePending,
  uncalculatedRuns,
  type ProjectData,
} from './projectModel';
import { emptyDetails } from './types';

const draft = () => fromDraft({ id: 'p1', version: 2, runs: [{ id: 'r1', name: 'Run 1', state: 'unconfigured' }] }, { rainfallUnits: 'mm/h' }).data;

const run = (id: string, fields: Partial<LiveRunView> = {}): LiveRunView => ({
  id, name: `Run ${id.slice(1)}`, notes: '', state: 'unconfigured', inputs: {}, summary: null, last_error: '', ...fields,
});

/** The server's view of project p1 at a version, as the live stream sends it. */
function view(version: number, runs: LiveRunView[] = [run('r1')], fields: Partial<ProjectView> = {}): LiveProject {
  return {
    type: 'project', project: 'p1', version,
    view: {
      id: 'p1', owner: 'ada', editable: true, details: emptyDetails(), rainfall_units: 'mm/h', default_rainfall: null, notes: '',
      created: '', saved: false, deleted: false, runs, ...fields,
    },
  };
}

describe('live views', () => {
  it('take another tab’s input change and the run state', () => {
    const { data, states } = applyView(draft(), view(3, [run('r1', { inputs: { channel_length_m: 25 }, state: 'ready' })]));
    expect(data.runs.r1?.inputs).toEqual({ channel_length_m: 25 });
    expect(data.streamVersion).toBe(3);
    expect(data.version).toBe(3);
    expect(states).toEqual({ r1: 'ready' });
  });

  it('ignore views not newer than the last one taken', () => {
    const once = applyView(draft(), view(3, [run('r1', { inputs: { channel_length_m: 25 } })])).data;
    const edited = applyEditedInputs(once, 'r1', { channel_length_m: 30 });
    const again = applyView(edited, view(3, [run('r1', { inputs: { channel_length_m: 25 } })]));
    expect(again.data.runs.r1?.inputs.channel_length_m).toBe(30);
    expect(again.states).toEqual({});
  });

  it('are the server’s word: fields it no longer has are dropped', () => {
    let data = applyEditedInputs(draft(), 'r1', { channel_length_m: 20, loading: 'C250' });
    data = applyView(data, view(3, [run('r1', { inputs: { channel_length_m: 20 } })])).data;
    expect(data.runs.r1?.inputs).toEqual({ channel_length_m: 20 });
  });

  it('never overwrite a field with a write of it still travelling, nor the state of its run', () => {
    let data = applyEditedInputs(draft(), 'r1', { channel_length_m: 123, loading: 'D400' });
    data = markPending(data, [keys.input('r1', 'channel_length_m'), keys.input('r1', 'loading')]);
    const { data: next, states } = applyView(data, view(3, [run('r1', { inputs: { channel_length_m: 12, drainage_area_m2: 50 }, state: 'ready' })]));
    expect(next.runs.r1?.inputs).toEqual({ channel_length_m: 123, drainage_area_m2: 50, loading: 'D400' });
    expect(states).toEqual({});
  });

  it('ignore older values once the answer to a later write came', () => {
    let data = markPending(applyEditedInputs(draft(), 'r1', { channel_length_m: 123 }), [keys.input('r1', 'channel_length_m')]);
    data = settlePending(data, [keys.input('r1', 'channel_length_m')], 5);
    expect(data.pending).toEqual({});
    data = applyView(data, view(4, [run('r1', { inputs: { channel_length_m: 12 } })])).data;
    expect(data.runs.r1?.inputs.channel_length_m).toBe(123);
    data = applyView(data, view(6, [run('r1', { inputs: { channel_length_m: 40 } })])).data;
    expect(data.runs.r1?.inputs.channel_length_m).toBe(40);
  });

  it('add, rename, duplicate, reorder and remove runs as the server shows them', () => {
    let data = applyView(draft(), view(3, [run('r1'), run('r2')])).data;
    expect(data.order).toEqual(['r1', 'r2']);
    expect(data.runs.r2?.name).toBe('Run 2');
    const calculated = { inputs: { channel_length_m: 20 }, summary: { calculated: true }, state: 'calculated' as const };
    data = applyView(data, view(4, [run('r1', calculated), run('r3', { ...calculated, name: 'Run 3' }), run('r2', { name: 'Yard' })])).data;
    expect(data.order).toEqual(['r1', 'r3', 'r2']);
    expect(data.runs.r3).toMatchObject({ name: 'Run 3', inputs: { channel_length_m: 20 }, results: { calculated: true } });
    expect(data.runs.r2?.name).toBe('Yard');
    const { data: last, states } = applyView(data, view(5, [run('r2', { name: 'Yard' }), run('r3', calculated)]));
    expect(last.order).toEqual(['r2', 'r3']);
    expect(last.runs.r1).toBeUndefined();
    expect(states).toEqual({ r2: 'unconfigured', r3: 'calculated' });
  });

  it('keep a reorder and a rename made here until they are answered', () => {
    let data = applyView(draft(), view(3, [run('r1'), run('r2')])).data;
    data = markPending(setRunName({ ...data, order: ['r2', 'r1'] }, 'r1', 'Mine'), [keys.order, keys.name('r1')]);
    data = applyView(data, view(4, [run('r1', { notes: 'x' }), run('r2'), run('r4')])).data;
    expect(data.order).toEqual(['r2', 'r1', 'r4']);
    expect(data.runs.r1).toMatchObject({ name: 'Mine', notes: 'x' });
  });

  it('change the content but not the run list when older than a command answer', () => {
    let data = applyAnswer(draft(), { id: 'p1', version: 5, runs: [{ id: 'r1', name: 'Run 1', state: 'ready' }, { id: 'r2', name: 'Run 2', state: 'unconfigured' }] }).data;
    const { data: next, states } = applyView(data, view(4, [run('r1', { inputs: { drainage_area_m2: 9 }, name: 'Old' })]));
    expect(next.order).toEqual(['r1', 'r2']);
    expect(next.runs.r1).toMatchObject({ name: 'Run 1', inputs: { drainage_area_m2: 9 } });
    expect(states).toEqual({});
    data = next;
    expect(applyView(data, view(6, [run('r1', { name: 'New' })])).data.order).toEqual(['r1']);
  });

  it('keep full local results for the inputs a stored summary was made from', () => {
    let data = applyEditedInputs(draft(), 'r1', { channel_length_m: 20, drainage_area_m2: 144 });
    data = setResults(data, 'r1', { calculated: true, segments: [] });
    const inputs = { drainage_area_m2: 144, channel_length_m: 20 };
    data = applyView(data, view(3, [run('r1', { inputs, summary: { calculated: true }, state: 'calculated' })])).data;
    expect(data.runs.r1?.results).toEqual({ calculated: true, segments: [] });
    data = applyView(data, view(4, [run('r1', { inputs: { ...inputs, drainage_area_m2: 200 }, summary: { calculated: true, flow_velocity: 1 }, state: 'calculated' })])).data;
    expect(data.runs.r1?.results).toEqual({ calculated: true, flow_velocity: 1 });
    expect(data.runs.r1?.inputs.drainage_area_m2).toBe(200);
  });

  it('never undo results calculated here with a view that predates them', () => {
    // A view from before the calculation arrives after its answer: the
    // server's results have not changed since the last view, so the local
    // ones stay.
    let data = applyView(draft(), view(3, [run('r1', { inputs: { channel_length_m: 20 }, state: 'ready' })])).data;
    data = setResults(data, 'r1', { calculated: true, segments: [] });
    data = applyView(data, view(4, [run('r1', { inputs: { channel_length_m: 20 }, notes: 'from elsewhere', state: 'ready' })])).data;
    expect(data.runs.r1).toMatchObject({ notes: 'from elsewhere', results: { calculated: true, segments: [] } });
  });

  it('clear results on a failed calculation or a reset', () => {
    let data = applyView(draft(), view(3, [run('r1', { inputs: { channel_length_m: 20 }, summary: { calculated: true }, state: 'calculated' })])).data;
    expect(data.runs.r1?.results).toEqual({ calculated: true });
    data = applyView(data, view(4, [run('r1', { inputs: { channel_length_m: 20 }, last_error: 'No channel could be designed', state: 'ready' })])).data;
    expect(data.runs.r1).toMatchObject({ results: null, error: 'No channel could be designed' });
    data = applyView(data, view(5, [run('r1')])).data;
    expect(data.runs.r1).toMatchObject({ inputs: {}, results: null, error: null });
  });

  it('keep results of a calculation still under way here', () => {
    let data = markPending(setResults(draft(), 'r1', { calculated: true }), [keys.results('r1')]);
    data = applyView(data, view(3, [run('r1')])).data;
    expect(data.runs.r1?.results).toEqual({ calculated: true });
  });

  it('take project details, settings and the saved flags, unless a save or detail change is under way', () => {
    const details = { ...emptyDetails(), name: 'Depot' };
    let data = applyView(draft(), view(3, [run('r1')], { details, rainfall_units: 'l/s/m2', default_rainfall: 60, saved: true, share_with_provider: true })).data;
    expect(data).toMatchObject({ rainfallUnits: 'l/s/m2', defaultRainfall: 60, saved: true, shareWithProvider: true });
    expect(data.details).toEqual(details);
    data = markPending({ ...data, details: { ...details, name: 'Mine' } }, [keys.details]);
    data = applyView(data, view(4, [run('r1')], { details: { ...details, name: 'Theirs' }, saved: true, share_with_provider: false })).data;
    expect(data.details.name).toBe('Mine');
    expect(data.shareWithProvider).toBe(true);
  });
});

describe('command answers', () => {
  it('bring new runs, copying a duplicate’s original', () => {
    const data = setResults(applyEditedInputs(draft(), 'r1', { drainage_area_m2: 5 }), 'r1', { calculated: true });
    const { data: next, states } = applyAnswer(
      data,
      { id: 'p1', version: 3, run_id: 'r2', runs: [{ id: 'r1', name: 'Run 1', state: 'calculated' }, { id: 'r2', name: 'Run 2', state: 'calculated' }] },
      'r1',
    );
    expect(next.runs.r2).toMatchObject({ id: 'r2', name: 'Run 2', inputs: { drainage_area_m2: 5 } });
    expect(states).toEqual({ r1: 'calculated', r2: 'calculated' });
  });

  it('leave a pending rename alone but take the server’s name once answered', () => {
    let data = markPending(setRunName(draft(), 'r1', 'Yard'), [keys.name('r1')]);
    data = applyAnswer(data, { id: 'p1', version: 3, runs: [{ id: 'r1', name: 'Run 1', state: 'ready' }] }).data;
    expect(data.runs.r1?.name).toBe('Yard');
    data = settlePending(data, [keys.name('r1')], 4);
    data = applyAnswer(data, { id: 'p1', version: 4, runs: [{ id: 'r1', name: 'Yard (2)', state: 'ready' }] }).data;
    expect(data.runs.r1?.name).toBe('Yard (2)');
  });

  it('never go back to an older run list', () => {
    const data = applyAnswer(draft(), { id: 'p1', version: 5, runs: [{ id: 'r1', name: 'A', state: 'ready' }] }).data;
    const older = applyAnswer(data, { id: 'p1', version: 4, runs: [{ id: 'r1', name: 'B', state: 'ready' }] });
    expect(older.data.runs.r1?.name).toBe('A');
    expect(older.states).toEqual({});
  });
});

describe('local editing (projects saved as new)', () => {
  it('names added and duplicated runs by the run-list rules', () => {
    let data: ProjectData = addRunLocally(draft(), 'r2');
    expect(data.runs.r2?.name).toBe('Run 2');
    data = setRunName(data, 'r2', 'Run 1');
    expect(data.runs.r2?.name).toBe('Run 1 (2)');
    data = duplicateRunLocally(data, 'r1', 'r3');
    expect(data.order).toEqual(['r1', 'r3', 'r2']);
    expect(data.runs.r3?.name).toBe('Run 2');
  });

  it('replaces the only run with a fresh Run 1', () => {
    const data = removeRunLocally(setRunName(draft(), 'r1', 'Yard'), 'r1', 'r9');
    expect(data.order).toEqual(['r9']);
    expect(data.runs.r9?.name).toBe('Run 1');
  });
});

describe('saving', () => {
  const calculated = () => setResults(applyEditedInputs({ ...draft(), details: { ...draft().details, name: 'Depot' } }, 'r1', { channel_length_m: 20 }), 'r1', { calculated: true });

  it('saves over the draft with its id and version', () => {
    const payload = savePayload({ ...calculated(), version: 7 }, { asNew: false, share: true });
    expect(payload.share).toBe(true);
    expect(payload.project).toMatchObject({ saveID: 'p1', version: 7, rainfall_units: 'mm/h' });
    expect(payload.project.runs).toEqual([{ channel_length_m: 20, name: 'Run 1', notes: '', results: { calculated: true }, saveID: 'r1' }]);
  });

  it('saves as new without save ids, then follows the new project', () => {
    const payload = savePayload(calculated(), { asNew: true, share: false });
    expect(payload.project.saveID).toBeUndefined();
    expect(payload.project.version).toBeUndefined();
    expect(payload.project.runs[0]?.saveID).toBeUndefined();
    const next = applySave({ ...calculated(), editable: false }, { saveID: 'p2', runSaveIDs: ['s1'], version: 6 }, { asNew: true, share: false });
    expect(next).toMatchObject({ id: 'p2', editable: true, saved: true, version: 6, streamVersion: 6, order: ['s1'] });
    expect(next.runs.s1?.inputs.channel_length_m).toBe(20);
  });

  it('lists the runs still to calculate', () => {
    expect(uncalculatedRuns(draft())).toEqual(['Run 1']);
    expect(uncalculatedRuns(calculated())).toEqual([]);
  });

  it('opens a loaded project with its runs and states', () => {
    const { data, states } = fromLoad(
      {
        saveID: 'p1', version: 9, schedule: ['p1.a', 'p1.b'], details: { ...draft().details, name: 'Depot' }, notes: '', rainfall_units: 'l/(s*ha)',
        default_rainfall: null, share: false, owner: 'ada', editable: false,
      },
      [
        { id: 'a', run: { saveID: 'a', name: 'Run 1', notes: 'n', state: 'calculated', results: { calculated: true }, channel_length_m: 20 } },
        { id: 'b', run: { saveID: 'b', name: 'Run 2', channel_length_m: 5 } },
      ],
    );
    expect(data).toMatchObject({ id: 'p1', editable: false, version: 9, order: ['a', 'b'], rainfallUnits: 'l/(s*ha)' });
    expect(data.runs.a).toMatchObject({ notes: 'n', inputs: { channel_length_m: 20 }, results: { calculated: true } });
    expect(states).toEqual({ a: 'calculated', b: 'unconfigured' });
  });
});
