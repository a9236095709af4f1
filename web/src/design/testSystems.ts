import type { DrainageSystem } from './types';

// Catalogue systems in the shape GET /drainage/product/ answers, for tests.
export const poly100: DrainageSystem = {
  slug: 'poly-100',
  name: 'Polymer 100',
  product_type: 'S',
  loading_classes: ['A15', 'B125', 'C250'],
  gratings: [
    { slug: 'poly-100-slot-galv', description: 'Slotted grating, galvanised steel', material: 'galvanised steel', loading_classes: ['A15'], length_mm: 1000 },
    { slug: 'poly-100-slot-iron', description: 'Slotted grating, ductile iron, bolted', material: 'ductile iron', loading_classes: ['B125', 'C250'], length_mm: 500 },
  ],
  range: '100 mm',
  product_image_name: 'poly-100.png',
  canStep: true,
  minimumSizeOptions: [100],
  pipeDiameters: {},
  grated: true,
};

export const hicap: DrainageSystem = {
  slug: 'poly-hicap',
  name: 'High-Capacity Slot',
  product_type: 'C',
  loading_classes: ['A15', 'B125', 'C250', 'D400'],
  gratings: [],
  range: '150 - 250 mm',
  product_image_name: 'poly-hicap.png',
  canStep: true,
  minimumSizeOptions: [150, 250],
  pipeDiameters: {},
  grated: false,
};

export const steel: DrainageSystem = {
  slug: 'steel',
  name: 'Stainless Steel Channel',
  product_type: 'S',
  loading_classes: ['A15', 'B125', 'C250'],
  gratings: [
    { slug: 'steel-heelsafe', description: 'Heelsafe slotted grating, stainless steel', material: 'stainless steel', loading_classes: ['A15', 'B125'], length_mm: 1000 },
    { slug: 'steel-bar', description: 'Bar grating, stainless steel', material: 'stainless steel', loading_classes: ['B125', 'C250'], length_mm: 1000 },
  ],
  range: '100 - 200 mm',
  product_image_name: 'steel.png',
  canStep: false,
  minimumSizeOptions: [100, 150, 200],
  pipeDiameters: {},
  grated: true,
};

export const super_: DrainageSystem = {
  slug: 'super',
  name: 'Super Heavy Duty',
  product_type: 'S',
  loading_classes: ['D400', 'E600', 'F900'],
  gratings: [
    { slug: 'super-slot-iron', description: 'Slotted grating, ductile iron', material: 'ductile iron', loading_classes: ['D400', 'E600', 'F900'], length_mm: 500 },
  ],
  range: '100 - 500 mm',
  product_image_name: 'super.png',
  canStep: true,
  minimumSizeOptions: [100, 150, 200, 300, 400, 500],
  pipeDiameters: {},
  grated: true,
};

export const gully450: DrainageSystem = {
  slug: 'gully-450',
  name: 'Road Gully 450',
  product_type: 'P',
  loading_classes: [],
  gratings: [],
  range: 'DN 160 - 250',
  product_image_name: 'gully-450.png',
  canStep: false,
  minimumSizeOptions: [],
  pipeDiameters: {
    '160': { diameter_mm: 160, extension_hat: true },
    '200': { diameter_mm: 200, extension_hat: true },
    '250': { diameter_mm: 250, extension_hat: false },
  },
  grated: false,
};

export const concrete: DrainageSystem = {
  slug: 'concrete',
  name: 'In-situ Concrete Channel',
  product_type: 'M',
  loading_classes: [],
  gratings: [],
  range: 'any',
  product_image_name: 'concrete.png',
  canStep: false,
  minimumSizeOptions: [],
  pipeDiameters: {},
  grated: false,
};

export const allSystems = [poly100, hicap, super_, steel, concrete, gully450];
