import { useState, type DragEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { lowFreeboard } from './freeboard';
import { useProject, useProjectActor, useRunView } from './ProjectProvider';
import { displayRunName } from './runNames';

/** The project's runs: click to select, drag (or Alt+arrow) to reorder, rename in place, delete. */
export function RunList() {
  const { t } = useTranslation();
  const project = useProjectActor();
  const order = useProject((s) => s.context.data?.order ?? [], sameList);
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);

  function move(runId: string, to: number) {
    const next = order.filter((id) => id !== runId);
    next.splice(Math.max(0, Math.min(to, next.length)), 0, runId);
    if (next.join() !== order.join()) project.send({ type: 'REORDER', order: next });
  }

  return (
    <ol className="run-list" aria-label={t('runs.title')}>
      {order.map((runId, index) => (
        <RunItem
          key={runId}
          runId={runId}
          dragging={dragged === runId}
          dropTarget={over === runId && dragged !== runId}
          onDragStart={() => setDragged(runId)}
          onDragEnd={() => {
            setDragged(null);
            setOver(null);
          }}
          onDragOver={(event) => {
            if (!dragged) return;
            event.preventDefault();
            setOver(runId);
          }}
          onDrop={(event) => {
            event.preventDefault();
            if (dragged && dragged !== runId) move(dragged, order.indexOf(runId));
            setDragged(null);
            setOver(null);
          }}
          onMove={(delta) => move(runId, index + delta)}
        />
      ))}
    </ol>
  );
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

interface RunItemProps {
  runId: string;
  dragging: boolean;
  dropTarget: boolean;
  onDragStart: () => void;
  onDragEnd: () => void;
  onDragOver: (event: DragEvent) => void;
  onDrop: (event: DragEvent) => void;
  onMove: (delta: number) => void;
}

function RunItem({ runId, dragging, dropTarget, onDragStart, onDragEnd, onDragOver, onDrop, onMove }: RunItemProps) {
  const { t } = useTranslation();
  const project = useProjectActor();
  const stored = useProject((s) => s.context.data?.runs[runId]?.name ?? '');
  // A default "Run N" is shown in the interface language; renaming starts from what is shown.
  const name = displayRunName(t, stored);
  const selected = useProject((s) => s.context.selectedRunId === runId);
  const view = useRunView(runId);
  // Only an up-to-date calculation is flagged: a changed run's old figures no longer hold.
  const low = useProject((s) => {
    const data = s.context.data;
    return view.state === 'calculated' && !!data && lowFreeboard(data.runs[runId]?.results, data.freeboardMargin);
  });
  const [renaming, setRenaming] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.altKey && event.key === 'ArrowUp') {
      event.preventDefault();
      onMove(-1);
    } else if (event.altKey && event.key === 'ArrowDown') {
      event.preventDefault();
      onMove(1);
    } else if (event.key === 'F2') {
      event.preventDefault();
      setRenaming(true);
    }
  }

  const classes = ['run-item', selected && 'run-item--selected', dragging && 'run-item--dragging', dropTarget && 'run-item--drop'].filter(Boolean).join(' ');
  return (
    <li className={classes} draggable={!renaming} onDragStart={onDragStart} onDragEnd={onDragEnd} onDragOver={onDragOver} onDrop={onDrop} data-run={stored}>
      <span className="run-item__handle" aria-hidden="true" title={t('runs.drag')}>
        ⋮⋮
      </span>
      {renaming ? (
        <input
          className="run-item__rename"
          aria-label={t('runs.newName')}
          defaultValue={name}
          autoFocus
          onFocus={(event) => event.target.select()}
          onBlur={(event) => {
            setRenaming(false);
            // Left as shown, a default name stays the default (and follows the language).
            project.send({ type: 'RENAME', runId, name: event.target.value.trim() === name ? stored : event.target.value });
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') event.currentTarget.blur();
            if (event.key === 'Escape') {
              event.currentTarget.value = name;
              event.currentTarget.blur();
            }
          }}
        />
      ) : (
        <button
          type="button"
          className="run-item__name"
          aria-current={selected || undefined}
          aria-keyshortcuts="Alt+ArrowUp Alt+ArrowDown F2"
          onClick={() => project.send({ type: 'SELECT_RUN', runId })}
          onDoubleClick={() => setRenaming(true)}
          onKeyDown={onKeyDown}
        >
          <span className={`run-state run-state--${view.calculating ? 'calculating' : view.state}`} aria-hidden="true" />
          <span className="run-item__label">{name}</span>
          <span className="visually-hidden">{`, ${t(view.calculating ? 'runs.state.calculating' : `runs.state.${view.state}`)}`}</span>
          {low && (
            <span className="run-item__flag" title={t('runs.lowFreeboard')}>
              <span aria-hidden="true">⚠</span>
              <span className="visually-hidden">{`, ${t('runs.lowFreeboard')}`}</span>
            </span>
          )}
        </button>
      )}
      {!renaming && !confirmDelete && (
        <span className="run-item__actions">
          <button type="button" className="icon-button" aria-label={t('runs.rename', { name })} title={t('runs.renameShort')} onClick={() => setRenaming(true)}>
            ✎
          </button>
          <button type="button" className="icon-button" aria-label={t('runs.delete', { name })} title={t('runs.deleteShort')} onClick={() => setConfirmDelete(true)}>
            ×
          </button>
        </span>
      )}
      {confirmDelete && (
        <span className="run-item__confirm" role="group" aria-label={t('runs.delete', { name })}>
          <button
            type="button"
            className="button button--danger button--small"
            autoFocus
            onClick={() => {
              setConfirmDelete(false);
              project.send({ type: 'REMOVE', runId });
            }}
          >
            {t('runs.deleteShort')}
          </button>
          <button type="button" className="button button--quiet button--small" onClick={() => setConfirmDelete(false)}>
            {t('common.cancel')}
          </button>
        </span>
      )}
    </li>
  );
}
