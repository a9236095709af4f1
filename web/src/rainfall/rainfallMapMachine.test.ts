import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../api/http';
import { createRainfallMapMachine, isBusy, type RainfallMapDeps } from './rainfallMapMachine';
import { canApply, mapSettingsFrom } from './rainfallRules';
import type { RainStats, RunRainfall, UpdateRainStatsQuery } from './types';

const leeds: RainStats = {
  town: 'Leeds',
  rainfallLocationId: 4290433,
  LocationIndex: 'SE2933',
  rainfallIntensity: 49.338,
  M5: 19.5,
  r: 0.36,
  intensity: [
    [5, 130.238],
    [10, 90.1],
    [15, 75.136],
    [30, 49.338],
    [60, 31.252],
    [120, 19.2],
    [240, 11.3],
    [480, 6.5],
  ],
  latlng: { lat: 53.8, lng: -1.55 },
  source: 'test',
  indicative: true,
  region: 'England and Wales',
};

function start(rainfall?: RunRainfall, overrides: Partial<RainfallMapDeps> = {}) {
  const deps: RainfallMapDeps = {
    find: vi.fn(async () => leeds),
    update: vi.fn(async (query: UpdateRainStatsQuery) => ({ ...leeds, M5: query.M5, r: query.r, rainfallIntensity: 55, indicative: false })),
    onApply: vi.fn(),
    onCancel: vi.fn(),
    ...overrides,
  };
  const actor = createActor(createRainfallMapMachine(deps), { input: { settings: mapSettingsFrom(rainfall) } });
  actor.start();
  const idle = () => waitFor(actor, (s) => s.matches({ ready: 'idle' }));
  const okEnabled = () => {
    const snapshot = actor.getSnapshot();
    return !isBusy(snapshot) && canApply(snapshot.context.settings, snapshot.context.stats);
  };
  return { actor, deps, idle, okEnabled };
}

describe('rainfall map', () => {
  it('opens on the spec defaults, with OK disabled until a location is chosen', () => {
    const { actor, deps, okEnabled } = start();
    expect(actor.getSnapshot().context.settings).toMatchObject({ returnPeriod: 30, stormDuration: 30, climateFactor: 0, point: null });
    expect(okEnabled()).toBe(false);
    actor.send({ type: 'OK' });
    expect(actor.getSnapshot().matches('asking')).toBe(false);
    expect(deps.find).not.toHaveBeenCalled();
  });

  it('looks a clicked place up at 2 decimals, then OK asks about the default', async () => {
    const { actor, deps, idle, okEnabled } = start();
    actor.send({ type: 'PICK', point: { lat: 53.80123, lng: -1.54876 } });
    expect(okEnabled()).toBe(false);
    await idle();
    expect(deps.find).toHaveBeenCalledWith({ latitude: 53.8, longitude: -1.55, stormDuration: 30, returnPeriod: 30, climateFactor: 0 });
    expect(okEnabled()).toBe(true);
    actor.send({ type: 'OK' });
    expect(actor.getSnapshot().matches('asking')).toBe(true);
    actor.send({ type: 'DEFAULT.YES' });
    expect(deps.onApply).toHaveBeenCalledWith(
      expect.objectContaining({ rainfall_mm_per_hr: 49.338, town: 'Leeds', location_index: 'SE2933', fiveMinuteRate: 130.238, fifteenMinuteRate: 75.136, sixtyMinuteRate: 31.252, override: false }),
      true,
    );
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('applies only while the duration and the return period are above 0', async () => {
    const { actor, deps, idle, okEnabled } = start();
    actor.send({ type: 'PICK', point: { lat: 53.8, lng: -1.55 } });
    await idle();
    actor.send({ type: 'SET_DURATION', value: 0 });
    expect(okEnabled()).toBe(false);
    actor.send({ type: 'OK' });
    expect(actor.getSnapshot().matches('asking')).toBe(false);
    actor.send({ type: 'SET_RETURN_PERIOD', value: null });
    actor.send({ type: 'SET_DURATION', value: 60 });
    actor.send({ type: 'OK' });
    expect(actor.getSnapshot().matches('asking')).toBe(false);
    // Neither invalid setting was sent to the server.
    expect(deps.find).toHaveBeenCalledTimes(1);
    actor.send({ type: 'SET_RETURN_PERIOD', value: 100 });
    await idle();
    expect(deps.find).toHaveBeenLastCalledWith(expect.objectContaining({ stormDuration: 60, returnPeriod: 100 }));
    expect(okEnabled()).toBe(true);
  });

  it('sends the designer’s M5-60 and r with the square to updateRainStats', async () => {
    const { actor, deps, idle } = start();
    actor.send({ type: 'PICK', point: { lat: 53.8, lng: -1.55 } });
    await idle();
    actor.send({ type: 'SET_M5', value: 21 });
    await idle();
    expect(deps.update).toHaveBeenCalledWith({ M5: 21, r: 0.36, LocationIndex: 'SE2933', stormDuration: 30, returnPeriod: 30, climateFactor: 0 });
    actor.send({ type: 'SET_CLIMATE', value: 20 });
    await idle();
    expect(deps.update).toHaveBeenLastCalledWith(expect.objectContaining({ M5: 21, climateFactor: 20 }));
    actor.send({ type: 'OK' });
    actor.send({ type: 'DEFAULT.NO' });
    expect(deps.onApply).toHaveBeenCalledWith(expect.objectContaining({ M5: 21, override: true, climate_change_factor: 20, rainfall_mm_per_hr: 55 }), false);
  });

  it('shows the server’s refusal in the product’s words and keeps OK disabled', async () => {
    const { actor, idle, okEnabled } = start(undefined, {
      find: vi.fn(async () => {
        throw new ApiError(400, { error: 'The point is in the sea; choose a place on land' });
      }),
    });
    actor.send({ type: 'PICK', point: { lat: 54.5, lng: 2.5 } });
    await idle();
    expect(actor.getSnapshot().context.error).toEqual({ key: 'rainfall.inSea' });
    expect(okEnabled()).toBe(false);
  });

  it('opens on the run’s last place and settings, and cancel applies nothing', async () => {
    const { actor, deps, idle } = start({ rainfall_mm_per_hr: 40, latlng: { lat: 51.5, lng: -0.13 }, storm_duration: 15, return_period: 100, climate_change_factor: 40 });
    await idle();
    expect(deps.find).toHaveBeenCalledWith({ latitude: 51.5, longitude: -0.13, stormDuration: 15, returnPeriod: 100, climateFactor: 40 });
    actor.send({ type: 'CANCEL' });
    expect(deps.onCancel).toHaveBeenCalled();
    expect(deps.onApply).not.toHaveBeenCalled();
  });
});
