// The inflow and accessory popups (design-tool.md sections 2 and 5): opened
// by a click on the profile, by the "add at chainage" form, or on an item
// already placed. The popup holds its item unconfirmed while it is edited
// and checks it as it changes; only an accepted item reaches the run
// (emitted as `accept`, a deletion as `remove`).
import { assign, emit, setup } from 'xstate';
import {
  clampPosition,
  snapAccessory,
  validateAccessory,
  validateInflow,
  type Accessory,
  type AccessoryType,
  type Connection,
  type Inflow,
  type PlacementEnv,
} from './items';

export type PopupItem = { kind: 'inflow'; item: Inflow } | { kind: 'accessory'; item: Accessory };

export interface PopupContext {
  draft: PopupItem | null;
  /** An item already placed (edited), not a new one. */
  placed: boolean;
  env: PlacementEnv | null;
  /** Set by a refused accept: every error shows, not only those of fields touched. */
  showErrors: boolean;
}

export type PopupEvent =
  | { type: 'OPEN'; draft: PopupItem; env: PlacementEnv; placed: boolean }
  /** Inflow: from the head; accessory: from the discharge end (m). */
  | { type: 'SET.POSITION'; value: number | null }
  /** Another run's discharge, or none (null): then the flow rate is given. */
  | { type: 'SET.SOURCE'; source: string | null; flowLps: number | null }
  | { type: 'SET.FLOW'; value: number | null }
  | { type: 'SET.CONNECTION'; value: Connection }
  | { type: 'SET.TYPE'; value: AccessoryType }
  | { type: 'ACCEPT' }
  | { type: 'DELETE' }
  | { type: 'CLOSE' };

export type PopupEmitted = { type: 'accept'; draft: PopupItem } | { type: 'remove'; draft: PopupItem };

/** The popup's errors for its draft. */
export function popupErrors(context: Pick<PopupContext, 'draft' | 'env'>): Record<string, string> {
  const { draft, env } = context;
  if (!draft || !env) return {};
  return draft.kind === 'inflow' ? validateInflow(draft.item, env) : validateAccessory(draft.item, env);
}

const isValid = (context: PopupContext) => Object.keys(popupErrors(context)).length === 0;

function change(draft: PopupItem | null, update: (draft: PopupItem) => PopupItem | null): PopupItem | null {
  return draft ? (update(draft) ?? draft) : draft;
}

export const itemPopupMachine = setup({
  types: {
    context: {} as PopupContext,
    events: {} as PopupEvent,
    emitted: {} as PopupEmitted,
  },
  guards: {
    valid: ({ context }) => isValid(context),
  },
}).createMachine({
  id: 'itemPopup',
  context: { draft: null, placed: false, env: null, showErrors: false },
  initial: 'closed',
  on: {
    OPEN: {
      target: '.open',
      actions: assign({ draft: ({ event }) => event.draft, env: ({ event }) => event.env, placed: ({ event }) => event.placed, showErrors: false }),
    },
  },
  states: {
    closed: {},
    open: {
      on: {
        'SET.POSITION': {
          actions: assign({
            draft: ({ context, event }) =>
              change(context.draft, (d) => {
                const env = context.env!;
                const value = event.value ?? Number.NaN;
                if (d.kind === 'inflow') return { kind: 'inflow', item: { ...d.item, distance_m: Number.isFinite(value) ? Math.round(value * 10) / 10 : value } };
                // An accessory where nothing fits, within 1 m of an end, goes to that end.
                const position = Number.isFinite(value) && value >= 0 && value <= env.lengthM ? snapAccessory(env, clampPosition(value, env.lengthM)) : value;
                return { kind: 'accessory', item: { ...d.item, distance_m: position } };
              }),
          }),
        },
        'SET.SOURCE': {
          actions: assign({
            draft: ({ context, event }) =>
              change(context.draft, (d) =>
                d.kind === 'inflow' ? { kind: 'inflow', item: { ...d.item, source: event.source, flow_lps: event.source ? (event.flowLps ?? 0) : d.item.source ? 0 : d.item.flow_lps } } : null,
              ),
          }),
        },
        'SET.FLOW': {
          actions: assign({
            draft: ({ context, event }) => change(context.draft, (d) => (d.kind === 'inflow' && !d.item.source ? { kind: 'inflow', item: { ...d.item, flow_lps: event.value ?? 0 } } : null)),
          }),
        },
        'SET.CONNECTION': {
          actions: assign({ draft: ({ context, event }) => change(context.draft, (d) => (d.kind === 'inflow' ? { kind: 'inflow', item: { ...d.item, connection: event.value } } : null)) }),
        },
        'SET.TYPE': {
          actions: assign({ draft: ({ context, event }) => change(context.draft, (d) => (d.kind === 'accessory' ? { kind: 'accessory', item: { ...d.item, type: event.value } } : null)) }),
        },
        ACCEPT: [
          { guard: 'valid', target: 'closed', actions: [emit(({ context }) => ({ type: 'accept' as const, draft: context.draft! })), assign({ draft: null })] },
          { actions: assign({ showErrors: true }) },
        ],
        DELETE: {
          guard: ({ context }) => context.placed,
          target: 'closed',
          actions: [emit(({ context }) => ({ type: 'remove' as const, draft: context.draft! })), assign({ draft: null })],
        },
        CLOSE: { target: 'closed', actions: assign({ draft: null }) },
      },
    },
  },
});
