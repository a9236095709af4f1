import { describe, expect, it } from 'vitest';
import { duplicateName, newRunName, renameName } from './runNames';

describe('run names', () => {
  it('names a new run with the first unused number', () => {
    expect(newRunName([])).toBe('Run 1');
    expect(newRunName(['Run 1', 'Run 2'])).toBe('Run 3');
    expect(newRunName(['Run 2', 'Car park'])).toBe('Run 1');
    expect(newRunName(['Run 1', 'Run 3'])).toBe('Run 2');
    expect(newRunName(['Run 01', 'Run 1x'])).toBe('Run 2');
  });

  it('gives the copy of a Run N the next free number', () => {
    expect(duplicateName('Run 1', ['Run 1', 'Run 2'])).toBe('Run 3');
  });

  it('gives other copies " - Copy", then " - Copy (n)"', () => {
    expect(duplicateName('Yard', ['Yard'])).toBe('Yard - Copy');
    expect(duplicateName('Yard', ['Yard', 'Yard - Copy'])).toBe('Yard - Copy (2)');
    expect(duplicateName('Yard', ['Yard', 'Yard - Copy', 'Yard - Copy (2)'])).toBe('Yard - Copy (3)');
  });

  it('resolves a colliding rename with (2), (3)', () => {
    expect(renameName('Yard', ['Run 2'])).toBe('Yard');
    expect(renameName('Yard', ['Yard'])).toBe('Yard (2)');
    expect(renameName(' Yard ', ['Yard', 'Yard (2)'])).toBe('Yard (3)');
  });
});
