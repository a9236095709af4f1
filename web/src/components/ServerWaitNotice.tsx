import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../app/ServicesContext';

/** While a change waits for the server to reach its database again (a restart), says so. */
export function ServerWaitNotice() {
  const { serverWait } = useServices();
  const waiting = useSyncExternalStore(serverWait.subscribe, serverWait.waiting);
  const { t } = useTranslation();
  return (
    <p className="notice notice--warning server-wait" role="status" aria-live="polite" hidden={!waiting}>
      {waiting ? t('server.waiting') : null}
    </p>
  );
}
