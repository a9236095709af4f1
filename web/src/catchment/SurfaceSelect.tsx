import { useTranslation } from 'react-i18next';
import { NumberField } from '../components/NumberField';
import { SURFACES, type SurfaceCode } from '../design/runRules';
import { useNumberFormat } from '../results/format';

interface SurfaceSelectProps {
  id: string;
  label: string;
  surface: SurfaceCode;
  value: number;
  onChange: (surface: SurfaceCode, custom?: number) => void;
}

/** The permeability options of spec section 3, with a custom value from 0 to 1 (step 0.1). */
export function SurfaceSelect({ id, label, surface, value, onChange }: SurfaceSelectProps) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  return (
    <>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <select id={id} value={surface} onChange={(event) => onChange(event.target.value as SurfaceCode, value)}>
          {SURFACES.map((option) => (
            <option key={option.code} value={option.code}>
              {t(`surface.${option.code}`)}
              {option.value !== null ? ` (${format(option.value, 2)})` : ''}
            </option>
          ))}
        </select>
      </div>
      {surface === 'custom' && (
        <NumberField id={`${id}-value`} label={t('form.permeabilityValue')} min={0} max={1} step={0.1} value={value} onCommit={(v) => onChange('custom', v ?? 1)} />
      )}
    </>
  );
}
