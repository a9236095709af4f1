import { useEffect, useId, useState, type ReactNode } from 'react';

interface NumberFieldProps {
  id?: string;
  label: string;
  value: number | null | undefined;
  /** Called once the user is done: on Enter or on leaving the field. */
  onCommit: (value: number | null) => void;
  unit?: ReactNode;
  min?: number;
  max?: number;
  step?: number | 'any';
  disabled?: boolean;
  readOnly?: boolean;
  /** Shown beside the label, e.g. a warning sign. */
  adornment?: ReactNode;
  error?: string | null;
  hint?: string | null;
  required?: boolean;
}

/**
 * A number input that keeps what is being typed to itself and hands over the
 * value when the user is done, so that a half-typed number never reaches the
 * rules (or the server) and warnings come once, for the finished value.
 */
export function NumberField({ id, label, value, onCommit, unit, min, max, step = 'any', disabled, readOnly, adornment, error, hint, required }: NumberFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const shown = value === null || value === undefined || Number.isNaN(value) ? '' : String(value);
  const [draft, setDraft] = useState(shown);
  const [editing, setEditing] = useState(false);

  // Values arriving from elsewhere (another tab, a derived field) show unless the user is typing.
  useEffect(() => {
    if (!editing) setDraft(shown);
  }, [shown, editing]);

  function commit() {
    setEditing(false);
    const text = draft.trim().replace(',', '.');
    const parsed = text === '' ? null : Number(text);
    if (parsed !== null && Number.isNaN(parsed)) {
      setDraft(shown);
      return;
    }
    if (parsed !== (value ?? null)) onCommit(parsed);
  }

  const describedBy = [error ? `${inputId}-error` : null, hint ? `${inputId}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label htmlFor={inputId}>
        {label}
        {required && (
          <span className="field__required" aria-hidden="true">
            {' *'}
          </span>
        )}
        {adornment}
      </label>
      <div className="input-unit">
        <input
          id={inputId}
          type="number"
          inputMode="decimal"
          value={draft}
          min={min}
          max={max}
          step={step}
          disabled={disabled}
          readOnly={readOnly}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setEditing(true);
            setDraft(event.target.value);
          }}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              commit();
            }
            if (event.key === 'Escape') {
              setEditing(false);
              setDraft(shown);
            }
          }}
        />
        {unit && <span className="input-unit__unit">{unit}</span>}
      </div>
      {hint && (
        <p className="field__hint" id={`${inputId}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-errors" id={`${inputId}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
