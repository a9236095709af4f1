import type { DocumentRequest } from '../api/projectTypes';
import { marginSetting } from './freeboard';
import type { ProjectData } from './projectModel';
import { calculationBody } from './runRules';

/** The body of the document calls: the project's details and its runs, in order, as they are calculated. */
export function documentRequest(data: ProjectData): DocumentRequest {
  return {
    // A saved project of one's own keeps a record of its documents.
    ...(data.saved && data.editable ? { project_id: data.id } : {}),
    // The margin too, so the documents flag low freeboard as the screen does.
    details: { ...data.details, rainfall_units: data.rainfallUnits, ...marginSetting(data.freeboardMargin) },
    runs: data.order.flatMap((id) => {
      const run = data.runs[id];
      return run ? [{ ...calculationBody(run.inputs, data.defaultRainfall), name: run.name }] : [];
    }),
  };
}

/** Hands a made file to the browser as a download. */
export function saveFile(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
