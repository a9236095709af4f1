import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../api/http';
import { useServices } from '../app/ServicesContext';
import { SessionExpiredError } from '../session/authedSend';
import { documentRequest, saveFile } from './documentRequest';
import { useProject } from './ProjectProvider';

/**
 * Downloads a run's hydraulic profile as CSV (runIndex from 1) in a
 * language; `failure` is the reason to show, '' while there is none (an
 * expired session shows the login form instead).
 */
export function useProfileCSV() {
  const { drainage } = useServices();
  const data = useProject((s) => s.context.data);
  const download = useMutation({
    mutationFn: async ({ runIndex, language }: { runIndex: number; language: string }) => {
      if (!data) throw new Error('no project');
      const file = await drainage.profileCSV(language, runIndex, documentRequest(data));
      saveFile(file.blob, file.filename);
    },
  });
  const failure = download.isError && !(download.error instanceof SessionExpiredError) ? reason(download.error) : '';
  return {
    start: (runIndex: number, language: string) => download.mutate({ runIndex, language }),
    busyWith: download.isPending ? download.variables.runIndex : null,
    failure,
  };
}

/** The server's readable reason, when it gave one. */
function reason(error: unknown): string {
  if (error instanceof ApiError && typeof error.body === 'object' && error.body && 'error' in error.body) {
    return String((error.body as { error: unknown }).error);
  }
  return error instanceof Error ? error.message : String(error);
}
