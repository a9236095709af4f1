import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../components/Dialog';

/** Shows a share link, ready to copy. */
export function ShareLinkDialog({ link, onClose }: { link: string; onClose: () => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);

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

  return (
    <Dialog
      title={t('share.title')}
      onClose={onClose}
      actions={
        <button type="button" className="button button--quiet" onClick={onClose}>
          {t('common.close')}
        </button>
      }
    >
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
        {copied ? t('share.copied') : ''}
      </p>
    </Dialog>
  );
}
