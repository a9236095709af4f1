import { useSelector } from '@xstate/react';
import { createContext, useContext, type ReactNode } from 'react';
import type { AnyActorRef } from 'xstate';
import type { ProjectActor, ProjectSnapshot } from './projectMachine';
import { runActorId } from './projectSteps';
import { runStateOf, type RunSnapshot } from './runMachine';
import type { RunState } from './types';

const ProjectContext = createContext<ProjectActor | null>(null);

export function ProjectProvider({ actor, children }: { actor: ProjectActor; children: ReactNode }) {
  return <ProjectContext.Provider value={actor}>{children}</ProjectContext.Provider>;
}

export function useProjectActor(): ProjectActor {
  const actor = useContext(ProjectContext);
  if (!actor) throw new Error('useProjectActor outside ProjectProvider');
  return actor;
}

export function useProject<T>(selector: (snapshot: ProjectSnapshot) => T, compare?: (a: T, b: T) => boolean): T {
  return useSelector(useProjectActor(), selector, compare);
}

export interface RunView {
  state: RunState;
  calculating: boolean;
  /** Ready or input changed: Calculate is highlighted. */
  highlight: boolean;
  /** Calculated or changed since: results exist to show. */
  hasResults: boolean;
  /** Calculated and nothing changed since. */
  upToDate: boolean;
}

const NO_RUN: RunView = { state: 'unconfigured', calculating: false, highlight: false, hasResults: false, upToDate: false };

const sameView = (a: RunView, b: RunView) =>
  a.state === b.state && a.calculating === b.calculating && a.highlight === b.highlight && a.hasResults === b.hasResults && a.upToDate === b.upToDate;

/** The state of one run, from its run machine. */
export function useRunView(runId: string | null): RunView {
  const child = useProject((snapshot) =>
    runId ? (snapshot.children[runActorId(snapshot.context.generation, runId)] as AnyActorRef | undefined) : undefined,
  );
  return useSelector(child ?? NULL_ACTOR, (snapshot: RunSnapshot | undefined) => (snapshot ? viewOf(snapshot) : NO_RUN), sameView);
}

function viewOf(snapshot: RunSnapshot): RunView {
  return {
    state: runStateOf(snapshot),
    calculating: snapshot.hasTag('calculating'),
    highlight: snapshot.hasTag('highlight'),
    hasResults: snapshot.hasTag('hasResults'),
    upToDate: snapshot.hasTag('upToDate'),
  };
}

// useSelector needs an actor; before a run machine exists it watches this one, which never changes.
const NULL_ACTOR = {
  getSnapshot: () => undefined,
  subscribe: () => ({ unsubscribe: () => undefined }),
} as unknown as AnyActorRef;
