import './catchment.css';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NumberField } from '../components/NumberField';
import { useNumberFormat } from '../results/format';
import { popupErrors, type PopupContext, type PopupEvent } from './itemPopupMachine';
import { ACCESSORY_TYPES, CONNECTIONS, accessBoxConnectionAllowed, accessoryTypesAt, anyAccessoryAt, canDeleteAccessory } from './items';

export interface SourceOption {
  id: string;
  name: string;
  /** The run's discharge as last calculated (l/s); null before it is calculated. */
  dischargeLps: number | null;
}

interface ItemPopupProps {
  context: PopupContext;
  send: (event: PopupEvent) => void;
  sources: SourceOption[];
}

/** The inflow or accessory popup (spec sections 2 and 5), a window that can be dragged by its title. */
export function ItemPopup({ context, send, sources }: ItemPopupProps) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const { draft, env, placed, showErrors } = context;
  if (!draft || !env) return null;
  const errors = popupErrors(context);
  const shown = (field: string) => (showErrors || field !== 'flow' ? errors[field] : undefined);
  const message = (field: string) => {
    const code = shown(field);
    return code ? t(`items.error.${code}` as 'items.error.outOfRun', { length: format(env.lengthM, 2) }) : null;
  };

  if (draft.kind === 'inflow') {
    const inflow = draft.item;
    const source = sources.find((s) => s.id === inflow.source);
    return (
      <FloatingWindow title={t('items.inflowTitle')} onClose={() => send({ type: 'CLOSE' })} actions={<Actions placed={placed} canDelete send={send} />}>
        <NumberField
          id="inflow-position"
          label={t('items.position')}
          unit="m"
          min={0}
          max={env.lengthM}
          step={0.1}
          value={inflow.distance_m}
          onCommit={(value) => send({ type: 'SET.POSITION', value })}
          error={message('position')}
        />
        <div className="field">
          <label htmlFor="inflow-source">{t('items.source')}</label>
          <select
            id="inflow-source"
            value={inflow.source ?? ''}
            onChange={(event) => {
              const chosen = sources.find((s) => s.id === event.target.value) ?? null;
              send({ type: 'SET.SOURCE', source: chosen?.id ?? null, flowLps: chosen?.dischargeLps ?? null });
            }}
          >
            <option value="">{t('items.noSource')}</option>
            {sources.map((option) => (
              <option key={option.id} value={option.id}>
                {t('items.fromRun', { run: option.name })}
              </option>
            ))}
          </select>
        </div>
        {source ? (
          <p className="field__hint">{source.dischargeLps === null ? t('items.sourceUncalculated', { run: source.name }) : t('items.sourceFlow', { run: source.name, flow: format(source.dischargeLps, 2) })}</p>
        ) : (
          <NumberField id="inflow-flow" label={t('items.flow')} unit="l/s" min={0} step={0.1} value={inflow.flow_lps || null} onCommit={(value) => send({ type: 'SET.FLOW', value })} error={message('flow')} />
        )}
        <fieldset className={`field radio-group${shown('connection') ? ' field--invalid' : ''}`}>
          <legend>{t('items.connection')}</legend>
          {CONNECTIONS.map((connection) => (
            <label key={connection}>
              <input
                type="radio"
                name="inflow-connection"
                checked={inflow.connection === connection}
                disabled={connection === 'access-box' && !accessBoxConnectionAllowed(env, inflow.distance_m)}
                onChange={() => send({ type: 'SET.CONNECTION', value: connection })}
              />
              {t(`items.connection.${connection}`)}
            </label>
          ))}
          {message('connection') && <p className="field-errors">{message('connection')}</p>}
        </fieldset>
      </FloatingWindow>
    );
  }

  const accessory = draft.item;
  const offered = Number.isFinite(accessory.distance_m) ? accessoryTypesAt(env, accessory.distance_m) : null;
  const nothingHere = Number.isFinite(accessory.distance_m) && !anyAccessoryAt(env, accessory.distance_m);
  return (
    <FloatingWindow
      title={t('items.accessoryTitle')}
      onClose={() => send({ type: 'CLOSE' })}
      actions={<Actions placed={placed} canDelete={canDeleteAccessory(accessory, env.dischargeSetting)} send={send} />}
    >
      <NumberField
        id="accessory-position"
        label={t('items.distance')}
        unit="m"
        min={0}
        max={env.lengthM}
        step={0.1}
        value={accessory.distance_m}
        onCommit={(value) => send({ type: 'SET.POSITION', value })}
        error={message('position')}
        hint={Number.isFinite(accessory.distance_m) ? t('items.fromHeadHint', { position: format(env.lengthM - accessory.distance_m, 2) }) : null}
      />
      <div className={shown('type') ? 'field field--invalid' : 'field'}>
        <label htmlFor="accessory-type">{t('items.type')}</label>
        <select id="accessory-type" value={accessory.type} onChange={(event) => send({ type: 'SET.TYPE', value: event.target.value as (typeof ACCESSORY_TYPES)[number] })}>
          <option value="" disabled>
            {t('items.typePlaceholder')}
          </option>
          {ACCESSORY_TYPES.map((type) => (
            <option key={type} value={type} disabled={!offered?.[type]}>
              {t(`items.type.${type}`)}
            </option>
          ))}
        </select>
        {message('type') && <p className="field-errors">{message('type')}</p>}
      </div>
      {nothingHere && (
        <div className="notice notice--warning" role="status">
          <p>{t('items.noAccessories')}</p>
          <p>{t('items.contactProvider')}</p>
        </div>
      )}
    </FloatingWindow>
  );
}

function Actions({ placed, canDelete, send }: { placed: boolean; canDelete: boolean; send: (event: PopupEvent) => void }) {
  const { t } = useTranslation();
  return (
    <>
      {placed && (
        <button type="button" className="button button--danger button--small" disabled={!canDelete} onClick={() => send({ type: 'DELETE' })}>
          {t('items.delete')}
        </button>
      )}
      <button type="button" className="button button--quiet button--small" onClick={() => send({ type: 'CLOSE' })}>
        {t('common.cancel')}
      </button>
      <button type="button" className="button button--small" onClick={() => send({ type: 'ACCEPT' })}>
        {t('common.ok')}
      </button>
    </>
  );
}

/**
 * A window over the page that leaves the profile in view and can be dragged
 * by its title (pointer), so it never hides the place being edited. Escape
 * closes it; focus starts in its first field.
 */
function FloatingWindow({ title, children, actions, onClose }: { title: string; children: ReactNode; actions: ReactNode; onClose: () => void }) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const dragFrom = useRef<{ x: number; y: number; start: { x: number; y: number } } | null>(null);
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });
  useEffect(() => {
    box.current?.querySelector<HTMLElement>('input, select, button')?.focus();
  }, []);
  return (
    <div
      ref={box}
      className="item-popup"
      role="dialog"
      aria-labelledby={titleId}
      style={{ transform: `translate(${offset.x}px, ${offset.y}px)` }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          close.current();
        }
      }}
    >
      <h3
        id={titleId}
        className="item-popup__title"
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture?.(event.pointerId);
          dragFrom.current = { x: event.clientX, y: event.clientY, start: offset };
        }}
        onPointerMove={(event) => {
          const from = dragFrom.current;
          if (from) setOffset({ x: from.start.x + event.clientX - from.x, y: from.start.y + event.clientY - from.y });
        }}
        onPointerUp={() => {
          dragFrom.current = null;
        }}
      >
        {title}
      </h3>
      <div className="item-popup__body">{children}</div>
      <div className="dialog__actions">{actions}</div>
    </div>
  );
}
