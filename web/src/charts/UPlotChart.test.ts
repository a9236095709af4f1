import { describe, expect, it } from 'vitest';
import { keyedIndex } from './UPlotChart';

// x values with two points at 2 m (both ends of a joint).
const xs = [0, 1, 2, 2, 3, 4];
const chart = (idx: number | null, scale: { min?: number; max?: number; dir?: 1 | -1 } = {}) => ({
  data: [xs] as [number[]],
  scales: { x: { min: 0, max: 4, ...scale } },
  cursor: { idx },
});

describe('moving the chart cursor with the keyboard', () => {
  it('starts at the left end and steps point by point, a joint counting once', () => {
    expect(keyedIndex(chart(null), 'ArrowRight')).toBe(0);
    expect(keyedIndex(chart(1), 'ArrowRight')).toBe(2);
    expect(keyedIndex(chart(2), 'ArrowRight')).toBe(4);
    expect(keyedIndex(chart(4), 'ArrowLeft')).toBe(3);
    expect(keyedIndex(chart(0), 'ArrowLeft')).toBe(0);
    expect(keyedIndex(chart(5), 'ArrowRight')).toBe(5);
  });

  it('follows the screen on an axis turned round', () => {
    // dir -1: the largest x is on the left, so the cursor starts at the last point.
    expect(keyedIndex(chart(null, { dir: -1 }), 'ArrowRight')).toBe(5);
    expect(keyedIndex(chart(5, { dir: -1 }), 'ArrowRight')).toBe(4);
    expect(keyedIndex(chart(4, { dir: -1 }), 'ArrowLeft')).toBe(5);
    expect(keyedIndex(chart(3, { dir: -1 }), 'Home')).toBe(5);
    expect(keyedIndex(chart(3, { dir: -1 }), 'End')).toBe(0);
  });

  it('keeps within the reach shown after a zoom', () => {
    const zoomed = { min: 1, max: 3 };
    expect(keyedIndex(chart(null, zoomed), 'ArrowRight')).toBe(1);
    expect(keyedIndex(chart(1, zoomed), 'PageDown')).toBe(4);
    expect(keyedIndex(chart(4, zoomed), 'ArrowRight')).toBe(4);
    expect(keyedIndex(chart(4, zoomed), 'PageUp')).toBe(1);
    expect(keyedIndex(chart(0, zoomed), 'ArrowRight')).toBe(1);
    expect(keyedIndex(chart(2, zoomed), 'Home')).toBe(1);
    expect(keyedIndex(chart(2, zoomed), 'End')).toBe(4);
  });

  it('leaves other keys alone', () => {
    expect(keyedIndex(chart(2), 'Enter')).toBeNull();
    expect(keyedIndex(chart(2), 'Tab')).toBeNull();
  });
});
