import { useEffect, useId, useRef, type ReactNode } from 'react';

interface DialogProps {
  title: ReactNode;
  children: ReactNode;
  /** The buttons along the bottom. */
  actions?: ReactNode;
  /** Escape and the backdrop close the dialog when given. */
  onClose?: () => void;
  /** Width in px (spec section 9: error 600, super-critical 800). */
  width?: number;
  tone?: 'default' | 'warning' | 'error';
  className?: string;
}

/**
 * A modal dialog: the page behind is out of reach, focus starts inside and
 * returns where it was when the dialog closes.
 */
export function Dialog({ title, children, actions, onClose, width = 560, tone = 'default', className }: DialogProps) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const first = box.current?.querySelector<HTMLElement>('[data-autofocus], input, select, textarea, button:not([disabled])');
    (first ?? box.current)?.focus();
    return () => before?.focus?.();
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && close.current) {
        event.stopPropagation();
        close.current();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div
      className="overlay"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose?.();
      }}
    >
      <div
        ref={box}
        className={`dialog dialog--${tone}${className ? ` ${className}` : ''}`}
        role={tone === 'default' ? 'dialog' : 'alertdialog'}
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        style={{ width: `min(${width}px, 100%)` }}
      >
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
        <div className="dialog__body">{children}</div>
        {actions && <div className="dialog__actions">{actions}</div>}
      </div>
    </div>
  );
}
