import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { itemPopupMachine, popupErrors, type PopupEmitted } from './itemPopupMachine';
import { newAccessory, newInflow, type AvailableAccessories, type PlacementEnv } from './items';

const boxes: AvailableAccessories = { use_access_box: true, use_access_cover: false, use_trash_box: true, use_concrete_chamber: false };
const none: AvailableAccessories = { use_access_box: false, use_access_cover: false, use_trash_box: false, use_concrete_chamber: false };
const env: PlacementEnv = {
  lengthM: 20,
  system: { slug: 'poly-100', product_type: 'S' },
  largestChannel: 'Polymer 100 Type 0',
  stretches: [
    { from: 0, to: 18.5, available: boxes },
    { from: 18.5, to: 20, available: none },
  ],
  dischargeSetting: 'free-outflow',
};

function popup() {
  const actor = createActor(itemPopupMachine);
  const emitted: PopupEmitted[] = [];
  actor.on('*', (event) => emitted.push(event as PopupEmitted));
  actor.start();
  return { actor, emitted, context: () => actor.getSnapshot().context };
}

describe('the inflow popup', () => {
  it('starts unconfirmed at the clicked place and accepts a valid inflow', () => {
    const p = popup();
    p.actor.send({ type: 'OPEN', draft: { kind: 'inflow', item: newInflow('i1', 12.04, env) }, env, placed: false });
    expect(p.context().draft).toMatchObject({ kind: 'inflow', item: { distance_m: 12, toBeConfirmed: true } });
    // No flow yet: refused, and every error shows.
    p.actor.send({ type: 'ACCEPT' });
    expect(p.actor.getSnapshot().value).toBe('open');
    expect(p.context().showErrors).toBe(true);
    expect(popupErrors(p.context())).toEqual({ flow: 'needsFlow' });
    p.actor.send({ type: 'SET.FLOW', value: 5 });
    p.actor.send({ type: 'ACCEPT' });
    expect(p.actor.getSnapshot().value).toBe('closed');
    expect(p.emitted).toEqual([{ type: 'accept', draft: { kind: 'inflow', item: expect.objectContaining({ id: 'i1', distance_m: 12, flow_lps: 5 }) } }]);
  });

  it('takes a source run instead of a flow, and drops its flow when the source goes', () => {
    const p = popup();
    p.actor.send({ type: 'OPEN', draft: { kind: 'inflow', item: newInflow('i1', 3, env) }, env, placed: false });
    p.actor.send({ type: 'SET.SOURCE', source: 'r2', flowLps: 4.2 });
    expect(p.context().draft!.item).toMatchObject({ source: 'r2', flow_lps: 4.2 });
    // The flow of a sourced inflow is the source's.
    p.actor.send({ type: 'SET.FLOW', value: 9 });
    expect(p.context().draft!.item).toMatchObject({ flow_lps: 4.2 });
    p.actor.send({ type: 'SET.SOURCE', source: null, flowLps: null });
    expect(p.context().draft!.item).toMatchObject({ source: null, flow_lps: 0 });
  });

  it('refuses a position beyond the run', () => {
    const p = popup();
    p.actor.send({ type: 'OPEN', draft: { kind: 'inflow', item: { ...newInflow('i1', 3, env), flow_lps: 1 } }, env, placed: false });
    p.actor.send({ type: 'SET.POSITION', value: 25 });
    p.actor.send({ type: 'ACCEPT' });
    expect(popupErrors(p.context())).toEqual({ position: 'outOfRun' });
    expect(p.emitted).toEqual([]);
  });

  it('deletes only an item already placed', () => {
    const p = popup();
    const item = { ...newInflow('i1', 3, env), flow_lps: 1 };
    p.actor.send({ type: 'OPEN', draft: { kind: 'inflow', item }, env, placed: false });
    p.actor.send({ type: 'DELETE' });
    expect(p.emitted).toEqual([]);
    p.actor.send({ type: 'OPEN', draft: { kind: 'inflow', item }, env, placed: true });
    p.actor.send({ type: 'DELETE' });
    expect(p.emitted).toEqual([{ type: 'remove', draft: { kind: 'inflow', item } }]);
  });
});

describe('the accessory popup', () => {
  it('places an access box where the channel takes one', () => {
    const p = popup();
    p.actor.send({ type: 'OPEN', draft: { kind: 'accessory', item: newAccessory('a1', 5, env) }, env, placed: false });
    expect(p.context().draft!.item).toMatchObject({ distance_m: 15, type: 'access-box' });
    p.actor.send({ type: 'ACCEPT' });
    expect(p.emitted).toEqual([{ type: 'accept', draft: { kind: 'accessory', item: expect.objectContaining({ distance_m: 15, type: 'access-box' }) } }]);
  });

  it('snaps to the discharge end within 1 m where nothing fits', () => {
    const p = popup();
    p.actor.send({ type: 'OPEN', draft: { kind: 'accessory', item: newAccessory('a1', 5, env) }, env, placed: false });
    p.actor.send({ type: 'SET.POSITION', value: 0.7 });
    expect(p.context().draft!.item.distance_m).toBe(0);
    p.actor.send({ type: 'SET.TYPE', value: 'end-cap' });
    expect(popupErrors(p.context())).toEqual({});
  });

  it('refuses a type not offered at the place', () => {
    const p = popup();
    p.actor.send({ type: 'OPEN', draft: { kind: 'accessory', item: newAccessory('a1', 5, env) }, env, placed: false });
    p.actor.send({ type: 'SET.TYPE', value: 'access-cover' });
    p.actor.send({ type: 'ACCEPT' });
    expect(popupErrors(p.context())).toEqual({ type: 'unavailable' });
    expect(p.emitted).toEqual([]);
  });
});
