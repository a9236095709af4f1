import { describe, expect, it } from 'vitest';
import { filenameOf } from './http';

describe('filenameOf', () => {
  it.each([
    ['attachment; filename=Depot-yard-profile-en.csv', 'Depot-yard-profile-en.csv'],
    ['attachment; filename="Depot yard.csv"', 'Depot yard.csv'],
    // Go's mime.FormatMediaType writes non-ASCII names in RFC 5987 form.
    ["attachment; filename*=utf-8''%D0%9F%D1%80%D0%BE%D0%B5%D0%BA%D1%82-profile-bg.csv", 'Проект-profile-bg.csv'],
    [null, 'document'],
    ['attachment', 'document'],
  ])('%s', (header, want) => {
    expect(filenameOf(header)).toBe(want);
  });
});
