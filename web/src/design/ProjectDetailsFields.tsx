import { useTranslation } from 'react-i18next';
import { DateField } from '../components/DateField';
import { DETAIL_FIELDS, type ProjectDetails } from './types';

const INPUT_TYPE: Partial<Record<keyof ProjectDetails, string>> = { telephone: 'tel', email: 'email' };

interface ProjectDetailsFieldsProps {
  idPrefix: string;
  details: ProjectDetails;
  /** Called when a field is left with a new value. */
  onChange: (changes: Partial<ProjectDetails>) => void;
  includeName?: boolean;
}

/** The project's detail fields; each hands over its value when the user leaves it. */
export function ProjectDetailsFields({ idPrefix, details, onChange, includeName }: ProjectDetailsFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      {DETAIL_FIELDS.filter((field) => includeName || field !== 'name').map((field) => (
        <div className="field" key={field}>
          <label htmlFor={`${idPrefix}-${field}`}>{t(`details.${field}`)}</label>
          {field === 'date' ? (
            <DateField id={`${idPrefix}-date`} value={details.date} onCommit={(date) => onChange({ date })} />
          ) : (
            <input
              id={`${idPrefix}-${field}`}
              type={INPUT_TYPE[field] ?? 'text'}
              // Keyed by the value so a change from elsewhere shows; typing is the input's own until it is left.
              key={details[field]}
              defaultValue={details[field]}
              onBlur={(event) => {
                if (event.target.value !== details[field]) onChange({ [field]: event.target.value });
              }}
            />
          )}
        </div>
      ))}
    </>
  );
}
