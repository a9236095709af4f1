import { describe, expect, it } from 'vitest';
import type { MaterialLine, Results } from '../design/types';
import { projectTotal, runLines, toCSV, toTSV, type ExportRow } from './materialsExport';

const line = (HAN: string, count: number, extra: Partial<MaterialLine> = {}): MaterialLine => ({ HAN, description: `Item ${HAN}`, count, sort: 1, ...extra });
const run = (name: string, lines: MaterialLine[]) => ({ name, results: {} as Results, lines });

describe('the materials export', () => {
  it('lists a run list by list, each in the calculation order', () => {
    const results = {
      channel: [line('2', 1, { sort: 2 }), line('1', 20, { sort: 1 })],
      endcaps: [line('9', 1, { sort: 1 })],
      connectors: [],
    } as unknown as Results;
    expect(runLines(results).map((l) => l.HAN)).toEqual(['1', '2', '9']);
  });

  it('totals the project by article, a cut piece counting as one more of its article', () => {
    const total = projectTotal([
      run('Run 1', [line('10091', 20, { length_mm: 1000 }), line('10091', 1, { length_mm: 500, text: { designation: 'P100', cut_to_mm: 500 } }), line('', 1, { description: 'Concrete chamber' })]),
      run('Gate lane', [line('10091', 12, { length_mm: 1000 }), line('20500', 2), line('', 1, { description: 'Concrete chamber' })]),
    ]);
    expect(total.map((l) => [l.HAN, l.count])).toEqual([
      ['', 2],
      ['10091', 33],
      ['20500', 2],
    ]);
    // Mixed lengths: the total names no length; the cut belongs to the run's line, not the article.
    const channel = total.find((l) => l.HAN === '10091')!;
    expect(channel.length_mm).toBeUndefined();
    expect(channel.text?.cut_to_mm).toBeUndefined();
  });

  const header = { run: 'Run', han: 'Article no.', description: 'Description', length: 'Length (mm)', count: 'Quantity' };
  const rows: ExportRow[] = [
    { run: 'Project total', han: '10091', description: 'Polymer 100 Type 0.0', lengthMM: 1000, count: 33 },
    { run: 'Run 1', han: '30100', description: 'Grating, 500 mm long; "heavy", galvanised', lengthMM: null, count: 2 },
  ];

  it('writes CSV for the spreadsheets of the language', () => {
    const en = toCSV(header, rows, 'en');
    expect(en.startsWith('\ufeffRun,Article no.,Description,Length (mm),Quantity\r\n')).toBe(true);
    expect(en).toContain('Project total,10091,Polymer 100 Type 0.0,1000,33\r\n');
    expect(en).toContain('Run 1,30100,"Grating, 500 mm long; ""heavy"", galvanised",,2\r\n');
    const de = toCSV(header, rows, 'de');
    expect(de.split('\r\n')[1]).toBe('Project total;10091;Polymer 100 Type 0.0;1000;33');
  });

  it('copies as tab-separated rows', () => {
    expect(toTSV(header, rows).split('\n')).toEqual([
      'Run\tArticle no.\tDescription\tLength (mm)\tQuantity',
      'Project total\t10091\tPolymer 100 Type 0.0\t1000\t33',
      'Run 1\t30100\tGrating, 500 mm long; "heavy", galvanised\t\t2',
    ]);
  });
});
