import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../router/history';
import { paths } from '../router/routes';

/** Shown once the registration is saved: the account still needs its e-mail confirmation. */
export function SavedOverlay() {
  const { t } = useTranslation();
  const action = useRef<HTMLButtonElement>(null);
  useEffect(() => action.current?.focus(), []);

  return (
    <div className="overlay">
      <div
        className="overlay__dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="saved-title"
        aria-describedby="saved-body"
      >
        <div className="overlay__icon" aria-hidden="true">
          ✓
        </div>
        <h2 id="saved-title">{t('signUp.saved.title')}</h2>
        <p id="saved-body">{t('signUp.saved.body')}</p>
        <button ref={action} type="button" className="button button--primary" onClick={() => navigate(paths.home)}>
          {t('common.backToLogin')}
        </button>
      </div>
    </div>
  );
}
