import { assign, fromPromise, setup } from 'xstate';
import type { CountryOffer, OfferChange } from './staffApi';

export interface ChannelsDeps {
  change: (change: OfferChange) => Promise<CountryOffer>;
  /** The country's offer after a change, for the screen's list and history. */
  changed: (offer: CountryOffer) => void;
}

export interface ChannelsContext {
  country: string;
  /** The change being made; one at a time. */
  pending: OfferChange | null;
  error: unknown;
}

export type ChannelsEvent = { type: 'COUNTRY'; country: string } | { type: 'SET'; change: Omit<OfferChange, 'country'> };

/** Channel availability: the country looked at, and one change at a time offered or withdrawn there. */
export function createChannelsMachine(deps: ChannelsDeps) {
  return setup({
    types: { context: {} as ChannelsContext, events: {} as ChannelsEvent, input: {} as { country: string } },
    actors: { change: fromPromise<CountryOffer, OfferChange>(({ input }) => deps.change(input)) },
  }).createMachine({
    id: 'channels',
    context: ({ input }) => ({ country: input.country, pending: null, error: null }),
    initial: 'idle',
    states: {
      idle: {
        on: {
          COUNTRY: { actions: assign({ country: ({ event }) => event.country, error: null }) },
          SET: { target: 'saving', actions: assign({ pending: ({ context, event }) => ({ ...event.change, country: context.country }), error: null }) },
        },
      },
      saving: {
        invoke: {
          src: 'change',
          input: ({ context }) => context.pending!,
          onDone: { target: 'idle', actions: [({ event }) => deps.changed(event.output), assign({ pending: null })] },
          onError: { target: 'idle', actions: assign({ pending: null, error: ({ event }) => event.error }) },
        },
      },
    },
  });
}
