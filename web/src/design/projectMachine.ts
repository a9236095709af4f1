import { assign, enqueueActions, fromCallback, fromPromise, setup, type ActorRefFrom, type EventObject, type SnapshotFrom } from 'xstate';
import type { DrainageApi, ProjectApi } from '../api/endpoints';
import { ApiError } from '../api/http';
import type { EditAnswer, LoadAnswer, LoadKey, LoadRunAnswer, SavePayload } from '../api/projectTypes';
import type { LiveHandlers, LiveStream } from '../live/projectSocket';
import type { Outgoing } from './outgoing';
import { fromDraft, fromLoad, savePayload, type ProjectData } from './projectModel';
import {
  delivered,
  initialContext,
  loadFailure,
  replaceProject,
  step,
  withProfileRefreshes,
  type Delivered,
  type Effect,
  type OpenRequest,
  type Plan,
  type ProjectContext,
  type ProjectEvent,
  type StepOptions,
} from './projectSteps';
import { runMachine, type RunInput } from './runMachine';
import { calculationBody } from './runRules';
import { sharedBody } from '../catchment/shared';
import type { AdvancedMode } from './advancedRules';
import { errorMessage } from './serverMessages';

export interface ProjectDeps {
  projects: ProjectApi;
  drainage: Pick<DrainageApi, 'calculate' | 'save' | 'load' | 'loadRun' | 'share'> & Partial<Pick<DrainageApi, 'calculateShared'>>;
  openLive?: (handlers: LiveHandlers) => LiveStream;
  /**
   * The live stream was told the session ended: resolves once a session is
   * usable again (refreshed, or the same user logged in again), and the
   * stream reconnects. When the session cannot be refreshed, the login form
   * shows with the expired-session message.
   */
  sessionBack?: () => Promise<void>;
  newId: () => string;
  /** Remembers the project open now, so a reload opens it again. */
  remember: (id: string | null) => void;
  superCriticalSkipped: () => boolean;
  skipSuperCritical: () => void;
  /** The user's rainfall unit, for new projects. */
  userRainfallUnits: () => string;
  onSaved?: () => void;
  /** Pause before a save refused as stale is tried again with the newest version (ms). */
  conflictRetryMs?: number;
  /** The user's advanced-mode right and default mode (none when not given). */
  advancedMode?: () => AdvancedMode;
}

type MachineEvent =
  | ProjectEvent
  | { type: 'LOAD.PROGRESS'; done: number; total: number }
  | { type: 'LOAD.DONE'; load: LoadAnswer; runs: LoadRunAnswer[] }
  | { type: 'LOAD.FAILED'; error: unknown };

interface DeliverInput {
  item: Outgoing;
  data: ProjectData;
  latest: () => ProjectData | null;
}

/** What enqueueActions hands over; XState does not export its type, so the parts used are named here. */
interface Enqueuer {
  (action: () => void): void;
  assign(values: Partial<ProjectContext>): void;
  spawnChild(src: 'run', options: { id: string; input: RunInput }): void;
  stopChild(id: string): void;
  sendTo(id: string, event: EventObject): void;
}

/**
 * The open project: creating or loading it, every edit applied here at once
 * and sent to the server in order, the live stream's events from other tabs
 * and browsers, calculations, saving and sharing. Each run's state is a child
 * run machine (runMachine.ts). The decisions are in projectSteps.ts.
 */
export function createProjectMachine(deps: ProjectDeps) {
  const stepOptions = (): StepOptions => ({ newId: deps.newId, superCriticalSkipped: deps.superCriticalSkipped(), advancedMode: deps.advancedMode?.() });

  function carryOut(enqueue: Enqueuer, self: { send: (event: MachineEvent) => void }, planned: Plan) {
    const plan = withProfileRefreshes(planned);
    for (const effect of plan.effects) runEffect(enqueue, self, effect);
    enqueue.assign(plan.ctx);
  }

  function runEffect(enqueue: Enqueuer, self: { send: (event: MachineEvent) => void }, effect: Effect) {
    switch (effect.type) {
      case 'spawn':
        enqueue.spawnChild('run', { id: effect.id, input: effect.input });
        return;
      case 'stop':
        enqueue.stopChild(effect.id);
        return;
      case 'toRun':
        enqueue.sendTo(effect.id, effect.event);
        return;
      case 'live':
        enqueue.sendTo('live', effect.event);
        return;
      case 'remember':
        enqueue(() => deps.remember(effect.id));
        return;
      case 'saved':
        enqueue(() => deps.onSaved?.());
        return;
      case 'skipSuperCritical':
        enqueue(() => deps.skipSuperCritical());
        return;
      case 'refreshProfile':
        enqueue(() => {
          const { partner } = effect;
          // A linked run's profile needs the other run's discharge: both are calculated again together.
          const calculated =
            partner && deps.drainage.calculateShared
              ? deps.drainage
                  .calculateShared({ main: { ...effect.body, id: effect.runId }, second: { ...partner.body, id: partner.runId } })
                  .then((answer) => answer.main)
              : deps.drainage.calculate(effect.body);
          calculated.then(
            (answer) => self.send({ type: 'PROFILE.REFRESHED', runId: effect.runId, body: effect.body, results: answer.results }),
            () => self.send({ type: 'PROFILE.REFRESHED', runId: effect.runId, body: effect.body, results: null }),
          );
        });
        return;
    }
  }

  async function deliver({ item, data, latest }: DeliverInput): Promise<Delivered> {
    try {
      switch (item.kind) {
        case 'command':
          return { kind: 'command', item, answer: await deps.projects.command(data.id, item.command) };
        case 'calculate': {
          const run = data.runs[item.runId];
          if (!run) throw new Error(`no run ${item.runId}`);
          // A recorded calculation names its request: sent again because
          // the answer was lost (api/http.ts), it is recorded once.
          const named = data.editable ? { request_id: deps.newId() } : {};
          if (item.partnerId && deps.drainage.calculateShared) {
            const shared = sharedBody(data, item.runId, item.partnerId);
            const answer = await deps.drainage.calculateShared({ main: { ...shared.main, ...named }, second: { ...shared.second, ...named } });
            return { kind: 'calculate', item, results: answer.main.results, partnerResults: answer.second.results };
          }
          const body = calculationBody(run.inputs, data.defaultRainfall);
          // Recorded in the project stream when the project is this user's.
          if (data.editable) Object.assign(body, { project_id: data.id, run_id: run.id }, named);
          return { kind: 'calculate', item, results: (await deps.drainage.calculate(body)).results };
        }
        case 'save':
          return { kind: 'save', item, answer: await saveWithRetry(item, data, latest) };
        case 'share':
          return { kind: 'share', link: await deps.drainage.share(data.id) };
      }
    } catch (error) {
      return { kind: 'failed', item, error };
    }
  }

  // A save names the version it was made on; when an event this tab has not
  // seen yet landed first, the server refuses it (409). The live stream
  // brings that event within moments, so the save is tried once more.
  //
  // Both tries carry one request id: a try the server stored but whose
  // answer was lost (an instance stopped) is answered as stored when sent
  // again, instead of refused as a conflict with itself.
  async function saveWithRetry(item: Extract<Outgoing, { kind: 'save' }>, data: ProjectData, latest: () => ProjectData | null) {
    const named = (payload: SavePayload): SavePayload => (item.asNew ? payload : { ...payload, request_id: requestId });
    const requestId = deps.newId();
    try {
      return await deps.drainage.save(named(savePayload(data, item)));
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409) || item.asNew) throw error;
      await new Promise((done) => setTimeout(done, deps.conflictRetryMs ?? 800));
      const newest = latest();
      if (!newest || newest.id !== data.id) throw error;
      return deps.drainage.save(named(savePayload(newest, item)));
    }
  }

  return setup({
    types: {
      context: {} as ProjectContext,
      events: {} as MachineEvent,
      input: {} as { open: OpenRequest },
    },
    actors: {
      run: runMachine,
      create: fromPromise<EditAnswer>(() => deps.projects.create()),
      loader: fromCallback<EventObject, { key: LoadKey }>(({ input, sendBack }) => {
        let cancelled = false;
        void (async () => {
          try {
            const load = await deps.drainage.load(input.key);
            const total = load.schedule.length;
            let done = 0;
            sendBack({ type: 'LOAD.PROGRESS', done, total });
            // One call per run, in parallel (spec: load), counted as they arrive.
            const runs = await Promise.all(
              load.schedule.map(async (key) => {
                const run = await deps.drainage.loadRun(key);
                done++;
                if (!cancelled) sendBack({ type: 'LOAD.PROGRESS', done, total });
                return run;
              }),
            );
            if (!cancelled) sendBack({ type: 'LOAD.DONE', load, runs });
          } catch (error) {
            if (!cancelled) sendBack({ type: 'LOAD.FAILED', error });
          }
        })();
        return () => {
          cancelled = true;
        };
      }),
      deliver: fromPromise<Delivered, DeliverInput>(({ input }) => deliver(input)),
      live: fromCallback<EventObject>(({ sendBack, receive }) => {
        if (!deps.openLive) return () => undefined;
        let stopped = false;
        const stream = deps.openLive({
          onView: (message) => sendBack({ type: 'LIVE.VIEW', message }),
          onClosed: (project, reason) => sendBack({ type: 'LIVE.CLOSED', project, reason }),
          onSessionEnded: () => {
            void deps.sessionBack?.().then(() => {
              if (!stopped) stream.resume();
            });
          },
          onStatus: (connected) => sendBack({ type: 'LIVE.STATUS', connected }),
          onError: (error) => console.warn('live project stream:', error.error),
        });
        receive((event) => {
          const message = event as { type: string; project?: string; share?: string; from?: number };
          if (message.type === 'FOLLOW' && message.project) stream.follow({ project: message.project, share: message.share }, message.from ?? 0);
          if (message.type === 'UNFOLLOW') stream.unfollow();
        });
        return () => {
          stopped = true;
          stream.close();
        };
      }),
    },
    actions: {
      step: enqueueActions(({ context, event, enqueue, self }) => {
        carryOut(enqueue as unknown as Enqueuer, self, step(context, event as ProjectEvent, stepOptions()));
      }),
    },
    guards: {
      opensProject: ({ context }) => context.open.kind === 'load',
      hasWork: ({ context }) => context.queue.length > 0,
      dirty: ({ context }) => context.dirty,
      fallsBackToNew: ({ context }) => context.open.kind === 'load' && context.open.fallbackToNew === true,
      hasProject: ({ context }) => context.data !== null,
    },
  }).createMachine({
    id: 'project',
    context: ({ input }) => initialContext(input.open),
    invoke: { id: 'live', src: 'live' },
    on: {
      'LIVE.STATUS': { actions: assign({ connected: ({ event }) => event.connected }) },
      'ERROR.CLOSE': { actions: assign({ error: null }) },
      'DIALOG.CLOSE': { actions: assign({ dialog: null }) },
      PANEL: { actions: assign({ panel: ({ event }) => event.panel, saveError: null }) },
      TAB: { actions: assign({ tab: ({ event }) => event.tab }) },
    },
    initial: 'opening',
    states: {
      opening: {
        always: [{ guard: 'opensProject', target: 'loading' }, { target: 'creating' }],
      },

      creating: {
        invoke: {
          src: 'create',
          onDone: {
            target: 'ready',
            actions: enqueueActions(({ context, event, enqueue, self }) => {
              const applied = fromDraft(event.output, { rainfallUnits: deps.userRainfallUnits() });
              carryOut(enqueue as unknown as Enqueuer, self, replaceProject({ ctx: context, effects: [] }, applied));
            }),
          },
          onError: {
            target: 'broken',
            actions: assign({ error: ({ event }) => [errorMessage(event.error, 'project.createFailed')] }),
          },
        },
      },

      loading: {
        entry: assign({ progress: null, panel: null }),
        exit: assign({ progress: null }),
        invoke: {
          src: 'loader',
          input: ({ context }) => ({ key: context.open.kind === 'load' ? context.open.key : { id: '' } }),
        },
        on: {
          'LOAD.PROGRESS': { actions: assign({ progress: ({ event }) => ({ done: event.done, total: event.total }) }) },
          'LOAD.DONE': {
            target: 'ready',
            actions: enqueueActions(({ context, event, enqueue, self }) => {
              carryOut(enqueue as unknown as Enqueuer, self, replaceProject({ ctx: context, effects: [] }, fromLoad(event.load, event.runs)));
            }),
          },
          'LOAD.FAILED': [
            // The project remembered from the last visit is gone: start afresh, quietly.
            { guard: 'fallsBackToNew', target: 'creating', actions: () => deps.remember(null) },
            { guard: 'hasProject', target: 'ready', actions: assign({ error: ({ event }) => loadFailure(event.error) }) },
            { target: 'creating', actions: assign({ error: ({ event }) => loadFailure(event.error) }) },
          ],
        },
      },

      broken: {
        on: { RETRY: { target: 'opening', actions: assign({ error: null }) } },
      },

      ready: {
        on: {
          NEW: [
            { guard: 'dirty', actions: assign({ dialog: { kind: 'confirmNew' } }) },
            { target: 'opening', actions: assign({ open: { kind: 'new' }, panel: null }) },
          ],
          'NEW.CONFIRM': { target: 'opening', actions: assign({ open: { kind: 'new' }, dialog: null, panel: null }) },
          LOAD: { target: 'opening', actions: assign({ open: ({ event }) => ({ kind: 'load', key: event.key }) }) },
          PROJECT_DELETED: {
            guard: ({ context, event }) => context.data?.id === event.id,
            target: 'opening',
            actions: [assign({ open: { kind: 'new' }, panel: null }), () => deps.remember(null)],
          },
          SELECT_RUN: { actions: 'step' },
          EDIT: { actions: 'step' },
          'DIALOG.SWAP': { actions: 'step' },
          'DIALOG.SKIP': { actions: 'step' },
          RENAME: { actions: 'step' },
          NOTES: { actions: 'step' },
          ADD_RUN: { actions: 'step' },
          DUPLICATE: { actions: 'step' },
          REMOVE: { actions: 'step' },
          REORDER: { actions: 'step' },
          RESET: { actions: 'step' },
          CALCULATE: { actions: 'step' },
          DETAILS: { actions: 'step' },
          PROJECT_UNITS: { actions: 'step' },
          FREEBOARD_MARGIN: { actions: 'step' },
          SAVE: { actions: 'step' },
          'RAINFALL.APPLY': { actions: 'step' },
          'CONTROLLED.CONFIRM': { actions: 'step' },
          'CONTROLLED.RESET': { actions: 'step' },
          SHARE: { actions: 'step' },
          'LIVE.VIEW': { actions: 'step' },
          'LIVE.CLOSED': [
            // The user's own project deleted elsewhere (the load dialog of another tab): carry on in a fresh project.
            {
              guard: ({ context, event }) => event.project === context.data?.id && !!context.data?.editable,
              target: 'opening',
              actions: [assign({ open: { kind: 'new' }, panel: null }), () => deps.remember(null)],
            },
            // Someone else's project: it stays on the screen, with a notice.
            { actions: 'step' },
          ],
          'PROFILE.REFRESHED': { actions: 'step' },
          MODE: { actions: 'step' },
          'ADVANCED.VIEW': { actions: 'step' },
          'ADVANCED.EDIT': { actions: 'step' },
          AUTOCUT: { actions: 'step' },
        },
        initial: 'idle',
        states: {
          idle: {
            always: { guard: 'hasWork', target: 'sending' },
          },
          sending: {
            entry: assign(({ context }) => ({ inFlight: context.queue[0] ?? null, queue: context.queue.slice(1) })),
            exit: assign({ inFlight: null }),
            invoke: {
              src: 'deliver',
              input: ({ context, self }) => ({
                item: context.inFlight!,
                data: context.data!,
                latest: () => (self.getSnapshot() as { context: ProjectContext }).context.data,
              }),
              onDone: {
                target: 'idle',
                actions: enqueueActions(({ context, event, enqueue, self }) => {
                  carryOut(enqueue as unknown as Enqueuer, self, delivered(context, event.output, stepOptions()));
                }),
              },
            },
          },
        },
      },
    },
  });
}

export type ProjectMachine = ReturnType<typeof createProjectMachine>;
export type ProjectActor = ActorRefFrom<ProjectMachine>;
export type ProjectSnapshot = SnapshotFrom<ProjectMachine>;
