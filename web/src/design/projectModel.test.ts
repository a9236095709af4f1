import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../api/projectTypes';
import {
  addRunLocally,
  applyAnswer,
  applyEditedInputs,
  applyLiveEvent,
  applySave,
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
import type { RunState } from './types';

const draft = () => fromDraft({ id: 'p1', version: 2, runs: [{ id: 'r1', name: 'Run 1', state: 'unconfigured' }] }, { rainfallUnits: 'mm/h' }).data;

function event(version: number, event_type: string, data: Record<string, unknown>, order = ['r1'], runs: Record<string, RunState> = { r1: 'ready' }): LiveEvent {
  return { type: 'event', project: 'p1', version, event_type, data, author: 'u1', time: '', runs, order };
}

describe('live events', () => {
  it('apply another tab’s input change and the run state', () => {
    const { data, states } = applyLiveEvent(draft(), event(3, 'project.run_inputs_changed', { run_id: 'r1', changed: { channel_length_m: 25 } }));
    expect(data.runs.r1?.inputs.channel_length_m).toBe(25);
    expect(data.streamVersion).toBe(3);
    expect(states).toEqual({ r1: 'ready' });
  });

  it('skip events already applied', () => {
    const once = applyLiveEvent(draft(), event(3, 'project.run_inputs_changed', { run_id: 'r1', changed: { channel_length_m: 25 } })).data;
    const edited = applyEditedInputs(once, 'r1', { channel_length_m: 30 });
    const again = applyLiveEvent(edited, event(3, 'project.run_inputs_changed', { run_id: 'r1', changed: { channel_length_m: 25 } }));
    expect(again.data.runs.r1?.inputs.channel_length_m).toBe(30);
  });

  it('never overwrite a field with a write of it still travelling', () => {
    let data = applyEditedInputs(draft(), 'r1', { channel_length_m: 123 });
    data = markPending(data, [keys.input('r1', 'channel_length_m')]);
    data = applyLiveEvent(data, event(3, 'project.run_inputs_changed', { run_id: 'r1', changed: { channel_length_m: 12, drainage_area_m2: 50 } })).data;
    expect(data.runs.r1?.inputs).toEqual({ channel_length_m: 123, drainage_area_m2: 50 });
  });

  it('ignore older values once the answer to a later write came', () => {
    let data = markPending(applyEditedInputs(draft(), 'r1', { channel_length_m: 123 }), [keys.input('r1', 'channel_length_m')]);
    data = settlePending(data, [keys.input('r1', 'channel_length_m')], 5);
    expect(data.pending).toEqual({});
    data = applyLiveEvent(data, event(4, 'project.run_inputs_changed', { run_id: 'r1', changed: { channel_length_m: 12 } })).data;
    expect(data.runs.r1?.inputs.channel_length_m).toBe(123);
    data = applyLiveEvent(data, event(6, 'project.run_inputs_changed', { run_id: 'r1', changed: { channel_length_m: 40 } })).data;
    expect(data.runs.r1?.inputs.channel_length_m).toBe(40);
  });

  it('add, rename, duplicate, reorder and remove runs as the stream says', () => {
    let data = applyLiveEvent(draft(), event(3, 'project.run_added', { run_id: 'r2', name: 'Run 2' }, ['r1', 'r2'], { r1: 'ready', r2: 'unconfigured' })).data;
    expect(data.order).toEqual(['r1', 'r2']);
    expect(data.runs.r2?.name).toBe('Run 2');
    data = setResults(applyEditedInputs(data, 'r1', { channel_length_m: 20 }), 'r1', { calculated: true });
    data = applyLiveEvent(
      data,
      event(4, 'project.run_duplicated', { source_id: 'r1', run_id: 'r3', name: 'Run 3' }, ['r1', 'r3', 'r2'], { r1: 'calculated', r2: 'unconfigured', r3: 'calculated' }),
    ).data;
    expect(data.order).toEqual(['r1', 'r3', 'r2']);
    expect(data.runs.r3).toMatchObject({ name: 'Run 3', inputs: { channel_length_m: 20 }, results: { calculated: true } });
    data = applyLiveEvent(data, event(5, 'project.run_renamed', { run_id: 'r2', name: 'Yard' }, ['r1', 'r3', 'r2'])).data;
    expect(data.runs.r2?.name).toBe('Yard');
    data = applyLiveEvent(data, event(6, 'project.runs_reordered', { run_ids: ['r2', 'r1', 'r3'] }, ['r2', 'r1', 'r3'])).data;
    expect(data.order).toEqual(['r2', 'r1', 'r3']);
    data = applyLiveEvent(data, event(7, 'project.run_removed', { run_id: 'r1' }, ['r2', 'r3'])).data;
    expect(data.order).toEqual(['r2', 'r3']);
    expect(data.runs.r1).toBeUndefined();
  });

  it('keep a reorder made here until it is answered', () => {
    let data = applyLiveEvent(draft(), event(3, 'project.run_added', { run_id: 'r2', name: 'Run 2' }, ['r1', 'r2'])).data;
    data = markPending({ ...data, order: ['r2', 'r1'] }, [keys.order]);
    data = applyLiveEvent(data, event(4, 'project.run_notes_changed', { run_id: 'r1', notes: 'x' }, ['r1', 'r2'])).data;
    expect(data.order).toEqual(['r2', 'r1']);
  });

  it('keep full local results for the inputs a stored summary was made from', () => {
    let data = applyEditedInputs(draft(), 'r1', { channel_length_m: 20, drainage_area_m2: 144 });
    data = setResults(data, 'r1', { calculated: true, segments: [] });
    data = applyLiveEvent(
      data,
      event(3, 'project.run_calculated', { run_id: 'r1', inputs: { drainage_area_m2: 144, channel_length_m: 20 }, summary: { calculated: true } }),
    ).data;
    expect(data.runs.r1?.results).toEqual({ calculated: true, segments: [] });
    data = applyLiveEvent(
      data,
      event(4, 'project.run_calculated', { run_id: 'r1', inputs: { drainage_area_m2: 200, channel_length_m: 20 }, summary: { calculated: true, flow_velocity: 1 } }),
    ).data;
    expect(data.runs.r1?.results).toEqual({ calculated: true, flow_velocity: 1 });
    expect(data.runs.r1?.inputs.drainage_area_m2).toBe(200);
  });

  it('clear results on a failed calculation or a reset', () => {
    let data = setResults(applyEditedInputs(draft(), 'r1', { channel_length_m: 20 }), 'r1', { calculated: true });
    data = applyLiveEvent(data, event(3, 'project.calculation_failed', { run_id: 'r1', inputs: {}, error: 'No channel could be designed' })).data;
    expect(data.runs.r1).toMatchObject({ results: null, error: 'No channel could be designed' });
    data = applyLiveEvent(data, event(4, 'project.run_reset', { run_id: 'r1' })).data;
    expect(data.runs.r1?.inputs).toEqual({});
  });

  it('take project details and settings', () => {
    const data = applyLiveEvent(
      draft(),
      event(3, 'project.details_changed', { details: { name: 'Depot' }, settings: { rainfall_units: 'l/s/m2', default_rainfall: 60 }, notes: '' }),
    ).data;
    expect(data.details.name).toBe('Depot');
    expect(data.details.location).toBe('');
    expect(data.rainfallUnits).toBe('l/s/m2');
    expect(data.defaultRainfall).toBe(60);
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
