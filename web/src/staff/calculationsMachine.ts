import { assign, setup } from 'xstate';
import { NO_FILTER, type CalculationFilter } from './staffApi';

export interface CalculationsContext {
  /** The filter as being edited. */
  draft: CalculationFilter;
  /** The filter the list shows. */
  applied: CalculationFilter;
  /** The calculation opened for its inputs and results. */
  opened: string | null;
  /** A date range that ends before it starts is not applied. */
  rangeError: boolean;
}

export type CalculationsEvent =
  | { type: 'EDIT'; changes: Partial<CalculationFilter> }
  | { type: 'APPLY' }
  | { type: 'CLEAR' }
  | { type: 'OPEN'; id: string }
  | { type: 'CLOSE' };

/** A range is wrong when both ends are set and the last day comes before the first. */
export function badRange(filter: CalculationFilter): boolean {
  return !!filter.from && !!filter.to && filter.to < filter.from;
}

/**
 * The staff calculation history: the filter being edited, the filter
 * applied to the list (choices apply at once, typed text on APPLY), and the
 * calculation opened for a closer look.
 */
export const calculationsMachine = setup({
  types: { context: {} as CalculationsContext, events: {} as CalculationsEvent, input: {} as { filter?: Partial<CalculationFilter> } },
}).createMachine({
  id: 'calculations',
  context: ({ input }) => {
    const filter = { ...NO_FILTER, ...input?.filter };
    return { draft: filter, applied: filter, opened: null, rangeError: false };
  },
  on: {
    EDIT: { actions: assign({ draft: ({ context, event }) => ({ ...context.draft, ...event.changes }) }) },
    APPLY: [
      { guard: ({ context }) => badRange(context.draft), actions: assign({ rangeError: true }) },
      { actions: assign({ applied: ({ context }) => context.draft, rangeError: false }) },
    ],
    CLEAR: { actions: assign({ draft: NO_FILTER, applied: NO_FILTER, rangeError: false }) },
    OPEN: { actions: assign({ opened: ({ event }) => event.id }) },
    CLOSE: { actions: assign({ opened: null }) },
  },
});
