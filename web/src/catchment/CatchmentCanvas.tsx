import { useEffect, useRef, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { SIDES, sameRef, type AreaRef, type Catchment } from './areas';
import { channelEdge, labelPoint, polygonOf, xOf, type Scale } from './canvasGeometry';
import './catchment.css';

export interface CatchmentCanvasProps {
  catchment: Catchment;
  scale: Scale;
  selected?: AreaRef | null;
  label: string;
  /** Read-only drawings (the results page, the uniform catchment) take no pointer or keys. */
  onPointerDown?: (event: PointerEvent<HTMLCanvasElement>, point: [number, number]) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLDivElement>) => void;
  describedBy?: string;
  /** The corner handles, drawn over the canvas. */
  children?: ReactNode;
  /** Shift is held: dragging copies the width to the corner alone (copy cursor). */
  copying?: boolean;
}

const COLORS = {
  channel: '#3f4d5c',
  outline: '#536173',
  selected: '#0b5fa5',
  label: '#1d2733',
  ground: '#f7f9fb',
};

/** The fill of an area by how much of its rain runs off: pale for soft ground, stronger for sealed surfaces. */
function fillFor(permeability: number, selected: boolean): string {
  if (selected) return 'rgba(11, 95, 165, 0.35)';
  const alpha = 0.12 + 0.33 * Math.min(1, Math.max(0, permeability));
  return `rgba(44, 130, 201, ${alpha.toFixed(3)})`;
}

/**
 * The catchment drawn on a canvas of the spec's size (350 px high, 500 or
 * 1000 px wide): the channel across the middle, the areas above and below
 * as numbered polygons. Interactive when given handlers (the editor), a
 * picture otherwise.
 */
export function CatchmentCanvas({ catchment, scale, selected, label, onPointerDown, onKeyDown, describedBy, children, copying }: CatchmentCanvasProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    // The unit tests' jsdom has no 2D canvas (it has no Path2D either): nothing to draw there.
    if (typeof Path2D === 'undefined') return;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = scale.width * ratio;
    canvas.height = scale.height * ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, scale.width, scale.height);
    ctx.fillStyle = COLORS.ground;
    ctx.fillRect(0, 0, scale.width, scale.height);

    for (const side of SIDES) {
      catchment[side].forEach((area, index) => {
        const isSelected = sameRef(selected, { side, index });
        const polygon = polygonOf(scale, side, area);
        ctx.beginPath();
        polygon.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
        ctx.closePath();
        ctx.fillStyle = fillFor(area.permeability_value, isSelected);
        ctx.fill();
        ctx.lineWidth = isSelected ? 2.5 : 1;
        ctx.strokeStyle = isSelected ? COLORS.selected : COLORS.outline;
        ctx.stroke();
      });
    }
    // Labels after every polygon, so that a neighbour's outline never crosses them.
    ctx.font = '600 13px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = COLORS.label;
    for (const side of SIDES) {
      catchment[side].forEach((area, index) => {
        const at = labelPoint(scale, side, area);
        if (at) ctx.fillText(String(index + 1), at[0], at[1]);
      });
    }
    // The channel: a 10 px band along the run.
    const top = channelEdge(scale, 'left');
    ctx.fillStyle = COLORS.channel;
    ctx.fillRect(xOf(scale, 0), top, xOf(scale, scale.lengthM) - xOf(scale, 0), channelEdge(scale, 'right') - top);
  }, [catchment, scale, selected]);

  const interactive = !!onPointerDown;
  // A picture shrinks with its box on a narrow screen (a phone is narrower
  // than the spec's 500 px); the editor keeps its size, which its pointer
  // and handles are placed by, and scrolls in its panel instead.
  const picture = !onPointerDown && !onKeyDown;
  const size = picture
    ? { box: { width: scale.width, maxWidth: '100%' }, canvas: { width: '100%', height: 'auto', aspectRatio: `${scale.width} / ${scale.height}` } }
    : { box: { width: scale.width, height: scale.height }, canvas: { width: scale.width, height: scale.height } };
  return (
    <div
      className={`catchment-canvas${interactive ? ' catchment-canvas--interactive' : ''}${copying ? ' catchment-canvas--copy' : ''}`}
      style={size.box}
      tabIndex={onKeyDown ? 0 : undefined}
      data-autofocus={onKeyDown ? true : undefined}
      role={onKeyDown ? 'group' : undefined}
      aria-label={onKeyDown ? label : undefined}
      aria-describedby={describedBy}
      onKeyDown={onKeyDown}
    >
      <canvas
        ref={canvasRef}
        role="img"
        aria-label={label}
        style={size.canvas}
        onPointerDown={
          onPointerDown
            ? (event) => {
                const rect = event.currentTarget.getBoundingClientRect();
                onPointerDown(event, [event.clientX - rect.left, event.clientY - rect.top]);
              }
            : undefined
        }
      />
      {children}
    </div>
  );
}
