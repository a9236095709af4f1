import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../api/http';
import { aUser } from '../test/fakes';
import { createSettingsMachine, settingsFrom, settingsPatch, type SettingsDeps } from './settingsMachine';

function start(overrides: Partial<SettingsDeps> = {}, projectUnits: string | null = 'mm/h') {
  const deps: SettingsDeps = {
    updateSettings: vi.fn(async (patch) => ({ user: aUser({ ...patch } as never) })),
    updateCountry: vi.fn(async () => ({ user: aUser({ country: { iso_code: 'DE', name: 'Germany' } }) })),
    applyLanguage: vi.fn(),
    ...overrides,
  };
  const initial = settingsFrom(aUser({ rainfall_units: 'mm/h', city: 'Leeds', country: { iso_code: 'GB', name: 'United Kingdom' } }), projectUnits);
  const actor = createActor(createSettingsMachine(deps), { input: initial });
  actor.start();
  return { actor, deps };
}

describe('user settings', () => {
  it('applies a chosen language at once', () => {
    const { actor, deps } = start();
    actor.send({ type: 'CHANGE', field: 'language', value: 'hu' });
    expect(deps.applyLanguage).toHaveBeenCalledWith('hu');
  });

  it('sets the project unit along with the user unit', () => {
    const { actor } = start();
    actor.send({ type: 'CHANGE', field: 'rainfall_units', value: 'l/(s*ha)' });
    expect(actor.getSnapshot().context.values.project_units).toBe('l/(s*ha)');
    actor.send({ type: 'CHANGE', field: 'project_units', value: 'l/s/m2' });
    expect(actor.getSnapshot().context.values).toMatchObject({ rainfall_units: 'l/(s*ha)', project_units: 'l/s/m2' });
  });

  it('leaves the project unit alone when no project is open', () => {
    const { actor } = start({}, null);
    actor.send({ type: 'CHANGE', field: 'rainfall_units', value: 'l/s/m2' });
    expect(actor.getSnapshot().context.values.project_units).toBeNull();
  });

  it('sends only what changed, the country by its own call', async () => {
    const { actor, deps } = start();
    actor.send({ type: 'CHANGE', field: 'city', value: 'York' });
    actor.send({ type: 'CHANGE', field: 'rainfall_units', value: 'l/s/m2' });
    actor.send({ type: 'CHANGE', field: 'country', value: 'DE' });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(deps.updateSettings).toHaveBeenCalledWith({ city: 'York', rainfall_units: 'l/s/m2' });
    expect(deps.updateCountry).toHaveBeenCalledWith('DE');
    expect(actor.getSnapshot().output).toEqual({ user: expect.objectContaining({ country: { iso_code: 'DE', name: 'Germany' } }), projectUnits: 'l/s/m2' });
  });

  it('makes no call when nothing changed', async () => {
    const { actor, deps } = start();
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(deps.updateSettings).not.toHaveBeenCalled();
    expect(deps.updateCountry).not.toHaveBeenCalled();
    expect(actor.getSnapshot().output).toEqual({ user: {}, projectUnits: null });
  });

  it('shows the server’s message and stays open when saving fails', async () => {
    const { actor } = start({
      updateSettings: vi.fn(async () => {
        throw new ApiError(400, { error: 'Please enter a valid telephone number' });
      }),
    });
    actor.send({ type: 'CHANGE', field: 'telephone', value: 'x' });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toEqual({ text: 'Please enter a valid telephone number' });
  });

  it('compares against what was loaded', () => {
    const initial = settingsFrom(aUser({ city: 'Leeds' }), null);
    expect(settingsPatch(initial, { ...initial, default_advanced_mode: true })).toEqual({ default_advanced_mode: true });
  });
});
