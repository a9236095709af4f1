import { useMachine } from '@xstate/react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices, useSession } from '../app/ServicesContext';
import { NumberField } from '../components/NumberField';
import { Notice } from '../components/Notice';
import { useMessageText } from '../components/MessageText';
import { useDocumentTitle } from '../components/useDocumentTitle';
import type { Workspace } from '../design/workspace';
import { isLanguageCode, toBcp47 } from '../i18n/languages';
import { navigate } from '../router/history';
import { paths } from '../router/routes';
import { useNumberFormat } from '../results/format';
import { changeText, entryTitle, type Translate } from './describe';
import { DiffView } from './DiffView';
import { createTimelineMachine, type TimelineSnapshot } from './timelineMachine';
import type { ProjectHistory } from './types';
import { VersionDesign } from './VersionDesign';
import './history.css';

/** Opens a project of the user's in the design screen, in place of the one open there. */
export function openInDesign(workspace: Workspace, username: string, projectId: string) {
  const { actor, created } = workspace.acquire(username, () => ({ kind: 'load', key: { id: projectId } }));
  if (!created) actor.send({ type: 'LOAD', key: { id: projectId } });
  navigate(paths.home);
}

/**
 * /staff/timeline/{projectId}: a project's timeline for provider support
 * (projects shared with the provider) and admins (any). Every change in
 * order with who and when; a version picked by the slider, the field or
 * the list is shown read-only as the design screen showed it; two versions
 * compared; a version copied into a project of one's own.
 */
export function TimelineScreen({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const services = useServices();
  const username = useSession((s) => s.context.user?.username ?? '');
  const [machine] = useState(() =>
    createTimelineMachine({ api: services.history, openCopy: (id) => openInDesign(services.workspace, username, id) }),
  );
  const [snapshot, send] = useMachine(machine, { input: { projectId } });
  const text = useMessageText();
  const history = snapshot.context.history;
  const name = history?.name || t('timeline.untitled');
  useDocumentTitle(t('timeline.heading', { name }));

  return (
    <section className="card timeline" aria-labelledby="timeline-title">
      <header className="timeline__header">
        <h1 id="timeline-title">{t('timeline.heading', { name })}</h1>
        <p className="form__intro">{t('timeline.intro')}</p>
      </header>
      {snapshot.matches('loading') && <p className="muted">{t('app.loading')}</p>}
      {snapshot.matches('failed') && (
        <Notice tone="error">
          {snapshot.context.hidden ? t('timeline.notAllowed') : text(snapshot.context.error ?? { key: 'timeline.loadFailed' })}{' '}
          {!snapshot.context.hidden && (
            <button type="button" className="button button--link" onClick={() => send({ type: 'RETRY' })}>
              {t('projects.retry')}
            </button>
          )}
        </Notice>
      )}
      {history && snapshot.matches('ready') && <TimelineBody history={history} snapshot={snapshot} send={send} />}
    </section>
  );
}

type Send = ReturnType<typeof useMachine<ReturnType<typeof createTimelineMachine>>>[1];

function TimelineBody({ history, snapshot, send }: { history: ProjectHistory; snapshot: TimelineSnapshot; send: Send }) {
  const { t } = useTranslation();
  const selected = snapshot.context.selected;
  const copying = snapshot.matches({ ready: { copy: 'copying' } });
  return (
    <div className="timeline__layout">
      <aside className="timeline__side" aria-label={t('timeline.events')}>
        <div className="timeline__picker">
          <NumberField id="timeline-version" label={t('timeline.version')} value={selected} min={1} max={history.version} step={1} onCommit={(value) => value !== null && send({ type: 'SELECT', version: value })} />
          <input
            type="range"
            className="timeline__slider"
            aria-label={t('timeline.slider')}
            min={1}
            max={history.version}
            step={1}
            value={selected}
            onChange={(event) => send({ type: 'SELECT', version: Number(event.target.value) })}
          />
        </div>
        <EventList history={history} selected={selected} onPick={(version) => send({ type: 'SELECT', version })} />
      </aside>
      <div className="timeline__main">
        <div className="timeline__version-head">
          <h2>{t('timeline.showing', { version: selected, total: history.version })}</h2>
          <div className="timeline__copy">
            <button type="button" className="button button--primary button--small" disabled={copying} onClick={() => send({ type: 'COPY' })}>
              {copying ? t('timeline.copying') : t('timeline.copy')}
            </button>
            <span className="muted">{t('timeline.copyHint')}</span>
          </div>
          {snapshot.matches({ ready: { copy: 'failed' } }) && <Notice tone="error">{t('timeline.copyFailed')}</Notice>}
        </div>
        <VersionDesign key={selected} projectId={history.project} version={selected} />
        <Comparison history={history} snapshot={snapshot} send={send} />
      </div>
    </div>
  );
}

function EventList({ history, selected, onPick }: { history: ProjectHistory; selected: number; onPick: (version: number) => void }) {
  const { t, i18n } = useTranslation();
  const translate = t as unknown as Translate;
  const format = useNumberFormat();
  const locale = isLanguageCode(i18n.language) ? toBcp47(i18n.language) : 'en';
  const times = useMemo(() => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }), [locale]);
  return (
    <ol className="timeline-list">
      {history.entries.map((entry) => (
        <li key={entry.version} className={`timeline-entry${entry.from <= selected && selected <= entry.version ? ' timeline-entry--selected' : ''}`}>
          <div className="timeline-entry__head">
            <strong>{entryTitle(translate, entry)}</strong>
          </div>
          <div className="timeline-entry__meta">
            {history.authors[entry.author] ?? ''} · <time dateTime={entry.at}>{times.format(new Date(entry.at))}</time>
          </div>
          <ul className="timeline-entry__changes">
            {entry.changes.map((change) => (
              <li key={change.version}>
                <button
                  type="button"
                  className="timeline-change"
                  aria-pressed={change.version === selected}
                  aria-label={`${t('timeline.pickVersion', { version: change.version })}: ${changeText(translate, change, (n, d) => format(n, d))}`}
                  onClick={() => onPick(change.version)}
                >
                  <span className="timeline-change__version">{change.version}</span>
                  <span>{changeText(translate, change, (n, d) => format(n, d))}</span>
                </button>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

function Comparison({ history, snapshot, send }: { history: ProjectHistory; snapshot: TimelineSnapshot; send: Send }) {
  const { t } = useTranslation();
  const [from, setFrom] = useState(() => Math.max(1, history.version - 1));
  const [to, setTo] = useState(history.version);
  const diff = snapshot.context.diff;
  return (
    <section className="timeline__compare" aria-labelledby="compare-title">
      <h2 id="compare-title">{t('timeline.compareTitle')}</h2>
      <form
        className="timeline__compare-form"
        onSubmit={(event) => {
          event.preventDefault();
          send({ type: 'COMPARE', from, to });
        }}
      >
        <NumberField id="compare-from" label={t('timeline.from')} value={from} min={1} max={history.version} step={1} onCommit={(value) => value !== null && setFrom(value)} />
        <NumberField id="compare-to" label={t('timeline.to')} value={to} min={1} max={history.version} step={1} onCommit={(value) => value !== null && setTo(value)} />
        <button type="submit" className="button button--small">
          {t('timeline.compare')}
        </button>
      </form>
      {snapshot.matches({ ready: { comparison: 'comparing' } }) && <p className="muted">{t('diff.loading')}</p>}
      {snapshot.matches({ ready: { comparison: 'failed' } }) && <Notice tone="error">{t('diff.failed')}</Notice>}
      {diff && <DiffView diff={diff} />}
    </section>
  );
}
