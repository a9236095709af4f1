// The storage graph of a controlled-discharge result as chart data: the
// critical storm over time, with the volume stored in the channel against
// its capacity (m³, left axis) and the inflow and the orifice's outflow
// (l/s, right axis). Where the channel floods, the stored and spilled
// volume together shows how much more the storm brought.
import type { StorageResult } from './types';

export interface StorageGraphData {
  /** Minutes from the start of the storm. */
  t: number[];
  stored: number[];
  /** Stored plus spilled so far; only when the channel floods. */
  held: number[] | null;
  capacity: number[];
  inflow: number[];
  outflow: number[];
  flooded: boolean;
  /** The first moment of the most water stored. */
  peakIndex: number;
}

export function storageGraphData(result: Pick<StorageResult, 'critical_storm' | 'channel_capacity_m3'>): StorageGraphData | null {
  const trace = result.critical_storm ?? [];
  if (trace.length < 2) return null;
  const flooded = trace.some((p) => p.spilled_m3 > 0);
  let peakIndex = 0;
  trace.forEach((p, i) => {
    if (p.stored_m3 > trace[peakIndex]!.stored_m3) peakIndex = i;
  });
  return {
    t: trace.map((p) => p.t_min),
    stored: trace.map((p) => p.stored_m3),
    held: flooded ? trace.map((p) => p.stored_m3 + p.spilled_m3) : null,
    capacity: trace.map(() => result.channel_capacity_m3),
    inflow: trace.map((p) => p.inflow_l_s),
    outflow: trace.map((p) => p.outflow_l_s),
    flooded,
    peakIndex,
  };
}
