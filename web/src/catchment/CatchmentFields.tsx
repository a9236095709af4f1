import './catchment.css';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWindowWidth } from '../components/useWindowWidth';
import { useProjectActor } from '../design/ProjectProvider';
import type { EffectiveInputs } from '../design/runRules';
import { useNumberFormat } from '../results/format';
import { catchmentOf, generateAreas, type Catchment } from './areas';
import { AreasTable } from './AreasTable';
import { CatchmentCanvas } from './CatchmentCanvas';
import { CatchmentEditor } from './CatchmentEditor';
import { canvasWidth, PICTURE_HEADROOM, PICTURE_HEIGHT, scaleFor } from './canvasGeometry';

/**
 * The catchment shape of the design form (spec section 2): the uniform or
 * irregular radio; a uniform catchment drawn on its canvas; an irregular
 * one's areas in a table with the button that opens the editor.
 */
export function CatchmentShapeField({ run }: { run: EffectiveInputs }) {
  const { t } = useTranslation();
  const project = useProjectActor();
  const irregular = run.catchmentShape === 'irregular';
  return (
    <fieldset className="field radio-group">
      <legend>{t('catchment.shape')}</legend>
      <label>
        <input type="radio" name="run-catchment-shape" checked={!irregular} onChange={() => project.send({ type: 'EDIT', field: 'catchmentShape', value: 'uniform' })} />
        {t('catchment.uniform')}
      </label>
      <label>
        <input type="radio" name="run-catchment-shape" checked={irregular} onChange={() => project.send({ type: 'EDIT', field: 'catchmentShape', value: 'irregular' })} />
        {t('catchment.irregular')}
      </label>
    </fieldset>
  );
}

/** The drawing (uniform) or the areas and the editor (irregular), below the catchment fields. */
export function CatchmentShapePanel({ run }: { run: EffectiveInputs }) {
  const { t } = useTranslation();
  const project = useProjectActor();
  const [editing, setEditing] = useState(false);
  const length = typeof run.channel_length_m === 'number' ? run.channel_length_m : 0;
  const irregular = run.catchmentShape === 'irregular';
  const areas = irregular ? catchmentOf(run) : null;

  if (!irregular) return <UniformDrawing run={run} />;
  if (!areas || !(length > 0)) return <p className="muted catchment-panel">{t('catchment.needsLengthAndArea')}</p>;
  return (
    <div className="catchment-panel">
      <AreasTable catchment={areas} />
      <button type="button" className="button button--small" onClick={() => setEditing(true)}>
        {t('catchment.editShape')}
      </button>
      {editing && (
        <CatchmentEditor
          catchment={areas}
          lengthM={length}
          onCommit={(catchment: Catchment) => project.send({ type: 'EDIT', field: 'catchmentAreas', value: catchment })}
          onClose={() => setEditing(false)}
        />
      )}
    </div>
  );
}

function UniformDrawing({ run }: { run: EffectiveInputs }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const width = canvasWidth(useWindowWidth());
  const uniform = generateAreas(run.channel_length_m, run.drainage_area_m2, 'custom', run.permeability);
  if (!uniform) return null;
  const length = run.channel_length_m!;
  const depth = uniform.left[0]!.start_width_m;
  return (
    <div className="catchment-panel">
      <CatchmentCanvas
        catchment={uniform}
        scale={scaleFor(uniform, length, width, PICTURE_HEIGHT, PICTURE_HEADROOM)}
        label={t('catchment.uniformDrawing', { depth: format(depth, 3), length: format(length, 2), area: format(run.drainage_area_m2, 2) })}
      />
    </div>
  );
}

/** The catchment as the results page shows it: a picture, not editable (spec sections 2 and 6). */
export function CatchmentDrawing({ run }: { run: EffectiveInputs }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const width = canvasWidth(useWindowWidth());
  const length = typeof run.channel_length_m === 'number' ? run.channel_length_m : 0;
  const areas = run.catchmentShape === 'irregular' ? catchmentOf(run) : generateAreas(length, run.drainage_area_m2, 'custom', run.permeability);
  if (!areas || !(length > 0)) return null;
  return (
    <div className="catchment-panel">
      <CatchmentCanvas catchment={areas} scale={scaleFor(areas, length, width, PICTURE_HEIGHT, PICTURE_HEADROOM)} label={t('catchment.drawingLabel', { length: format(length, 2), area: format(run.drainage_area_m2, 2) })} />
      {run.catchmentShape === 'irregular' && <AreasTable catchment={areas} />}
    </div>
  );
}
