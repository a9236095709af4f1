import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../app/ServicesContext';
import { useMessageText } from '../components/MessageText';
import { useDateLocale } from '../components/useDateLocale';
import { formatISODate } from '../i18n/locale';
import { createApiTokensMachine } from './apiTokensMachine';

/** The settings dialog's API tokens: create (shown once), copy, revoke. */
export function ApiTokensSection() {
  const { t } = useTranslation();
  const services = useServices();
  const text = useMessageText();
  const locale = useDateLocale();
  const [machine] = useState(() =>
    createApiTokensMachine({
      list: () => services.drainage.apiTokens(),
      create: (name) => services.drainage.createApiToken(name),
      revoke: (id) => services.drainage.revokeApiToken(id),
      copy: (token) => navigator.clipboard.writeText(token),
    }),
  );
  const [snapshot, send] = useMachine(machine);
  const { tokens, name, created, copied, revoking, error } = snapshot.context;
  const busy = !snapshot.matches('ready');

  return (
    <section className="api-tokens" aria-labelledby="api-tokens-title">
      <h3 id="api-tokens-title">{t('apiTokens.title')}</h3>
      <p className="api-tokens__intro">
        {t('apiTokens.intro')}{' '}
        <a href="/api/docs/" target="_blank" rel="noreferrer">
          {t('apiTokens.docs')}
        </a>
      </p>
      {snapshot.matches('loading') && <p>{t('apiTokens.loading')}</p>}
      {snapshot.matches('unavailable') && (
        <p className="notice notice--error" role="alert">
          {error && text(error)}{' '}
          <button type="button" className="button button--quiet" onClick={() => send({ type: 'RETRY' })}>
            {t('apiTokens.retry')}
          </button>
        </p>
      )}
      {created && (
        <div className="api-tokens__created" role="status">
          <p>{t('apiTokens.newToken', { name: created.name })}</p>
          <div className="api-tokens__secret">
            <input
              aria-label={t('apiTokens.tokenLabel')}
              value={created.token}
              readOnly
              onFocus={(event) => event.currentTarget.select()}
            />
            <button type="button" className="button" onClick={() => send({ type: 'COPY' })}>
              {copied ? t('apiTokens.copied') : t('apiTokens.copy')}
            </button>
            <button type="button" className="button button--quiet" onClick={() => send({ type: 'DISMISS' })}>
              {t('apiTokens.dismiss')}
            </button>
          </div>
        </div>
      )}
      {!snapshot.matches('loading') && !snapshot.matches('unavailable') && (
        <>
          {tokens.length === 0 ? (
            <p className="api-tokens__none">{t('apiTokens.none')}</p>
          ) : (
            <ul className="api-tokens__list" aria-label={t('apiTokens.listLabel')}>
              {tokens.map((token) => (
                <li key={token.id}>
                  <span className="api-tokens__name">{token.name}</span>
                  <span className="api-tokens__date">{t('apiTokens.createdOn', { date: formatISODate(token.created.slice(0, 10), locale) })}</span>
                  {revoking?.id === token.id ? (
                    <span className="api-tokens__confirm">
                      {t('apiTokens.confirmRevoke', { name: token.name })}{' '}
                      <button type="button" className="button button--danger" disabled={snapshot.matches('revokingToken')} onClick={() => send({ type: 'CONFIRM' })}>
                        {t('apiTokens.revoke')}
                      </button>
                      <button type="button" className="button button--quiet" disabled={snapshot.matches('revokingToken')} onClick={() => send({ type: 'CANCEL' })}>
                        {t('apiTokens.keep')}
                      </button>
                    </span>
                  ) : (
                    <button type="button" className="button button--quiet" disabled={busy} onClick={() => send({ type: 'REVOKE', id: token.id })}>
                      {t('apiTokens.revoke')}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          <form
            className="api-tokens__form"
            onSubmit={(event) => {
              event.preventDefault();
              send({ type: 'CREATE' });
            }}
          >
            <label htmlFor="api-token-name">{t('apiTokens.name')}</label>
            <input
              id="api-token-name"
              value={name}
              maxLength={80}
              placeholder={t('apiTokens.namePlaceholder')}
              onChange={(event) => send({ type: 'NAME', value: event.target.value })}
            />
            <button type="submit" className="button" disabled={busy || name.trim() === ''}>
              {snapshot.matches('creating') ? t('apiTokens.creating') : t('apiTokens.create')}
            </button>
          </form>
        </>
      )}
      {error && !snapshot.matches('unavailable') && (
        <p className="notice notice--error" role="alert">
          {text(error)}
        </p>
      )}
    </section>
  );
}
