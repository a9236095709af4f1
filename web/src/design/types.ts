import type { CatchmentArea } from '../catchment/areas';
import type { Accessory, AvailableAccessories, Inflow } from '../catchment/items';

/** A grating type as the grating dropdown offers it (catalogue GratingOption). */
export interface GratingOption {
  slug: string;
  description: string;
  material: string;
  family?: string;
  loading_classes: string[];
  length_mm: number;
}

/** An outlet pipe of a point product, keyed in pipeDiameters by its diameter. */
export interface PipeOption {
  diameter_mm: number;
  extension_hat: boolean;
}

/** A drainage system as GET /drainage/product/ lists it and a run holds it (selectedSystem). */
export interface DrainageSystem {
  slug: string;
  name: string;
  /** P point product, M concrete channel, C high-capacity slot, others ordinary channels. */
  product_type: string;
  loading_classes: string[];
  gratings: GratingOption[];
  range: string;
  product_image_name: string;
  canStep: boolean;
  minimumSizeOptions: number[];
  pipeDiameters: Record<string, PipeOption>;
  grated: boolean;
}

export type CalculationMethod = 'GVF' | 'HRW';
export type SlopeSetting = 'slope' | 'elevation';

export interface Rainfall {
  rainfall_mm_per_hr: number;
  [extra: string]: unknown;
}

/**
 * A run's design inputs as the client holds them and the server stores them
 * (design-tool.md section 3, Run). Every field is optional: a fresh run has
 * none, and the form shows the defaults of runDefaults().
 */
export interface RunInputs {
  location?: string;
  channel_group?: string;
  selectedSystem?: DrainageSystem | null;
  loading?: string;
  grating?: string;
  catchmentShape?: 'uniform' | 'irregular';
  channel_length_m?: number | null;
  catchment_depth_m?: number | null;
  drainage_area_m2?: number | null;
  calculation_method?: CalculationMethod;
  slopeSetting?: SlopeSetting;
  ground_slope?: number | null;
  upperElevation?: number | null;
  lowerElevation?: number | null;
  permeability?: number;
  permeabilitySurface?: string;
  stepped?: boolean;
  minimumSize?: number;
  rainfall?: Rainfall;
  pipe_diameter_mm?: number;
  has_body_extension?: boolean;
  water_inflow?: number | null;
  dischargeSetting?: string;
  /** Controlled discharge (high-capacity system only), l/s; 0 or absent: none. */
  controlled_outflow?: number | null;
  /** The confirmed controlled discharge design, without its images. */
  controlled_discharge?: Record<string, unknown> | null;
  controlled_discharge_details?: { channel?: string; channel_name: string; max_depth_mm: number; orifice_diameter_mm: number } | null;
  /** Point inflows (from the head) and accessories (from the discharge end), see catchment/items.ts. */
  inflows?: (Partial<Inflow> & { distance_m: number })[];
  accessories?: (Partial<Accessory> & { distance_m: number })[];
  /** The irregular catchment's areas either side of the channel (catchment/areas.ts). */
  leftAreas?: CatchmentArea[] | null;
  rightAreas?: CatchmentArea[] | null;
  /** With outflow-in-trashbox: another run's id (its trash box takes this run's outflow), or a trash box's discharge in advanced mode. */
  outflowTrashbox?: string | number | null;
  [extra: string]: unknown;
}

export interface SliceResult {
  distance_m: number;
  flow_l_s: number;
  depth_mm: number;
  invert_level_m: number;
  top_level_m: number;
  /** Mean velocity (m/s) and Froude number of the slice's flow; absent from results calculated before the server sent them. */
  velocity_m_s?: number;
  froude?: number;
  supercritical?: boolean;
}

export interface SegmentResult {
  channelDescription: string;
  slug?: string;
  length_mm: number;
  start_m?: number;
  end_m?: number;
  stepRaise: number;
  floorChange: number;
  /** Left out of the summary a project stream keeps; a fresh calculation brings them. */
  slices?: SliceResult[];
  /** Where the segment's elements meet, m from the head; like the slices, only in a fresh calculation. */
  joints_m?: number[];
  /** What may be placed along the segment's channel at the run's loading. */
  available_accessories?: AvailableAccessories | null;
}

/** A channel's cross-section as the catalogue gives it (domain/catalogue Shape). */
export interface ChannelShape {
  kind: 'rectangular' | 'u' | 'slot';
  width_mm: number;
  radius_mm?: number;
  slot_width_mm?: number;
  slot_height_mm?: number;
}

/**
 * One stretch of a run laid with one channel, head to outlet
 * (domain/design ChannelUse): where it lies, the channel's catalogue
 * geometry and the deepest water the calculation found along it. Results
 * calculated before these fields existed carry only slug to length_mm.
 */
export interface ChannelUse {
  slug: string;
  name: string;
  count: number;
  length_mm: number;
  from_m?: number;
  to_m?: number;
  width_mm?: number;
  outer_width_mm?: number;
  body_height_mm?: number;
  invert_depth_upstream_mm?: number;
  invert_depth_downstream_mm?: number;
  shape?: ChannelShape;
  max_water_depth_mm?: number;
}

/** A point product's capacity check. */
export interface PointResult {
  pipe_diameter_mm: number;
  extension_hat: boolean;
  capacity_l_s: number;
  governing: string;
  smallest_sufficient_mm: number;
}

/** A point of a water level along the run: distance from the head (m) and depth above the invert (mm). */
export interface LevelPoint {
  distance_m: number;
  depth_mm: number;
}

/** A run's controlled-discharge design (domain/design/controlled.go, Controlled). */
export interface ControlledResult {
  channel: string;
  channel_name: string;
  controlled_outflow_l_s: number;
  free_discharge_l_s: number;
  /** False when no orifice is needed (orifice_diameter_mm is then 0). */
  restricted: boolean;
  orifice_diameter_mm: number;
  critical_duration_min: number;
  critical_rainfall_mm_h: number;
  /** The most water the channel holds in the critical storm. */
  storage_volume_m3: number;
  storage_needed_m3: number;
  channel_capacity_m3: number;
  /** Highest water at the outlet in the critical storm, above the invert. */
  max_depth_mm: number;
  minimum_free_board_m: number;
  peak_outflow_l_s: number;
  flooded: boolean;
  flood_volume_m3: number;
  /** The critical storm's highest water along the run, head to outlet; straight between its points. */
  water_level: LevelPoint[];
}

export interface MaterialLine {
  HAN: string;
  /** In English; materialText writes it in the interface language from `text`. */
  description: string;
  count: number;
  sort: number;
  length_mm?: number;
  text?: LineText;
}

/** What a material line's description is made of (catalogue.LineText). */
export interface LineText {
  /** The item's catalogue key; absent for a channel element, named by its designation. */
  key?: string;
  designation?: string;
  grating_width_mm?: number;
  grating_length_mm?: number;
  cut_to_mm?: number;
  drill_position?: string;
  drill_diameter_mm?: number;
  drill_distance_mm?: number;
  orifice_diameter_mm?: number;
}

export const MATERIAL_LISTS = ['channel', 'connectors', 'endcaps', 'access_cover', 'box'] as const;
export type MaterialList = (typeof MATERIAL_LISTS)[number];

/** The calculation's answer (the spec's Results entity); fields are optional as stored summaries may lack some. */
export interface Results {
  calculated: boolean;
  overflowed?: boolean;
  went_super_critical?: boolean;
  /** Chainages of hydraulic jumps and of internal critical sections (where the flow passes Froude 1), m from the head. */
  hydraulic_jumps_m?: number[];
  critical_sections_m?: number[];
  flow_velocity?: number;
  channel_discharge?: number;
  max_possible_discharge?: number;
  percentage_full?: number;
  freeboard?: number;
  freeboard_percent?: number;
  total_system_volume?: number;
  installed_gradient?: number;
  max_depth_mm?: number;
  max_depth_at_m?: number;
  channel_internal_width_mm?: number;
  invert_depth_mm?: number;
  overall_depth_mm?: number;
  largest_channel?: string;
  system_loading?: string;
  calculation_method?: string;
  channel_product_type?: string;
  configuration?: string;
  system?: string;
  /** Design flow arriving at the run (l/s). */
  flow?: number;
  catchmentLength_mm?: number;
  max_channel_depth_mm?: number;
  outlet_depth_mm?: number;
  grating?: { slug?: string; han?: string; description?: string; slot_dimensions?: string; open_area?: number | string; length?: number } | null;
  channels_used?: ChannelUse[];
  point?: PointResult | null;
  /** A run with controlled discharge: its storage design, as the server calculated it. */
  controlled?: ControlledResult | null;
  warnings?: string[];
  segments?: SegmentResult[];
  channel?: MaterialLine[];
  connectors?: MaterialLine[];
  endcaps?: MaterialLine[];
  access_cover?: MaterialLine[];
  box?: MaterialLine[];
  /** The catchment as calculated, side by side along the run (domain/design CatchmentPiece). */
  catchment?: CatchmentPiece[];
  [extra: string]: unknown;
}

/** One piece of the catchment as the calculation took it. */
export interface CatchmentPiece {
  side: 'left' | 'right';
  x_origin_m?: number;
  length_m: number;
  start_width_m: number;
  end_width_m: number;
  permeability: number;
  area_m2: number;
}

/** Server-side run states (domain/project/state.go). */
export type RunState = 'unconfigured' | 'ready' | 'calculated' | 'changed';

export interface ProjectDetails {
  name: string;
  location: string;
  reference: string;
  date: string;
  company: string;
  designer: string;
  telephone: string;
  email: string;
}

export const DETAIL_FIELDS = ['name', 'location', 'reference', 'date', 'company', 'designer', 'telephone', 'email'] as const;

export function emptyDetails(): ProjectDetails {
  return { name: '', location: '', reference: '', date: '', company: '', designer: '', telephone: '', email: '' };
}
