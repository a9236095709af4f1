import { useTranslation } from 'react-i18next';
import { LANGUAGES, toBcp47 } from '../i18n/languages';

interface LanguageSelectProps {
  id: string;
  value: string;
  onChange: (code: string) => void;
  disabled?: boolean;
  /** Shows the label above the select, as form fields have it. */
  labelled?: boolean;
}

/** Languages are listed in their own names, so anyone can find theirs. */
export function LanguageSelect({ id, value, onChange, disabled, labelled }: LanguageSelectProps) {
  const { t } = useTranslation();
  return (
    <div className={labelled ? 'language-select language-select--labelled' : 'language-select'}>
      <label htmlFor={id} className={labelled ? undefined : 'visually-hidden'}>
        {t('common.language')}
      </label>
      <span aria-hidden="true" className="language-select__icon">
        🌐
      </span>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)} disabled={disabled}>
        <LanguageOptions />
      </select>
    </div>
  );
}

/** The eleven languages as options, each in its own name and marked with its language. */
export function LanguageOptions() {
  return LANGUAGES.map((language) => (
    <option key={language.code} value={language.code} lang={toBcp47(language.code)}>
      {language.name}
    </option>
  ));
}
