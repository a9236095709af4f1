import { useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useServices } from '../app/ServicesContext';
import { Dialog } from '../components/Dialog';

/**
 * Shows a share link, ready to copy, and lets the owner stop sharing: the
 * link is a capability, so withdrawing it shuts out everyone who has it.
 */
export function ShareLinkDialog({ link, projectId, onClose }: { link: string; projectId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { drainage } = useServices();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const stop = useMutation({ mutationFn: () => drainage.unshare(projectId) });

  async function copy() {
    input.current?.select();
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // Without clipboard access (plain http, say) the selected text is copied the old way.
      document.execCommand?.('copy');
    }
    setCopied(true);
  }

  const stopped = stop.isSuccess;
  return (
    <Dialog
      title={t('share.title')}
      onClose={onClose}
      actions={
        <>
          {!stopped && (
            <button type="button" className="button button--quiet" disabled={stop.isPending} onClick={() => stop.mutate()}>
              {t('share.stop')}
            </button>
          )}
          <button type="button" className="button button--quiet" onClick={onClose}>
            {t('common.close')}
          </button>
        </>
      }
    >
      {stopped ? (
        <p role="status">{t('share.stopped')}</p>
      ) : (
        <>
          <p>{t('share.intro')}</p>
          <div className="share-link">
            <label htmlFor="share-link" className="visually-hidden">
              {t('share.link')}
            </label>
            <input id="share-link" ref={input} readOnly value={link} onFocus={(event) => event.target.select()} data-autofocus />
            <button type="button" className="button button--primary" onClick={() => void copy()}>
              {t('share.copy')}
            </button>
          </div>
          <p className="share-link__status" role="status">
            {stop.isError ? t('share.stopFailed') : copied ? t('share.copied') : ''}
          </p>
        </>
      )}
    </Dialog>
  );
}
