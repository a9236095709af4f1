// The uPlot options of the hydraulic profile: three series (invert, channel
// top, water surface, the water body filled between the last and the
// first), and what the series cannot say drawn on the canvas around them:
// super-critical reaches shaded under the grid, flooding in red over the
// channel top, element joints and channel-size steps, hydraulic jumps,
// point inflows and accessories.
import type uPlot from 'uplot';
import type { ChartOptions } from '../charts/UPlotChart';
import type { ProfileData } from './profileGeometry';

export const PROFILE_COLORS = {
  invert: '#1d2733',
  top: '#6b7785',
  water: '#2c82c9',
  storm: '#7c3aed',
  waterBody: 'rgba(44, 130, 201, 0.22)',
  flood: 'rgba(200, 30, 30, 0.55)',
  floodLine: '#c81e1e',
  supercritical: 'rgba(245, 158, 11, 0.18)',
  jump: '#c2410c',
  joint: '#aab6c3',
  step: '#3f4d5c',
  inflow: '#0b5fa5',
  accessory: '#6b4fa0',
  grid: '#e6ebf1',
  axis: '#536173',
} as const;

export const PROFILE_DASH = { top: [5, 4], step: [4, 3], storm: [8, 4] } as const;

export interface ProfileChartText {
  x: string;
  y: string;
  invert: string;
  top: string;
  water: string;
  storm: string;
}

/** Formats a number in the user's locale to at most `decimals` places. */
export type NumberFormat = (value: number, decimals: number) => string;

/** Decimals that write multiples of the tick increment exactly (0.25 needs two). */
export function tickDecimals(increment: number): number {
  if (!(increment > 0) || !Number.isFinite(increment)) return 0;
  for (let d = 0; d < 8; d++) {
    const scaled = increment * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-9 * Math.max(1, scaled)) return d;
  }
  return 8;
}

/** The value of a series at x, linear between the points either side (the first of two at one x). */
export function valueAt(xs: readonly number[], ys: readonly number[], x: number): number {
  if (xs.length === 0) return NaN;
  if (x <= xs[0]!) return ys[0]!;
  if (x > xs[xs.length - 1]!) return ys[ys.length - 1]!;
  // The first point at or beyond x, by bisection: a long run has thousands of slices and joints.
  let lo = 1;
  let hi = xs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! >= x) hi = mid;
    else lo = mid + 1;
  }
  const x0 = xs[lo - 1]!;
  const x1 = xs[lo]!;
  return x1 === x0 ? ys[lo - 1]! : ys[lo - 1]! + ((x - x0) / (x1 - x0)) * (ys[lo]! - ys[lo - 1]!);
}

export function profileChart(data: ProfileData, text: ProfileChartText, format: NumberFormat): { options: ChartOptions; data: uPlot.AlignedData } {
  const depth = data.mode === 'depth';
  const axisFont = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
  const labelFont = '600 12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
  const ticks = (_u: uPlot, splits: number[], _axis: number, _space: number, increment: number) => splits.map((v) => format(v, tickDecimals(increment)));

  const options: ChartOptions = {
    scales: {
      x: { time: false, dir: data.fromDischarge ? -1 : 1 },
      y: {
        range: (_u, min, max) => {
          // Depths from the invert up; levels with a margin each side.
          const span = max - min || (depth ? 100 : 0.1);
          return depth ? [Math.min(0, min), max + span * 0.08] : [min - span * 0.06, max + span * 0.1];
        },
      },
    },
    series: [
      { label: text.x },
      // Slices are points of a line, not measurements to mark.
      { label: text.invert, stroke: PROFILE_COLORS.invert, width: 2, points: { show: false } },
      { label: text.top, stroke: PROFILE_COLORS.top, width: 1.5, dash: [...PROFILE_DASH.top], points: { show: false } },
      { label: text.water, stroke: PROFILE_COLORS.water, width: 2, points: { show: false } },
    ],
    bands: [{ series: [3, 1], fill: PROFILE_COLORS.waterBody }],
    axes: [
      { label: text.x, labelFont, font: axisFont, stroke: PROFILE_COLORS.axis, grid: { stroke: PROFILE_COLORS.grid, width: 1 }, values: ticks },
      { label: text.y, labelFont, font: axisFont, stroke: PROFILE_COLORS.axis, grid: { stroke: PROFILE_COLORS.grid, width: 1 }, values: ticks, size: depth ? 56 : 68 },
    ],
    legend: { show: false },
    cursor: {
      y: false,
      drag: { x: true, y: false, setScale: true },
      points: { size: 7, width: 1.5 },
    },
    padding: [14, 16, 0, 0],
    hooks: {
      drawClear: [(u) => drawSupercritical(u, data)],
      draw: [(u) => drawOverlays(u, data, format)],
    },
  };
  if (data.storm) {
    // The critical storm ponds behind the orifice: a dashed line over the free-outflow water.
    options.series.push({ label: text.storm, stroke: PROFILE_COLORS.storm, width: 2, dash: [...PROFILE_DASH.storm], points: { show: false }, spanGaps: false });
    return { options, data: [data.x, data.invert, data.top, data.water, data.storm] };
  }
  return { options, data: [data.x, data.invert, data.top, data.water] };
}

/** Canvas pixels of a chainage, and the plot area's vertical extent. */
function frame(u: uPlot) {
  const { top, height, left, width } = u.bbox;
  return { top, bottom: top + height, left, right: left + width, x: (v: number) => u.valToPos(v, 'x', true), y: (v: number) => u.valToPos(v, 'y', true) };
}

function drawSupercritical(u: uPlot, data: ProfileData) {
  if (data.supercritical.length === 0) return;
  const f = frame(u);
  const ctx = u.ctx;
  ctx.save();
  ctx.fillStyle = PROFILE_COLORS.supercritical;
  for (const reach of data.supercritical) {
    const a = f.x(reach.from);
    const b = f.x(reach.to);
    // A reach of one slice still shows.
    const from = Math.max(f.left, Math.min(a, b) - 2);
    const to = Math.min(f.right, Math.max(a, b) + 2);
    if (to > from) ctx.fillRect(from, f.top, to - from, f.bottom - f.top);
  }
  ctx.restore();
}

function drawOverlays(u: uPlot, data: ProfileData, format: NumberFormat) {
  const f = frame(u);
  const ctx = u.ctx;
  const px = devicePixelRatio || 1;
  const visible = (x: number) => x >= f.left - 1 && x <= f.right + 1;
  ctx.save();
  ctx.beginPath();
  ctx.rect(f.left, f.top, f.right - f.left, f.bottom - f.top);
  ctx.clip();

  // Element joints: thin lines across the channel, as the elements are laid.
  ctx.strokeStyle = PROFILE_COLORS.joint;
  ctx.lineWidth = px;
  for (const at of data.joints) {
    const x = Math.round(f.x(at)) + 0.5;
    if (!visible(x)) continue;
    ctx.beginPath();
    ctx.moveTo(x, f.y(valueAt(data.x, data.invert, at)));
    ctx.lineTo(x, f.y(valueAt(data.x, data.top, at)));
    ctx.stroke();
  }

  // Channel-size steps: dashed across the plot, named by the channel that follows.
  ctx.strokeStyle = PROFILE_COLORS.step;
  ctx.fillStyle = PROFILE_COLORS.step;
  ctx.lineWidth = 1.5 * px;
  ctx.setLineDash(PROFILE_DASH.step.map((d) => d * px));
  const labels: { x: number; text: string }[] = [];
  for (const step of data.steps) {
    const x = Math.round(f.x(step.at)) + 0.5;
    if (!visible(x)) continue;
    ctx.beginPath();
    ctx.moveTo(x, f.top);
    ctx.lineTo(x, f.bottom);
    ctx.stroke();
    labels.push({ x, text: step.channel });
  }
  ctx.setLineDash([]);

  // Flooding: red between the channel top and the water above it.
  for (const area of data.floods) {
    ctx.beginPath();
    area.x.forEach((x, i) => (i === 0 ? ctx.moveTo(f.x(x), f.y(area.upper[i]!)) : ctx.lineTo(f.x(x), f.y(area.upper[i]!))));
    for (let i = area.x.length - 1; i >= 0; i--) ctx.lineTo(f.x(area.x[i]!), f.y(area.lower[i]!));
    ctx.closePath();
    ctx.fillStyle = PROFILE_COLORS.flood;
    ctx.fill();
    ctx.beginPath();
    area.x.forEach((x, i) => (i === 0 ? ctx.moveTo(f.x(x), f.y(area.upper[i]!)) : ctx.lineTo(f.x(x), f.y(area.upper[i]!))));
    ctx.strokeStyle = PROFILE_COLORS.floodLine;
    ctx.lineWidth = 2 * px;
    ctx.stroke();
  }

  // Hydraulic jumps: a bold line from the invert to the water, with a dot on the surface.
  ctx.strokeStyle = PROFILE_COLORS.jump;
  ctx.fillStyle = PROFILE_COLORS.jump;
  ctx.lineWidth = 2.5 * px;
  for (const at of data.jumps) {
    const x = f.x(at);
    if (!visible(x)) continue;
    const surface = f.y(Math.max(valueAt(data.x, data.water, at), valueAt(data.x, data.top, at)));
    ctx.beginPath();
    ctx.moveTo(x, f.y(valueAt(data.x, data.invert, at)));
    ctx.lineTo(x, surface);
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(x, surface, 4 * px, 0, 2 * Math.PI);
    ctx.fill();
  }

  // Point inflows: arrows from the top of the plot down onto the water where they enter.
  ctx.fillStyle = PROFILE_COLORS.inflow;
  ctx.strokeStyle = PROFILE_COLORS.inflow;
  ctx.lineWidth = 1.5 * px;
  for (const inflow of data.inflows) {
    const x = f.x(inflow.at);
    if (!visible(x)) continue;
    const tip = Math.max(f.top + 12 * px, f.y(valueAt(data.x, data.water, inflow.at)));
    ctx.beginPath();
    ctx.moveTo(x, f.top);
    ctx.lineTo(x, tip - 6 * px);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(x - 5 * px, tip - 8 * px);
    ctx.lineTo(x + 5 * px, tip - 8 * px);
    ctx.lineTo(x, tip);
    ctx.closePath();
    ctx.fill();
    // The inflow's flow beside its arrow, on the side with room.
    if (inflow.flowLs !== null) {
      const text = `${format(inflow.flowLs, 2)} l/s`;
      ctx.font = `600 ${11 * px}px system-ui, sans-serif`;
      ctx.textBaseline = 'top';
      const width = ctx.measureText(text).width;
      const right = x + 4 * px + width <= f.right;
      ctx.textAlign = right ? 'left' : 'right';
      ctx.fillText(text, right ? x + 4 * px : x - 4 * px, f.top + 2 * px);
    }
  }

  // Accessories: squares standing on the channel invert.
  ctx.fillStyle = PROFILE_COLORS.accessory;
  for (const accessory of data.accessories) {
    const x = f.x(accessory.at);
    if (!visible(x)) continue;
    const s = 9 * px;
    const floor = Math.min(f.bottom, f.y(valueAt(data.x, data.invert, accessory.at)));
    ctx.fillRect(x - s / 2, floor - s - 1 * px, s, s);
  }

  // Each step is named by the channel that follows it, to its right (the
  // head is on the left on either axis), on a light ground; a name that
  // would run into the one before goes a row lower.
  ctx.font = `${11 * px}px system-ui, sans-serif`;
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left';
  const rowEnds: number[] = [];
  for (const label of labels.sort((a, b) => a.x - b.x)) {
    const width = ctx.measureText(label.text).width + 6 * px;
    // Near the right end the name goes to the left of its line.
    const from = label.x + 3 * px + width <= f.right ? label.x + 3 * px : label.x - 3 * px - width;
    let row = rowEnds.findIndex((end) => end < from);
    if (row < 0) row = rowEnds.length;
    rowEnds[row] = from + width;
    const y = f.top + (4 + 15 * row) * px;
    ctx.fillStyle = 'rgba(255, 255, 255, 0.85)';
    ctx.fillRect(from, y - 1 * px, width, 14 * px);
    ctx.fillStyle = PROFILE_COLORS.step;
    ctx.fillText(label.text, from + 3 * px, y);
  }
  ctx.restore();
}
