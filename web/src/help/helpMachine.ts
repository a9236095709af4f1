import { assign, fromPromise, setup } from 'xstate';
import type { HelpTopic } from '../translate/api';

/** A topic's page as fetched: its HTML and whether it is the English fallback. */
export interface HelpPage {
  file: string;
  html: string;
  /** The language had no text of this topic: English is shown. */
  fallback: boolean;
}

export interface HelpInput {
  topics: () => Promise<HelpTopic[]>;
  /** GET /static/help/{locale}/{file}.html: the HTML, or null on 404. */
  page: (language: string, file: string) => Promise<string | null>;
  language: string;
  topic: string | null;
}

/** Fetches a topic in the language, falling back to English when it has none (spec section 4). */
export async function fetchTopic(input: Pick<HelpInput, 'page'>, language: string, file: string): Promise<HelpPage> {
  const own = await input.page(language, file);
  if (own !== null) return { file, html: own, fallback: false };
  if (language === 'en') throw new Error(`no help topic ${file}`);
  const english = await input.page('en', file);
  if (english === null) throw new Error(`no help topic ${file}`);
  return { file, html: english, fallback: true };
}

export const helpMachine = setup({
  types: {
    context: {} as HelpInput & { list: HelpTopic[]; shown: HelpPage | null; failed: boolean },
    input: {} as HelpInput,
    events: {} as { type: 'OPEN'; file: string } | { type: 'LANGUAGE'; language: string },
  },
  actors: {
    topics: fromPromise(async ({ input }: { input: HelpInput }) => input.topics()),
    page: fromPromise(async ({ input }: { input: { ctx: HelpInput; file: string } }) => fetchTopic(input.ctx, input.ctx.language, input.file)),
  },
}).createMachine({
  id: 'help',
  context: ({ input }) => ({ ...input, list: [], shown: null, failed: false }),
  initial: 'listing',
  states: {
    listing: {
      invoke: {
        src: 'topics',
        input: ({ context }) => context,
        onDone: {
          target: 'opening',
          actions: assign(({ context, event }) => ({
            list: event.output,
            topic: event.output.some((t) => t.topic_file === context.topic) ? context.topic : (event.output[0]?.topic_file ?? null),
          })),
        },
        onError: { target: 'ready', actions: assign({ failed: true }) },
      },
    },
    opening: {
      invoke: {
        src: 'page',
        input: ({ context }) => ({ ctx: context, file: context.topic ?? '' }),
        onDone: { target: 'ready', actions: assign({ shown: ({ event }) => event.output, failed: false }) },
        onError: { target: 'ready', actions: assign({ failed: true }) },
      },
    },
    ready: {
      on: {
        OPEN: { target: 'opening', actions: assign({ topic: ({ event }) => event.file }) },
        LANGUAGE: { target: 'opening', actions: assign({ language: ({ event }) => event.language }) },
      },
    },
  },
});
