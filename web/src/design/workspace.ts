import type { QueryClient } from '@tanstack/react-query';
import { createActor } from 'xstate';
import type { DrainageApi, ProjectApi } from '../api/endpoints';
import { openLiveStream } from '../live/projectSocket';
import { createProjectMachine, type ProjectActor, type ProjectDeps } from './projectMachine';
import type { OpenRequest } from './projectSteps';
import type { AdvancedMode } from './advancedRules';

/**
 * Holds the open project outside the screens, so that it outlives them: an
 * ended session shows the login form, and after logging in again the
 * designer finds the design as it was. A different user gets a new one.
 */
export interface Workspace {
  /** The user's project actor, started with `open` when there is none yet (`created` says so). */
  acquire(username: string, open: (remembered: string | null) => OpenRequest): { actor: ProjectActor; created: boolean };
  current(): ProjectActor | null;
  dispose(): void;
}

export interface WorkspaceOptions {
  drainage: DrainageApi;
  projects: ProjectApi;
  queryClient: QueryClient;
  userRainfallUnits: () => string;
  /** The user's advanced-mode right and default mode. */
  advancedMode?: () => AdvancedMode;
  storage?: Storage;
  /** Tests run without a WebSocket. */
  live?: boolean;
  /** Resolves once the session is usable again after the live stream was told it ended (ProjectDeps.sessionBack). */
  sessionBack?: () => Promise<void>;
}

const REMEMBERED = (username: string) => `draindesign.project.${username}`;
const SKIP_SUPER_CRITICAL = 'draindesign.skipSuperCritical';

export function createWorkspace(options: WorkspaceOptions): Workspace {
  const storage = options.storage ?? safeLocalStorage();
  let held: { username: string; actor: ProjectActor } | null = null;

  function deps(username: string): ProjectDeps {
    return {
      projects: options.projects,
      drainage: options.drainage,
      // A change of what the country is offered reloads the product list at once.
      openLive:
        options.live === false
          ? undefined
          : (handlers) => openLiveStream({ ...handlers, onCatalogue: () => void options.queryClient.invalidateQueries({ queryKey: ['products'] }) }),
      sessionBack: options.sessionBack,
      newId: () => crypto.randomUUID(),
      remember: (id) => {
        if (id) storage?.setItem(REMEMBERED(username), id);
        else storage?.removeItem(REMEMBERED(username));
      },
      superCriticalSkipped: () => storage?.getItem(SKIP_SUPER_CRITICAL) === '1',
      skipSuperCritical: () => storage?.setItem(SKIP_SUPER_CRITICAL, '1'),
      userRainfallUnits: options.userRainfallUnits,
      advancedMode: options.advancedMode,
      onSaved: () => void options.queryClient.invalidateQueries({ queryKey: ['projects'] }),
    };
  }

  return {
    acquire(username, open) {
      if (held && held.username === username) return { actor: held.actor, created: false };
      held?.actor.stop();
      const actor = createActor(createProjectMachine(deps(username)), {
        input: { open: open(storage?.getItem(REMEMBERED(username)) ?? null) },
      });
      actor.start();
      held = { username, actor };
      return { actor, created: true };
    },
    current: () => held?.actor ?? null,
    dispose() {
      held?.actor.stop();
      held = null;
    },
  };
}

function safeLocalStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}
