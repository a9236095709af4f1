// The run-list naming rules of design-tool.md section 4, as the server applies
// them (domain/project/names.go). The client uses them for instant feedback
// and in projects it cannot edit on the server; the server's answer wins.
// Default names are stored as "Run N" whatever the language, and shown in the
// interface language (displayRunName); a name the user gave is shown as it is.
import type { TFunction } from 'i18next';

const RUN_N = /^Run (\d+)$/;

/** The number of a default name "Run N" as newRunName writes it; null for a name the user gave ("Run 01" is one). */
export function defaultRunNumber(name: string): number | null {
  const match = RUN_N.exec(name);
  if (!match?.[1]) return null;
  const n = Number(match[1]);
  return Number.isSafeInteger(n) && String(n) === match[1] ? n : null;
}

/** A run's name as shown: a default "Run N" in the interface language ("Strang 1"), any other as it is. */
export function displayRunName(t: TFunction, name: string): string {
  const n = defaultRunNumber(name);
  return n === null ? name : t('runs.defaultName', { n });
}

/** "Run N" with the first number not already used. */
export function newRunName(existing: readonly string[]): string {
  const used = new Set<number>();
  for (const name of existing) {
    const match = RUN_N.exec(name);
    if (match?.[1]) used.add(Number(match[1]));
  }
  let n = 1;
  while (used.has(n)) n++;
  return `Run ${n}`;
}

/** A copy of "Run N" takes the next free run number; any other name gets " - Copy", then " - Copy (n)". */
export function duplicateName(source: string, existing: readonly string[]): string {
  if (RUN_N.test(source)) return newRunName(existing);
  return firstFree(`${source} - Copy`, existing);
}

/** A rename colliding with another run's name gets " (2)", " (3)" and so on. `others` excludes the renamed run. */
export function renameName(wanted: string, others: readonly string[]): string {
  return firstFree(wanted.trim(), others);
}

function firstFree(base: string, existing: readonly string[]): string {
  const taken = new Set(existing);
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base} (${i})`;
    if (!taken.has(candidate)) return candidate;
  }
}
