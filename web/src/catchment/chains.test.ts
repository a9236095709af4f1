import { describe, expect, it } from 'vitest';
import { feedersOf, hasCycle, inflowSources, linksOf, partnerOf, reaches, relinkedInputs, trashBoxTargets, withoutLinksTo, wouldCycle, type LinkedRun } from './chains';

const run = (id: string, intoBoxOf?: string, inflowsFrom: string[] = []): LinkedRun => ({
  id,
  inputs: {
    dischargeSetting: intoBoxOf ? 'outflow-in-trashbox' : 'free-outflow',
    outflowTrashbox: intoBoxOf ?? null,
    inflows: inflowsFrom.map((source, i) => ({ id: `${id}-in-${i}`, distance_m: 1, source, flow_lps: 0, connection: 'direct-pipe', toBeConfirmed: false })),
  },
});

describe('links between runs', () => {
  it('reads trash-box outflows and sourced inflows as water from upstream to downstream', () => {
    const runs = [run('a', 'b'), run('b'), run('c', undefined, ['b'])];
    expect(linksOf(runs)).toEqual([
      { from: 'a', to: 'b', via: 'trashBox' },
      { from: 'b', to: 'c', via: 'inflow' },
    ]);
    expect(reaches(linksOf(runs), 'a', 'c')).toBe(true);
    expect(reaches(linksOf(runs), 'c', 'a')).toBe(false);
  });

  it('ignores a trash box chosen by discharge, unknown runs and unconfirmed inflows', () => {
    const advanced: LinkedRun = { id: 'a', inputs: { dischargeSetting: 'outflow-in-trashbox', outflowTrashbox: 15 } };
    const unconfirmed: LinkedRun = { id: 'b', inputs: { inflows: [{ id: 'x', distance_m: 1, source: 'a', toBeConfirmed: true }] } };
    expect(linksOf([advanced, unconfirmed, run('c', 'gone')])).toEqual([]);
    // A free outflow does not go into the box it once named.
    expect(linksOf([{ id: 'a', inputs: { dischargeSetting: 'free-outflow', outflowTrashbox: 'b' } }, run('b')])).toEqual([]);
  });
});

describe('circular chains', () => {
  it.each([
    ['a run into its own box', [run('a', 'a')], true],
    ['two runs into each other’s box', [run('a', 'b'), run('b', 'a')], true],
    ['a box and an inflow back', [run('a', 'b'), run('b'), run('c', undefined, ['b']), { ...run('d'), inputs: { ...run('a', 'b').inputs, inflows: [] } }], false],
    ['three runs round', [run('a', 'b'), run('b', undefined, []), run('c', 'a', ['b'])], true],
    ['a chain', [run('a', 'b'), run('b', 'c'), run('c')], false],
  ] as const)('%s', (_, runs, cycle) => {
    expect(hasCycle(linksOf(runs as unknown as LinkedRun[]))).toBe(cycle);
  });

  it('refuses a link that would close a circle', () => {
    const links = linksOf([run('a', 'b'), run('b', 'c'), run('c')]);
    expect(wouldCycle(links, 'c', 'a')).toBe(true);
    expect(wouldCycle(links, 'a', 'a')).toBe(true);
    expect(wouldCycle(links, 'a', 'c')).toBe(false);
  });
});

describe('the trash-box option’s runs', () => {
  const calculated = (ids: string[]) => (id: string) => ids.includes(id);

  it('lists the other calculated runs', () => {
    const runs = [run('a'), run('b'), run('c')];
    expect(trashBoxTargets(runs, 'a', calculated(['a', 'b', 'c']))).toEqual(['b', 'c']);
    expect(trashBoxTargets(runs, 'a', calculated(['a', 'c']))).toEqual(['c']);
    // Both must be calculated.
    expect(trashBoxTargets(runs, 'a', calculated(['b', 'c']))).toEqual([]);
  });

  it('leaves out runs that would close a circle', () => {
    const runs = [run('a'), run('b', 'a'), run('c', 'b')];
    // b flows into a, and c into b: a into either would come round again.
    expect(trashBoxTargets(runs, 'a', () => true)).toEqual([]);
    // c takes a's water through an inflow already; its box may take a's outflow too.
    expect(trashBoxTargets([run('a'), run('b', 'a'), run('c', undefined, ['a'])], 'a', () => true)).toEqual(['c']);
  });

  it('leaves out a run another run already flows into, but keeps the run’s own choice', () => {
    const runs = [run('a', 'c'), run('b'), run('c')];
    expect(trashBoxTargets(runs, 'b', () => true)).toEqual(['a']);
    expect(trashBoxTargets(runs, 'a', () => true)).toEqual(['b', 'c']);
  });

  it('offers inflow sources that close no circle and leave one feeder', () => {
    const runs = [run('a', 'b'), run('b'), run('c')];
    // b is fed by a already; c's water would make two feeders.
    expect(inflowSources(runs, 'b')).toEqual(['a']);
    // a flows into b: b cannot feed a.
    expect(inflowSources(runs, 'a')).toEqual(['c']);
    const fed = [run('a'), run('b', undefined, ['a'])];
    // The inflow being edited does not count against its own source.
    expect(inflowSources(fed, 'b', 'b-in-0')).toEqual(['a']);
    expect(feedersOf(linksOf(fed), 'b')).toEqual(['a']);
  });
});

describe('calculating together', () => {
  it('pairs a run with the run that feeds it, else with the run it feeds', () => {
    const runs = [run('a', 'b'), run('b'), run('c')];
    expect(partnerOf(runs, 'a')).toBe('b');
    expect(partnerOf(runs, 'b')).toBe('a');
    expect(partnerOf(runs, 'c')).toBeNull();
  });

  it('clears links to a removed run', () => {
    expect(withoutLinksTo(run('a', 'b', ['b', 'c']).inputs, 'b')).toEqual({
      dischargeSetting: 'free-outflow',
      outflowTrashbox: null,
      inflows: [
        { id: 'a-in-0', distance_m: 1, source: null, flow_lps: 0, connection: 'direct-pipe', toBeConfirmed: false, accessoryId: null },
        { id: 'a-in-1', distance_m: 1, source: 'c', flow_lps: 0, connection: 'direct-pipe', toBeConfirmed: false, accessoryId: null },
      ],
    });
    expect(withoutLinksTo(run('a').inputs, 'b')).toBeNull();
  });
});

describe('a save as new', () => {
  it('moves the links to the runs’ new ids, and leaves other runs and discharges alone', () => {
    const renamed = new Map([
      ['a', 's1'],
      ['b', 's2'],
    ]);
    const moved = relinkedInputs(run('c', 'a', ['b', 'x']).inputs, renamed);
    expect(moved.outflowTrashbox).toBe('s1');
    expect(moved.inflows!.map((i) => i.source)).toEqual(['s2', 'x']);
    const advanced = { dischargeSetting: 'outflow-in-trashbox', outflowTrashbox: 15 };
    expect(relinkedInputs(advanced, renamed)).toBe(advanced);
  });
});
