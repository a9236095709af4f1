import { useTranslation } from 'react-i18next';
import { NumberField } from '../components/NumberField';
import { DEFAULT_FREEBOARD_MIN_MM, DEFAULT_FREEBOARD_MIN_PERCENT } from './freeboard';
import { useProject, useProjectActor } from './ProjectProvider';

/** The project's freeboard margin: runs keeping less freeboard are flagged. Empty keeps the default. */
export function FreeboardMarginFields() {
  const { t } = useTranslation();
  const project = useProjectActor();
  const margin = useProject((s) => s.context.data?.freeboardMargin);
  const editable = useProject((s) => s.context.data?.editable ?? true);
  if (!margin) return null;
  return (
    <fieldset className="freeboard-margin">
      <legend>{t('column.freeboardMargin')}</legend>
      <NumberField
        id="freeboard-min-mm"
        label={t('column.freeboardMinMM')}
        unit="mm"
        min={0}
        max={1000}
        value={margin.minMM ?? DEFAULT_FREEBOARD_MIN_MM}
        readOnly={!editable}
        onCommit={(value) => project.send({ type: 'FREEBOARD_MARGIN', margin: { ...margin, minMM: clamp(value, 1000) } })}
      />
      <NumberField
        id="freeboard-min-percent"
        label={t('column.freeboardMinPercent')}
        unit="%"
        min={0}
        max={100}
        value={margin.minPercent ?? DEFAULT_FREEBOARD_MIN_PERCENT}
        readOnly={!editable}
        hint={t('column.freeboardHint')}
        onCommit={(value) => project.send({ type: 'FREEBOARD_MARGIN', margin: { ...margin, minPercent: clamp(value, 100) } })}
      />
    </fieldset>
  );
}

/** An emptied field returns to the default (null); a number is kept within the server's bounds. */
function clamp(value: number | null, max: number): number | null {
  if (value === null) return null;
  return Math.min(Math.max(value, 0), max);
}
