// The run edits of the catchment, the inflows and accessories and the
// trash-box outflow, as runRules.applyEdit makes them: the fields stored
// and those that follow from them. Each is one change_inputs command.
import { SURFACES, type DesignWarning, type EffectiveInputs, type SurfaceCode } from '../design/runRules';
import type { RunInputs } from '../design/types';
import { catchmentOf, coversRun, generateAreas, totalArea, type Catchment } from './areas';
import type { Items } from './items';

export type CatchmentField = 'catchmentShape' | 'catchmentAreas' | 'items' | 'discharge';

/** The discharge of a channel run in standard mode: free, into its own trash box, or into another run's. */
export type DischargeChoice = { kind: 'free' } | { kind: 'ownTrashBox' } | { kind: 'runTrashBox'; runId: string };

const MAX_AREA_M2 = 100000;
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/** The areas the run's length and area give, in the surface of the areas there were (or the run's). */
function freshAreas(run: EffectiveInputs, length: number | null, area: number | null): Catchment | null {
  const first = catchmentOf(run)?.left[0];
  const surface = SURFACES.find((s) => s.code === run.permeabilitySurface)?.code ?? ('custom' as SurfaceCode);
  return generateAreas(length, area, first?.permeability ?? surface, first?.permeability_value ?? run.permeability);
}

const areaFields = (catchment: Catchment | null): Partial<RunInputs> => ({ leftAreas: catchment?.left ?? null, rightAreas: catchment?.right ?? null });

/**
 * Spec section 4: an irregular catchment's areas are made again when the
 * channel length, the area or the depth changes. `changes` are the edit's
 * own; the areas join them.
 */
export function regenerateAreas(run: EffectiveInputs, changes: Partial<RunInputs>): Partial<RunInputs> {
  if (run.catchmentShape !== 'irregular') return {};
  const length = 'channel_length_m' in changes ? num(changes.channel_length_m) : num(run.channel_length_m);
  const area = 'drainage_area_m2' in changes ? num(changes.drainage_area_m2) : num(run.drainage_area_m2);
  return areaFields(freshAreas(run, length, area));
}

export function catchmentEdit(run: EffectiveInputs, field: CatchmentField, value: unknown): { changes: Partial<RunInputs>; warning: DesignWarning | null } {
  const changes: Partial<RunInputs> = {};
  let warning: DesignWarning | null = null;
  const length = num(run.channel_length_m);
  switch (field) {
    case 'catchmentShape': {
      const shape = value === 'irregular' ? 'irregular' : 'uniform';
      changes.catchmentShape = shape;
      if (shape === 'irregular') {
        const held = catchmentOf(run);
        // Areas kept from before stand only while they still cover the run.
        const areas = held && length !== null && coversRun(held, length) ? held : freshAreas(run, length, num(run.drainage_area_m2));
        Object.assign(changes, areaFields(areas), areas ? totalsOf(areas, length) : {});
      }
      break;
    }
    case 'catchmentAreas': {
      const areas = value as Catchment;
      Object.assign(changes, areaFields(areas), totalsOf(areas, length));
      const total = num(changes.drainage_area_m2) ?? 0;
      if (total >= MAX_AREA_M2) warning = { kind: 'areaTooLarge', excess: round(total - (MAX_AREA_M2 - 1), 2) };
      break;
    }
    case 'items': {
      const items = value as Items;
      changes.inflows = items.inflows;
      changes.accessories = items.accessories;
      break;
    }
    case 'discharge': {
      const choice = value as DischargeChoice;
      changes.dischargeSetting = choice.kind === 'free' ? 'free-outflow' : 'outflow-in-trashbox';
      // Standard mode leaves the box to the server (the smallest that fits); a run id links the runs.
      changes.outflowTrashbox = choice.kind === 'runTrashBox' ? choice.runId : null;
      break;
    }
  }
  return { changes, warning };
}

/** The area and depth fields follow the areas: area = their sum, depth = area / length / 2. */
function totalsOf(areas: Catchment, length: number | null): Partial<RunInputs> {
  const total = round(totalArea(areas), 2);
  const out: Partial<RunInputs> = { drainage_area_m2: total };
  if (length !== null && length > 0) out.catchment_depth_m = round(total / length / 2, 3);
  return out;
}

/** The discharge a run's inputs choose, as the standard form shows it. */
export function dischargeChoice(inputs: Pick<RunInputs, 'dischargeSetting' | 'outflowTrashbox'>, runIds: ReadonlySet<string>): DischargeChoice {
  if (inputs.dischargeSetting !== 'outflow-in-trashbox') return { kind: 'free' };
  const target = inputs.outflowTrashbox;
  return typeof target === 'string' && runIds.has(target) ? { kind: 'runTrashBox', runId: target } : { kind: 'ownTrashBox' };
}
