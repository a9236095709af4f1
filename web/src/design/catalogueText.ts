// Catalogue texts in the interface language. The server's catalogue speaks
// English; web/locales holds each text under a stable key, in every language
// (domain/catalogue/texts.go lists the keys):
//   catalogue.system.<slug>    a system's name
//   catalogue.grating.<slug>   a grating type's description
//   catalogue.article.<HAN>    an article's description
//   catalogue.line.*           what a material line adds to an item's text
// Channel designations and article numbers are product names and stay as
// they are. A text the catalogue lacks (an item newer than the locale files)
// shows the server's English rather than a key.
import type { TFunction } from 'i18next';
import type en from '../../locales/en.json';
import type { MaterialLine } from './types';

type CatalogueKey = Extract<keyof typeof en, `catalogue.${string}`>;

/** The text of a catalogue key, or `english` where the catalogue has none. */
function text(t: TFunction, key: string, english: string, data?: Record<string, number>): string {
  const value = t(key as CatalogueKey, { ...data, defaultValue: english });
  return value === key ? english : value;
}

/** A system's name, by its slug. */
export function systemName(t: TFunction, system: { slug: string; name: string } | null | undefined): string {
  return system ? text(t, `catalogue.system.${system.slug}`, system.name) : '';
}

/** A grating type's description, by its slug. */
export function gratingName(t: TFunction, grating: { slug?: string; description?: string } | null | undefined): string {
  if (!grating) return '';
  return grating.slug ? text(t, `catalogue.grating.${grating.slug}`, grating.description ?? '') : (grating.description ?? '');
}

/**
 * A material line's description: the item's text, then the line's additions
 * (grating size, cut length, outlet hole), separated by commas, as
 * catalogue.MaterialLine.Describe writes it on the server. A line without
 * its text (saved before lines carried one) keeps the English description.
 */
export function materialText(t: TFunction, line: MaterialLine): string {
  const x = line.text;
  if (!x || (!x.key && !x.designation)) return line.description;
  const missing = Symbol('missing');
  const part = (key: string, data?: Record<string, number>) => {
    const value = t(key as CatalogueKey, { ...data, defaultValue: '' });
    return value && value !== key ? value : missing;
  };
  const parts: (string | typeof missing)[] = [x.key ? part(x.key) : (x.designation ?? '')];
  if (x.grating_width_mm) parts.push(part('catalogue.line.gratingSize', { width: x.grating_width_mm, length: x.grating_length_mm ?? 0 }));
  if (x.cut_to_mm) parts.push(part('catalogue.line.cutTo', { length: x.cut_to_mm }));
  if (x.drill_position) parts.push(part(`catalogue.line.modified.${x.drill_position}`, { diameter: x.drill_diameter_mm ?? 0, distance: x.drill_distance_mm ?? 0 }));
  if (x.orifice_diameter_mm) parts.push(part('catalogue.line.orifice', { diameter: x.orifice_diameter_mm }));
  return parts.includes(missing) ? line.description : parts.join(', ');
}
