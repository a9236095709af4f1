import type { InputHTMLAttributes, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message } from '../forms/messages';
import { MessageList } from './MessageText';

interface FieldFrameProps {
  id: string;
  label: string;
  required?: boolean;
  optional?: boolean;
  errors?: readonly Message[] | undefined;
  children: (describedBy: string | undefined, invalid: boolean) => ReactNode;
}

/** Label, control and the messages under it, wired together for screen readers. */
export function FieldFrame({ id, label, required, optional, errors, children }: FieldFrameProps) {
  const { t } = useTranslation();
  const invalid = !!errors && errors.length > 0;
  const errorId = `${id}-errors`;
  return (
    <div className={invalid ? 'field field--invalid' : 'field'}>
      <label htmlFor={id}>
        {label}
        {required && (
          // The input carries aria-required; the star is for the eye only.
          <span className="field__required" title={t('common.required')} aria-hidden="true">
            {' *'}
          </span>
        )}
        {optional && <span className="field__optional"> ({t('common.optional')})</span>}
      </label>
      {children(invalid ? errorId : undefined, invalid)}
      <MessageList id={errorId} messages={errors} />
    </div>
  );
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'id'> & {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  errors?: readonly Message[] | undefined;
  optional?: boolean;
};

export function TextField({ id, label, value, onValueChange, errors, required, optional, ...input }: TextFieldProps) {
  return (
    <FieldFrame id={id} label={label} required={required} optional={optional} errors={errors}>
      {(describedBy, invalid) => (
        <input
          id={id}
          name={id}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          aria-required={required || undefined}
          {...input}
        />
      )}
    </FieldFrame>
  );
}
