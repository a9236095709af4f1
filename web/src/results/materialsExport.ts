import { MATERIAL_LISTS, type MaterialLine, type MaterialList, type Results } from '../design/types';

/** One calculated run's materials, as the materials tab lists them. */
export interface RunMaterials {
  name: string;
  results: Results;
  lines: MaterialLine[];
}

/** A run's material lists (channels, connectors, end caps, covers, boxes) that have lines, each in the calculation's order. */
export function materialGroups(results: Results): { list: MaterialList; lines: MaterialLine[] }[] {
  return MATERIAL_LISTS.map((list) => ({ list, lines: [...((results[list] as MaterialLine[] | undefined) ?? [])].sort((a, b) => a.sort - b.sort) })).filter(({ lines }) => lines.length > 0);
}

/** A run's material lines, list by list. */
export function runLines(results: Results): MaterialLine[] {
  return materialGroups(results).flatMap(({ lines }) => lines);
}

/**
 * The project's total: every run's counts summed by article number (by
 * description where a line has no number), sorted by article number, as
 * the materials document totals them (domain/document/report). A total
 * line names the article only: a cut, a drilled hole or an orifice plate
 * belongs to one run's line, not to the article bought.
 */
export function projectTotal(runs: RunMaterials[]): MaterialLine[] {
  const byKey = new Map<string, MaterialLine>();
  for (const run of runs) {
    for (const line of run.lines) {
      const key = line.HAN || `\u0000${line.description}`;
      const seen = byKey.get(key);
      if (seen) {
        seen.count += line.count;
        // One length where every piece has it (whole elements); none where cut pieces mix in.
        if (seen.length_mm !== line.length_mm) seen.length_mm = undefined;
        continue;
      }
      byKey.set(key, { ...line, text: line.text && { key: line.text.key, designation: line.text.designation, grating_width_mm: line.text.grating_width_mm, grating_length_mm: line.text.grating_length_mm } });
    }
  }
  return [...byKey.values()].sort((a, b) => a.HAN.localeCompare(b.HAN) || a.description.localeCompare(b.description));
}

/** One row of an export: which run (or the total), the article, its text, length (mm) and count. */
export interface ExportRow {
  run: string;
  han: string;
  description: string;
  lengthMM: number | null;
  count: number;
}

export interface ExportHeader {
  run: string;
  han: string;
  description: string;
  length: string;
  count: string;
}

/**
 * The rows as a spreadsheet file: UTF-8 with a byte-order mark and CRLF
 * line ends, split on commas for English and on semicolons for the other
 * languages (whose spreadsheets use the comma as decimal separator), the
 * same rule as the profile CSV (domain/document/profilecsv).
 */
export function toCSV(header: ExportHeader, rows: ExportRow[], language: string): string {
  const separator = language === 'en' ? ',' : ';';
  const cell = (value: string | number | null) => {
    const text = value === null ? '' : String(value);
    return /["\r\n,;]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const lines = [
    [header.run, header.han, header.description, header.length, header.count],
    ...rows.map((r) => [r.run, r.han, r.description, r.lengthMM, r.count]),
  ].map((cells) => cells.map(cell).join(separator));
  return `\ufeff${lines.join('\r\n')}\r\n`;
}

/** The rows as tab-separated text, which a spreadsheet or a document table takes from the clipboard. */
export function toTSV(header: ExportHeader, rows: ExportRow[]): string {
  const cell = (value: string | number | null) => (value === null ? '' : String(value).replace(/[\t\r\n]+/g, ' '));
  return [[header.run, header.han, header.description, header.length, header.count], ...rows.map((r) => [r.run, r.han, r.description, r.lengthMM, r.count])]
    .map((cells) => cells.map(cell).join('\t'))
    .join('\n');
}
