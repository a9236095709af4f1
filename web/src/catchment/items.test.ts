import { describe, expect, it } from 'vitest';
import {
  acceptAccessory,
  acceptInflow,
  accessoryTypesAt,
  canDeleteAccessory,
  confirmedOnly,
  newAccessory,
  placementEnv,
  removeAccessory,
  removeInflow,
  snapAccessory,
  validateAccessory,
  validateInflow,
  type AvailableAccessories,
  type Inflow,
  type PlacementEnv,
} from './items';

const everything: AvailableAccessories = { use_access_box: true, use_access_cover: true, use_trash_box: true, use_concrete_chamber: false };
const nothing: AvailableAccessories = { use_access_box: false, use_access_cover: false, use_trash_box: false, use_concrete_chamber: false };

/** A 20 m polymer run: boxes fit the first 12 m of channel, nothing fits the last 8 m. */
const env: PlacementEnv = {
  lengthM: 20,
  system: { slug: 'poly-100', product_type: 'S' },
  largestChannel: 'Polymer 100 Type 0',
  stretches: [
    { from: 0, to: 12, available: everything },
    { from: 12, to: 20, available: nothing },
  ],
  dischargeSetting: 'free-outflow',
};

const inflow = (over: Partial<Inflow> = {}): Inflow => ({ id: 'i1', distance_m: 5, source: null, flow_lps: 5, connection: 'direct-pipe', toBeConfirmed: true, ...over });

describe('the inflow popup’s checks (spec section 5)', () => {
  it('accepts a flow rate at a position on the run', () => {
    expect(validateInflow(inflow(), env)).toEqual({});
    expect(validateInflow(inflow({ distance_m: 0 }), env)).toEqual({});
    expect(validateInflow(inflow({ distance_m: 20 }), env)).toEqual({});
  });

  it.each([
    ['before the head', { distance_m: -0.1 }, { position: 'outOfRun' }],
    ['beyond the end', { distance_m: 20.1 }, { position: 'outOfRun' }],
    ['no position', { distance_m: Number.NaN }, { position: 'outOfRun' }],
    ['neither a source nor a flow', { flow_lps: 0 }, { flow: 'needsFlow' }],
    ['a negative flow', { flow_lps: -1 }, { flow: 'flowNegative' }],
    ['no connection', { connection: '' as const }, { connection: 'needsConnection' }],
    ['an access box where the channel takes none', { distance_m: 15, connection: 'access-box' as const }, { connection: 'noBox' }],
  ])('refuses %s', (_, over, errors) => {
    expect(validateInflow(inflow(over), env)).toEqual(errors);
  });

  it('takes another run as the source instead of a flow rate', () => {
    expect(validateInflow(inflow({ source: 'run-2', flow_lps: 0 }), env)).toEqual({});
  });

  it('allows an access-box connection where the channel takes a box', () => {
    expect(validateInflow(inflow({ distance_m: 11, connection: 'access-box' }), env)).toEqual({});
  });
});

describe('the accessory popup’s types (spec section 5)', () => {
  it('offers boxes where the channel takes them, end caps only at the ends', () => {
    // 15 m from the discharge is 5 m from the head, on the first channel.
    const at15 = accessoryTypesAt(env, 15);
    expect(at15).toMatchObject({ 'trash-box': true, 'access-box': true, 'access-cover': true, 'end-cap': false, 'concrete-chamber': false, 'connection-plate': true });
    const at5 = accessoryTypesAt(env, 5);
    expect(at5).toMatchObject({ 'trash-box': false, 'access-box': false, 'access-cover': false });
    expect(accessoryTypesAt(env, 0)).toMatchObject({ 'end-cap': true, 'end-cap-with-outlet': true, 'no-automatic': true });
    expect(accessoryTypesAt(env, 20)).toMatchObject({ 'end-cap': true, 'access-box': true });
  });

  it('takes no box at the discharge of a run ending in an L channel', () => {
    const l = { ...env, largestChannel: 'Polymer 100 Type 10L', stretches: [{ from: 0, to: 20, available: everything }] };
    expect(accessoryTypesAt(l, 0)).toMatchObject({ 'trash-box': false, 'access-box': false });
    expect(accessoryTypesAt(l, 1)).toMatchObject({ 'trash-box': true, 'access-box': true });
  });

  it('offers no end caps on a concrete channel, and no end cap with outlet on the big system', () => {
    const concrete = { ...env, system: { slug: 'concrete', product_type: 'M' }, stretches: [{ from: 0, to: 20, available: { ...nothing, use_concrete_chamber: true } }] };
    expect(accessoryTypesAt(concrete, 0)).toMatchObject({ 'end-cap': false, 'end-cap-with-outlet': false, 'concrete-chamber': true, 'trash-box': false });
    const big = { ...env, system: { slug: 'big-bls', product_type: 'S' } };
    expect(accessoryTypesAt(big, 0)).toMatchObject({ 'end-cap': true, 'end-cap-with-outlet': false });
  });

  it('checks position and type', () => {
    const base = { id: 'a', distance_m: 15, type: 'access-box' as const, toBeConfirmed: true };
    expect(validateAccessory(base, env)).toEqual({});
    expect(validateAccessory({ ...base, type: '' }, env)).toEqual({ type: 'needsType' });
    expect(validateAccessory({ ...base, distance_m: 5 }, env)).toEqual({ type: 'unavailable' });
    expect(validateAccessory({ ...base, distance_m: 21 }, env)).toEqual({ position: 'outOfRun' });
  });

  it('snaps to an end within 1 m when nothing fits where it is', () => {
    // 0.6 m from the discharge lies on the last channel, which takes nothing but is at no end.
    expect(snapAccessory(env, 0.6)).toBe(0);
    expect(snapAccessory(env, 1)).toBe(0);
    expect(snapAccessory(env, 1.5)).toBe(1.5);
    // 19.5 m from the discharge is 0.5 m from the head, where boxes fit: it stays.
    expect(snapAccessory(env, 19.5)).toBe(19.5);
    const bare = { ...env, stretches: [{ from: 0, to: 20, available: nothing }], system: { slug: 'concrete', product_type: 'M' } };
    expect(snapAccessory(bare, 19.4)).toBe(20);
  });

  it('starts a new accessory as an unconfirmed access box where one fits', () => {
    expect(newAccessory('a', 5, env)).toEqual({ id: 'a', distance_m: 15, type: 'access-box', toBeConfirmed: true });
    expect(newAccessory('a', 15, env).type).toBe('');
  });

  it('keeps the discharge setting’s own box', () => {
    expect(canDeleteAccessory({ id: 'a', distance_m: 0, type: 'trash-box', toBeConfirmed: false }, 'outflow-in-trashbox')).toBe(false);
    expect(canDeleteAccessory({ id: 'a', distance_m: 0, type: 'trash-box', toBeConfirmed: false }, 'free-outflow')).toBe(true);
    expect(canDeleteAccessory({ id: 'a', distance_m: 0, type: 'end-cap-with-outlet', toBeConfirmed: false }, 'end-cap-with-outlet')).toBe(false);
    expect(canDeleteAccessory({ id: 'a', distance_m: 3, type: 'trash-box', toBeConfirmed: false }, 'outflow-in-trashbox')).toBe(true);
  });
});

describe('the run’s lists', () => {
  let n = 0;
  const newId = () => `box-${++n}`;

  it('an access-box inflow brings its box, moves it and takes it away', () => {
    const placed = acceptInflow({ inflows: [], accessories: [] }, inflow({ distance_m: 8, connection: 'access-box' }), env, newId);
    expect(placed.inflows[0]).toMatchObject({ id: 'i1', toBeConfirmed: false });
    const boxId = placed.inflows[0]!.accessoryId!;
    expect(placed.accessories).toEqual([{ id: boxId, distance_m: 12, type: 'access-box', toBeConfirmed: false }]);
    const moved = acceptInflow(placed, { ...placed.inflows[0]!, distance_m: 10 }, env, newId);
    expect(moved.accessories).toEqual([{ id: boxId, distance_m: 10, type: 'access-box', toBeConfirmed: false }]);
    const piped = acceptInflow(moved, { ...moved.inflows[0]!, connection: 'direct-pipe' }, env, newId);
    expect(piped.accessories).toEqual([]);
    expect(piped.inflows[0]!.accessoryId).toBeNull();
    expect(removeInflow(moved, 'i1')).toEqual({ inflows: [], accessories: [] });
  });

  it('removing an inflow’s box leaves the inflow on a direct pipe', () => {
    const placed = acceptInflow({ inflows: [], accessories: [] }, inflow({ connection: 'access-box' }), env, newId);
    const out = removeAccessory(placed, placed.inflows[0]!.accessoryId!);
    expect(out.inflows[0]).toMatchObject({ connection: 'direct-pipe', accessoryId: null });
  });

  it('keeps accessories in place order from the head and replaces an edited one', () => {
    let items = acceptAccessory({ inflows: [], accessories: [] }, { id: 'a', distance_m: 3, type: 'access-box', toBeConfirmed: true });
    items = acceptAccessory(items, { id: 'b', distance_m: 15, type: 'access-box', toBeConfirmed: true });
    expect(items.accessories.map((a) => a.id)).toEqual(['b', 'a']);
    items = acceptAccessory(items, { id: 'a', distance_m: 18, type: 'access-cover', toBeConfirmed: true });
    expect(items.accessories.map((a) => [a.id, a.type, a.toBeConfirmed])).toEqual([
      ['a', 'access-cover', false],
      ['b', 'access-box', false],
    ]);
  });

  it('drops unconfirmed items for the calculation', () => {
    expect(confirmedOnly([inflow(), inflow({ id: 'i2', toBeConfirmed: false })]).map((i) => i.id)).toEqual(['i2']);
  });

  it('reads the placement from the results’ segments', () => {
    const found = placementEnv(
      { channel_length_m: 20, dischargeSetting: 'outflow-in-trashbox' },
      {
        calculated: true,
        largest_channel: 'X 10L',
        segments: [
          { channelDescription: 'A', length_mm: 12000, stepRaise: 0, floorChange: 0, available_accessories: everything },
          { channelDescription: 'B', length_mm: 8000, stepRaise: 0, floorChange: 0, available_accessories: nothing },
        ],
      },
    );
    expect(found.stretches).toEqual(env.stretches);
    expect(found).toMatchObject({ lengthM: 20, largestChannel: 'X 10L', dischargeSetting: 'outflow-in-trashbox' });
  });
});
