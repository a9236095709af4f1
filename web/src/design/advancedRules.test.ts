import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  adjustDrillDistance,
  autoCut,
  autoCutDialog,
  builtInFallChanges,
  channelUses,
  concreteProblem,
  countChanges,
  countProblem,
  cuttingProblem,
  dischargeChanges,
  dischargeOptions,
  drillDiameters,
  drillDistanceRange,
  drillingProblem,
  isAdvanced,
  kstOf,
  lastElementLengthMM,
  lastUse,
  lChannelPreset,
  loadingChanges,
  roughnessOfKst,
  roundAngle,
  channelUseOf,
  type ChannelKind,
  type ChannelOption,
  type ChannelUse,
  type ConcreteSection,
  type Cutting,
  type DischargeSetting,
  type DrillPosition,
  type Drilling,
} from './advancedRules';
import type { DrainageSystem, RunInputs } from './types';

// One table of cases with the server (domain/design/advanced_table_test.go).
type Pairs = [string, number][];
interface Table {
  runs: Record<string, RunInputs>;
  catalogue: { system: string; channels: ChannelOption[] }[];
  selection: {
    name: string;
    run: string;
    before: Record<string, unknown>;
    edits: ({ count: [string, number] } | { noBuiltInFall: boolean } | { discharge: DischargeSetting } | { loading: string })[];
    after: Record<string, unknown>;
  }[];
  counts: { name: string; kind: ChannelKind; count: number; problem: string | null }[];
  discharge: { name: string; run: string; channels: Pairs; enabled: Record<DischargeSetting, boolean> }[];
  cutting: { name: string; run_length_m: number; cut: { distance_in_mm: number; angle_deg: number }; problem: string | null }[];
  angle_rounding: [number, number][];
  drill_diameters: { width_mm: number; max_downstream_mm: number; position: DrillPosition; diameters: number[] }[];
  drill_distance: { element_mm: number; diameter_mm: number; min: number; max: number }[];
  drill_adjust: { element_mm: number; distance_mm: number; diameter_mm: number; adjusted: number }[];
  drilling: { name: string; run: string; channels: Pairs; dischargeCutting?: Cutting; drilling: Drilling; problem: string | null }[];
  l_presets: [number, number | null, number | null][];
  auto_cut: {
    name: string;
    run: string;
    channels: Pairs;
    dischargeCutting?: number;
    run_length_m: number;
    choice: 'head' | 'discharge' | 'shorten';
    result: { channels: Pairs; headCutting?: number; dischargeCutting?: number; run_length_m?: number } | null;
  }[];
  concrete: { name: string; section: ConcreteSection; problem: string | null; kst?: number }[];
}

const table = JSON.parse(readFileSync(join(import.meta.dirname, '../../../domain/design/testdata/advanced.json'), 'utf8')) as Table;
const optionsOf = (run: string) => table.catalogue.find((group) => group.system === run)?.channels ?? [];
const allOptions = table.catalogue.flatMap((group) => group.channels);

/** The table's [slug, count] pairs as the run keeps them; a channel the excerpt lacks is a plain 1 m element. */
function usesOf(pairs: Pairs): ChannelUse[] {
  return pairs.map(([slug, count]) => {
    const option = allOptions.find((o) => o.slug === slug);
    return option
      ? channelUseOf(option, count)
      : { slug, count, name: slug, channel_length_mm: 1000, width_mm: 200, body_height_mm: 400, kind: 'standard', max_downstream_water_depth_mm: 300, upstream_water_depth_mm: 0 };
  });
}
const pairsOf = (value: unknown): Pairs => channelUses({ channels: value as ChannelUse[] }).map((use) => [use.slug, use.count]);

function runOf(name: string, fields: Record<string, unknown> = {}): RunInputs {
  const inputs: RunInputs = { ...structuredClone(table.runs[name]!) };
  for (const [key, value] of Object.entries(fields)) inputs[key] = key === 'channels' ? usesOf(value as Pairs) : value;
  return inputs;
}
const system = (inputs: RunInputs) => inputs.selectedSystem as DrainageSystem;

describe('advanced mode, as the server decides (domain/design/testdata/advanced.json)', () => {
  it('picks channels by hand: order, stepping, L and height-range channels, the built-in fall, loadings', () => {
    expect(table.selection.length).toBeGreaterThanOrEqual(10);
    for (const c of table.selection) {
      let inputs = runOf(c.run, c.before);
      for (const edit of c.edits) {
        let changes: Partial<RunInputs>;
        if ('count' in edit) changes = countChanges(inputs, optionsOf(c.run), edit.count[0], edit.count[1]);
        else if ('noBuiltInFall' in edit) changes = builtInFallChanges(inputs, edit.noBuiltInFall);
        else if ('discharge' in edit) {
          expect(dischargeOptions(system(inputs), channelUses(inputs))[edit.discharge], `${c.name}: ${edit.discharge} offered`).toBe(true);
          changes = dischargeChanges(inputs, edit.discharge);
        } else changes = { loading: edit.loading, ...loadingChanges(inputs, edit.loading) };
        inputs = { ...inputs, ...changes };
      }
      for (const [key, want] of Object.entries(c.after)) {
        const got = key === 'channels' ? pairsOf(inputs.channels) : (inputs[key] ?? null);
        expect([c.name, key, got]).toEqual([c.name, key, want]);
      }
    }
  });

  it('counts whole channels, L and height-range ones once', () => {
    for (const c of table.counts) expect([c.name, countProblem(c.kind, c.count)]).toEqual([c.name, c.problem]);
  });

  it('offers the discharge settings the calculation takes', () => {
    for (const c of table.discharge) {
      const inputs = runOf(c.run, { channels: c.channels });
      expect([c.name, dischargeOptions(system(inputs), channelUses(inputs))]).toEqual([c.name, c.enabled]);
    }
  });

  it('cuts within the run at 1 to 90 degrees, to a tenth of a degree', () => {
    for (const c of table.cutting) {
      expect([c.name, cuttingProblem({ ...c.cut, cut_from_left: false }, c.run_length_m)]).toEqual([c.name, c.problem]);
    }
    for (const [typed, kept] of table.angle_rounding) expect(roundAngle(typed)).toBe(kept);
  });

  it('drills the diameters and distances the catalogue allows', () => {
    for (const c of table.drill_diameters) expect(drillDiameters(c.width_mm, c.max_downstream_mm, c.position)).toEqual(c.diameters);
    for (const c of table.drill_distance) expect(drillDistanceRange(c.element_mm, c.diameter_mm)).toEqual({ min: c.min, max: c.max });
    for (const c of table.drill_adjust) expect(adjustDrillDistance(c.distance_mm, c.element_mm, c.diameter_mm)).toBe(c.adjusted);
    for (const c of table.drilling) {
      const uses = usesOf(c.channels);
      const element = lastElementLengthMM(uses, null, c.dischargeCutting ?? null);
      expect([c.name, drillingProblem(c.drilling, lastUse(uses), element)]).toEqual([c.name, c.problem]);
    }
  });

  it('presets the L channel outlet by width', () => {
    for (const [width, diameter, distance] of table.l_presets) {
      expect([width, lChannelPreset(width)]).toEqual([width, diameter === null ? null : { position: 'bottom', hole_diameter_mm: diameter, hole_distance_mm: distance }]);
    }
  });

  it('cuts a run to its length at the head or the discharge, or shortens it', () => {
    for (const c of table.auto_cut) {
      const cut = c.dischargeCutting !== undefined ? { dischargeCutting: { distance_in_mm: c.dischargeCutting, angle_deg: 90, cut_from_left: false } } : {};
      const inputs = runOf(c.run, { channels: c.channels, channel_length_m: c.run_length_m, ...cut });
      const got = autoCut(inputs, c.choice);
      if (c.result === null) {
        expect([c.name, got]).toEqual([c.name, null]);
        continue;
      }
      expect(got, c.name).not.toBeNull();
      const after = { ...inputs, ...got };
      expect([c.name, pairsOf(after.channels)]).toEqual([c.name, c.result.channels]);
      const distance = (value: unknown) => (value as Cutting | null | undefined)?.distance_in_mm ?? 0;
      expect([c.name, distance(after.headCutting), distance(after.dischargeCutting)]).toEqual([c.name, c.result.headCutting ?? 0, c.result.dischargeCutting ?? 0]);
      expect([c.name, after.channel_length_m]).toEqual([c.name, c.result.run_length_m ?? c.run_length_m]);
      // What the auto-cut makes needs no auto-cut.
      expect(autoCutDialog(after), c.name).toBeNull();
    }
  });

  it('takes the concrete channel in whole millimetres, n with its Kst = 1/n', () => {
    for (const c of table.concrete) {
      expect([c.name, concreteProblem(c.section)]).toEqual([c.name, c.problem]);
      if (c.kst !== undefined) {
        expect(kstOf(c.section.roughness)).toBeCloseTo(c.kst, 4);
        expect(roughnessOfKst(kstOf(c.section.roughness))).toBeCloseTo(c.section.roughness, 8);
      }
    }
  });
});

describe('advanced mode, the screen alone', () => {
  it('is the user\'s default until the run says, and never without the right', () => {
    expect(isAdvanced({}, { allowed: true, byDefault: true })).toBe(true);
    expect(isAdvanced({ advanced: false }, { allowed: true, byDefault: true })).toBe(false);
    expect(isAdvanced({ advanced: true }, { allowed: true, byDefault: false })).toBe(true);
    expect(isAdvanced({ advanced: true }, { allowed: false, byDefault: false })).toBe(false);
  });

  it('opens the auto-cut dialog with the choices that can be made', () => {
    const long = runOf('fibre', { channels: [['fibre-standard-200-250', 12], ['fibre-standard-200-300', 13]], channel_length_m: 24.6 });
    expect(autoCutDialog(long)).toEqual({ kind: 'autoCut', short: false, differenceMM: 400, choices: ['head', 'discharge'] });
    const short = runOf('fibre', { channels: [['fibre-standard-200-250', 12]], channel_length_m: 12.3 });
    expect(autoCutDialog(short)).toEqual({ kind: 'autoCut', short: true, differenceMM: 300, choices: ['shorten'] });
    const withL = runOf('fibre', { channels: [['fibre-standard-200-350', 12], ['fibre-standard-200-350-l', 1]], channel_length_m: 12.6 });
    expect(autoCutDialog(withL)?.choices).toEqual(['head']);
    expect(autoCutDialog(runOf('fibre', { channels: [['fibre-standard-200-250', 12]], channel_length_m: 12 }))).toBeNull();
  });

  it('keeps the drilling fitted when the channels change under a modified last element', () => {
    const inputs = runOf('fibre', {
      channels: [['fibre-standard-200-300', 20]],
      dischargeSetting: 'modification-last-element',
      drilling: { position: 'bottom', hole_diameter_mm: 200, hole_distance_mm: 650 },
    });
    // A discharge cut of 500 mm leaves 500 mm: a 200 mm hole fits 200 to 300 mm from the end, so 650 mm becomes 300.
    const cut = autoCut({ ...inputs, channel_length_m: 19.5 }, 'discharge')!;
    expect(cut.drilling).toEqual({ position: 'bottom', hole_diameter_mm: 200, hole_distance_mm: 300 });
  });
});
