/** Sample values that make a text with placeholders read like the screen. */
const SAMPLES: Record<string, string> = {
  n: '1',
  count: '3',
  name: 'Yard',
  run: 'Run 1',
  username: 'alice',
  length: '25',
  width: '100',
  depth: '150',
  diameter: '110',
  limit: '500',
  from: '12.5',
  to: '18',
  page: '1',
  pages: '4',
  percent: '20',
};

/** The text as a reader would see it, placeholders filled with sample values. */
export function fillPlaceholders(text: string): string {
  return text.replace(/\{\{\s*([^{}\s,]+)[^{}]*\}\}/g, (_, name: string) => SAMPLES[name] ?? `‹${name}›`);
}
