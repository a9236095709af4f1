import type { ReactNode } from 'react';

type Tone = 'error' | 'success' | 'info';

/** A boxed message; errors are announced at once, the others politely. */
export function Notice({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <div className={`notice notice--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
