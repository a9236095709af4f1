// The catchment editor (design-tool.md section 2): an area is selected
// with the pointer or the keyboard; a corner is dragged (or stepped by
// 0.1 m from the keyboard) to change a width; the divide window cuts an
// area in two; neighbours merge; each area gets a surface. The editor
// holds only what is under way (the selection, a drag's preview, the
// divide window); every finished change is emitted as `commit` with the
// whole catchment, which the screen turns into one run edit, so the run
// (and other tabs) always hold the truth.
import { assign, emit, setup } from 'xstate';
import {
  allRefs,
  canDivide,
  canMerge,
  divideArea,
  mergeAreas,
  sameRef,
  setAreaSurface,
  setCornerWidth,
  splitLengths,
  SIDES,
  WIDTH_STEP_M,
  type AreaRef,
  type Catchment,
  type Corner,
} from './areas';
import type { SurfaceCode } from '../design/runRules';

export interface Drag {
  ref: AreaRef;
  corner: Corner;
  /** Shift held: the corner moves alone, not with the neighbour that shares it. */
  alone: boolean;
  /** The widest width the canvas allows, fixed for the drag so that the drawing holds still. */
  maxWidth: number;
  start: Catchment;
  preview: Catchment;
}

export interface DivideWindow {
  ref: AreaRef;
  lengthM: number;
  left: number;
  right: number;
}

export interface EditorContext {
  selected: AreaRef | null;
  /** The corner the keyboard moves. */
  corner: Corner;
  drag: Drag | null;
  divide: DivideWindow | null;
}

export type EditorEvent =
  | { type: 'SELECT'; ref: AreaRef | null }
  /** Steps the selection along the areas: left side from the head, then the right side. */
  | { type: 'SELECT.STEP'; catchment: Catchment; step: 1 | -1 }
  /** To the area across the channel at the same place. */
  | { type: 'SELECT.ACROSS'; catchment: Catchment }
  | { type: 'CORNER'; corner: Corner }
  | { type: 'DRAG.START'; catchment: Catchment; ref: AreaRef; corner: Corner; alone: boolean; maxWidth: number }
  | { type: 'DRAG.MOVE'; width: number }
  | { type: 'DRAG.END' }
  | { type: 'DRAG.CANCEL' }
  /** A corner moved by steps of 0.1 m from the keyboard. */
  | { type: 'NUDGE'; catchment: Catchment; ref: AreaRef; corner: Corner; steps: number; maxWidth: number; alone: boolean }
  | { type: 'WIDTH'; catchment: Catchment; ref: AreaRef; corner: Corner; width: number; maxWidth: number }
  | { type: 'DIVIDE.OPEN'; catchment: Catchment }
  | { type: 'DIVIDE.LEFT'; value: number }
  | { type: 'DIVIDE.RIGHT'; value: number }
  | { type: 'DIVIDE.CONFIRM'; catchment: Catchment }
  | { type: 'DIVIDE.CANCEL' }
  | { type: 'MERGE'; catchment: Catchment; with: 'previous' | 'next' }
  | { type: 'SURFACE'; catchment: Catchment; surface: SurfaceCode; custom?: number }
  /** The areas changed elsewhere (another tab, a regeneration): the selection stays within them. */
  | { type: 'SYNC'; catchment: Catchment };

export type EditorEmitted = { type: 'commit'; catchment: Catchment };

function within(catchment: Catchment, ref: AreaRef | null): AreaRef | null {
  if (!ref) return null;
  const count = catchment[ref.side].length;
  if (count === 0) return null;
  return { side: ref.side, index: Math.min(ref.index, count - 1) };
}

/** The area across the channel that covers the middle of the selected one. */
export function across(catchment: Catchment, ref: AreaRef): AreaRef | null {
  const area = catchment[ref.side][ref.index];
  const other = SIDES.find((side) => side !== ref.side)!;
  if (!area) return null;
  const middle = area.xOrigin + area.length_m / 2;
  const index = catchment[other].findIndex((a) => middle >= a.xOrigin && middle <= a.xOrigin + a.length_m);
  return index >= 0 ? { side: other, index } : catchment[other].length > 0 ? { side: other, index: 0 } : null;
}

export const editorMachine = setup({
  types: {
    context: {} as EditorContext,
    events: {} as EditorEvent,
    emitted: {} as EditorEmitted,
    input: {} as { selected?: AreaRef | null } | undefined,
  },
  guards: {
    canOpenDivide: ({ context, event }) => {
      if (event.type !== 'DIVIDE.OPEN' || !context.selected) return false;
      const area = event.catchment[context.selected.side][context.selected.index];
      return !!area && canDivide(area);
    },
    canMerge: ({ context, event }) => {
      if (event.type !== 'MERGE' || !context.selected) return false;
      const other = { side: context.selected.side, index: context.selected.index + (event.with === 'next' ? 1 : -1) };
      return canMerge(event.catchment, context.selected, other);
    },
  },
}).createMachine({
  id: 'catchmentEditor',
  context: ({ input }) => ({ selected: input?.selected ?? null, corner: 'end', drag: null, divide: null }),
  initial: 'idle',
  on: {
    SYNC: { actions: assign({ selected: ({ context, event }) => within(event.catchment, context.selected) }) },
  },
  states: {
    idle: {
      on: {
        SELECT: { actions: assign({ selected: ({ event }) => event.ref }) },
        'SELECT.STEP': {
          actions: assign({
            selected: ({ context, event }) => {
              const refs = allRefs(event.catchment);
              if (refs.length === 0) return null;
              const at = refs.findIndex((ref) => sameRef(ref, context.selected));
              if (at < 0) return refs[event.step === 1 ? 0 : refs.length - 1]!;
              return refs[(at + event.step + refs.length) % refs.length]!;
            },
          }),
        },
        'SELECT.ACROSS': {
          actions: assign({
            selected: ({ context, event }) => (context.selected ? (across(event.catchment, context.selected) ?? context.selected) : (allRefs(event.catchment)[0] ?? null)),
          }),
        },
        CORNER: { actions: assign({ corner: ({ event }) => event.corner }) },
        'DRAG.START': {
          target: 'dragging',
          actions: assign({
            selected: ({ event }) => event.ref,
            corner: ({ event }) => event.corner,
            drag: ({ event }) => ({ ref: event.ref, corner: event.corner, alone: event.alone, maxWidth: event.maxWidth, start: event.catchment, preview: event.catchment }),
          }),
        },
        NUDGE: {
          actions: [
            assign({ selected: ({ event }) => event.ref, corner: ({ event }) => event.corner }),
            emit(({ event }) => {
              const area = event.catchment[event.ref.side][event.ref.index];
              const now = area ? (event.corner === 'start' ? area.start_width_m : area.end_width_m) : 0;
              return { type: 'commit' as const, catchment: setCornerWidth(event.catchment, event.ref, event.corner, now + event.steps * WIDTH_STEP_M, event.maxWidth, event.alone) };
            }),
          ],
        },
        WIDTH: {
          actions: [
            assign({ selected: ({ event }) => event.ref, corner: ({ event }) => event.corner }),
            emit(({ event }) => ({ type: 'commit' as const, catchment: setCornerWidth(event.catchment, event.ref, event.corner, event.width, event.maxWidth, true) })),
          ],
        },
        'DIVIDE.OPEN': {
          guard: 'canOpenDivide',
          target: 'dividing',
          actions: assign({
            divide: ({ context, event }) => {
              const ref = context.selected!;
              const area = event.catchment[ref.side][ref.index]!;
              // The window opens on halves, to the 0.1 m step.
              const lengths = splitLengths(area, area.length_m / 2, 'left')!;
              return { ref, lengthM: area.length_m, ...lengths };
            },
          }),
        },
        MERGE: {
          guard: 'canMerge',
          actions: [
            emit(({ context, event }) => {
              const other = { side: context.selected!.side, index: context.selected!.index + (event.with === 'next' ? 1 : -1) };
              return { type: 'commit' as const, catchment: mergeAreas(event.catchment, context.selected!, other)! };
            }),
            assign({
              selected: ({ context, event }) => ({ side: context.selected!.side, index: event.with === 'next' ? context.selected!.index : context.selected!.index - 1 }),
            }),
          ],
        },
        SURFACE: {
          guard: ({ context }) => context.selected !== null,
          actions: emit(({ context, event }) => ({ type: 'commit' as const, catchment: setAreaSurface(event.catchment, context.selected!, event.surface, event.custom) })),
        },
      },
    },
    dragging: {
      on: {
        'DRAG.MOVE': {
          actions: assign({
            drag: ({ context, event }) => {
              const drag = context.drag!;
              return { ...drag, preview: setCornerWidth(drag.start, drag.ref, drag.corner, event.width, drag.maxWidth, drag.alone) };
            },
          }),
        },
        'DRAG.END': {
          target: 'idle',
          actions: [
            emit(({ context }) => ({ type: 'commit' as const, catchment: context.drag!.preview })),
            assign({ drag: null }),
          ],
        },
        'DRAG.CANCEL': { target: 'idle', actions: assign({ drag: null }) },
      },
    },
    dividing: {
      on: {
        'DIVIDE.LEFT': {
          actions: assign({
            divide: ({ context, event }) => {
              const d = context.divide!;
              return { ...d, ...(splitLengths({ length_m: d.lengthM }, event.value, 'left') ?? { left: d.left, right: d.right }) };
            },
          }),
        },
        'DIVIDE.RIGHT': {
          actions: assign({
            divide: ({ context, event }) => {
              const d = context.divide!;
              return { ...d, ...(splitLengths({ length_m: d.lengthM }, event.value, 'right') ?? { left: d.left, right: d.right }) };
            },
          }),
        },
        'DIVIDE.CONFIRM': [
          {
            guard: ({ context, event }) => divideArea(event.catchment, context.divide!.ref, context.divide!.left) !== null,
            target: 'idle',
            actions: [
              emit(({ context, event }) => ({ type: 'commit' as const, catchment: divideArea(event.catchment, context.divide!.ref, context.divide!.left)! })),
              assign({ selected: ({ context }) => context.divide!.ref, divide: null }),
            ],
          },
          // The area changed under the window (another tab): nothing to divide any more.
          { target: 'idle', actions: assign({ divide: null }) },
        ],
        'DIVIDE.CANCEL': { target: 'idle', actions: assign({ divide: null }) },
      },
    },
  },
});

/** The catchment to draw: a drag's preview while dragging, else the run's. */
export function shownCatchment(context: EditorContext, catchment: Catchment): Catchment {
  return context.drag ? context.drag.preview : catchment;
}
