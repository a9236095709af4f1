import { useActorRef } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../app/ServicesContext';
import { DesignForm } from '../design/DesignForm';
import { MaterialsPanel } from '../design/MaterialsPanel';
import type { ProjectActor } from '../design/projectMachine';
import { ProjectProvider, useProject, useProjectActor, useRunView } from '../design/ProjectProvider';
import type { DesignTab } from '../design/projectSteps';
import { RunResults } from '../design/RunResults';
import { displayRunName } from '../design/runNames';
import { versionMachine } from './versionProject';
import './history.css';

interface VersionDesignProps {
  projectId: string;
  version: number;
}

/**
 * A version of a project as the design screen showed it, read only: its
 * runs, each run's design parameters (the form, every field disabled), its
 * results and its materials. Mount it with a key per version: a version
 * never changes, another one gets its own.
 */
export function VersionDesign({ projectId, version }: VersionDesignProps) {
  const services = useServices();
  const [{ machine, input }] = useState(() => versionMachine(services.history, services.drainage, projectId, version));
  const actor = useActorRef(machine, { input });
  return (
    <ProjectProvider actor={actor as ProjectActor}>
      <VersionLayout />
    </ProjectProvider>
  );
}

const TABS: DesignTab[] = ['system', 'run', 'materials'];

function VersionLayout() {
  const { t } = useTranslation();
  const project = useProjectActor();
  const broken = useProject((s) => s.matches('broken'));
  const ready = useProject((s) => s.matches('ready') && s.context.data !== null);
  const order = useProject((s) => s.context.data?.order ?? [], (a, b) => a.join() === b.join());
  const runId = useProject((s) => s.context.selectedRunId);
  const tab = useProject((s) => s.context.tab);
  const view = useRunView(runId);
  const enabled = (which: DesignTab) => which === 'system' || view.hasResults;
  const shown: DesignTab = enabled(tab) && TABS.includes(tab) ? tab : 'system';

  if (broken) return <p className="notice notice--error">{t('history.versionFailed')}</p>;
  if (!ready) return <p className="muted">{t('history.loading')}</p>;
  return (
    <div className="version-design">
      <ol className="version-design__runs" aria-label={t('runs.title')}>
        {order.map((id) => (
          <VersionRun key={id} runId={id} />
        ))}
      </ol>
      <section className="version-design__main">
        <div className="tabs" role="tablist" aria-label={t('tabs.label')}>
          {TABS.map((which) => (
            <button
              key={which}
              type="button"
              role="tab"
              className="tabs__tab"
              aria-selected={shown === which}
              disabled={!enabled(which)}
              onClick={() => project.send({ type: 'TAB', tab: which })}
            >
              {t(`tabs.${which}`)}
            </button>
          ))}
        </div>
        <div className="tabs__panel" role="tabpanel">
          {/* A disabled fieldset keeps every field and button of the version as it is. */}
          {shown === 'system' && (
            <fieldset className="version-design__frozen" disabled>
              <DesignForm />
            </fieldset>
          )}
          {shown === 'run' && (
            <fieldset className="version-design__frozen" disabled>
              <RunResults />
            </fieldset>
          )}
          {shown === 'materials' && <MaterialsPanel />}
        </div>
      </section>
    </div>
  );
}

function VersionRun({ runId }: { runId: string }) {
  const { t } = useTranslation();
  const project = useProjectActor();
  const name = useProject((s) => s.context.data?.runs[runId]?.name ?? '');
  const selected = useProject((s) => s.context.selectedRunId === runId);
  const view = useRunView(runId);
  return (
    <li>
      <button
        type="button"
        className={`version-design__run${selected ? ' version-design__run--selected' : ''}`}
        aria-pressed={selected}
        onClick={() => project.send({ type: 'SELECT_RUN', runId })}
      >
        <span className={`run-state run-state--${view.state}`} aria-hidden="true" />
        <span className="version-design__run-name">{displayRunName(t, name)}</span>
        <span className="version-design__run-state">{t(`runs.state.${view.state}`)}</span>
      </button>
    </li>
  );
}
