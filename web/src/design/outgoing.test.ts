import { describe, expect, it } from 'vitest';
import { commandKeys, enqueueCommand, type Outgoing } from './outgoing';
import { fromDraft, keys } from './projectModel';

const data = () => fromDraft({ id: 'p1', version: 1, runs: [{ id: 'r1', name: 'Run 1', state: 'unconfigured' }] }, { rainfallUnits: 'mm/h' }).data;
const details = { name: 'Depot', location: '', reference: '', date: '', company: '', designer: '', telephone: '', email: '' };

describe('outgoing queue', () => {
  it('names the fields a command writes', () => {
    expect(commandKeys({ type: 'change_inputs', run_id: 'r1', fields: { channel_length_m: 20, drainage_area_m2: 5 } })).toEqual([
      keys.input('r1', 'channel_length_m'),
      keys.input('r1', 'drainage_area_m2'),
    ]);
    expect(commandKeys({ type: 'rename_run', run_id: 'r1', name: 'x' })).toEqual([keys.name('r1')]);
    expect(commandKeys({ type: 'add_run' })).toEqual([]);
  });

  it('merges input changes of one run, counting each field as pending once', () => {
    let queued = enqueueCommand([], data(), { type: 'change_inputs', run_id: 'r1', fields: { channel_length_m: 2 } });
    queued = enqueueCommand(queued.queue, queued.data, { type: 'change_inputs', run_id: 'r1', fields: { channel_length_m: 20, drainage_area_m2: 5 } });
    expect(queued.queue).toHaveLength(1);
    expect((queued.queue[0] as Extract<Outgoing, { kind: 'command' }>).command).toEqual({
      type: 'change_inputs',
      run_id: 'r1',
      fields: { channel_length_m: 20, drainage_area_m2: 5 },
    });
    expect(queued.data.pending).toEqual({ [keys.input('r1', 'channel_length_m')]: 1, [keys.input('r1', 'drainage_area_m2')]: 1 });
  });

  it('keeps other commands, and other runs, in their order', () => {
    let queued = enqueueCommand([], data(), { type: 'change_inputs', run_id: 'r1', fields: { channel_length_m: 2 } });
    queued = enqueueCommand(queued.queue, queued.data, { type: 'rename_run', run_id: 'r1', name: 'Yard' });
    queued = enqueueCommand(queued.queue, queued.data, { type: 'change_inputs', run_id: 'r1', fields: { channel_length_m: 3 } });
    queued = enqueueCommand(queued.queue, queued.data, { type: 'change_inputs', run_id: 'r2', fields: { channel_length_m: 4 } });
    expect(queued.queue.map((item) => (item.kind === 'command' ? item.command.type : item.kind))).toEqual([
      'change_inputs',
      'rename_run',
      'change_inputs',
      'change_inputs',
    ]);
    expect(queued.data.pending[keys.input('r1', 'channel_length_m')]).toBe(2);
  });

  it('keeps only the newest of successive detail changes', () => {
    let queued = enqueueCommand([], data(), { type: 'change_details', details, rainfall_units: 'mm/h', default_rainfall: null });
    queued = enqueueCommand(queued.queue, queued.data, { type: 'change_details', details: { ...details, name: 'Depot 2' }, rainfall_units: 'l/s/m2', default_rainfall: null });
    expect(queued.queue).toHaveLength(1);
    expect((queued.queue[0] as Extract<Outgoing, { kind: 'command' }>).command).toMatchObject({ details: { name: 'Depot 2' }, rainfall_units: 'l/s/m2' });
    expect(queued.data.pending).toEqual({ [keys.details]: 1 });
  });
});
