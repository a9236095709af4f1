import { assign, fromPromise, setup } from 'xstate';
import type { TextKind, TextRow, TextsAnswer, TranslationApi } from './api';
import { serverError } from './api';

/** Which rows the grid shows. */
export type RowFilter = 'all' | 'missing' | 'stale' | 'changed';

export interface EditorInput {
  api: TranslationApi;
  kind: TextKind;
  language: string;
  /** Message keys this editor covers (the calculator's or the documents'). */
  scope: (key: string) => boolean;
  /** Told after every accepted change, so this tab's own texts follow. */
  onChanged?: () => void;
}

interface Context extends EditorInput {
  rows: TextRow[];
  pluralForms: string[];
  filter: RowFilter;
  search: string;
  selected: string | null;
  /** The server's refusal of the last change or import, as it words it. */
  error: string | null;
  /** What the last change or import did, for the status line. */
  notice: { key: string; values?: Record<string, string | number> } | null;
  /** A change under way, kept to word its refusal. */
  pending: { key: string; text: string } | null;
}

export type EditorEvent =
  | { type: 'LANGUAGE'; language: string }
  | { type: 'FILTER'; filter: RowFilter }
  | { type: 'SEARCH'; search: string }
  | { type: 'SELECT'; key: string | null }
  | { type: 'EDIT'; key: string; text: string }
  | { type: 'RESET'; key: string }
  | { type: 'IMPORT'; texts: Record<string, string> }
  | { type: 'IMPORT.INVALID' }
  | { type: 'DISMISS' };

/** A text with nothing of its own: empty, or (outside English) the English text unchanged. */
export function isMissing(row: TextRow, language: string): boolean {
  if (row.text.trim() === '') return true;
  return language !== 'en' && row.text === row.english && /\p{L}{3}/u.test(row.english);
}

/** The rows a filter and a search let through. */
export function visibleRows(rows: TextRow[], language: string, filter: RowFilter, search: string): TextRow[] {
  const needle = search.trim().toLowerCase();
  return rows.filter((row) => {
    if (filter === 'missing' && !isMissing(row, language)) return false;
    if (filter === 'stale' && !row.stale) return false;
    if (filter === 'changed' && !row.overridden) return false;
    if (!needle) return true;
    return [row.key, row.english, row.text].some((s) => s.toLowerCase().includes(needle));
  });
}

export const editorMachine = setup({
  types: {
    context: {} as Context,
    input: {} as EditorInput,
    events: {} as EditorEvent,
  },
  actors: {
    load: fromPromise(async ({ input }: { input: { api: TranslationApi; kind: TextKind; language: string } }) =>
      input.api.texts(input.kind, input.language),
    ),
    save: fromPromise(async ({ input }: { input: { api: TranslationApi; kind: TextKind; language: string; key: string; text: string } }) =>
      input.api.set(input.kind, input.language, input.key, input.text),
    ),
    reset: fromPromise(async ({ input }: { input: { api: TranslationApi; kind: TextKind; language: string; key: string } }) =>
      input.api.reset(input.kind, input.language, input.key),
    ),
    importTexts: fromPromise(
      async ({ input }: { input: { api: TranslationApi; kind: TextKind; language: string; texts: Record<string, string> } }) =>
        input.api.importTexts(input.kind, input.language, input.texts),
    ),
  },
  actions: {
    loaded: assign(({ context }, answer: TextsAnswer) => ({
      rows: answer.rows.filter((row) => context.kind !== 'message' || context.scope(row.key)),
      pluralForms: answer.plural_forms,
    })),
    refused: assign((_, error: unknown) => ({ error: serverError(error) ?? String(error), notice: null })),
    changed: ({ context }) => context.onChanged?.(),
  },
}).createMachine({
  id: 'translationEditor',
  context: ({ input }) => ({
    ...input,
    rows: [],
    pluralForms: [],
    filter: 'all',
    search: '',
    selected: null,
    error: null,
    notice: null,
    pending: null,
  }),
  initial: 'loading',
  on: {
    FILTER: { actions: assign({ filter: ({ event }) => event.filter }) },
    SEARCH: { actions: assign({ search: ({ event }) => event.search }) },
    SELECT: { actions: assign({ selected: ({ event }) => event.key }) },
    DISMISS: { actions: assign({ error: null, notice: null }) },
  },
  states: {
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ api: context.api, kind: context.kind, language: context.language }),
        onDone: { target: 'ready', actions: { type: 'loaded', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'refused', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    failed: {
      on: { LANGUAGE: { target: 'loading', actions: assign({ language: ({ event }) => event.language, error: null }) } },
    },
    ready: {
      on: {
        LANGUAGE: { target: 'loading', actions: assign({ language: ({ event }) => event.language, error: null, notice: null, selected: null }) },
        EDIT: {
          target: 'saving',
          actions: assign({ pending: ({ event }) => ({ key: event.key, text: event.text }), error: null, notice: null, selected: ({ event }) => event.key }),
        },
        RESET: { target: 'resetting', actions: assign({ pending: ({ event }) => ({ key: event.key, text: '' }), error: null, notice: null }) },
        IMPORT: { target: 'importing', actions: assign({ error: null, notice: null }) },
        'IMPORT.INVALID': { actions: assign({ error: null, notice: { key: 'translate.importInvalid' } }) },
      },
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ context }) => ({ api: context.api, kind: context.kind, language: context.language, key: context.pending!.key, text: context.pending!.text }),
        onDone: { target: 'loading', actions: ['changed', assign({ notice: ({ context }) => ({ key: 'translate.saved', values: { key: context.pending!.key } }) })] },
        // The grid shows the server's rows again, so a refused text is not left in its cell.
        onError: { target: 'loading', actions: { type: 'refused', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    resetting: {
      invoke: {
        src: 'reset',
        input: ({ context }) => ({ api: context.api, kind: context.kind, language: context.language, key: context.pending!.key }),
        onDone: { target: 'loading', actions: ['changed', assign({ notice: ({ context }) => ({ key: 'translate.resetDone', values: { key: context.pending!.key } }) })] },
        onError: { target: 'loading', actions: { type: 'refused', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    importing: {
      invoke: {
        src: 'importTexts',
        input: ({ context, event }) => ({
          api: context.api,
          kind: context.kind,
          language: context.language,
          texts: event.type === 'IMPORT' ? event.texts : {},
        }),
        onDone: { target: 'loading', actions: ['changed', assign({ notice: ({ event }) => ({ key: 'translate.imported', values: { count: event.output.changed } }) })] },
        onError: { target: 'loading', actions: { type: 'refused', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
  },
});
