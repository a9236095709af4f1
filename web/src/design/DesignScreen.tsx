import { useEffect, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { LoadKey } from '../api/projectTypes';
import { useServices, useSession } from '../app/ServicesContext';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { LoadDialog } from '../projects/LoadDialog';
import { SaveDialog } from '../projects/SaveDialog';
import { ShareLinkDialog } from '../projects/ShareLinkDialog';
import { navigate } from '../router/history';
import { paths } from '../router/routes';
import { CalculatingOverlay } from './CalculatingOverlay';
import { DesignForm } from './DesignForm';
import { DocumentsPanel } from './DocumentsPanel';
import { HistoryPanel } from '../history/HistoryPanel';
import { ErrorDialog } from './ErrorDialog';
import { LoadProgress } from './LoadProgress';
import { MaterialsPanel } from './MaterialsPanel';
import { NotesDialog } from './NotesDialog';
import { ProjectColumn } from './ProjectColumn';
import { ProjectProvider, useProject, useProjectActor, useRunView } from './ProjectProvider';
import { RainfallPanels } from './RainfallPanels';
import type { DesignTab } from './projectSteps';
import { RunResults } from './RunResults';
import { displayRunName } from './runNames';
import { SaveStatus } from './SaveStatus';
import { WarningDialog } from './WarningDialog';
import { AdvancedRunTab } from './AdvancedRunTab';
import { isAdvanced } from './advancedRules';
import { useAdvancedMode } from './useAdvancedMode';
import type { ProjectActor } from './projectMachine';

interface DesignScreenProps {
  shareID: string | null;
  supportID?: string;
  /** Staff open any project, deleted ones too, by its id; the address stays, with the banner above. */
  superID?: string;
  banner?: ReactNode;
}

/** The main screen in standard mode: the project column and the run's tabs. */
export function DesignScreen({ shareID, supportID, superID, banner }: DesignScreenProps) {
  const { workspace } = useServices();
  const username = useSession((s) => s.context.user?.username ?? '');
  const key: LoadKey | null = shareID ? { shareID } : supportID ? { supportID } : superID ? { superID } : null;
  const [{ actor }] = useState(() =>
    workspace.acquire(username, (remembered) =>
      key ? { kind: 'load', key } : remembered ? { kind: 'load', key: { id: remembered }, fallbackToNew: true } : { kind: 'new' },
    ),
  );

  // A share or support link opens its project once; the address then goes back to the design screen.
  const keyText = key ? JSON.stringify(key) : null;
  useEffect(() => {
    if (!keyText) return;
    const { open } = actor.getSnapshot().context;
    // A project started for this very link is opening it already.
    const opening = open.kind === 'load' && JSON.stringify(open.key) === keyText;
    if (!opening) actor.send({ type: 'LOAD', key: JSON.parse(keyText) as LoadKey });
    if (!superID) navigate(paths.home, { replace: true });
  }, [keyText, actor, superID]);

  return (
    <ProjectProvider actor={actor as ProjectActor}>
      {banner}
      <DesignLayout />
    </ProjectProvider>
  );
}

const TABS: DesignTab[] = ['system', 'run', 'materials', 'documents'];

function DesignLayout() {
  const { t } = useTranslation();
  const project = useProjectActor();
  const ready = useProject((s) => s.context.data !== null);
  const broken = useProject((s) => s.matches('broken'));
  const name = useProject((s) => s.context.data?.details.name ?? '');
  const shareLink = useProject((s) => (s.context.panel === 'share' ? s.context.shareLink : null));
  const projectId = useProject((s) => s.context.data?.id ?? '');
  useDocumentTitle(name ? `${name} – ${t('design.title')}` : t('design.title'));

  return (
    <div className="design">
      <LoadProgress />
      {broken && (
        <div className="notice notice--error">
          {t('project.createFailed')}{' '}
          <button type="button" className="button button--link" onClick={() => project.send({ type: 'RETRY' })}>
            {t('projects.retry')}
          </button>
        </div>
      )}
      {ready && <HistoryPanel />}
      {ready && (
        <div className="design__layout">
          <ProjectColumn />
          <RunTabs />
        </div>
      )}
      <SaveStatus />
      <WarningDialog />
      <ErrorDialog />
      <NotesDialog />
      <SaveDialog />
      <LoadDialog />
      <RainfallPanels />
      {shareLink && <ShareLinkDialog link={shareLink} projectId={projectId} onClose={() => project.send({ type: 'PANEL', panel: null })} />}
    </div>
  );
}

function RunTabs() {
  const { t } = useTranslation();
  const project = useProjectActor();
  const tab = useProject((s) => s.context.tab);
  const runId = useProject((s) => s.context.selectedRunId);
  const runName = useProject((s) => (runId ? (s.context.data?.runs[runId]?.name ?? '') : ''));
  const view = useRunView(runId);
  // Advanced mode (spec section 2) omits the system selection; its design run tab holds the catchment and channels too.
  const mode = useAdvancedMode();
  const advanced = useProject((s) => {
    const inputs = runId ? s.context.data?.runs[runId]?.inputs : undefined;
    return !!inputs && isAdvanced(inputs, mode);
  });
  const tabs = advanced ? TABS.filter((which) => which !== 'system') : TABS;
  // Spec: the design run, materials and documents tabs wait for a calculated run, except advanced mode's design run.
  const enabled = (which: DesignTab) => tabs.includes(which) && (which === 'system' || view.hasResults || (advanced && which === 'run'));
  const wanted: DesignTab = advanced && tab === 'system' ? 'run' : tab;
  const shown: DesignTab = enabled(wanted) ? wanted : tabs[0]!;
  const label = (which: DesignTab) => (which === 'run' ? (runName && displayRunName(t, runName)) || t('tabs.run') : t(`tabs.${which}`));

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const open = tabs.filter(enabled);
    const next = open[(open.indexOf(shown) + (event.key === 'ArrowRight' ? 1 : open.length - 1)) % open.length];
    if (next) {
      project.send({ type: 'TAB', tab: next });
      document.getElementById(`tab-${next}`)?.focus();
    }
  }

  return (
    <section className="design__main">
      <div className="tabs" role="tablist" aria-label={t('tabs.label')} onKeyDown={onKeyDown}>
        {tabs.map((which) => (
          <button
            key={which}
            id={`tab-${which}`}
            type="button"
            role="tab"
            className="tabs__tab"
            aria-selected={shown === which}
            aria-controls={`panel-${which}`}
            tabIndex={shown === which ? 0 : -1}
            disabled={!enabled(which)}
            onClick={() => project.send({ type: 'TAB', tab: which })}
          >
            {label(which)}
          </button>
        ))}
      </div>
      <div className="tabs__panel" role="tabpanel" id={`panel-${shown}`} aria-labelledby={`tab-${shown}`}>
        {shown === 'system' && <DesignForm />}
        {shown === 'run' && (advanced ? <AdvancedRunTab /> : <RunResults />)}
        {shown === 'materials' && <MaterialsPanel />}
        {shown === 'documents' && <DocumentsPanel />}
        {view.calculating && <CalculatingOverlay />}
      </div>
    </section>
  );
}
