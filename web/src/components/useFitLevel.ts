import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';

/**
 * How far a one-line bar has to shrink to fit its box: 0 shows everything,
 * each higher level a more compact form, `levels - 1` the most compact. The
 * bar's content (`content`, laid out on one line without wrapping) is measured
 * in place before the browser paints, so a crowded bar is never seen; which
 * level fits depends on the texts (language) and the user's links, not on a
 * fixed screen width. A change of `contentKey` tries the full bar again.
 */
export function useFitLevel(box: RefObject<HTMLElement | null>, content: RefObject<HTMLElement | null>, levels: number, contentKey: string): number {
  const [level, setLevel] = useState(0);
  const levelNow = useRef(0);
  levelNow.current = level;
  // The box width each level needed when it was last measured too narrow.
  const needed = useRef<number[]>([]);

  const measuredKey = useRef(contentKey);

  // Each level as it is laid out: one that does not fit gives way to the
  // next. New texts or links start again from the full bar.
  useLayoutEffect(() => {
    if (measuredKey.current !== contentKey) {
      measuredKey.current = contentKey;
      needed.current = [];
      if (level !== 0) {
        setLevel(0);
        return;
      }
    }
    const outer = box.current;
    const excess = overflowOf(content.current);
    if (!outer || level >= levels - 1 || excess <= 1) return;
    needed.current[level] = outer.clientWidth + excess;
    setLevel(level + 1);
  }, [box, content, level, levels, contentKey]);

  // The box's width follows the window: shrink as above, grow back to the
  // fullest level that did not fit before and would fit now.
  useEffect(() => {
    const outer = box.current;
    if (!outer || typeof ResizeObserver === 'undefined') return;
    // Observers run between layout and paint: flushSync lays the new level out
    // in the same frame, so a narrowed window never shows a too-wide bar.
    const observer = new ResizeObserver(() => {
      const current = levelNow.current;
      let fits = current;
      while (fits > 0 && outer.clientWidth >= (needed.current[fits - 1] ?? Infinity)) fits--;
      if (fits < current) {
        flushSync(() => setLevel(fits));
        return;
      }
      const excess = overflowOf(content.current);
      if (current < levels - 1 && excess > 1) {
        needed.current[current] = outer.clientWidth + excess;
        flushSync(() => setLevel(current + 1));
      }
    });
    observer.observe(outer);
    return () => observer.disconnect();
  }, [box, content, levels]);

  return level;
}

/** How many pixels of a one-line row do not fit its box. */
function overflowOf(row: HTMLElement | null): number {
  return row ? row.scrollWidth - row.clientWidth : 0;
}
