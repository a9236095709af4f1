import { useMachine } from '@xstate/react';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../components/Dialog';
import { NumberField } from '../components/NumberField';
import { useWindowWidth } from '../components/useWindowWidth';
import { useNumberFormat } from '../results/format';
import { areaOf, canDivide, canMerge, dividedPieces, type AreaRef, type Catchment, type Corner } from './areas';
import { AreasTable } from './AreasTable';
import { CatchmentCanvas } from './CatchmentCanvas';
import { areaAt, canvasWidth, cornerPoint, maxWidthM, scaleFor, widthAtY, type Scale } from './canvasGeometry';
import { editorMachine, shownCatchment } from './editorMachine';
import { useAreaName } from './names';
import { SurfaceSelect } from './SurfaceSelect';

interface CatchmentEditorProps {
  catchment: Catchment;
  lengthM: number;
  /** A finished change of the areas: one run edit. */
  onCommit: (catchment: Catchment) => void;
  onClose: () => void;
}

/**
 * The catchment editor dialog (spec section 2): the drawing, the selected
 * area's widths and surface, divide and merge, and the table. Every action
 * has a key: the drawing takes the arrows (select), D (divide) and M
 * (merge); each corner of the selected area is a slider (0.1 m a step).
 */
export function CatchmentEditor({ catchment, lengthM, onCommit, onClose }: CatchmentEditorProps) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const areaName = useAreaName();
  const hintId = useId();
  const [snapshot, send, actor] = useMachine(editorMachine, { input: { selected: { side: 'left', index: 0 } } });
  const { selected, drag, divide } = snapshot.context;
  const [copying, setCopying] = useState(false);
  const commit = useRef(onCommit);
  useEffect(() => {
    commit.current = onCommit;
  });

  useEffect(() => {
    const subscription = actor.on('commit', (event) => commit.current(event.catchment));
    return () => subscription.unsubscribe();
  }, [actor]);
  useEffect(() => {
    send({ type: 'SYNC', catchment });
  }, [catchment, send]);
  useEffect(() => {
    // Shift shows the copy cursor: a corner dragged then moves alone.
    const onKey = (event: globalThis.KeyboardEvent) => setCopying(event.shiftKey);
    window.addEventListener('keydown', onKey);
    window.addEventListener('keyup', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keyup', onKey);
    };
  }, []);

  const width = canvasWidth(useWindowWidth());
  const shown = shownCatchment(snapshot.context, catchment);
  // The drawing holds its scale while a corner is dragged.
  const scale = scaleFor(drag ? drag.start : catchment, lengthM, width);
  const maxWidth = maxWidthM(scale);
  const area = selected ? shown[selected.side][selected.index] : undefined;
  const name = selected ? areaName(selected) : '';

  function onCanvasKey(event: KeyboardEvent<HTMLDivElement>) {
    if (event.target !== event.currentTarget) return;
    const handled = (() => {
      switch (event.key) {
        case 'ArrowRight':
          send({ type: 'SELECT.STEP', catchment, step: 1 });
          return true;
        case 'ArrowLeft':
          send({ type: 'SELECT.STEP', catchment, step: -1 });
          return true;
        case 'ArrowUp':
        case 'ArrowDown':
          send({ type: 'SELECT.ACROSS', catchment });
          return true;
        case 'd':
        case 'D':
          send({ type: 'DIVIDE.OPEN', catchment });
          return true;
        case 'm':
          send({ type: 'MERGE', catchment, with: 'next' });
          return true;
        case 'M':
          send({ type: 'MERGE', catchment, with: 'previous' });
          return true;
        default:
          return false;
      }
    })();
    if (handled) event.preventDefault();
  }

  function onCanvasPointer(_event: PointerEvent<HTMLCanvasElement>, point: [number, number]) {
    send({ type: 'SELECT', ref: areaAt(scale, shown, point) ?? selected });
  }

  return (
    <Dialog
      title={t('catchment.editorTitle')}
      width={width + 64}
      className="catchment-editor"
      onClose={divide ? undefined : onClose}
      actions={
        <button type="button" className="button" onClick={onClose}>
          {t('common.close')}
        </button>
      }
    >
      <p id={hintId} className="catchment-editor__hint">
        {t('catchment.keysHint')}
      </p>
      <div className="catchment-editor__canvas">
        <CatchmentCanvas
          catchment={shown}
          scale={scale}
          selected={selected}
          label={t('catchment.canvasLabel', { length: format(lengthM, 2) })}
          describedBy={hintId}
          onPointerDown={onCanvasPointer}
          onKeyDown={onCanvasKey}
          copying={copying}
        >
          {selected &&
            area &&
            (['start', 'end'] as const).map((corner) => (
              <CornerHandle
                key={`${selected.side}-${selected.index}-${corner}`}
                refTo={selected}
                corner={corner}
                width={corner === 'start' ? area.start_width_m : area.end_width_m}
                point={cornerPoint(scale, selected.side, area, corner)}
                scale={scale}
                maxWidth={maxWidth}
                label={t(corner === 'start' ? 'catchment.startCorner' : 'catchment.endCorner', { name })}
                unit={t('catchment.metres', { value: format(corner === 'start' ? area.start_width_m : area.end_width_m, 2) })}
                dragging={!!drag && drag.corner === corner}
                onStart={(alone) => send({ type: 'DRAG.START', catchment, ref: selected, corner, alone, maxWidth })}
                onMove={(y) => send({ type: 'DRAG.MOVE', width: widthAtY(scale, selected.side, y) })}
                onEnd={() => send({ type: 'DRAG.END' })}
                onCancel={() => send({ type: 'DRAG.CANCEL' })}
                onNudge={(steps, alone) => send({ type: 'NUDGE', catchment, ref: selected, corner, steps, maxWidth, alone })}
              />
            ))}
        </CatchmentCanvas>
      </div>

      {selected && area ? (
        <section className="catchment-editor__selected" aria-label={name}>
          <p className="catchment-editor__summary" role="status">
            {t('catchment.selectedSummary', { name, from: format(area.xOrigin, 2), to: format(area.xOrigin + area.length_m, 2), area: format(areaOf(area), 2) })}
          </p>
          <div className="design-form__grid">
            {(['start', 'end'] as const).map((corner: Corner) => (
              <NumberField
                key={corner}
                id={`catchment-${corner}-width`}
                label={t(corner === 'start' ? 'catchment.startDepth' : 'catchment.endDepth')}
                min={0}
                max={Math.floor(maxWidth * 10) / 10}
                step={0.1}
                value={Math.round((corner === 'start' ? area.start_width_m : area.end_width_m) * 1000) / 1000}
                onCommit={(value) => value !== null && send({ type: 'WIDTH', catchment, ref: selected, corner, width: value, maxWidth })}
              />
            ))}
            <SurfaceSelect
              id="catchment-area-surface"
              label={t('catchment.surface')}
              surface={area.permeability}
              value={area.permeability_value}
              onChange={(surface, custom) => send({ type: 'SURFACE', catchment, surface, custom })}
            />
          </div>
          <div className="button-row">
            <button type="button" className="button button--small" disabled={!canDivide(area)} onClick={() => send({ type: 'DIVIDE.OPEN', catchment })}>
              {t('catchment.divide')}
            </button>
            <button
              type="button"
              className="button button--quiet button--small"
              disabled={!canMerge(catchment, selected, { side: selected.side, index: selected.index - 1 })}
              onClick={() => send({ type: 'MERGE', catchment, with: 'previous' })}
            >
              {t('catchment.mergePrevious')}
            </button>
            <button
              type="button"
              className="button button--quiet button--small"
              disabled={!canMerge(catchment, selected, { side: selected.side, index: selected.index + 1 })}
              onClick={() => send({ type: 'MERGE', catchment, with: 'next' })}
            >
              {t('catchment.mergeNext')}
            </button>
          </div>
        </section>
      ) : (
        <p className="muted">{t('catchment.noSelection')}</p>
      )}

      <AreasTable catchment={shown} selected={selected} onSelect={(ref) => send({ type: 'SELECT', ref })} />

      {divide && (
        <DivideWindow
          name={areaName(divide.ref)}
          lengthM={divide.lengthM}
          left={divide.left}
          right={divide.right}
          areas={(() => {
            const pieces = catchment[divide.ref.side][divide.ref.index] ? dividedPieces(catchment[divide.ref.side][divide.ref.index]!, divide.left) : null;
            return pieces ? [areaOf(pieces[0]), areaOf(pieces[1])] : null;
          })()}
          onLeft={(value) => send({ type: 'DIVIDE.LEFT', value })}
          onRight={(value) => send({ type: 'DIVIDE.RIGHT', value })}
          onConfirm={() => send({ type: 'DIVIDE.CONFIRM', catchment })}
          onCancel={() => send({ type: 'DIVIDE.CANCEL' })}
        />
      )}
    </Dialog>
  );
}

interface CornerHandleProps {
  refTo: AreaRef;
  corner: Corner;
  width: number;
  point: [number, number];
  scale: Scale;
  maxWidth: number;
  label: string;
  unit: string;
  dragging: boolean;
  onStart: (alone: boolean) => void;
  onMove: (y: number) => void;
  onEnd: () => void;
  onCancel: () => void;
  onNudge: (steps: number, alone: boolean) => void;
}

/** A corner of the selected area: dragged with the pointer, or a slider for the keyboard (0.1 m a step, 1 m with Page keys). */
function CornerHandle({ refTo, corner, width, point, maxWidth, label, unit, dragging, onStart, onMove, onEnd, onCancel, onNudge }: CornerHandleProps) {
  // Up on the screen is wider for an upper area and narrower for a lower one; the slider's own keys go by width.
  const yOfPointer = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.parentElement!.getBoundingClientRect();
    return event.clientY - box.top;
  };
  return (
    <div
      role="slider"
      tabIndex={0}
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={Math.round(maxWidth * 10) / 10}
      aria-valuenow={Math.round(width * 1000) / 1000}
      aria-valuetext={unit}
      aria-orientation="vertical"
      data-side={refTo.side}
      data-corner={corner}
      className={`catchment-handle${dragging ? ' catchment-handle--dragging' : ''}`}
      style={{ left: point[0], top: point[1] }}
      onPointerDown={(event) => {
        event.preventDefault();
        event.currentTarget.setPointerCapture?.(event.pointerId);
        event.currentTarget.focus();
        onStart(event.shiftKey);
      }}
      onPointerMove={(event) => {
        if (dragging) onMove(yOfPointer(event));
      }}
      onPointerUp={() => {
        if (dragging) onEnd();
      }}
      onLostPointerCapture={() => {
        if (dragging) onEnd();
      }}
      onKeyDown={(event) => {
        const steps = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1, PageUp: 10, PageDown: -10 }[event.key];
        if (event.key === 'Escape' && dragging) {
          event.stopPropagation();
          onCancel();
          return;
        }
        if (steps === undefined) return;
        event.preventDefault();
        onNudge(steps, event.shiftKey);
      }}
    />
  );
}

interface DivideWindowProps {
  name: string;
  lengthM: number;
  left: number;
  right: number;
  areas: [number, number] | null;
  onLeft: (value: number) => void;
  onRight: (value: number) => void;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The divide window (spec sections 2 and 5): two lengths in steps of 0.1 m that always sum to the area's length, and the areas they give. */
function DivideWindow({ name, lengthM, left, right, areas, onLeft, onRight, onConfirm, onCancel }: DivideWindowProps) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const max = Math.round((lengthM - 0.1) * 10) / 10;
  return (
    <Dialog
      title={t('catchment.divideTitle', { name })}
      width={420}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="button button--quiet" onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button" onClick={onConfirm}>
            {t('catchment.divideConfirm')}
          </button>
        </>
      }
    >
      <p>{t('catchment.divideTotal', { length: format(lengthM, 2) })}</p>
      <div className="design-form__grid">
        <NumberField id="divide-left" label={t('catchment.divideLeft')} unit="m" min={0.1} max={max} step={0.1} value={left} onCommit={(v) => v !== null && onLeft(v)} hint={areas ? t('catchment.divideArea', { area: format(areas[0], 2) }) : null} />
        <NumberField id="divide-right" label={t('catchment.divideRight')} unit="m" min={0.1} max={max} step={0.1} value={right} onCommit={(v) => v !== null && onRight(v)} hint={areas ? t('catchment.divideArea', { area: format(areas[1], 2) }) : null} />
      </div>
    </Dialog>
  );
}
