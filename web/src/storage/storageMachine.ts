import { assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { RunInputs } from '../design/types';
import { errorMessage } from '../design/serverMessages';
import type { Message } from '../forms/messages';
import type { RunRainfall } from '../rainfall/types';
import {
  calculateMissing,
  capControlled,
  confirmChanges,
  customRainfall,
  draftFrom,
  draftKey,
  hasControlledDischarge,
  resetChanges,
  storageBody,
  type RateField,
  type StorageDraft,
} from './storageRules';
import type { StorageResult } from './types';

export interface StorageDeps {
  calculate: (body: Record<string, unknown>) => Promise<StorageResult>;
  /** Confirm: the run's new fields; the project saves them and calculates the run. */
  onConfirm: (changes: Partial<RunInputs>) => void;
  /** Reset: the run's fields without controlled discharge. */
  onReset: (changes: Partial<RunInputs>) => void;
  onCancel: () => void;
}

export interface StorageContext {
  /** The run as it was when the dialog opened (or came back from the map). */
  inputs: RunInputs;
  draft: StorageDraft;
  result: StorageResult | null;
  /** The fields `result` was calculated from; any other draft makes it stale. */
  resultKey: string | null;
  error: Message | null;
}

export type DraftField = 'channel_length_m' | 'catchment_area_m2' | 'permeability' | 'controlled_outflow';

export type StorageEvent =
  | { type: 'SET'; field: DraftField; value: number | null }
  | { type: 'SET_RATE'; field: RateField; value: number | null }
  | { type: 'CUSTOM'; on: boolean }
  | { type: 'CALCULATE' }
  | { type: 'CONFIRM' }
  | { type: 'RESET' }
  | { type: 'CANCEL' }
  | { type: 'MAP.OPEN' }
  /** Back from the rainfall map, with the rainfall it gave the run (none when cancelled). */
  | { type: 'MAP.CLOSED'; rainfall: RunRainfall | null };

export interface StorageInput {
  inputs: RunInputs;
  defaultRainfall?: number | null;
}

/** Whether Confirm may be pressed: a result, not flooded, for the fields as they are now (spec section 4). */
export function canConfirm(context: StorageContext): boolean {
  return !!context.result && !context.result.flooded && context.resultKey === draftKey(context.draft, context.inputs);
}

export const isStale = (context: StorageContext) => !!context.result && context.resultKey !== draftKey(context.draft, context.inputs);

/**
 * The controlled discharge dialog (spec section 2): a working copy of the
 * run's fields, Calculate (POST /drainage/calculate_storage/), Confirm (only
 * for a result that is not flooded and still matches the fields), Reset
 * (controlled discharge off) and the round trip to the rainfall map, during
 * which the dialog is hidden and keeps its fields.
 */
export function createStorageMachine(deps: StorageDeps) {
  return setup({
    types: {
      context: {} as StorageContext,
      events: {} as StorageEvent,
      input: {} as StorageInput,
    },
    actors: {
      calculate: fromPromise<{ result: StorageResult; key: string }, { body: Record<string, unknown>; key: string }>(async ({ input }) => ({
        result: await deps.calculate(input.body),
        key: input.key,
      })),
    },
    guards: {
      canCalculate: ({ context }) => calculateMissing(context.draft).length === 0,
      canConfirm: ({ context }) => canConfirm(context),
      // A run with a confirmed design shows it again (with its images) at once.
      recalculateOnOpen: ({ context }) => hasControlledDischarge(context.inputs) && calculateMissing(context.draft).length === 0,
    },
    actions: {
      edit: assign({
        draft: ({ context, event }) => {
          if (event.type !== 'SET') return context.draft;
          const draft = { ...context.draft, [event.field]: event.value };
          if (event.field === 'controlled_outflow') return { ...draft, controlled_outflow: capControlled(event.value, draft) };
          return { ...draft, controlled_outflow: capControlled(draft.controlled_outflow, draft) };
        },
      }),
      editRate: assign({
        draft: ({ context, event }) => {
          if (event.type !== 'SET_RATE' || !context.draft.custom) return context.draft;
          const draft = { ...context.draft, rainfall: { ...context.draft.rainfall, [event.field]: event.value ?? 0 } };
          return { ...draft, controlled_outflow: capControlled(draft.controlled_outflow, draft) };
        },
      }),
      custom: assign({
        draft: ({ context, event }) => {
          if (event.type !== 'CUSTOM') return context.draft;
          if (event.on) return { ...context.draft, custom: true, rainfall: customRainfall(context.draft.rainfall) };
          const fromRun = draftFrom(context.inputs);
          if (fromRun.custom) return context.draft;
          const draft = { ...context.draft, custom: false, rainfall: fromRun.rainfall };
          return { ...draft, controlled_outflow: capControlled(draft.controlled_outflow, draft) };
        },
      }),
      fromMap: assign(({ context, event }) => {
        if (event.type !== 'MAP.CLOSED' || !event.rainfall) return {};
        const inputs = { ...context.inputs, rainfall: event.rainfall };
        const draft = { ...context.draft, custom: false, rainfall: { ...event.rainfall } };
        return { inputs, draft: { ...draft, controlled_outflow: capControlled(draft.controlled_outflow, draft) } };
      }),
      confirm: ({ context }) => {
        if (context.result) deps.onConfirm(confirmChanges(context.inputs, context.draft, context.result));
      },
      reset: () => deps.onReset(resetChanges()),
      cancel: () => deps.onCancel(),
    },
  }).createMachine({
    id: 'storage',
    context: ({ input }) => ({
      inputs: input.inputs,
      draft: draftFrom(input.inputs, input.defaultRainfall),
      result: null,
      resultKey: null,
      error: null,
    }),
    initial: 'editing',
    states: {
      editing: {
        initial: 'opening',
        on: {
          SET: { actions: 'edit' },
          SET_RATE: { actions: 'editRate' },
          CUSTOM: { actions: 'custom' },
          RESET: { target: 'closed', actions: 'reset' },
          CANCEL: { target: 'closed', actions: 'cancel' },
        },
        states: {
          opening: {
            always: [{ guard: 'recalculateOnOpen', target: 'calculating' }, { target: 'idle' }],
          },
          idle: {
            on: {
              CALCULATE: { guard: 'canCalculate', target: 'calculating' },
              CONFIRM: { guard: 'canConfirm', target: '#storage.closed', actions: 'confirm' },
              'MAP.OPEN': { target: '#storage.map' },
            },
          },
          calculating: {
            invoke: {
              src: 'calculate',
              input: ({ context }) => ({ body: storageBody(context.draft, context.inputs), key: draftKey(context.draft, context.inputs) }),
              onDone: {
                target: 'idle',
                actions: assign({ result: ({ event }) => event.output.result, resultKey: ({ event }) => event.output.key, error: null }),
              },
              // Spec section 7: a non-OK answer clears the results.
              onError: {
                target: 'idle',
                actions: assign({ result: null, resultKey: null, error: ({ event }) => errorMessage(event.error, 'storage.failed') }),
              },
            },
          },
        },
      },
      map: {
        on: { 'MAP.CLOSED': { target: 'editing.idle', actions: 'fromMap' } },
      },
      closed: { type: 'final' },
    },
  });
}

export type StorageMachine = ReturnType<typeof createStorageMachine>;
export type StorageActor = ActorRefFrom<StorageMachine>;
export type StorageSnapshot = SnapshotFrom<StorageMachine>;
