import { useMachine } from '@xstate/react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../app/ServicesContext';
import { ChunkSuspense, lazyChunk } from '../components/chunk';
import { Dialog } from '../components/Dialog';
import { useMessageText } from '../components/MessageText';
import { NumberField } from '../components/NumberField';
import type { RunInputs } from '../design/types';
import { displayRainfall, RAINFALL_UNIT_LABELS, type RainfallUnit } from '../design/units';
import type { RunRainfall } from '../rainfall/types';
import { StorageGraph } from './StorageGraph';
import { canConfirm, createStorageMachine, isStale, type DraftField } from './storageMachine';
import { calculateMissing, freeDischarge, rateForDisplay, rateFromDisplay, type RateField } from './storageRules';
import type { StorageResult } from './types';

const RainfallMapDialog = lazyChunk(() => import('../rainfall/RainfallMapDialog'));

export interface ControlledDischargeDialogProps {
  inputs: RunInputs;
  defaultRainfall: number | null;
  units: RainfallUnit;
  /** UK users may look the rainfall up on the map from here. */
  canUseMap: boolean;
  onConfirm: (changes: Partial<RunInputs>) => void;
  onReset: (changes: Partial<RunInputs>) => void;
  onCancel: () => void;
  onRainfallApplied: (rainfall: RunRainfall, makeDefault: boolean) => void;
}

/** The controlled discharge dialog (spec section 2) of a high-capacity run. */
export default function ControlledDischargeDialog(props: ControlledDischargeDialogProps) {
  const { t } = useTranslation();
  const { drainage } = useServices();
  const text = useMessageText();
  const handlers = useRef(props);
  handlers.current = props;
  const [machine] = useState(() =>
    createStorageMachine({
      calculate: (body) => drainage.calculateStorage(body),
      onConfirm: (changes) => handlers.current.onConfirm(changes),
      onReset: (changes) => handlers.current.onReset(changes),
      onCancel: () => handlers.current.onCancel(),
    }),
  );
  const [snapshot, send] = useMachine(machine, { input: { inputs: props.inputs, defaultRainfall: props.defaultRainfall } });
  const { context } = snapshot;
  const { draft, result, error } = context;
  const units = props.units;
  const unit = RAINFALL_UNIT_LABELS[units];
  const calculating = snapshot.matches({ editing: 'calculating' });
  const stale = isStale(context);
  const set = (field: DraftField) => (value: number | null) => send({ type: 'SET', field, value });
  const setRate = (field: RateField) => (value: number | null) => send({ type: 'SET_RATE', field, value: rateFromDisplay(field, value, units) });
  const shownRate = (field: RateField) => rateForDisplay(field, draft.rainfall[field], units);

  // The round trip: the map in place of this dialog, which comes back with its fields.
  if (snapshot.matches('map')) {
    return (
      <ChunkSuspense fallback={null} dialog={{ title: t('rainfall.title'), onClose: () => send({ type: 'MAP.CLOSED', rainfall: null }) }}>
        <RainfallMapDialog
          rainfall={draft.custom ? (props.inputs.rainfall as RunRainfall | undefined) : draft.rainfall}
          units={units}
          onApply={(rainfall, makeDefault) => {
            props.onRainfallApplied(rainfall, makeDefault);
            send({ type: 'MAP.CLOSED', rainfall });
          }}
          onCancel={() => send({ type: 'MAP.CLOSED', rainfall: null })}
        />
      </ChunkSuspense>
    );
  }

  const rain = draft.rainfall;
  const editable = draft.custom;
  return (
    <Dialog
      title={t('storage.title')}
      width={1180}
      className="storage-dialog"
      onClose={() => send({ type: 'CANCEL' })}
      actions={
        <>
          <button type="button" className="button button--danger" onClick={() => send({ type: 'RESET' })}>
            {t('storage.reset')}
          </button>
          <button
            type="button"
            className="button"
            disabled={calculating || calculateMissing(draft).length > 0}
            aria-busy={calculating || undefined}
            onClick={() => send({ type: 'CALCULATE' })}
          >
            {calculating ? t('storage.calculating') : t('storage.calculate')}
          </button>
          <button type="button" className="button button--primary" disabled={calculating || !canConfirm(context)} onClick={() => send({ type: 'CONFIRM' })}>
            {t('common.confirm')}
          </button>
          <button type="button" className="button button--quiet" onClick={() => send({ type: 'CANCEL' })}>
            {t('common.cancel')}
          </button>
        </>
      }
    >
      <div className="storage-dialog__body">
        <div className="storage-dialog__fields">
          <fieldset className="design-form__group">
            <legend>{t('storage.runSection')}</legend>
            <div className="design-form__grid">
              <NumberField id="storage-length" label={t('form.length')} unit="m" min={0} value={draft.channel_length_m} onCommit={set('channel_length_m')} />
              <NumberField id="storage-area" label={t('form.area')} unit="m²" min={0} value={draft.catchment_area_m2} onCommit={set('catchment_area_m2')} />
              <NumberField id="storage-permeability" label={t('form.permeabilityValue')} min={0} max={1} step={0.1} value={draft.permeability} onCommit={set('permeability')} />
              <NumberField id="storage-free" label={t('storage.freeDischarge')} unit="l/s" readOnly value={freeDischarge(draft)} onCommit={() => undefined} />
              <NumberField
                id="storage-controlled"
                label={t('storage.controlled')}
                unit="l/s"
                min={0}
                step={0.1}
                value={draft.controlled_outflow}
                onCommit={set('controlled_outflow')}
                hint={t('storage.controlledHint')}
              />
            </div>
          </fieldset>
          <fieldset className="design-form__group">
            <legend>{t('storage.rainfallSection')}</legend>
            <div className="storage-dialog__rain-head">
              <label className="checkbox">
                <input type="checkbox" checked={draft.custom} onChange={(event) => send({ type: 'CUSTOM', on: event.target.checked })} />
                {t('storage.customRainfall')}
              </label>
              {props.canUseMap && (
                <button type="button" className="button button--small" disabled={calculating} onClick={() => send({ type: 'MAP.OPEN' })}>
                  {t('rainfall.open')}
                </button>
              )}
            </div>
            {!draft.custom && rain.town && (
              <p className="field__hint">
                {t('storage.mapRainfall', {
                  town: rain.town,
                  period: rain.return_period ?? '',
                  climate: rain.climate_change_factor ?? 0,
                  m5: rain.M5 ?? '',
                  r: rain.r ?? '',
                })}
              </p>
            )}
            <div className="design-form__grid">
              <NumberField id="storage-intensity" label={t('form.rainfall')} unit={unit} min={0} readOnly={!editable} value={shownRate('rainfall_mm_per_hr')} onCommit={setRate('rainfall_mm_per_hr')} />
              <NumberField id="storage-duration" label={t('rainfall.stormDuration')} unit={t('rainfall.minutes')} min={0} readOnly={!editable} value={shownRate('storm_duration')} onCommit={setRate('storm_duration')} />
              <NumberField id="storage-r5" label={t('storage.rate5')} unit={unit} min={0} readOnly={!editable} value={shownRate('fiveMinuteRate')} onCommit={setRate('fiveMinuteRate')} />
              <NumberField id="storage-r15" label={t('storage.rate15')} unit={unit} min={0} readOnly={!editable} value={shownRate('fifteenMinuteRate')} onCommit={setRate('fifteenMinuteRate')} />
              <NumberField id="storage-r60" label={t('storage.rate60')} unit={unit} min={0} readOnly={!editable} value={shownRate('sixtyMinuteRate')} onCommit={setRate('sixtyMinuteRate')} />
            </div>
          </fieldset>
        </div>
        <div className="storage-dialog__results">
          {error && (
            <p className="notice notice--error" role="alert">
              {text(error)}
            </p>
          )}
          {result ? <StorageResults result={result} stale={stale} units={units} /> : !error && <p className="storage-dialog__empty">{t('storage.empty')}</p>}
        </div>
      </div>
    </Dialog>
  );
}

function StorageResults({ result, stale, units }: { result: StorageResult; stale: boolean; units: RainfallUnit }) {
  const { t } = useTranslation();
  const rows: [string, string][] = [
    [t('storage.channel'), result.channel_name],
    [t('storage.criticalDuration'), `${result.critical_duration_min} ${t('rainfall.minutesShort')}`],
    [t('storage.orifice'), result.restricted === false ? t('storage.noOrifice') : `${result.orifice_diameter_mm} mm`],
    [t('storage.criticalRainfall'), `${displayRainfall(result.critical_rainfall_mm_h, units)} ${RAINFALL_UNIT_LABELS[units]}`],
    [t('storage.volume'), `${result.channel_capacity_m3} m³`],
    [t('storage.freeBoard'), `${result.minimum_free_board_m} m`],
  ];
  return (
    <section className={stale ? 'storage-results storage-results--stale' : 'storage-results'} aria-label={t('storage.results')}>
      {result.flooded && (
        <p className="notice notice--error" role="alert">
          {t('storage.flooded')}
        </p>
      )}
      {stale && <p className="notice">{t('storage.stale')}</p>}
      <table className="spec-table storage-results__table">
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <StorageGraph result={result} />
      <div className="storage-results__images">
        {result.x_section_image && <img src={`data:image/png;base64,${result.x_section_image}`} alt={t('storage.section')} width={420} height={420} />}
      </div>
    </section>
  );
}
