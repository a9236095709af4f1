import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CENTROIDS } from './countryCentroids';

// The registration list, read from the Go source the server keeps it in.
const source = readFileSync(join(import.meta.dirname, '../../../domain/account/countries.go'), 'utf8');
const listed = [...source.matchAll(/\{"[^"]+", "([A-Z]{2})", Region/g)].map((m) => m[1]!);

describe('country centroids', () => {
  it('place every country of the registration list, and only those', () => {
    expect(listed.length).toBeGreaterThan(50);
    expect(Object.keys(CENTROIDS).sort()).toEqual([...listed].sort());
  });

  it('are points on the globe', () => {
    for (const [code, [lat, lng]] of Object.entries(CENTROIDS)) {
      expect(Math.abs(lat), code).toBeLessThanOrEqual(90);
      expect(Math.abs(lng), code).toBeLessThanOrEqual(180);
    }
  });

  it('put neighbours in the right order', () => {
    // West to east, and north to south, as any atlas shows them.
    expect(CENTROIDS.IE![1]).toBeLessThan(CENTROIDS.GB![1]);
    expect(CENTROIDS.GB![1]).toBeLessThan(CENTROIDS.DE![1]);
    expect(CENTROIDS.DE![1]).toBeLessThan(CENTROIDS.PL![1]);
    expect(CENTROIDS.NO![0]).toBeGreaterThan(CENTROIDS.DK![0]);
    expect(CENTROIDS.DK![0]).toBeGreaterThan(CENTROIDS.DE![0]);
    expect(CENTROIDS.DE![0]).toBeGreaterThan(CENTROIDS.IT![0]);
  });
});
