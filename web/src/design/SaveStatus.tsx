import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProject } from './ProjectProvider';

/** How long "Project saved" stays on screen (ms). */
export const SAVE_STATUS_MS = 4000;

/**
 * "Project saved" for a few seconds after each save the server confirmed. The
 * status element is always there, empty between saves, so screen readers
 * announce the text when it appears.
 */
export function SaveStatus() {
  const { t } = useTranslation();
  const saves = useProject((s) => s.context.saves);
  // The save count whose notice has gone; a higher count shows the notice.
  const [gone, setGone] = useState(saves);
  const shown = saves > gone;

  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => setGone(saves), SAVE_STATUS_MS);
    return () => clearTimeout(timer);
  }, [shown, saves]);

  return (
    <p role="status" className={shown ? 'save-status save-status--shown' : 'save-status'}>
      {shown && (
        <>
          <span aria-hidden="true" className="save-status__icon">
            ✓
          </span>
          {t('save.done')}
        </>
      )}
    </p>
  );
}
