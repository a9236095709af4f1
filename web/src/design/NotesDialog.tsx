import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../components/Dialog';
import { useProject, useProjectActor } from './ProjectProvider';
import { displayRunName } from './runNames';

/** Notes of the selected run: cancel or confirm. */
export function NotesDialog() {
  const open = useProject((s) => s.context.panel === 'notes');
  const run = useProject((s) => (s.context.selectedRunId ? s.context.data?.runs[s.context.selectedRunId] : undefined));
  if (!open || !run) return null;
  return <NotesBody runId={run.id} name={run.name} notes={run.notes} />;
}

function NotesBody({ runId, name, notes }: { runId: string; name: string; notes: string }) {
  const { t } = useTranslation();
  const project = useProjectActor();
  const [text, setText] = useState(notes);
  const close = () => project.send({ type: 'PANEL', panel: null });
  return (
    <Dialog
      title={t('notes.title', { run: displayRunName(t, name) })}
      onClose={close}
      actions={
        <>
          <button type="button" className="button button--primary" onClick={() => project.send({ type: 'NOTES', runId, notes: text })}>
            {t('common.confirm')}
          </button>
          <button type="button" className="button button--quiet" onClick={close}>
            {t('common.cancel')}
          </button>
        </>
      }
    >
      <label htmlFor="notes-text" className="visually-hidden">
        {t('notes.label')}
      </label>
      <textarea id="notes-text" className="textarea" rows={7} value={text} onChange={(event) => setText(event.target.value)} />
    </Dialog>
  );
}
