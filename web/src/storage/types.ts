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
