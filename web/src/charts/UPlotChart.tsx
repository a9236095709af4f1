// A uPlot chart in a React box: the box sets the size (CSS), the chart
// follows it, and the chart is made again when its options or data change.
// uPlot is loaded with the first chart, so pages without one do not carry
// it. Keyboard: with the box focused, the arrow keys move the cursor from
// point to point (Page keys ten at a time, Home and End to the ends of the
// shown reach), which drives the same readout as the mouse.
import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type uPlot from 'uplot';
import { CHUNK_TIMEOUT_MS, ChunkFailed, withTimeout } from '../components/chunk';
import 'uplot/dist/uPlot.min.css';
import './chart.css';

export type ChartOptions = Omit<uPlot.Options, 'width' | 'height'>;

export interface UPlotChartProps {
  options: ChartOptions;
  data: uPlot.AlignedData;
  /** The chart's accessible name. */
  label: string;
  /** The id of the element that reads out the point under the cursor. */
  describedBy?: string;
  className?: string;
  /** The data index under the cursor, or null when the cursor leaves the chart. */
  onIndex?: (index: number | null) => void;
  /** Whether the horizontal axis shows less than the whole data (after a drag-zoom). */
  onZoom?: (zoomed: boolean) => void;
  /** Set to the chart while it is shown, for the page's reset-zoom button. */
  plotRef?: RefObject<uPlot | null>;
  /** A click on the plot (not the end of a drag-zoom): the x value under the pointer. */
  onPick?: (x: number) => void;
}

/** Charts need a layout engine and a canvas: none in the unit tests' jsdom. */
function canDraw(): boolean {
  return typeof ResizeObserver !== 'undefined' && typeof window.matchMedia === 'function' && typeof Path2D !== 'undefined';
}

export function UPlotChart({ options, data, label, describedBy, className, onIndex, onZoom, plotRef, onPick }: UPlotChartProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const handlers = useRef({ onIndex, onZoom, onPick });
  // uPlot's code that did not arrive: the retry message, and a new attempt on retry.
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    handlers.current = { onIndex, onZoom, onPick };
  });

  useEffect(() => {
    const box = boxRef.current;
    if (!box || !canDraw()) return;
    let cancelled = false;
    let made: uPlot | null = null;
    const size = () => ({ width: Math.max(box.clientWidth, 100), height: Math.max(box.clientHeight, 100) });
    const observer = new ResizeObserver(() => {
      if (!made) return;
      const { width, height } = size();
      if (width !== made.width || height !== made.height) made.setSize({ width, height });
    });
    const hooks: uPlot.Hooks.Arrays = {
      ...options.hooks,
      setCursor: [...(options.hooks?.setCursor ?? []), (u) => handlers.current.onIndex?.(u.cursor.idx ?? null)],
      setScale: [
        ...(options.hooks?.setScale ?? []),
        (u, key) => {
          if (key !== 'x') return;
          const xs = u.data[0];
          const { min, max } = u.scales.x ?? {};
          if (xs.length === 0 || min === undefined || max === undefined) return;
          const span = xs[xs.length - 1]! - xs[0]!;
          handlers.current.onZoom?.(min > xs[0]! + span * 1e-6 || max < xs[xs.length - 1]! - span * 1e-6);
        },
      ],
    };
    withTimeout(import('uplot'), CHUNK_TIMEOUT_MS).then(({ default: UPlot }) => {
      if (cancelled) return;
      made = new UPlot({ ...options, ...size(), hooks }, data, box);
      plot.current = made;
      // A click picks a place; a press that moved is a drag-zoom, not a pick.
      const u = made;
      let pressedAt: number | null = null;
      u.over.addEventListener('mousedown', (event) => {
        pressedAt = event.clientX;
      });
      u.over.addEventListener('click', (event) => {
        const moved = pressedAt === null ? 0 : Math.abs(event.clientX - pressedAt);
        pressedAt = null;
        if (moved > 3 || !handlers.current.onPick) return;
        const left = event.clientX - u.over.getBoundingClientRect().left;
        handlers.current.onPick(u.posToVal(left, 'x'));
      });
      if (plotRef) plotRef.current = made;
      observer.observe(box);
    }, () => {
      if (!cancelled) setFailed(true);
    });
    return () => {
      cancelled = true;
      observer.disconnect();
      made?.destroy();
      plot.current = null;
      if (plotRef) plotRef.current = null;
      handlers.current.onIndex?.(null);
      handlers.current.onZoom?.(false);
    };
  }, [options, data, plotRef, attempt]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const u = plot.current;
    if (!u) return;
    const index = keyedIndex(u, event.key);
    if (index === null) return;
    event.preventDefault();
    const xs = u.data[0];
    u.setCursor({ left: u.valToPos(xs[index]!, 'x'), top: u.over.clientHeight / 2 });
  };

  if (failed)
    return (
      <ChunkFailed
        onRetry={() => {
          setFailed(false);
          setAttempt((n) => n + 1);
        }}
      />
    );
  return <div ref={boxRef} className={`${className ? `chart ${className}` : 'chart'}${onPick ? ' chart--pickable' : ''}`} role="img" aria-label={label} aria-describedby={describedBy} tabIndex={0} onKeyDown={onKeyDown} />;
}

/**
 * The data index a key moves the cursor to, within the shown reach; null
 * for keys the chart does not take. Left and right follow the screen, also
 * on an axis turned round (scale dir -1). Points that share an x value (both
 * ends of a joint) are one step.
 */
export function keyedIndex(u: Pick<uPlot, 'data' | 'scales' | 'cursor'>, key: string): number | null {
  const xs = u.data[0];
  if (xs.length === 0) return null;
  const { min = xs[0]!, max = xs[xs.length - 1]!, dir = 1 } = u.scales.x ?? {};
  let first = xs.findIndex((x) => x >= min - 1e-9);
  let last = xs.length - 1;
  while (last > 0 && xs[last]! > max + 1e-9) last--;
  if (first < 0 || first > last) first = last = 0;
  const current = u.cursor.idx ?? null;
  const rightward = dir === -1 ? -1 : 1;
  const stepFrom = (from: number, steps: number) => {
    let i = from;
    for (let n = 0; n < Math.abs(steps); n++) {
      const next = nextDistinct(xs, i, Math.sign(steps));
      if (next === null || next < first || next > last) break;
      i = next;
    }
    return i;
  };
  // With no cursor in the shown reach, the first arrow key puts it at the reach's left end.
  const outside = current === null || current < first || current > last;
  const start = outside ? (rightward === 1 ? first : last) : current;
  switch (key) {
    case 'ArrowRight':
      return outside ? start : stepFrom(start, rightward);
    case 'ArrowLeft':
      return outside ? start : stepFrom(start, -rightward);
    case 'PageDown':
      return stepFrom(start, 10 * rightward);
    case 'PageUp':
      return stepFrom(start, -10 * rightward);
    case 'Home':
      return rightward === 1 ? first : last;
    case 'End':
      return rightward === 1 ? last : first;
    default:
      return null;
  }
}

function nextDistinct(xs: ArrayLike<number>, from: number, step: number): number | null {
  for (let i = from + step; i >= 0 && i < xs.length; i += step) {
    if (xs[i] !== xs[from]) return i;
  }
  return null;
}
