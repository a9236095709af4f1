import { useTranslation } from 'react-i18next';
import { NumberField } from '../components/NumberField';
import { useProject, useProjectActor } from './ProjectProvider';
import {
  effectiveInputs,
  gratingsFor,
  isHighCapacity,
  loadingLabel,
  isPointProduct,
  LENGTH_WARNING_M,
  maxLength,
  maxSlope,
  needsGrating,
  needsLoading,
  pipeDiameters,
  standardSystems,
  SURFACES,
  type EditableField,
} from './runRules';
import type { RunRainfall } from '../rainfall/types';
import type { RunInputs } from './types';
import { displayRainfall, RAINFALL_UNIT_LABELS, toMmPerHour } from './units';
import { gratingName, systemName } from './catalogueText';
import { useNumberFormat } from '../results/format';
import { useProducts } from './useProducts';
import { useUkRegion } from './RainfallPanels';
import { CatchmentShapeField, CatchmentShapePanel } from '../catchment/CatchmentFields';
import { DischargeField } from '../catchment/TrashBoxRunPicker';

/**
 * The design parameters of the selected run (spec section 2, "Design
 * parameters form"). Advanced mode hides the system, loading and grating
 * (the channels screen has them) and keeps the controlled discharge.
 */
export function DesignForm({ advanced = false }: { advanced?: boolean }) {
  const { t } = useTranslation();
  const project = useProjectActor();
  const runId = useProject((s) => s.context.selectedRunId);
  const inputs = useProject((s) => (s.context.selectedRunId ? s.context.data?.runs[s.context.selectedRunId]?.inputs : undefined));
  const defaultRainfall = useProject((s) => s.context.data?.defaultRainfall ?? null);
  const units = useProject((s) => s.context.data?.rainfallUnits ?? 'mm/h');
  const products = useProducts();
  const format = useNumberFormat();
  const uk = useUkRegion();
  if (!inputs) return null;

  const run = effectiveInputs(inputs, defaultRainfall);
  const system = run.selectedSystem ?? null;
  const point = isPointProduct(system);
  const edit = (field: EditableField) => (value: unknown) => project.send({ type: 'EDIT', field, value });
  const systems = standardSystems(products.data ?? []);
  const gratings = gratingsFor(system, run.loading);
  const diameters = pipeDiameters(system);
  const length = run.channel_length_m ?? null;
  const lengthLimit = maxLength(run.calculation_method);
  const slopeLimit = maxSlope(run.calculation_method);
  const surface = SURFACES.find((option) => option.code === run.permeabilitySurface) ?? SURFACES[0];
  const controlled = typeof run.controlled_outflow === 'number' && run.controlled_outflow > 0 ? run.controlled_outflow : null;
  const rainfall = run.rainfall as RunRainfall;
  const openPanel = (panel: 'rainfallMap' | 'storage') => project.send({ type: 'PANEL', panel });

  return (
    <form className="design-form" aria-label={t('form.title')} onSubmit={(event) => event.preventDefault()} noValidate>
      {advanced && isHighCapacity(system) && (
        <fieldset className="design-form__group">
          <legend>{t('form.systemSection')}</legend>
          <div className="design-form__grid">
            <ControlledField controlled={controlled} onOpen={() => openPanel('storage')} />
          </div>
        </fieldset>
      )}
      {!advanced && (
      <fieldset className="design-form__group">
        <legend>{t('form.systemSection')}</legend>
        <div className="design-form__grid">
          <div className="field field--wide">
            <label htmlFor="run-system">{t('form.system')}</label>
            <select
              id="run-system"
              value={system?.slug ?? ''}
              aria-busy={products.isPending || undefined}
              onChange={(event) => {
                const chosen = systems.find((option) => option.slug === event.target.value);
                if (chosen) edit('selectedSystem')(chosen);
              }}
            >
              <option value="" disabled>
                {products.isPending ? t('form.systemsLoading') : t('form.systemPlaceholder')}
              </option>
              {systems.map((option) => (
                <option key={option.slug} value={option.slug}>
                  {systemName(t, option)} ({option.range})
                </option>
              ))}
            </select>
            {products.isError && <p className="field-errors">{t('form.systemsFailed')}</p>}
          </div>
          {needsLoading(system) && (
            <div className="field">
              <label htmlFor="run-loading">{t('form.loading')}</label>
              <select id="run-loading" value={run.loading ?? ''} onChange={(event) => edit('loading')(event.target.value)}>
                {system!.loading_classes.map((loading) => (
                  <option key={loading} value={loading}>
                    {loadingLabel(loading)}
                  </option>
                ))}
              </select>
            </div>
          )}
          {needsGrating(system) && (
            <div className={run.grating ? 'field field--wide' : 'field field--wide field--invalid'}>
              <label htmlFor="run-grating">{t('form.grating')}</label>
              <select id="run-grating" value={run.grating ?? ''} onChange={(event) => edit('grating')(event.target.value)}>
                <option value="" disabled>
                  {t('form.gratingPlaceholder')}
                </option>
                {gratings.map((grating) => (
                  <option key={grating.slug} value={grating.slug}>
                    {gratingName(t, grating)}
                  </option>
                ))}
              </select>
              {/* A phone's select cuts a long grating name short: the whole name, under it (the select already announces it). */}
              <p className="field__hint field__full-text" aria-hidden="true">
                {gratings.find((grating) => grating.slug === run.grating)?.description}
              </p>
            </div>
          )}
          {system && !point && system.minimumSizeOptions.length > 0 && (
            <div className="field">
              <label htmlFor="run-minimum-size">{t('form.minimumSize')}</label>
              <select id="run-minimum-size" value={String(run.minimumSize ?? system.minimumSizeOptions[0])} onChange={(event) => edit('minimumSize')(Number(event.target.value))}>
                {system.minimumSizeOptions.map((size) => (
                  <option key={size} value={size}>
                    {size} mm
                  </option>
                ))}
              </select>
            </div>
          )}
          {system && !point && (
            <fieldset className="field radio-group">
              <legend>{t('form.configuration')}</legend>
              <label>
                <input type="radio" name="run-configuration" checked={!run.stepped} onChange={() => edit('stepped')(false)} />
                {t('form.singleSize')}
              </label>
              <label>
                <input
                  type="radio"
                  name="run-configuration"
                  checked={run.stepped}
                  disabled={!system.canStep || controlled !== null}
                  onChange={() => edit('stepped')(true)}
                />
                {t('form.stepped')}
              </label>
            </fieldset>
          )}
          {isHighCapacity(system) && <ControlledField controlled={controlled} onOpen={() => openPanel('storage')} />}
          {point && (
            <>
              <div className="field">
                <label htmlFor="run-pipe">{t('form.pipeDiameter')}</label>
                <select id="run-pipe" value={String(run.pipe_diameter_mm ?? diameters[0] ?? '')} onChange={(event) => edit('pipe_diameter_mm')(Number(event.target.value))}>
                  {diameters.map((diameter) => (
                    <option key={diameter} value={diameter}>
                      DN {diameter}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field field--switch">
                <label>
                  <input
                    type="checkbox"
                    role="switch"
                    checked={!!run.has_body_extension}
                    disabled={!system?.pipeDiameters[String(run.pipe_diameter_mm ?? diameters[0])]?.extension_hat}
                    onChange={(event) => edit('has_body_extension')(event.target.checked)}
                  />
                  {t('form.extensionHat')}
                </label>
              </div>
              <NumberField label={t('form.waterInflow')} unit="l/s" min={0} value={run.water_inflow ?? null} onCommit={edit('water_inflow')} />
            </>
          )}
        </div>
      </fieldset>
      )}

      <fieldset className="design-form__group">
        <legend>{t('form.catchmentSection')}</legend>
        <div className="design-form__grid">
          <div className="field field--wide">
            <label htmlFor="run-location">{t('form.location')}</label>
            <input
              id="run-location"
              defaultValue={run.location}
              key={run.location}
              onBlur={(event) => {
                if (event.target.value !== run.location) edit('location')(event.target.value);
              }}
            />
          </div>
          <div className="design-form__stack">
            <NumberField
              id="run-rainfall"
              label={t('form.rainfall')}
              unit={RAINFALL_UNIT_LABELS[units]}
              min={0}
              value={displayRainfall(run.rainfall.rainfall_mm_per_hr, units)}
              onCommit={(value) => edit('rainfall_mm_per_hr')(value === null ? 0 : toMmPerHour(value, units))}
              error={run.rainfall.rainfall_mm_per_hr > 0 ? null : t('calc.blocker.noRainfall')}
              hint={
                rainfall.town
                  ? t('rainfall.fromMap', { town: rainfall.town, period: rainfall.return_period ?? '', duration: rainfall.storm_duration ?? '' })
                  : null
              }
            />
            {uk && (
              <button type="button" className="button button--small design-form__field-action" onClick={() => openPanel('rainfallMap')}>
                {t('rainfall.open')}
              </button>
            )}
          </div>
          {!point && (
            <NumberField
              id="run-length"
              label={t('form.length')}
              unit="m"
              min={0}
              value={length}
              onCommit={edit('channel_length_m')}
              adornment={
                length !== null && length > LENGTH_WARNING_M && length <= lengthLimit ? (
                  <span className="field__warning" role="img" aria-label={t('form.lengthWarningIcon')} title={t('form.lengthWarningIcon')}>
                    {' ⚠'}
                  </span>
                ) : null
              }
              error={length !== null && length > lengthLimit ? t('form.lengthOverLimit', { method: run.calculation_method, limit: lengthLimit }) : null}
            />
          )}
          {!point && (
            <NumberField id="run-depth" label={t('form.depth')} unit="m" min={0} step={0.001} value={run.catchment_depth_m ?? null} onCommit={edit('catchment_depth_m')} hint={t('form.depthHint')} />
          )}
          <NumberField
            id="run-area"
            label={t('form.area')}
            unit="m²"
            min={0}
            value={run.drainage_area_m2 ?? null}
            onCommit={edit('drainage_area_m2')}
            error={(run.drainage_area_m2 ?? 0) >= 100000 ? t('form.areaTooLarge') : null}
          />
          {!point && <CatchmentShapeField run={run} />}
          {run.catchmentShape !== 'irregular' && (
            <div className="field">
              <label htmlFor="run-surface">{t('form.permeability')}</label>
              <select id="run-surface" value={surface.code} onChange={(event) => edit('permeabilitySurface')(event.target.value)}>
                {SURFACES.map((option) => (
                  <option key={option.code} value={option.code}>
                    {t(`surface.${option.code}`)}
                    {option.value !== null ? ` (${format(option.value, 2)})` : ''}
                  </option>
                ))}
              </select>
            </div>
          )}
          {surface.code === 'custom' && run.catchmentShape !== 'irregular' && (
            <NumberField id="run-permeability" label={t('form.permeabilityValue')} min={0} max={1} step={0.1} value={run.permeability} onCommit={edit('permeability')} />
          )}
        </div>
        {!point && <CatchmentShapePanel run={run} />}
      </fieldset>

      {!point && (
        <fieldset className="design-form__group">
          <legend>{t('form.fallSection')}</legend>
          <div className="design-form__grid">
            <fieldset className="field radio-group">
              <legend>{t('form.method')}</legend>
              <label>
                <input type="radio" name="run-method" checked={run.calculation_method === 'GVF'} onChange={() => edit('calculation_method')('GVF')} />
                {t('form.methodGVF')}
              </label>
              <label>
                <input
                  type="radio"
                  name="run-method"
                  checked={run.calculation_method === 'HRW'}
                  disabled={!isHighCapacity(system)}
                  onChange={() => edit('calculation_method')('HRW')}
                />
                {t('form.methodHRW')}
              </label>
            </fieldset>
            <fieldset className="field radio-group">
              <legend>{t('form.slopeSetting')}</legend>
              <label>
                <input type="radio" name="run-slope-setting" checked={run.slopeSetting === 'slope'} onChange={() => edit('slopeSetting')('slope')} />
                {t('form.bySlope')}
              </label>
              <label>
                <input type="radio" name="run-slope-setting" checked={run.slopeSetting === 'elevation'} onChange={() => edit('slopeSetting')('elevation')} />
                {t('form.byElevation')}
              </label>
            </fieldset>
            {run.slopeSetting === 'slope' ? (
              <NumberField
                id="run-slope"
                label={t('form.slope')}
                unit="%"
                min={0}
                max={slopeLimit}
                step={0.01}
                value={run.ground_slope ?? 0}
                onCommit={edit('ground_slope')}
                error={(run.ground_slope ?? 0) < 0 ? t('calc.blocker.slopeNegative') : null}
              />
            ) : (
              <ElevationFields run={run} onEdit={edit} />
            )}
            {runId && <DischargeField runId={runId} run={run} />}
          </div>
        </fieldset>
      )}
    </form>
  );
}

/** The high-capacity system's controlled discharge: its value and the dialog's button. */
function ControlledField({ controlled, onOpen }: { controlled: number | null; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <span className="field__label" id="run-controlled-label">
        {t('storage.controlled')}
      </span>
      <div className="design-form__inline">
        <output id="run-controlled" aria-labelledby="run-controlled-label">
          {controlled !== null ? `${controlled} l/s` : t('storage.none')}
        </output>
        <button type="button" className="button button--small" onClick={onOpen}>
          {t('storage.open')}
        </button>
      </div>
    </div>
  );
}

function ElevationFields({ run, onEdit }: { run: RunInputs; onEdit: (field: EditableField) => (value: unknown) => void }) {
  const { t } = useTranslation();
  const slope = run.ground_slope ?? 0;
  return (
    <>
      <NumberField id="run-upper" label={t('form.upperElevation')} unit="m" step={0.001} value={run.upperElevation ?? null} onCommit={onEdit('upperElevation')} />
      <NumberField
        id="run-lower"
        label={t('form.lowerElevation')}
        unit="m"
        step={0.001}
        value={run.lowerElevation ?? null}
        onCommit={onEdit('lowerElevation')}
        error={slope < 0 ? t('calc.blocker.slopeNegative') : null}
      />
      <p className="design-form__derived" aria-live="polite">
        {t('form.resultingSlope', { slope })}
      </p>
    </>
  );
}
