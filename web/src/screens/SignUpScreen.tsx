import { useMachine } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../app/ServicesContext';
import { TextField } from '../components/Field';
import { MessageList } from '../components/MessageText';
import { useDocumentTitle } from '../components/useDocumentTitle';
import {
  createSignUpMachine,
  isRequired,
  SIGN_UP_FIELDS,
  type SignUpField,
} from '../forms/signUpMachine';
import { Link } from '../router/Link';
import { paths } from '../router/routes';
import { CountrySelect } from './CountrySelect';
import { SavedOverlay } from './SavedOverlay';

type InputField = Exclude<SignUpField, 'country'>;

const INPUTS: Record<InputField, { type?: string; autoComplete: string }> = {
  username: { autoComplete: 'username' },
  firstName: { autoComplete: 'given-name' },
  lastName: { autoComplete: 'family-name' },
  email: { type: 'email', autoComplete: 'email' },
  company: { autoComplete: 'organization' },
  telephone: { type: 'tel', autoComplete: 'tel' },
  address: { autoComplete: 'street-address' },
  city: { autoComplete: 'address-level2' },
  postcode: { autoComplete: 'postal-code' },
  password: { type: 'password', autoComplete: 'new-password' },
  passwordConfirmation: { type: 'password', autoComplete: 'new-password' },
};

const fieldId = (field: SignUpField) => `sign-up-${field}`;

export function SignUpScreen() {
  const { t } = useTranslation();
  const { drainage } = useServices();
  const [machine] = useState(() => createSignUpMachine(drainage.register));
  const [snapshot, send] = useMachine(machine);
  const { values, errors, formErrors, refusals } = snapshot.context;
  const submitting = snapshot.matches('submitting');
  const saved = snapshot.matches('saved');
  useDocumentTitle(t('signUp.title'));
  useFocusFirstProblem(refusals, () => SIGN_UP_FIELDS.find((field) => errors[field]?.length));

  const change = (field: SignUpField) => (value: string) => send({ type: 'CHANGE', field, value });
  const input = (field: InputField) => (
    <TextField
      id={fieldId(field)}
      label={t(`signUp.${field}`)}
      value={values[field]}
      onValueChange={change(field)}
      errors={errors[field]}
      required={isRequired(field)}
      optional={!isRequired(field)}
      type={INPUTS[field].type ?? 'text'}
      autoComplete={INPUTS[field].autoComplete}
    />
  );

  return (
    <section className="card sign-up" aria-labelledby="sign-up-title">
      <h1 id="sign-up-title">{t('signUp.title')}</h1>
      <p className="form__intro">{t('signUp.intro')}</p>
      <form
        className="form"
        // Behind the saved overlay the form must be out of reach of Tab and clicks.
        inert={saved}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          send({ type: 'SUBMIT' });
        }}
      >
        <fieldset className="form__group" disabled={submitting}>
          <legend>{t('signUp.accountSection')}</legend>
          <div className="form__grid">
            {input('username')}
            {input('email')}
            {input('password')}
            {input('passwordConfirmation')}
          </div>
        </fieldset>
        <fieldset className="form__group" disabled={submitting}>
          <legend>{t('signUp.contactSection')}</legend>
          <div className="form__grid">
            {input('firstName')}
            {input('lastName')}
            {input('company')}
            {input('telephone')}
            <CountrySelect
              id={fieldId('country')}
              label={t('signUp.country')}
              value={values.country}
              onChange={change('country')}
              errors={errors.country}
              required
            />
            {input('address')}
            {input('city')}
            {input('postcode')}
          </div>
        </fieldset>
        <p className="form__note">{t('common.requiredNote')}</p>
        {formErrors.length > 0 && (
          <div className="notice notice--error" role="alert">
            <MessageList messages={formErrors} />
          </div>
        )}
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={submitting}>
            {submitting ? t('signUp.submitting') : t('signUp.submit')}
          </button>
          <span className="form__aside">
            {t('signUp.haveAccount')} <Link to={paths.home}>{t('signUp.loginLink')}</Link>
          </span>
        </div>
      </form>
      {saved && <SavedOverlay />}
    </section>
  );
}

/** After a refused submission, puts the cursor where the first problem is. */
function useFocusFirstProblem(refusals: number, firstProblem: () => SignUpField | undefined) {
  const pick = useRef(firstProblem);
  pick.current = firstProblem;
  useEffect(() => {
    if (refusals === 0) return;
    const field = pick.current();
    if (field) document.getElementById(fieldId(field))?.focus();
  }, [refusals]);
}
