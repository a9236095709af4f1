import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../api/http';
import type { DocumentFormat } from '../api/projectTypes';
import { useServices } from '../app/ServicesContext';
import { SessionExpiredError } from '../session/authedSend';
import { documentRequest, saveFile } from './documentRequest';
import { useProject } from './ProjectProvider';

export interface DocumentOrder {
  format: DocumentFormat;
  /** introduction, materials, information, all, or hydraulics/<run number from 1>. */
  kind: string;
  language: string;
}

/** The key a button shows its progress by. */
export const orderKey = (format: DocumentFormat, kind: string) => `${format}:${kind}`;

/**
 * Makes a document of the open project and hands it to the browser.
 * `busyWith` is the order being made; `failure` the reason to show, ''
 * while there is none (an expired session shows the login form instead).
 */
export function useDocument() {
  const { drainage } = useServices();
  const data = useProject((s) => s.context.data);
  const make = useMutation({
    mutationFn: async (order: DocumentOrder) => {
      if (!data) throw new Error('no project');
      const file = await drainage.document(order.format, order.language, order.kind, documentRequest(data));
      saveFile(file.blob, file.filename);
    },
  });
  return {
    start: (order: DocumentOrder) => make.mutate(order),
    busyWith: make.isPending ? orderKey(make.variables.format, make.variables.kind) : null,
    failure: make.isError && !(make.error instanceof SessionExpiredError) ? reason(make.error) : '',
    /** The format of the failed order, as the message names it (PDF, RTF, CSV). */
    failedFormat: make.isError ? make.variables.format.toUpperCase() : '',
  };
}

/** The server's readable reason, when it gave one. */
function reason(error: unknown): string {
  if (error instanceof ApiError && typeof error.body === 'object' && error.body && 'error' in error.body) {
    return String((error.body as { error: unknown }).error);
  }
  return error instanceof Error ? error.message : String(error);
}
