import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../api/http';
import { hicap } from '../design/testSystems';
import type { RunInputs } from '../design/types';
import type { RunRainfall } from '../rainfall/types';
import { deferred } from '../test/fakes';
import { canConfirm, createStorageMachine, isStale, type StorageDeps } from './storageMachine';
import type { StorageResult } from './types';

const leedsRain: RunRainfall = {
  rainfall_mm_per_hr: 49.338,
  storm_duration: 30,
  return_period: 30,
  climate_change_factor: 0,
  M5: 19.5,
  r: 0.36,
  fiveMinuteRate: 130.238,
  fifteenMinuteRate: 75.136,
  sixtyMinuteRate: 31.252,
  region: 'England and Wales',
  town: 'Leeds',
  location_index: 'SE2933',
  latlng: { lat: 53.8, lng: -1.55 },
};

const run: RunInputs = { selectedSystem: hicap, channel_group: hicap.slug, loading: 'D400', channel_length_m: 50, drainage_area_m2: 300, stepped: true, rainfall: leedsRain };

const answer = (overrides: Partial<StorageResult> = {}): StorageResult => ({
  flooded: false,
  channel_name: 'High-Capacity 150 H600',
  channel: 'poly-hicap-150-600',
  critical_duration_min: 45,
  orifice_diameter_mm: 37.9,
  critical_rainfall_mm_h: 37.773,
  channel_capacity_m3: 3.629,
  minimum_free_board_m: 0.035,
  storage_graph: 'iVBORgraph',
  x_section_image: 'iVBORsection',
  max_depth_mm: 464.7,
  free_discharge_l_s: 4.1,
  storms: [],
  critical_storm: [{ t_min: 0, inflow_l_s: 0, outflow_l_s: 0, stored_m3: 0, spilled_m3: 0, depth_m: 0 }],
  ...overrides,
});

function start(inputs: RunInputs = run, overrides: Partial<StorageDeps> = {}) {
  const deps: StorageDeps = {
    calculate: vi.fn(async () => answer()),
    onConfirm: vi.fn(),
    onReset: vi.fn(),
    onCancel: vi.fn(),
    ...overrides,
  };
  const actor = createActor(createStorageMachine(deps), { input: { inputs } });
  actor.start();
  const idle = () => waitFor(actor, (s) => s.matches({ editing: 'idle' }));
  return { actor, deps, idle };
}

describe('controlled discharge dialog', () => {
  it('opens on the run’s fields, with the free discharge and no controlled discharge', () => {
    const { actor } = start();
    const { draft } = actor.getSnapshot().context;
    expect(draft).toMatchObject({ channel_length_m: 50, catchment_area_m2: 300, permeability: 1, controlled_outflow: null, custom: false });
  });

  it('holds the controlled discharge to the free discharge, to 0.1 l/s', () => {
    const { actor } = start();
    actor.send({ type: 'SET', field: 'controlled_outflow', value: 9 });
    // 300 m² × 49.338 mm/h / 3600 = 4.11 l/s
    expect(actor.getSnapshot().context.draft.controlled_outflow).toBe(4.1);
    actor.send({ type: 'SET', field: 'controlled_outflow', value: 2.04 });
    expect(actor.getSnapshot().context.draft.controlled_outflow).toBe(2);
    // A smaller area lowers the cap, and the value with it.
    actor.send({ type: 'SET', field: 'catchment_area_m2', value: 100 });
    expect(actor.getSnapshot().context.draft.controlled_outflow).toBe(1.4);
  });

  it('calculates only with every field above 0', async () => {
    const { actor, deps, idle } = start({ ...run, rainfall: { rainfall_mm_per_hr: 50 } });
    actor.send({ type: 'SET', field: 'controlled_outflow', value: 2 });
    actor.send({ type: 'CALCULATE' });
    expect(deps.calculate).not.toHaveBeenCalled();
    actor.send({ type: 'CUSTOM', on: true });
    for (const [field, value] of [['fiveMinuteRate', 120], ['fifteenMinuteRate', 80], ['sixtyMinuteRate', 35]] as const) {
      actor.send({ type: 'SET_RATE', field, value });
    }
    actor.send({ type: 'CALCULATE' });
    await idle();
    // Custom rainfall: no M5-60 or r, so the server draws its curve through the rates.
    expect(deps.calculate).toHaveBeenCalledWith(expect.objectContaining({ rainfall: expect.objectContaining({ M5: 0, r: 0, fiveMinuteRate: 120, storm_duration: 30 }) }));
  });

  it('confirms a result that is neither flooded nor stale, never stepped, keeping the channel the run is laid in', async () => {
    const { actor, deps, idle } = start();
    actor.send({ type: 'SET', field: 'controlled_outflow', value: 2 });
    expect(canConfirm(actor.getSnapshot().context)).toBe(false);
    actor.send({ type: 'CALCULATE' });
    await idle();
    expect(canConfirm(actor.getSnapshot().context)).toBe(true);
    actor.send({ type: 'CONFIRM' });
    expect(deps.onConfirm).toHaveBeenCalledWith({
      controlled_outflow: 2,
      controlled_discharge: expect.objectContaining({ channel_name: 'High-Capacity 150 H600', orifice_diameter_mm: 37.9 }),
      controlled_discharge_details: { channel: 'poly-hicap-150-600', channel_name: 'High-Capacity 150 H600', max_depth_mm: 464.7, orifice_diameter_mm: 37.9 },
      stepped: false,
    });
    // The images and the graph's numbers are not stored in the run.
    const stored = vi.mocked(deps.onConfirm).mock.calls[0]![0].controlled_discharge as Record<string, unknown>;
    expect(stored.storage_graph).toBeUndefined();
    expect(stored.critical_storm).toBeUndefined();
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('refuses to confirm a flooded result', async () => {
    const { actor, deps, idle } = start(run, { calculate: vi.fn(async () => answer({ flooded: true })) });
    actor.send({ type: 'SET', field: 'controlled_outflow', value: 0.5 });
    actor.send({ type: 'CALCULATE' });
    await idle();
    expect(canConfirm(actor.getSnapshot().context)).toBe(false);
    actor.send({ type: 'CONFIRM' });
    expect(deps.onConfirm).not.toHaveBeenCalled();
  });

  it('refuses to confirm a result the fields have moved away from, until calculated again', async () => {
    const { actor, deps, idle } = start();
    actor.send({ type: 'SET', field: 'controlled_outflow', value: 2 });
    actor.send({ type: 'CALCULATE' });
    await idle();
    actor.send({ type: 'SET', field: 'channel_length_m', value: 60 });
    expect(isStale(actor.getSnapshot().context)).toBe(true);
    actor.send({ type: 'CONFIRM' });
    expect(deps.onConfirm).not.toHaveBeenCalled();
    actor.send({ type: 'CALCULATE' });
    await idle();
    actor.send({ type: 'CONFIRM' });
    expect(deps.onConfirm).toHaveBeenCalledWith(expect.objectContaining({ channel_length_m: 60, catchment_depth_m: 2.5 }));
  });

  it('treats a result that comes back after an edit as stale', async () => {
    const pending = deferred<StorageResult>();
    const { actor, idle } = start(run, { calculate: vi.fn(() => pending.promise) });
    actor.send({ type: 'SET', field: 'controlled_outflow', value: 2 });
    actor.send({ type: 'CALCULATE' });
    actor.send({ type: 'SET', field: 'controlled_outflow', value: 3 });
    pending.resolve(answer());
    await idle();
    expect(canConfirm(actor.getSnapshot().context)).toBe(false);
  });

  it('clears the results when the server refuses', async () => {
    const calculate = vi.fn(async () => answer());
    const { actor, idle } = start(run, { calculate });
    actor.send({ type: 'SET', field: 'controlled_outflow', value: 2 });
    actor.send({ type: 'CALCULATE' });
    await idle();
    calculate.mockRejectedValueOnce(new ApiError(400, { error: 'controlled_outflow: must be above 0', field: 'controlled_outflow' }));
    actor.send({ type: 'CALCULATE' });
    await idle();
    expect(actor.getSnapshot().context.result).toBeNull();
    expect(actor.getSnapshot().context.error).toEqual({ text: 'controlled_outflow: must be above 0' });
  });

  it('reset hands the run no controlled discharge and stepped again', () => {
    const { actor, deps } = start({ ...run, controlled_outflow: 2, stepped: false, channel_length_m: null });
    actor.send({ type: 'RESET' });
    expect(deps.onReset).toHaveBeenCalledWith({ controlled_outflow: 0, controlled_discharge: null, controlled_discharge_details: null, stepped: true });
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('shows a confirmed design again on opening', async () => {
    const { actor, deps, idle } = start({ ...run, controlled_outflow: 2 });
    await idle();
    expect(deps.calculate).toHaveBeenCalledWith(expect.objectContaining({ controlled_outflow: 2, channel_group: 'poly-hicap' }));
    expect(canConfirm(actor.getSnapshot().context)).toBe(true);
  });

  it('keeps its fields over the round trip to the map and takes the map’s rainfall', async () => {
    const { actor, idle } = start();
    actor.send({ type: 'SET', field: 'controlled_outflow', value: 2 });
    actor.send({ type: 'CUSTOM', on: true });
    actor.send({ type: 'MAP.OPEN' });
    expect(actor.getSnapshot().matches('map')).toBe(true);
    actor.send({ type: 'MAP.CLOSED', rainfall: null });
    expect(actor.getSnapshot().context.draft).toMatchObject({ controlled_outflow: 2, custom: true });
    actor.send({ type: 'MAP.OPEN' });
    actor.send({ type: 'MAP.CLOSED', rainfall: { ...leedsRain, rainfall_mm_per_hr: 12, town: 'Lerwick' } });
    await idle();
    // The new intensity lowers the free discharge to 1 l/s, and the controlled discharge with it.
    expect(actor.getSnapshot().context.draft).toMatchObject({ controlled_outflow: 1, custom: false, rainfall: { town: 'Lerwick' } });
  });
});
