import { Component, Fragment, lazy, Suspense, type ComponentProps, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingPanel } from '../screens/SplashScreen';
import { Dialog } from './Dialog';

/** How long a page's code may take to arrive before the retry message shows (spec: 120 s). */
export const CHUNK_TIMEOUT_MS = 120_000;

/** A page's code that did not arrive: its import failed or took too long. */
export class ChunkLoadError extends Error {
  constructor(
    message: string,
    /** Forgets the failed attempt so that the next render loads again. */
    readonly retry: () => void,
  ) {
    super(message);
    this.name = 'ChunkLoadError';
  }
}

/** The promise, or a rejection once ms have passed without it settling. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * React.lazy keeps a failed import for good, so a retry needs a fresh lazy
 * component: this one swaps its inner lazy when the failure's retry is called.
 * A failure becomes a ChunkLoadError, which ChunkSuspense turns into a message
 * with a retry button instead of a blank screen.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as React.lazy: any component, its props pass through
export function lazyChunk<T extends ComponentType<any>>(load: () => Promise<{ default: T }>, timeoutMs = CHUNK_TIMEOUT_MS) {
  const make = () =>
    lazy(() =>
      withTimeout(load(), timeoutMs).catch((error: unknown) => {
        throw new ChunkLoadError(error instanceof Error ? error.message : String(error), () => {
          current = make();
        });
      }),
    );
  let current = make();
  function Chunk(props: ComponentProps<T>) {
    const Inner = current as unknown as ComponentType<ComponentProps<T>>;
    return <Inner {...props} />;
  }
  return Chunk;
}

/** A dialog loaded on demand: its failure shows as a dialog of that title, which can be closed. */
export interface ChunkDialog {
  title: string;
  onClose: () => void;
}

/**
 * Loading panel (or the given fallback: nothing, for a dialog) while a page's
 * code arrives; a retry message if it does not, in a dialog of its own for
 * a dialog's code (where the page's flow would leave it out of sight).
 */
export function ChunkSuspense({ children, fallback = <LoadingPanel />, dialog }: { children: ReactNode; fallback?: ReactNode; dialog?: ChunkDialog }) {
  return (
    <ChunkBoundary dialog={dialog}>
      <Suspense fallback={fallback}>{children}</Suspense>
    </ChunkBoundary>
  );
}

type BoundaryState = { failed: Error | null; attempt: number };

class ChunkBoundary extends Component<{ children: ReactNode; dialog?: ChunkDialog }, BoundaryState> {
  state: BoundaryState = { failed: null, attempt: 0 };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failed: error instanceof Error ? error : new Error(String(error)) };
  }

  retry = () => {
    if (this.state.failed instanceof ChunkLoadError) this.state.failed.retry();
    this.setState((s) => ({ failed: null, attempt: s.attempt + 1 }));
  };

  render() {
    const { failed } = this.state;
    if (failed instanceof ChunkLoadError) return <ChunkFailed onRetry={this.retry} dialog={this.props.dialog} />;
    // Only missing code is this boundary's business: other errors go on up.
    if (failed) throw failed;
    // A new key remounts the subtree, so the fresh lazy component is asked.
    return <Fragment key={this.state.attempt}>{this.props.children}</Fragment>;
  }
}

/** The retry message, for code loaded outside a ChunkSuspense (a chart's library, say). */
export function ChunkFailed({ onRetry, dialog }: { onRetry: () => void; dialog?: ChunkDialog }) {
  const { t } = useTranslation();
  if (dialog)
    return (
      <Dialog
        title={dialog.title}
        onClose={dialog.onClose}
        actions={
          <>
            <button type="button" className="button button--primary" onClick={onRetry} data-autofocus>
              {t('app.chunkRetry')}
            </button>
            <button type="button" className="button button--quiet" onClick={dialog.onClose}>
              {t('common.cancel')}
            </button>
          </>
        }
      >
        <p role="alert">{t('app.chunkFailed')}</p>
      </Dialog>
    );
  return (
    <div className="loading-panel" role="alert">
      <p>{t('app.chunkFailed')}</p>
      <button type="button" className="button button--primary" onClick={onRetry}>
        {t('app.chunkRetry')}
      </button>
    </div>
  );
}
