import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../app/ServicesContext';
import { TextField } from '../components/Field';
import { MessageList } from '../components/MessageText';
import { Redirect } from '../components/Redirect';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { createNewPasswordMachine } from '../forms/newPasswordMachine';
import { navigate } from '../router/history';
import { paths } from '../router/routes';
import type { LoginPageState } from './LoginScreen';

export function NewPasswordScreen({ userID, token }: { userID: string; token: string }) {
  if (token === '') return <Redirect to={paths.passwordResetBadLink} />;
  return <NewPasswordForm userID={userID} token={token} />;
}

function NewPasswordForm({ userID, token }: { userID: string; token: string }) {
  const { t } = useTranslation();
  const { auth } = useServices();
  const [machine] = useState(() =>
    createNewPasswordMachine(auth.confirmPasswordReset).provide({
      actions: {
        goHome: () => navigate(paths.home, { replace: true, state: { notice: 'passwordChanged' } satisfies LoginPageState }),
        goToBadLink: () => navigate(paths.passwordResetBadLink, { replace: true }),
      },
    }),
  );
  const [snapshot, send] = useMachine(machine, { input: { uid: userID, token } });
  const { values, errors, formErrors } = snapshot.context;
  const submitting = snapshot.matches('submitting');
  useDocumentTitle(t('passwordReset.title'));

  return (
    <section className="card" aria-labelledby="new-password-title">
      <h1 id="new-password-title">{t('passwordReset.title')}</h1>
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          send({ type: 'SUBMIT' });
        }}
      >
        <TextField
          id="new-password1"
          type="password"
          label={t('passwordReset.newPassword')}
          value={values.new_password1}
          onValueChange={(value) => send({ type: 'CHANGE', field: 'new_password1', value })}
          errors={errors.new_password1}
          autoComplete="new-password"
          required
          autoFocus
          disabled={submitting}
        />
        <TextField
          id="new-password2"
          type="password"
          label={t('passwordReset.confirmation')}
          value={values.new_password2}
          onValueChange={(value) => send({ type: 'CHANGE', field: 'new_password2', value })}
          errors={errors.new_password2}
          autoComplete="new-password"
          required
          disabled={submitting}
        />
        {formErrors.length > 0 && (
          <div className="notice notice--error" role="alert">
            <MessageList messages={formErrors} />
          </div>
        )}
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={submitting}>
            {submitting ? t('common.sending') : t('passwordReset.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
