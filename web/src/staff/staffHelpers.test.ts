import { describe, expect, it } from 'vitest';
import { factOfTheDay, FACTS } from './StaffHome';
import { radiusFor } from './StaffMapScreen';
import en from '../../locales/en.json';

describe('fact of the day', () => {
  it('stays the same all day and moves on the next', () => {
    const morning = new Date(2026, 4, 6, 0, 5);
    const evening = new Date(2026, 4, 6, 23, 55);
    const tomorrow = new Date(2026, 4, 7, 9, 0);
    expect(factOfTheDay(morning)).toBe(factOfTheDay(evening));
    expect(factOfTheDay(tomorrow)).toBe((factOfTheDay(morning) + 1) % FACTS);
  });

  it('has a text for every day of the cycle', () => {
    for (let i = 0; i < FACTS; i++) expect(en[`staff.fact.${i}` as keyof typeof en]).toBeTruthy();
    expect(en[`staff.fact.${FACTS}` as keyof typeof en]).toBeUndefined();
  });
});

describe('map circles', () => {
  it('grow in area with the count, the largest at the maximum', () => {
    expect(radiusFor(100, 100)).toBe(28);
    expect(radiusFor(25, 100)).toBe(14);
    expect(radiusFor(1, 10_000)).toBe(5); // never smaller than can be seen
    expect(radiusFor(0, 100)).toBe(0);
  });
});

describe('world outline', () => {
  it('keeps a ring across the antimeridian in one piece', async () => {
    const { unwrap } = await import('./worldOutline');
    expect(unwrap([[179, 65], [-179, 66], [-175, 64], [179, 65]])).toEqual([[179, 65], [181, 66], [185, 64], [179, 65]]);
    const europe: [number, number][] = [[-5, 50], [10, 55], [20, 45], [-5, 50]];
    expect(unwrap(europe)).toBe(europe);
  });
});
