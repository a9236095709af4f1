import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeText, entryLines, entryTitle, FIELD_LABEL_KEYS, fieldList, resultText, valueText, type Translate } from './describe';
import type { EntryKind, HistoryChange, HistoryEntry } from './types';

const en = JSON.parse(readFileSync(join(import.meta.dirname, '../../locales/en.json'), 'utf8')) as Record<string, string>;

/** A translation function over the English catalogue that records every key asked for. */
function english() {
  const asked: string[] = [];
  const t: Translate = (key, values = {}) => {
    asked.push(key);
    const text = en[key];
    if (text === undefined) return `MISSING ${key}`;
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
      const value = values[name];
      return typeof value === 'string' || typeof value === 'number' ? String(value) : `{{${name}}}`;
    });
  };
  return { t, asked };
}

const format = (n: number, digits: number) => n.toFixed(digits).replace(/\.?0+$/, '');

const KINDS: EntryKind[] = ['created', 'copy', 'edit', 'save', 'calculation', 'restore', 'undo', 'redo', 'share', 'document', 'delete', 'other'];
const TYPES = [
  'created', 'details_changed', 'run_added', 'run_renamed', 'run_duplicated', 'run_removed', 'runs_reordered', 'run_inputs_changed',
  'run_notes_changed', 'run_calculated', 'calculation_failed', 'run_reset', 'saved', 'shared_by_link', 'sharing_stopped',
  'document_created', 'deleted', 'run_restored', 'restored', 'some_future_event',
];

const entry = (kind: EntryKind, changes: HistoryChange[]): HistoryEntry => ({ from: 5, version: 5 + changes.length, author: 'u', at: '', kind, changes, undoable: false, undone: false });

describe('the words of the history', () => {
  it('asks only for keys the catalogue has', () => {
    const { t, asked } = english();
    for (const kind of KINDS) entryTitle(t, entry(kind, [{ version: 3, type: 'project.restored', restored: { reason: 'undo', from_version: 2 } }]));
    for (const type of TYPES) changeText(t, { version: 1, type: `project.${type}`, run: 'Run 1', fields: ['channel_length_m'], result: { flow: 2, percentage_full: 50, overflowed: true, went_super_critical: true } }, format);
    for (const key of FIELD_LABEL_KEYS) t(key);
    valueText(t, null, format);
    valueText(t, [1, 2], format);
    valueText(t, true, format);
    expect(asked.filter((key) => !(key in en))).toEqual([]);
  });

  it('says what an edit, a calculation and a restore did', () => {
    const { t } = english();
    expect(changeText(t, { version: 4, type: 'project.run_inputs_changed', run: 'Gate', fields: ['channel_length_m', 'drainage_area_m2'] }, format)).toBe(
      'Gate: Channel length, Catchment area changed',
    );
    expect(changeText(t, { version: 5, type: 'project.run_calculated', run: 'Gate', result: { flow: 2.04, percentage_full: 61.7 } }, format)).toBe(
      'Gate calculated: 2.04 l/s, 61.7 % full',
    );
    expect(changeText(t, { version: 6, type: 'project.run_renamed', run: 'Gate', from: 'Run 1' }, format)).toBe('Run 1 renamed to Gate');
    expect(changeText(t, { version: 7, type: 'project.details_changed', fields: ['name', 'location'] }, format)).toBe('Project details changed: Project name, Location');
    expect(resultText(t, { flow: 3, percentage_full: 101, overflowed: true }, format)).toBe('3 l/s, 101 % full, floods');
    // A field the catalogue does not name shows its own name; one label per field.
    expect(fieldList(t, ['selectedSystem', 'channel_group', 'odd_field'])).toBe('Channel group, odd field');

    const undo = {
      ...entry('undo', [
        { version: 9, type: 'project.run_restored', run: 'Gate', fields: ['channel_length_m'] },
        { version: 10, type: 'project.restored', restored: { reason: 'undo' as const, from_version: 7 } },
      ]),
      reverts: 8,
    };
    // An undo names the edit it took back; a restore the version it brought back.
    expect(entryTitle(t, undo)).toBe('Undo of version 8');
    expect(entryTitle(t, { ...undo, kind: 'restore' })).toBe('Version 7 restored');
    // The restore's own marker is the title; the lines say what came back.
    expect(entryLines(t, undo, format)).toEqual(['Gate: Channel length as before']);
    expect(changeText(t, { version: 9, type: 'project.run_restored', run: 'Gate' }, format)).toBe('Gate brought back as it was');
  });

  it('shows values as the comparison does', () => {
    const { t } = english();
    expect(valueText(t, null, format)).toBe('–');
    expect(valueText(t, 20.5, format)).toBe('20.5');
    expect(valueText(t, false, format)).toBe('No');
    expect(valueText(t, { slug: 'poly-100', name: 'Polymer 100' }, format)).toBe('Polymer 100');
    expect(valueText(t, { rainfall_mm_per_hr: 75 }, format)).toBe('75 mm/h');
    // Coded values in words, by their field.
    expect(valueText(t, 'concretePavement', format, 'permeabilitySurface')).toBe('Concrete pavement');
    expect(valueText(t, 'free-outflow', format, 'dischargeSetting')).toBe('Free outflow');
    expect(valueText(t, false, format, 'stepped')).toBe('Single size');
    expect(valueText(t, 'slope', format, 'slopeSetting')).toBe('Slope');
  });
});
