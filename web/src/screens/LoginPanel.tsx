import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices, useSession } from '../app/ServicesContext';
import { TextField } from '../components/Field';
import { Notice } from '../components/Notice';
import { canSendReset, createResetRequestMachine } from '../forms/resetRequestMachine';
import { Link } from '../router/Link';
import { paths } from '../router/routes';
import { canLogin } from '../session/sessionMachine';
import type { LoginPageState } from './LoginScreen';

interface LoginPanelProps {
  notice: LoginPageState['notice'];
  openReset: boolean;
}

/** One panel that turns between the login form and the password-reset request. */
export function LoginPanel({ notice, openReset }: LoginPanelProps) {
  const { auth } = useServices();
  const [machine] = useState(() => createResetRequestMachine(auth.requestPasswordReset));
  const [reset, send] = useMachine(machine, { input: { open: openReset } });
  const toggle = () => send({ type: 'TOGGLE' });

  return (
    <section className="card login-panel">
      {reset.matches('closed') ? (
        <LoginForm notice={notice} onForgotPassword={toggle} />
      ) : (
        <ResetRequestForm
          email={reset.context.email}
          outcome={reset.context.outcome}
          sending={reset.matches({ open: 'sending' })}
          canSend={canSendReset(reset.context)}
          onEmailChange={(email) => send({ type: 'CHANGE', email })}
          onSend={() => send({ type: 'SEND' })}
          onBack={toggle}
        />
      )}
    </section>
  );
}

function LoginForm({ notice, onForgotPassword }: { notice: LoginPanelProps['notice']; onForgotPassword: () => void }) {
  const { t } = useTranslation();
  const { session } = useServices();
  const username = useSession((snapshot) => snapshot.context.username);
  const password = useSession((snapshot) => snapshot.context.password);
  const loginError = useSession((snapshot) => snapshot.context.loginError);
  const expired = useSession((snapshot) => snapshot.matches({ signedOut: 'expired' }));
  const loggingIn = useSession((snapshot) => snapshot.matches({ signedOut: 'loggingIn' }));
  const ready = useSession((snapshot) => canLogin(snapshot.context));

  return (
    <form
      className="form"
      aria-labelledby="login-title"
      onSubmit={(event) => {
        event.preventDefault();
        session.send({ type: 'LOGIN' });
      }}
    >
      <h2 id="login-title">{t('login.title')}</h2>
      {expired && <Notice tone="info">{t('login.sessionExpired')}</Notice>}
      {notice && !loginError && (
        <Notice tone={notice === 'confirmationFailed' ? 'error' : 'success'}>{t(NOTICE_TEXT[notice])}</Notice>
      )}
      {loginError && <Notice tone="error">{t(LOGIN_ERROR_TEXT[loginError])}</Notice>}
      <TextField
        id="login-username"
        label={t('login.username')}
        value={username}
        onValueChange={(value) => session.send({ type: 'CREDENTIALS.CHANGE', username: value })}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus
      />
      <TextField
        id="login-password"
        type="password"
        label={t('login.password')}
        value={password}
        onValueChange={(value) => session.send({ type: 'CREDENTIALS.CHANGE', password: value })}
        autoComplete="current-password"
      />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={!ready || loggingIn}>
          {loggingIn ? t('login.submitting') : t('login.submit')}
        </button>
        <button type="button" className="button button--link" onClick={onForgotPassword}>
          {t('login.forgotPassword')}
        </button>
      </div>
      <p className="form__footer">
        {t('login.noAccount')} <Link to={paths.signUp}>{t('login.signUpLink')}</Link>
      </p>
    </form>
  );
}

const NOTICE_TEXT = {
  passwordChanged: 'login.passwordChanged',
  emailConfirmed: 'login.emailConfirmed',
  confirmationFailed: 'login.confirmationFailed',
} as const;

const LOGIN_ERROR_TEXT = {
  credentials: 'login.failed',
  notConfirmed: 'login.notConfirmed',
  blocked: 'login.blocked',
  throttled: 'login.throttled',
  server: 'common.serverError',
  network: 'common.networkError',
} as const;

interface ResetRequestFormProps {
  email: string;
  outcome: 'sent' | 'invalid' | 'serverError' | 'networkError' | null;
  sending: boolean;
  canSend: boolean;
  onEmailChange: (email: string) => void;
  onSend: () => void;
  onBack: () => void;
}

function ResetRequestForm({ email, outcome, sending, canSend, onEmailChange, onSend, onBack }: ResetRequestFormProps) {
  const { t } = useTranslation();
  return (
    <form
      className="form"
      aria-labelledby="reset-title"
      onSubmit={(event) => {
        event.preventDefault();
        onSend();
      }}
    >
      <h2 id="reset-title">{t('resetRequest.title')}</h2>
      <p className="form__intro">{t('resetRequest.intro')}</p>
      {outcome === 'sent' && <Notice tone="success">{t('resetRequest.sent')}</Notice>}
      {outcome === 'invalid' && <Notice tone="error">{t('resetRequest.invalid')}</Notice>}
      {outcome === 'serverError' && <Notice tone="error">{t('common.serverError')}</Notice>}
      {outcome === 'networkError' && <Notice tone="error">{t('common.networkError')}</Notice>}
      <TextField
        id="reset-email"
        type="email"
        label={t('resetRequest.email')}
        value={email}
        onValueChange={onEmailChange}
        autoComplete="email"
        autoFocus
      />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={!canSend || sending}>
          {sending ? t('common.sending') : t('resetRequest.send')}
        </button>
        <button type="button" className="button button--link" onClick={onBack}>
          {t('common.backToLogin')}
        </button>
      </div>
    </form>
  );
}
