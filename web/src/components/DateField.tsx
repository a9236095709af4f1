import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatISODate, parseLocalDate } from '../i18n/locale';
import { useDateLocale } from './useDateLocale';

interface DateFieldProps {
  id: string;
  /** The stored date, YYYY-MM-DD (or older free text, shown as it is). */
  value: string;
  /** Called with YYYY-MM-DD ('' when cleared) once the user leaves the field or picks a day. */
  onCommit: (value: string) => void;
}

/**
 * A date typed and shown in the user's locale (31/12/2025 for an English
 * user in the UK), stored as YYYY-MM-DD. The browser's own date input writes
 * dates in the browser's locale, which is not always the user's, so here it
 * only supplies the calendar behind the button.
 */
export function DateField({ id, value, onCommit }: DateFieldProps) {
  const { t } = useTranslation();
  const locale = useDateLocale();
  // What the user is typing; null shows the stored value.
  const [draft, setDraft] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);
  const calendar = useRef<HTMLInputElement>(null);
  const example = formatISODate('2025-12-31', locale);
  const hintId = `${id}-format`;

  function commit() {
    if (draft === null) return;
    const parsed = parseLocalDate(draft, locale);
    if (parsed === null) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setDraft(null);
    if (parsed !== value) onCommit(parsed);
  }

  function openCalendar() {
    const input = calendar.current;
    if (!input) return;
    try {
      input.showPicker();
    } catch {
      // A browser without showPicker: its own date input takes the focus instead.
      input.focus();
    }
  }

  return (
    <>
      <div className="date-field">
        <input
          id={id}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder={example}
          value={draft ?? formatISODate(value, locale)}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? hintId : undefined}
          onChange={(event) => setDraft(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit();
          }}
        />
        <button type="button" className="date-field__pick" aria-label={t('details.pickDate')} title={t('details.pickDate')} onClick={openCalendar}>
          <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
            <path d="M4 1v2H2.5A1.5 1.5 0 0 0 1 4.5v9A1.5 1.5 0 0 0 2.5 15h11a1.5 1.5 0 0 0 1.5-1.5v-9A1.5 1.5 0 0 0 13.5 3H12V1h-1.5v2h-5V1H4Zm-1.5 5h11v7.5h-11V6Zm1.5 1.5V9h1.5V7.5H4Zm3 0V9h1.5V7.5H7Zm3 0V9h1.5V7.5H10ZM4 10.5V12h1.5v-1.5H4Zm3 0V12h1.5v-1.5H7Z" />
          </svg>
        </button>
        <input
          ref={calendar}
          type="date"
          className="date-field__calendar"
          tabIndex={-1}
          aria-hidden="true"
          value={/^\d{4}-\d{2}-\d{2}$/.test(value) ? value : ''}
          onChange={(event) => {
            setDraft(null);
            setInvalid(false);
            if (event.target.value !== value) onCommit(event.target.value);
          }}
        />
      </div>
      {invalid && (
        <p id={hintId} className="field-errors">
          {t('details.dateFormat', { example })}
        </p>
      )}
    </>
  );
}
