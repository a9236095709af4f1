import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import type { Results } from '../design/types';

/**
 * The specification's channel row: the channel of a single-size run, or
 * every size of a stepped run with the chainage it covers, head to outlet,
 * so that the specification names what the materials list counts.
 */
export function channelRow(results: Results, t: TFunction, format: (value: number | null | undefined, decimals: number) => string): [string, ReactNode] {
  const uses = results.channels_used ?? [];
  const located = uses.every((u) => u.from_m !== undefined && u.to_m !== undefined);
  if (uses.length < 2 || !located) return [t('spec.channel'), results.largest_channel ?? '–'];
  return [
    t('spec.channels'),
    <ul className="spec-table__stretches">
      {uses.map((u, i) => (
        <li key={`${u.slug}-${i}`}>{t('spec.stretch', { name: u.name, from: format(u.from_m, 2), to: format(u.to_m, 2), count: u.count })}</li>
      ))}
    </ul>,
  ];
}
