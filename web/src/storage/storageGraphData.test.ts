import { describe, expect, it } from 'vitest';
import { storageGraphData } from './storageGraphData';
import type { TracePoint } from './types';

const at = (t_min: number, stored_m3: number, spilled_m3 = 0, inflow_l_s = 1, outflow_l_s = 0.5): TracePoint => ({ t_min, inflow_l_s, outflow_l_s, stored_m3, spilled_m3, depth_m: 0 });

describe('the storage graph as chart data', () => {
  it('plots the stored volume against the capacity, and the flows, over the storm', () => {
    const data = storageGraphData({ channel_capacity_m3: 3.629, critical_storm: [at(0, 0, 0, 0, 0), at(15, 1.2, 0, 2.4, 1.1), at(45, 3.364, 0, 1.6, 2), at(90, 0.4, 0, 0, 0.7)] })!;
    expect(data.t).toEqual([0, 15, 45, 90]);
    expect(data.stored).toEqual([0, 1.2, 3.364, 0.4]);
    expect(data.capacity).toEqual([3.629, 3.629, 3.629, 3.629]);
    expect(data.inflow).toEqual([0, 2.4, 1.6, 0]);
    expect(data.outflow).toEqual([0, 1.1, 2, 0.7]);
    expect(data.flooded).toBe(false);
    expect(data.held).toBeNull();
    expect(data.peakIndex).toBe(2);
  });

  it('adds what spilled over the top to what is stored when the channel floods', () => {
    // A full channel (3 m³) that has spilled 0.5 m³, then 0.8 m³ by the end.
    const data = storageGraphData({ channel_capacity_m3: 3, critical_storm: [at(0, 0), at(30, 3, 0.5), at(60, 2, 0.8)] })!;
    expect(data.flooded).toBe(true);
    expect(data.held).toEqual([0, 3.5, 2.8]);
    expect(data.peakIndex).toBe(1);
  });

  it('needs the critical storm', () => {
    expect(storageGraphData({ channel_capacity_m3: 1 })).toBeNull();
    expect(storageGraphData({ channel_capacity_m3: 1, critical_storm: [at(0, 0)] })).toBeNull();
  });
});
