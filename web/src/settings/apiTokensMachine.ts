import { assign, fromPromise, setup } from 'xstate';
import { ApiError } from '../api/http';
import type { ApiToken, CreatedApiToken } from '../api/types';
import { errorMessage } from '../design/serverMessages';
import type { Message } from '../forms/messages';

export interface ApiTokensDeps {
  list: () => Promise<ApiToken[] | null>;
  create: (name: string) => Promise<CreatedApiToken>;
  revoke: (id: string) => Promise<unknown>;
  /** Puts the new token on the clipboard. */
  copy: (text: string) => Promise<void>;
}

interface Context {
  tokens: ApiToken[];
  name: string;
  /** The token just created, shown once until dismissed. */
  created: CreatedApiToken | null;
  copied: boolean;
  /** The token whose revocation awaits confirmation, or is under way. */
  revoking: ApiToken | null;
  error: Message | null;
}

type Event =
  | { type: 'NAME'; value: string }
  | { type: 'CREATE' }
  | { type: 'COPY' }
  | { type: 'DISMISS' }
  | { type: 'REVOKE'; id: string }
  | { type: 'CONFIRM' }
  | { type: 'CANCEL' }
  | { type: 'RETRY' };

/** The server's refusals the section words itself; anything else as errorMessage does. */
function tokenError(error: unknown): Message {
  if (error instanceof ApiError && error.status === 400) {
    const name = (error.body as { name?: unknown } | null)?.name;
    if (Array.isArray(name) && name.some((m) => typeof m === 'string' && m.includes('already have'))) return { key: 'apiTokens.tooMany' };
  }
  return errorMessage(error, 'apiTokens.failed');
}

/**
 * The API tokens of the settings dialog: the list, creating one (whose
 * token is shown once, with a copy button) and revoking one after a
 * confirmation, since the scripts using it stop working at once.
 */
export function createApiTokensMachine(deps: ApiTokensDeps) {
  return setup({
    types: { context: {} as Context, events: {} as Event },
    actors: {
      list: fromPromise(async () => (await deps.list()) ?? []),
      create: fromPromise<CreatedApiToken, string>(({ input }) => deps.create(input)),
      revoke: fromPromise<unknown, string>(({ input }) => deps.revoke(input)),
      copy: fromPromise<void, string>(({ input }) => deps.copy(input)),
    },
    guards: {
      named: ({ context }) => context.name.trim() !== '',
    },
  }).createMachine({
    id: 'apiTokens',
    context: { tokens: [], name: '', created: null, copied: false, revoking: null, error: null },
    initial: 'loading',
    states: {
      loading: {
        invoke: {
          src: 'list',
          onDone: { target: 'ready', actions: assign({ tokens: ({ event }) => event.output }) },
          onError: { target: 'unavailable', actions: assign({ error: ({ event }) => errorMessage(event.error, 'apiTokens.loadFailed') }) },
        },
      },
      unavailable: { on: { RETRY: { target: 'loading', actions: assign({ error: null }) } } },
      ready: {
        on: {
          NAME: { actions: assign({ name: ({ event }) => event.value }) },
          CREATE: { guard: 'named', target: 'creating' },
          REVOKE: {
            target: 'confirming',
            actions: assign({ revoking: ({ context, event }) => context.tokens.find((t) => t.id === event.id) ?? null, error: null }),
          },
          COPY: { target: 'copying' },
          DISMISS: { actions: assign({ created: null, copied: false }) },
        },
      },
      creating: {
        entry: assign({ error: null, created: null, copied: false }),
        invoke: {
          src: 'create',
          input: ({ context }) => context.name.trim(),
          onDone: {
            target: 'ready',
            actions: assign({
              created: ({ event }) => event.output,
              tokens: ({ context, event }) => [...context.tokens, { id: event.output.id, name: event.output.name, created: event.output.created }],
              name: '',
            }),
          },
          onError: { target: 'ready', actions: assign({ error: ({ event }) => tokenError(event.error) }) },
        },
      },
      copying: {
        invoke: {
          src: 'copy',
          input: ({ context }) => context.created?.token ?? '',
          onDone: { target: 'ready', actions: assign({ copied: true }) },
          // Without clipboard access the token stays selectable on screen.
          onError: { target: 'ready' },
        },
      },
      confirming: {
        on: {
          CONFIRM: 'revokingToken',
          CANCEL: { target: 'ready', actions: assign({ revoking: null }) },
        },
      },
      revokingToken: {
        invoke: {
          src: 'revoke',
          input: ({ context }) => context.revoking?.id ?? '',
          onDone: {
            target: 'ready',
            actions: assign({
              tokens: ({ context }) => context.tokens.filter((t) => t.id !== context.revoking?.id),
              created: ({ context }) => (context.created?.id === context.revoking?.id ? null : context.created),
              revoking: null,
            }),
          },
          onError: { target: 'ready', actions: assign({ error: ({ event }) => tokenError(event.error), revoking: null }) },
        },
      },
    },
  });
}
