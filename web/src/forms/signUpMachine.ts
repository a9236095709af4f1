import { assign, fromPromise, setup } from 'xstate';
import { ApiError, NetworkError } from '../api/http';
import type { Registration } from '../api/types';
import {
  hasErrors,
  isRequiredMessage,
  MIN_PASSWORD_LENGTH,
  readServerErrors,
  rewordCommon,
  withoutField,
  type FieldErrors,
  type Message,
} from './messages';

export const SIGN_UP_FIELDS = [
  'username',
  'firstName',
  'lastName',
  'email',
  'company',
  'telephone',
  'country',
  'address',
  'city',
  'postcode',
  'password',
  'passwordConfirmation',
] as const;

export type SignUpField = (typeof SIGN_UP_FIELDS)[number];
export type SignUpValues = Record<SignUpField, string>;

export const OPTIONAL_FIELDS: ReadonlySet<SignUpField> = new Set<SignUpField>(['telephone']);

export function isRequired(field: SignUpField): boolean {
  return !OPTIONAL_FIELDS.has(field);
}

// Django's username rule, which the spec's message describes.
const USERNAME = /^[\w.@+-]+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function requiredMessage(field: SignUpField): Message {
  return { key: `signUp.required.${field}` };
}

/** The client-side checks made before anything is sent. */
export function validateSignUp(values: SignUpValues): FieldErrors<SignUpField> {
  const errors: FieldErrors<SignUpField> = {};
  for (const field of SIGN_UP_FIELDS) {
    if (isRequired(field) && values[field].trim() === '') errors[field] = [requiredMessage(field)];
  }
  if (!errors.username && !USERNAME.test(values.username.trim())) {
    errors.username = [{ key: 'signUp.usernameInvalid' }];
  }
  if (!errors.email && !EMAIL.test(values.email.trim())) {
    errors.email = [{ key: 'signUp.emailInvalid' }];
  }
  if (!errors.password && values.password.length < MIN_PASSWORD_LENGTH) {
    errors.password = [{ key: 'common.passwordTooShort', values: { min: String(MIN_PASSWORD_LENGTH) } }];
  }
  if (!errors.passwordConfirmation && values.password !== values.passwordConfirmation) {
    errors.passwordConfirmation = [{ key: 'common.passwordsDoNotMatch' }];
  }
  return errors;
}

/** Turns the server's familiar phrasings into the product's translated sentences. */
export function rewordSignUpError(field: SignUpField, text: string): Message {
  if (isRequiredMessage(text)) return requiredMessage(field);
  const common = rewordCommon(text);
  if (common) return common;
  if (field === 'country' && /valid country/i.test(text)) return requiredMessage('country');
  if (field === 'telephone' && /valid telephone/i.test(text)) return { key: 'signUp.telephoneInvalid' };
  if (field === 'username' && /letters, numbers,? and @\/\.\/\+\/-\/_|valid username/i.test(text)) {
    return { key: 'signUp.usernameInvalid' };
  }
  if (/already exists/i.test(text)) {
    if (field === 'username') return { key: 'signUp.usernameTaken' };
    if (field === 'email') return { key: 'signUp.emailTaken' };
  }
  if (field === 'email' && /valid e-?mail/i.test(text)) return { key: 'signUp.emailInvalid' };
  return { text };
}

export function toRegistration(values: SignUpValues): Registration {
  return {
    username: values.username.trim(),
    password: values.password,
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    company: values.company.trim(),
    telephone: values.telephone.trim(),
    address: values.address.trim(),
    city: values.city.trim(),
    postcode: values.postcode.trim(),
    country: values.country,
  };
}

export interface SignUpContext {
  values: SignUpValues;
  errors: FieldErrors<SignUpField>;
  formErrors: Message[];
  /** Counts refused submissions, so the screen can move focus to the first problem each time. */
  refusals: number;
}

export type SignUpEvent =
  | { type: 'CHANGE'; field: SignUpField; value: string }
  | { type: 'SUBMIT' };

const emptyValues = Object.fromEntries(SIGN_UP_FIELDS.map((field) => [field, ''])) as SignUpValues;

export function createSignUpMachine(register: (registration: Registration) => Promise<unknown>) {
  return setup({
    types: { context: {} as SignUpContext, events: {} as SignUpEvent },
    actors: {
      register: fromPromise<unknown, Registration>(({ input }) => register(input)),
    },
  }).createMachine({
    id: 'signUp',
    context: { values: emptyValues, errors: {}, formErrors: [], refusals: 0 },
    initial: 'editing',
    states: {
      editing: {
        on: {
          CHANGE: {
            actions: assign(({ context, event }) => ({
              values: { ...context.values, [event.field]: event.value },
              // A message about a value the user is now changing is stale.
              errors: withoutField<SignUpField>(
                event.field === 'password'
                  ? withoutField<SignUpField>(context.errors, 'passwordConfirmation')
                  : context.errors,
                event.field,
              ),
            })),
          },
          SUBMIT: [
            {
              guard: ({ context }) => hasErrors(validateSignUp(context.values)),
              actions: assign(({ context }) => ({
                errors: validateSignUp(context.values),
                formErrors: [],
                refusals: context.refusals + 1,
              })),
            },
            { target: 'submitting', actions: assign({ errors: {}, formErrors: [] }) },
          ],
        },
      },
      submitting: {
        invoke: {
          src: 'register',
          input: ({ context }) => toRegistration(context.values),
          onDone: 'saved',
          onError: {
            target: 'editing',
            actions: assign(({ context, event }) => ({
              ...describeFailure(event.error),
              refusals: context.refusals + 1,
            })),
          },
        },
      },
      saved: { type: 'final' },
    },
  });
}

function describeFailure(error: unknown): Pick<SignUpContext, 'errors' | 'formErrors'> {
  if (error instanceof ApiError && error.status === 400) {
    const read = readServerErrors(error.body, SIGN_UP_FIELDS, rewordSignUpError);
    const strays = Object.entries(read.other).flatMap(([key, texts]) =>
      texts.map((text) => ({ text: `${key}: ${text}` })),
    );
    // With per-field messages the body's "error" only repeats them for clients
    // that read nothing else; it is shown only when it is all there is.
    const formErrors = hasErrors(read.fields) ? strays : [...read.form, ...strays];
    if (!hasErrors(read.fields) && formErrors.length === 0) {
      formErrors.push({ key: 'signUp.failed' });
    }
    return { errors: read.fields, formErrors };
  }
  if (error instanceof NetworkError) return { errors: {}, formErrors: [{ key: 'common.networkError' }] };
  // The spec only reports other statuses; the user still needs to know it did not save.
  console.error('registration failed', error);
  return { errors: {}, formErrors: [{ key: 'common.serverError' }] };
}

export type SignUpMachine = ReturnType<typeof createSignUpMachine>;
