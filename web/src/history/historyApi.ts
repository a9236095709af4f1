import type { Send } from '../api/http';
import type { EditAnswer, ProjectHistory, TimelineAnswer, VersionDiff } from './types';

const project = (id: string) => `/projects/${encodeURIComponent(id)}`;

/**
 * The history calls. Reads: the versions, one version's content, a
 * comparison; writes: undo, redo and restore (project commands, owner
 * only), and a copy of a version into a new project of the caller's.
 */
export function createHistoryApi(authed: Send) {
  return {
    history: (id: string) => authed<ProjectHistory>('GET', `${project(id)}/history`),
    version: (id: string, version: number) => authed<TimelineAnswer>('GET', `${project(id)}/timeline?version=${version}`),
    diff: (id: string, from: number, to: number) => authed<VersionDiff>('GET', `${project(id)}/diff?from=${from}&to=${to}`),
    undo: (id: string) => authed<EditAnswer>('POST', `${project(id)}/commands`, { type: 'undo' }),
    redo: (id: string) => authed<EditAnswer>('POST', `${project(id)}/commands`, { type: 'redo' }),
    restore: (id: string, version: number) => authed<EditAnswer>('POST', `${project(id)}/commands`, { type: 'restore', version }),
    copy: (id: string, version: number) => authed<EditAnswer>('POST', `${project(id)}/copy`, { version }),
  };
}

export type HistoryApi = ReturnType<typeof createHistoryApi>;
