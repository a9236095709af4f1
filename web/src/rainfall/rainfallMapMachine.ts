import { assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Message } from '../forms/messages';
import { errorMessage } from '../design/serverMessages';
import { canApply, roundPosition, runRainfallFrom, type MapSettings } from './rainfallRules';
import type { FindRainStatsQuery, LatLng, RainStats, RunRainfall, UpdateRainStatsQuery } from './types';

export interface RainfallMapDeps {
  find: (query: FindRainStatsQuery) => Promise<RainStats>;
  update: (query: UpdateRainStatsQuery) => Promise<RainStats>;
  /** The designer chose this rainfall, and answered whether new runs take it as their default. */
  onApply: (rainfall: RunRainfall, makeDefault: boolean) => void;
  onCancel: () => void;
}

export interface RainfallMapContext {
  settings: MapSettings;
  stats: RainStats | null;
  error: Message | null;
}

export type RainfallMapEvent =
  | { type: 'PICK'; point: LatLng }
  | { type: 'SET_RETURN_PERIOD'; value: number | null }
  | { type: 'SET_CLIMATE'; value: number }
  | { type: 'SET_DURATION'; value: number | null }
  | { type: 'SET_M5'; value: number | null }
  | { type: 'SET_R'; value: number | null }
  | { type: 'OK' }
  | { type: 'CANCEL' }
  | { type: 'DEFAULT.YES' }
  | { type: 'DEFAULT.NO' };

const valid = (settings: MapSettings) => (settings.stormDuration ?? 0) > 0 && (settings.returnPeriod ?? 0) > 0;

/**
 * The UK rainfall map dialog (spec section 2): a place picked on the map, or
 * the designer's own M5-60 and r for its square, looked up on the server for
 * the return period, climate uplift and storm duration; OK (only with a
 * place and a duration and return period above 0), then the question whether
 * new runs take the rainfall as their default.
 */
export function createRainfallMapMachine(deps: RainfallMapDeps) {
  return setup({
    types: {
      context: {} as RainfallMapContext,
      events: {} as RainfallMapEvent,
      input: {} as { settings: MapSettings },
    },
    actors: {
      find: fromPromise<RainStats, FindRainStatsQuery>(({ input }) => deps.find(input)),
      update: fromPromise<RainStats, UpdateRainStatsQuery>(({ input }) => deps.update(input)),
    },
    guards: {
      canApply: ({ context }) => canApply(context.settings, context.stats),
      // The designer's M5-60 and r go to updateRainStats; a place alone to findRainStats.
      overridden: ({ context }) => valid(context.settings) && context.settings.override !== null,
      located: ({ context }) => valid(context.settings) && context.settings.point !== null,
    },
    actions: {
      apply: ({ context }, makeDefault: boolean) => {
        if (context.stats) deps.onApply(runRainfallFrom(context.stats, context.settings), makeDefault);
      },
      cancel: () => deps.onCancel(),
    },
  }).createMachine({
    id: 'rainfallMap',
    context: ({ input }) => ({ settings: input.settings, stats: null, error: null }),
    initial: 'ready',
    states: {
      ready: {
        initial: 'choosing',
        on: {
          PICK: {
            target: '.choosing',
            actions: assign({
              // A new place drops the M5-60 and r typed for the old one.
              settings: ({ context, event }) => ({ ...context.settings, point: roundPosition(event.point), override: null }),
              stats: null,
              error: null,
            }),
          },
          SET_RETURN_PERIOD: { target: '.choosing', actions: assign({ settings: ({ context, event }) => ({ ...context.settings, returnPeriod: event.value }) }) },
          SET_DURATION: { target: '.choosing', actions: assign({ settings: ({ context, event }) => ({ ...context.settings, stormDuration: event.value }) }) },
          SET_CLIMATE: { target: '.choosing', actions: assign({ settings: ({ context, event }) => ({ ...context.settings, climateFactor: event.value }) }) },
          SET_M5: { target: '.choosing', actions: assign({ settings: ({ context, event }) => overrideWith(context, { M5: event.value }) }) },
          SET_R: { target: '.choosing', actions: assign({ settings: ({ context, event }) => overrideWith(context, { r: event.value }) }) },
          CANCEL: { target: 'closed', actions: 'cancel' },
        },
        states: {
          // Decides whether the changed settings need the server.
          choosing: {
            always: [{ guard: 'overridden', target: 'updating' }, { guard: 'located', target: 'finding' }, { target: 'idle' }],
          },
          idle: {
            on: { OK: { guard: 'canApply', target: '#rainfallMap.asking' } },
          },
          finding: {
            invoke: {
              src: 'find',
              input: ({ context }) => ({
                latitude: context.settings.point!.lat,
                longitude: context.settings.point!.lng,
                stormDuration: context.settings.stormDuration!,
                returnPeriod: context.settings.returnPeriod!,
                climateFactor: context.settings.climateFactor,
              }),
              onDone: { target: 'idle', actions: assign({ stats: ({ event }) => event.output, error: null }) },
              onError: { target: 'idle', actions: assign({ stats: null, error: ({ event }) => errorMessage(event.error, 'rainfall.lookupFailed') }) },
            },
          },
          updating: {
            invoke: {
              src: 'update',
              input: ({ context }) => ({
                ...context.settings.override!,
                stormDuration: context.settings.stormDuration!,
                returnPeriod: context.settings.returnPeriod!,
                climateFactor: context.settings.climateFactor,
              }),
              onDone: { target: 'idle', actions: assign({ stats: ({ event }) => event.output, error: null }) },
              onError: { target: 'idle', actions: assign({ stats: null, error: ({ event }) => errorMessage(event.error, 'rainfall.lookupFailed') }) },
            },
          },
        },
      },
      asking: {
        on: {
          'DEFAULT.YES': { target: 'closed', actions: { type: 'apply', params: true } },
          'DEFAULT.NO': { target: 'closed', actions: { type: 'apply', params: false } },
        },
      },
      closed: { type: 'final' },
    },
  });
}

/** M5-60 or r typed over the map's: both go to updateRainStats with the square they belong to. */
function overrideWith(context: RainfallMapContext, typed: { M5?: number | null; r?: number | null }): MapSettings {
  const { settings, stats } = context;
  const LocationIndex = settings.override?.LocationIndex ?? stats?.LocationIndex;
  const M5 = typed.M5 !== undefined ? typed.M5 : (settings.override?.M5 ?? stats?.M5 ?? null);
  const r = typed.r !== undefined ? typed.r : (settings.override?.r ?? stats?.r ?? null);
  if (!LocationIndex || M5 === null || r === null || !(M5 > 0) || !(r > 0)) return settings;
  return { ...settings, override: { M5, r, LocationIndex } };
}

export const isBusy = (snapshot: RainfallMapSnapshot) => snapshot.matches({ ready: 'finding' }) || snapshot.matches({ ready: 'updating' });

export type RainfallMapMachine = ReturnType<typeof createRainfallMapMachine>;
export type RainfallMapActor = ActorRefFrom<RainfallMapMachine>;
export type RainfallMapSnapshot = SnapshotFrom<RainfallMapMachine>;
