import { useTranslation } from 'react-i18next';
import { Dialog } from '../components/Dialog';
import { useMessageText } from '../components/MessageText';
import { useProject, useProjectActor } from './ProjectProvider';

/** The error dialog (600 px): what went wrong, in the server's words where it gave some. */
export function ErrorDialog() {
  const { t } = useTranslation();
  const project = useProjectActor();
  const error = useProject((s) => s.context.error);
  const text = useMessageText();
  if (!error) return null;
  const close = () => project.send({ type: 'ERROR.CLOSE' });
  return (
    <Dialog
      title={t('error.title')}
      tone="error"
      width={600}
      onClose={close}
      actions={
        <button type="button" className="button button--primary" onClick={close} data-autofocus>
          {t('common.ok')}
        </button>
      }
    >
      {error.map((message, index) => (
        <p key={index} className="error-dialog__message">
          {text(message)}
        </p>
      ))}
    </Dialog>
  );
}
