import { useMachine } from '@xstate/react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../app/ServicesContext';
import { Dialog } from '../components/Dialog';
import { useMessageText } from '../components/MessageText';
import { NumberField } from '../components/NumberField';
import { displayRainfall, RAINFALL_UNIT_LABELS, type RainfallUnit } from '../design/units';
import { createRainfallMapMachine, isBusy } from './rainfallMapMachine';
import { canApply, durationLabel, mapSettingsFrom, runRainfallFrom } from './rainfallRules';
import type { PlaceHit } from './gazetteer';
import { PlaceSearch } from './PlaceSearch';
import { RainfallMap } from './RainfallMap';
import { CLIMATE_OPTIONS, type LatLng, type RunRainfall } from './types';

export interface RainfallMapDialogProps {
  /** The run's rainfall: the map opens on its last place and settings. */
  rainfall: RunRainfall | undefined;
  units: RainfallUnit;
  onApply: (rainfall: RunRainfall, makeDefault: boolean) => void;
  onCancel: () => void;
}

/** The UK rainfall map dialog (spec section 2), then the question about the default rainfall. */
export default function RainfallMapDialog({ rainfall, units, onApply, onCancel }: RainfallMapDialogProps) {
  const { t } = useTranslation();
  const { drainage } = useServices();
  const text = useMessageText();
  const handlers = useRef({ onApply, onCancel });
  handlers.current = { onApply, onCancel };
  const [machine] = useState(() =>
    createRainfallMapMachine({
      find: (query) => drainage.findRainStats(query),
      update: (query) => drainage.updateRainStats(query),
      onApply: (chosen, makeDefault) => handlers.current.onApply(chosen, makeDefault),
      onCancel: () => handlers.current.onCancel(),
    }),
  );
  const [snapshot, send] = useMachine(machine, { input: { settings: mapSettingsFrom(rainfall) } });
  const { settings, stats, error } = snapshot.context;
  const [focus, setFocus] = useState<LatLng | null>(null);
  const [searched, setSearched] = useState<PlaceHit | null>(null);
  const chooseSearched = (hit: PlaceHit) => {
    const point = { lat: hit.lat, lng: hit.lng };
    setSearched(hit);
    setFocus(point);
    send({ type: 'PICK', point });
  };
  const busy = isBusy(snapshot);
  const unit = RAINFALL_UNIT_LABELS[units];
  const shown = (mmPerHour: number) => displayRainfall(mmPerHour, units);
  const cancel = () => send({ type: 'CANCEL' });
  const rows: [number, number | null][] = stats ? stats.intensity : DURATIONS.map((minutes) => [minutes, null]);

  if (snapshot.matches('asking') && stats) {
    const chosen = runRainfallFrom(stats, settings);
    return (
      <Dialog
        title={t('rainfall.defaultTitle')}
        onClose={() => send({ type: 'DEFAULT.NO' })}
        actions={
          <>
            <button type="button" className="button button--primary" onClick={() => send({ type: 'DEFAULT.YES' })} data-autofocus>
              {t('common.yes')}
            </button>
            <button type="button" className="button button--quiet" onClick={() => send({ type: 'DEFAULT.NO' })}>
              {t('common.no')}
            </button>
          </>
        }
      >
        <p>{t('rainfall.defaultQuestion', { rainfall: `${shown(chosen.rainfall_mm_per_hr)} ${unit}` })}</p>
      </Dialog>
    );
  }

  return (
    <Dialog
      title={t('rainfall.title')}
      width={1000}
      className="rainfall-map"
      onClose={cancel}
      actions={
        <>
          <button
            type="button"
            className="button button--primary"
            disabled={busy || !canApply(settings, stats)}
            onClick={() => send({ type: 'OK' })}
          >
            {t('common.ok')}
          </button>
          <button type="button" className="button button--quiet" onClick={cancel}>
            {t('common.cancel')}
          </button>
        </>
      }
    >
      <div className="rainfall-map__layout">
        <div className="rainfall-map__map-column">
          <PlaceSearch onChoose={chooseSearched} />
          <RainfallMap
            point={settings.point}
            focus={focus}
            onPick={(point) => {
              setSearched(null);
              send({ type: 'PICK', point });
            }}
            label={t('rainfall.mapLabel')}
          />
          <p className="field__hint">{t('rainfall.mapHint')}</p>
        </div>
        <div className="rainfall-map__fields">
          <div className="field">
            <span className="field__label" id="rainfall-location-label">
              {t('rainfall.location')}
            </span>
            <output className="rainfall-map__location" aria-labelledby="rainfall-location-label" aria-busy={busy || undefined}>
              {stats ? `${stats.town} (${stats.LocationIndex})` : busy ? t('rainfall.lookingUp') : t('rainfall.noLocation')}
            </output>
            {searched && (
              <span className="field__hint" data-testid="rainfall-searched">
                {t('rainfall.searched', { place: searched.name })}
              </span>
            )}
          </div>
          <NumberField
            id="rainfall-return-period"
            label={t('rainfall.returnPeriod')}
            unit={t('rainfall.years')}
            min={1}
            step={1}
            value={settings.returnPeriod}
            onCommit={(value) => send({ type: 'SET_RETURN_PERIOD', value })}
            error={(settings.returnPeriod ?? 0) > 0 ? null : t('rainfall.aboveZero')}
          />
          <div className="field">
            <label htmlFor="rainfall-climate">{t('rainfall.climate')}</label>
            <select id="rainfall-climate" value={settings.climateFactor} onChange={(event) => send({ type: 'SET_CLIMATE', value: Number(event.target.value) })}>
              {CLIMATE_OPTIONS.map((option) => (
                <option key={option} value={option}>
                  {option === 0 ? '0 %' : `+${option} %`}
                </option>
              ))}
            </select>
          </div>
          <NumberField
            id="rainfall-duration"
            label={t('rainfall.stormDuration')}
            unit={t('rainfall.minutes')}
            min={1}
            step={1}
            value={settings.stormDuration}
            onCommit={(value) => send({ type: 'SET_DURATION', value })}
            error={(settings.stormDuration ?? 0) > 0 ? null : t('rainfall.aboveZero')}
          />
          <NumberField id="rainfall-intensity" label={t('form.rainfall')} unit={unit} readOnly value={stats ? shown(stats.rainfallIntensity) : null} onCommit={() => undefined} />
          <div className="rainfall-map__pair">
            <NumberField
              id="rainfall-m5"
              label={t('rainfall.m5')}
              unit="mm"
              min={0}
              step={0.1}
              disabled={!stats}
              value={stats?.M5 ?? null}
              onCommit={(value) => send({ type: 'SET_M5', value })}
            />
            <NumberField id="rainfall-r" label={t('rainfall.r')} min={0} step={0.01} disabled={!stats} value={stats?.r ?? null} onCommit={(value) => send({ type: 'SET_R', value })} />
          </div>
        </div>
      </div>
      {error && (
        <p className="notice notice--error" role="alert">
          {text(error)}
        </p>
      )}
      <table className="data-table rainfall-map__table" aria-label={t('rainfall.tableLabel')}>
        <thead>
          <tr>
            <th scope="row">{t('rainfall.duration')}</th>
            {rows.map(([minutes]) => {
              const label = durationLabel(minutes);
              return (
                <th key={minutes} scope="col">
                  {label.value} {t(label.unit === 'min' ? 'rainfall.minutesShort' : 'rainfall.hoursShort')}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">
              {t('rainfall.intensity')} ({unit})
            </th>
            {rows.map(([minutes, rate]) => (
              <td key={minutes}>{rate === null ? '–' : shown(rate)}</td>
            ))}
          </tr>
        </tbody>
      </table>
      {stats && (
        <div className="field__hint rainfall-map__source">
          <p className="rainfall-map__stats" data-testid="rainfall-stats">
            {stats.uncertainty
              ? t('rainfall.statsUncertain', { m5: stats.M5.toFixed(1), r: stats.r.toFixed(2), m5Error: stats.uncertainty.M5.toFixed(1), rError: stats.uncertainty.r.toFixed(2), points: stats.uncertainty.points })
              : t('rainfall.statsEntered', { m5: stats.M5.toFixed(1), r: stats.r.toFixed(2) })}
          </p>
          {stats.indicative && <p>{t('rainfall.indicative')}</p>}
          <details open>
            <summary>{t('rainfall.source')}</summary>
            {/* The data's attribution, as the server words it. */}
            <p lang="en">{stats.source}</p>
          </details>
        </div>
      )}
    </Dialog>
  );
}

/** The table's durations (minutes) before a place is chosen. */
const DURATIONS = [5, 10, 15, 30, 60, 120, 240, 480];
