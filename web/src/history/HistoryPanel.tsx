import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices, useSession } from '../app/ServicesContext';
import { Dialog } from '../components/Dialog';
import { useMessageText } from '../components/MessageText';
import { useProject } from '../design/ProjectProvider';
import { isLanguageCode, toBcp47 } from '../i18n/languages';
import { navigate } from '../router/history';
import { paths } from '../router/routes';
import { useNumberFormat } from '../results/format';
import { entryLines, entryTitle, type Translate } from './describe';
import { createHistoryMachine, isStale, type HistoryActor, type HistorySnapshot } from './historyMachine';
import { dialogOpen, followTyping, projectShortcut } from './keyboard';
import type { HistoryEntry } from './types';
import { VersionDesign } from './VersionDesign';
import './history.css';

/** Changes listed under an entry before "and N more". */
const SHOWN_CHANGES = 4;

/**
 * The design screen's history: Undo and Redo (also Ctrl+Z and
 * Ctrl+Shift+Z), and a panel listing the project's versions, each to view
 * read-only or to restore. The history machine (historyMachine.ts) does
 * the work; this renders it and hands it the project's id, version and
 * whether its own edits are still on their way.
 */
export function HistoryPanel() {
  const services = useServices();
  const [machine] = useState(() => createHistoryMachine({ api: services.history }));
  const actor = useActorRef(machine);
  const id = useProject((s) => s.context.data?.id ?? null);
  const version = useProject((s) => s.context.data?.version ?? 0);
  const idle = useProject((s) => s.context.queue.length === 0 && s.context.inFlight === null);

  useEffect(() => {
    actor.send({ type: 'PROJECT', id, version, idle });
  }, [actor, id, version, idle]);

  useEffect(() => {
    const typing = followTyping(document);
    const onKey = (event: KeyboardEvent) => {
      const shortcut = projectShortcut(event, { typing: typing.typing(), inDialog: dialogOpen(document) });
      if (!shortcut) return;
      event.preventDefault();
      actor.send({ type: shortcut === 'undo' ? 'UNDO' : 'REDO' });
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      typing.stop();
    };
  }, [actor]);

  return <HistoryView actor={actor} />;
}

function HistoryView({ actor }: { actor: HistoryActor }) {
  const { t } = useTranslation();
  const history = useSelector(actor, (s) => s.context.history);
  const open = useSelector(actor, (s) => s.context.open);
  const notice = useSelector(actor, (s) => s.context.notice);
  const error = useSelector(actor, (s) => s.context.error);
  const viewing = useSelector(actor, (s) => s.context.viewing);
  const stale = useSelector(actor, (s) => isStale(s.context));
  const busy = useSelector(actor, (s: HistorySnapshot) => s.context.moving !== null || s.context.queue.length > 0);
  const staff = useSession((s) => !!s.context.user && (s.context.user.shared_projects || s.context.user.is_admin));
  const text = useMessageText();
  if (!history) return null;

  const editable = history.editable;
  const canUndo = editable && (!!history.undo || stale || busy);
  const canRedo = editable && (!!history.redo || stale || busy);

  return (
    <>
      <div className="history-bar" role="toolbar" aria-label={t('history.title')}>
        {editable && (
          <>
            <button type="button" className="button button--quiet button--small" disabled={!canUndo} title={t('history.undoHint')} onClick={() => actor.send({ type: 'UNDO' })}>
              <span aria-hidden="true">↶ </span>
              {t('history.undo')}
            </button>
            <button type="button" className="button button--quiet button--small" disabled={!canRedo} title={t('history.redoHint')} onClick={() => actor.send({ type: 'REDO' })}>
              <span aria-hidden="true">↷ </span>
              {t('history.redo')}
            </button>
          </>
        )}
        <button type="button" className="button button--quiet button--small" aria-expanded={open} aria-controls="history-drawer" onClick={() => actor.send({ type: 'TOGGLE' })}>
          {t('history.open')} ({history.entries.length})
        </button>
        {!editable && staff && (
          <button type="button" className="button button--link button--small" onClick={() => navigate(paths.timeline(history.project))}>
            {t('timeline.title')}
          </button>
        )}
        <span className="history-bar__notice" role="status" aria-live="polite">
          {notice && t(`history.${notice}`)}
        </span>
      </div>
      {error && (
        <p className="notice notice--error history-error" role="alert">
          {text(error)}{' '}
          <button type="button" className="button button--link" onClick={() => actor.send({ type: 'ERROR.CLOSE' })}>
            {t('history.close')}
          </button>
        </p>
      )}
      {open && <HistoryDrawer actor={actor} />}
      {viewing !== null && <VersionDialog actor={actor} version={viewing} />}
    </>
  );
}

function useTimeFormat() {
  const { i18n } = useTranslation();
  const locale = isLanguageCode(i18n.language) ? toBcp47(i18n.language) : 'en';
  return useMemo(() => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }), [locale]);
}

function HistoryDrawer({ actor }: { actor: HistoryActor }) {
  const { t } = useTranslation();
  const history = useSelector(actor, (s) => s.context.history)!;
  const newestFirst = [...history.entries].reverse();
  return (
    <aside id="history-drawer" className="history-drawer" aria-labelledby="history-drawer-title">
      <header className="history-drawer__head">
        <h2 id="history-drawer-title">{t('history.title')}</h2>
        <button type="button" className="button button--quiet button--small" onClick={() => actor.send({ type: 'CLOSE' })}>
          {t('history.close')}
        </button>
      </header>
      <p className="history-drawer__intro">{t(history.editable ? 'history.intro' : 'history.introReadOnly')}</p>
      <ol className="history-list" aria-label={t('history.versions')}>
        {newestFirst.map((entry) => (
          <Entry key={entry.version} actor={actor} entry={entry} current={entry.version === history.version} editable={history.editable} author={history.authors[entry.author] ?? ''} />
        ))}
      </ol>
    </aside>
  );
}

interface EntryProps {
  actor: HistoryActor;
  entry: HistoryEntry;
  current: boolean;
  editable: boolean;
  author: string;
}

function Entry({ actor, entry, current, editable, author }: EntryProps) {
  const { t } = useTranslation();
  const translate = t as unknown as Translate;
  const times = useTimeFormat();
  const format = useNumberFormat();
  const lines = entryLines(translate, entry, (n, digits) => format(n, digits));
  const shown = lines.slice(0, SHOWN_CHANGES);
  const className = ['history-entry', entry.undone ? 'history-entry--undone' : '', current ? 'history-entry--current' : ''].filter(Boolean).join(' ');
  return (
    <li className={className} aria-label={t('history.version', { version: entry.version })}>
      <div className="history-entry__head">
        <strong>{entryTitle(translate, entry)}</strong>
        <span className="history-entry__version">{t('history.version', { version: entry.version })}</span>
      </div>
      <div className="history-entry__meta">
        {author && `${author} · `}
        <time dateTime={entry.at}>{times.format(new Date(entry.at))}</time>
        {current && <span className="history-badge">{t('history.current')}</span>}
        {entry.undone && <span className="history-badge history-badge--undone">{t('history.undone')}</span>}
      </div>
      {shown.length > 0 && (
        <ul className="history-entry__changes">
          {shown.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
          {lines.length > shown.length && <li className="muted">{t('history.more', { count: lines.length - shown.length })}</li>}
        </ul>
      )}
      <div className="history-entry__actions">
        <button
          type="button"
          className="button button--quiet button--small"
          aria-label={t('history.viewVersion', { version: entry.version })}
          onClick={() => actor.send({ type: 'VIEW', version: entry.version })}
        >
          {t('history.view')}
        </button>
        {editable && !current && (
          <button
            type="button"
            className="button button--quiet button--small"
            aria-label={t('history.restoreVersion', { version: entry.version })}
            onClick={() => actor.send({ type: 'RESTORE', version: entry.version })}
          >
            {t('history.restore')}
          </button>
        )}
      </div>
    </li>
  );
}

function VersionDialog({ actor, version }: { actor: HistoryActor; version: number }) {
  const { t } = useTranslation();
  const history = useSelector(actor, (s) => s.context.history);
  const times = useTimeFormat();
  if (!history) return null;
  const entry = history.entries.find((e) => e.from <= version && version <= e.version);
  const current = version === history.version;
  const close = () => actor.send({ type: 'VIEW.CLOSE' });
  return (
    <Dialog
      title={t('history.viewTitle', { version })}
      width={1180}
      onClose={close}
      className="version-dialog"
      actions={
        <>
          {history.editable && !current && (
            <button type="button" className="button button--primary" onClick={() => actor.send({ type: 'RESTORE', version })}>
              {t('history.restoreThis')}
            </button>
          )}
          <button type="button" className="button" onClick={close}>
            {t('history.close')}
          </button>
        </>
      }
    >
      {entry && <p className="muted">{t('history.viewIntro', { time: times.format(new Date(entry.at)) })}</p>}
      <VersionDesign key={`${history.project}:${version}`} projectId={history.project} version={version} />
    </Dialog>
  );
}
