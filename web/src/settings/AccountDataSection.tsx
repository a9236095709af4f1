import { useMachine } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../app/ServicesContext';
import { useMessageText } from '../components/MessageText';
import { createAccountDataMachine } from './accountDataMachine';

/** The settings dialog's "your data": download everything, or delete the account for good. */
export function AccountDataSection({ onDeleted }: { onDeleted: () => void }) {
  const { t } = useTranslation();
  const services = useServices();
  const text = useMessageText();
  const [machine] = useState(() => createAccountDataMachine({ deleteAccount: (password) => services.drainage.deleteAccount(password) }));
  const [snapshot, send] = useMachine(machine);
  const { password, error } = snapshot.context;
  const deleted = snapshot.matches('deleted');
  useEffect(() => {
    if (deleted) onDeleted();
  }, [deleted, onDeleted]);
  const deleting = snapshot.matches('deleting');

  return (
    <section className="account-data" aria-labelledby="account-data-title">
      <h3 id="account-data-title">{t('accountData.title')}</h3>
      <p>{t('accountData.intro')}</p>
      <p>
        <a className="button button--quiet" href="/api/account/export/" download>
          {t('accountData.download')}
        </a>
      </p>
      {snapshot.matches('idle') && (
        <p>
          <button type="button" className="button button--danger" onClick={() => send({ type: 'DELETE' })}>
            {t('accountData.delete')}
          </button>
        </p>
      )}
      {(snapshot.matches('confirming') || deleting) && (
        <form
          className="account-data__confirm"
          onSubmit={(event) => {
            event.preventDefault();
            send({ type: 'CONFIRM' });
          }}
        >
          <p className="notice notice--warning">{t('accountData.confirm')}</p>
          <div className="field">
            <label htmlFor="account-data-password">{t('accountData.password')}</label>
            <input
              id="account-data-password"
              type="password"
              autoComplete="current-password"
              value={password}
              disabled={deleting}
              onChange={(event) => send({ type: 'PASSWORD', value: event.target.value })}
            />
          </div>
          <div className="account-data__actions">
            <button type="submit" className="button button--danger" disabled={deleting || password === ''}>
              {deleting ? t('accountData.deleting') : t('accountData.deleteForGood')}
            </button>
            <button type="button" className="button button--quiet" disabled={deleting} onClick={() => send({ type: 'CANCEL' })}>
              {t('accountData.keep')}
            </button>
          </div>
        </form>
      )}
      {error && (
        <p className="notice notice--error" role="alert">
          {text(error)}
        </p>
      )}
    </section>
  );
}
