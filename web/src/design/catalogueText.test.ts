import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/i18n';
import { gratingName, materialText, systemName } from './catalogueText';
import { displayRunName } from './runNames';
import type { MaterialLine } from './types';

const t = (language: 'en' | 'de' | 'fr') => createI18n(language).t;

// Lines as the server's catalogue.Materials writes them (domain/catalogue/materials_test.go).
const lines: MaterialLine[] = [
  { HAN: '10091', description: 'Polymer 100 Type 10.0', count: 20, sort: 1, length_mm: 1000, text: { designation: 'Polymer 100 Type 10.0' } },
  {
    HAN: '10091',
    description: 'Polymer 100 Type 10.0, cut to 500 mm, modified: outlet hole DN 75 in the left wall, centre 200 mm from the end',
    count: 1,
    sort: 2,
    length_mm: 500,
    text: { designation: 'Polymer 100 Type 10.0', cut_to_mm: 500, drill_position: 'leftWall', drill_diameter_mm: 75, drill_distance_mm: 200 },
  },
  {
    HAN: '10504',
    description: 'Slotted grating, ductile iron, bolted, 100 mm wide, 500 mm long',
    count: 41,
    sort: 3,
    length_mm: 500,
    text: { key: 'catalogue.grating.poly-100-slot-iron', grating_width_mm: 100, grating_length_mm: 500 },
  },
  { HAN: '10601', description: 'End cap Polymer 100, universal', count: 1, sort: 4, text: { key: 'catalogue.article.10601' } },
  { HAN: '', description: 'Concrete chamber, cast in situ (by others)', count: 1, sort: 5, text: { key: 'catalogue.concreteChamber' } },
];

describe('catalogue texts', () => {
  it('write a material line in English exactly as the server describes it', () => {
    for (const line of lines) expect(materialText(t('en'), line)).toBe(line.description);
  });

  it('write material lines in German and French around the same designations and sizes', () => {
    expect(lines.map((line) => materialText(t('de'), line))).toEqual([
      'Polymer 100 Type 10.0',
      'Polymer 100 Type 10.0, gekürzt auf 500 mm, bearbeitet: Ablaufbohrung DN 75 in der linken Seitenwand, Mitte 200 mm vom Ende',
      'Schlitzrost, Sphäroguss, verschraubt, 100 mm breit, 500 mm lang',
      'Stirnwand Polymer 100, universal',
      'Betonschacht, vor Ort betoniert (bauseits)',
    ]);
    expect(materialText(t('fr'), lines[3]!)).toBe('Obturateur Polymer 100, universel');
  });

  it('keep the English of a line saved without its text, or naming an item the locale lacks', () => {
    const old: MaterialLine = { HAN: '10601', description: 'End cap Polymer 100, universal', count: 1, sort: 1 };
    expect(materialText(t('de'), old)).toBe('End cap Polymer 100, universal');
    const unknown: MaterialLine = { HAN: '99999', description: 'Orifice plate 87 mm', count: 1, sort: 1, text: { key: 'catalogue.article.99999' } };
    expect(materialText(t('de'), unknown)).toBe('Orifice plate 87 mm');
    const position: MaterialLine = { ...lines[1]!, text: { ...lines[1]!.text, drill_position: 'roof' } };
    expect(materialText(t('de'), position)).toBe(lines[1]!.description);
  });

  it('name systems and gratings by their slug', () => {
    expect(systemName(t('de'), { slug: 'steel', name: 'Stainless Steel Channel' })).toBe('Edelstahlrinne');
    expect(systemName(t('fr'), { slug: 'gully-450', name: 'Road Gully 450' })).toBe('Avaloir de chaussée 450');
    expect(systemName(t('de'), { slug: 'new-system', name: 'New System' })).toBe('New System');
    expect(gratingName(t('fr'), { slug: 'poly-100-mesh-galv', description: 'Mesh grating, galvanised steel' })).toBe('Grille caillebotis, acier galvanisé');
    expect(gratingName(t('de'), { description: 'No slug' })).toBe('No slug');
  });
});

describe('run names', () => {
  it('show a default name in the interface language and a user’s name as it is', () => {
    expect(displayRunName(t('en'), 'Run 3')).toBe('Run 3');
    expect(displayRunName(t('de'), 'Run 3')).toBe('Strang 3');
    expect(displayRunName(t('fr'), 'Run 12')).toBe('Tronçon 12');
    expect(displayRunName(t('de'), 'Gate lane')).toBe('Gate lane');
    expect(displayRunName(t('de'), 'Run 01')).toBe('Run 01');
    expect(displayRunName(t('de'), 'Run 2 (2)')).toBe('Run 2 (2)');
  });
});
