/** The answer of POST /drainage/calculate_storage/ (docs/rainfall.md section 11.2); the spec's nine fields first. */
export interface StorageResult {
  flooded: boolean;
  channel_name: string;
  critical_duration_min: number;
  orifice_diameter_mm: number;
  critical_rainfall_mm_h: number;
  channel_capacity_m3: number;
  minimum_free_board_m: number;
  /** Base64 PNG without a data: prefix. */
  storage_graph: string;
  /** Base64 PNG without a data: prefix. */
  x_section_image: string;
  channel?: string;
  free_discharge_l_s?: number;
  controlled_outflow_l_s?: number;
  restricted?: boolean;
  max_depth_mm?: number;
  /** The critical storm routed through the store: the numbers of the storage graph. */
  critical_storm?: TracePoint[];
  note?: string;
  [extra: string]: unknown;
}

/** What a run keeps of a confirmed controlled discharge design (spec section 3, derived for the server). */
export interface ControlledDischargeDetails {
  /** The channel's slug: the run is laid in it. */
  channel?: string;
  channel_name: string;
  max_depth_mm: number;
  orifice_diameter_mm: number;
}

/** One moment of the critical storm (domain/storage TracePoint). */
export interface TracePoint {
  t_min: number;
  inflow_l_s: number;
  outflow_l_s: number;
  stored_m3: number;
  /** Over the channel top so far. */
  spilled_m3: number;
  depth_m: number;
}
