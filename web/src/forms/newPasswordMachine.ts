import { assign, fromPromise, setup } from 'xstate';
import { ApiError, NetworkError } from '../api/http';
import type { PasswordResetConfirmation } from '../api/types';
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

/** Named as the server names them, so its 400 answers land under the right field. */
export const NEW_PASSWORD_FIELDS = ['new_password1', 'new_password2'] as const;
export type NewPasswordField = (typeof NEW_PASSWORD_FIELDS)[number];

export interface NewPasswordContext {
  uid: string;
  token: string;
  values: Record<NewPasswordField, string>;
  errors: FieldErrors<NewPasswordField>;
  formErrors: Message[];
}

export type NewPasswordEvent =
  | { type: 'CHANGE'; field: NewPasswordField; value: string }
  | { type: 'SUBMIT' };

export function validateNewPassword(values: Record<NewPasswordField, string>): FieldErrors<NewPasswordField> {
  const errors: FieldErrors<NewPasswordField> = {};
  if (values.new_password1 === '') errors.new_password1 = [{ key: 'passwordReset.required' }];
  else if (values.new_password1.length < MIN_PASSWORD_LENGTH) {
    errors.new_password1 = [{ key: 'common.passwordTooShort', values: { min: String(MIN_PASSWORD_LENGTH) } }];
  }
  if (values.new_password2 === '') errors.new_password2 = [{ key: 'passwordReset.confirmationRequired' }];
  else if (values.new_password1 !== values.new_password2) {
    errors.new_password2 = [{ key: 'common.passwordsDoNotMatch' }];
  }
  return errors;
}

export function createNewPasswordMachine(
  confirm: (confirmation: PasswordResetConfirmation) => Promise<unknown>,
) {
  return setup({
    types: {
      context: {} as NewPasswordContext,
      events: {} as NewPasswordEvent,
      input: {} as { uid: string; token: string },
    },
    actors: {
      confirm: fromPromise<unknown, PasswordResetConfirmation>(({ input }) => confirm(input)),
    },
    actions: {
      // Provided by the screen: where to go when the machine is done.
      goHome: () => {},
      goToBadLink: () => {},
    },
  }).createMachine({
    id: 'newPassword',
    context: ({ input }) => ({
      uid: input.uid,
      token: input.token,
      values: { new_password1: '', new_password2: '' },
      errors: {},
      formErrors: [],
    }),
    initial: 'editing',
    states: {
      editing: {
        on: {
          CHANGE: {
            actions: assign(({ context, event }) => ({
              values: { ...context.values, [event.field]: event.value },
              errors: withoutField(context.errors, event.field),
            })),
          },
          SUBMIT: [
            {
              guard: ({ context }) => hasErrors(validateNewPassword(context.values)),
              actions: assign(({ context }) => ({
                errors: validateNewPassword(context.values),
                formErrors: [],
              })),
            },
            { target: 'submitting', actions: assign({ errors: {}, formErrors: [] }) },
          ],
        },
      },
      submitting: {
        invoke: {
          src: 'confirm',
          input: ({ context }) => ({
            uid: context.uid,
            token: context.token,
            new_password1: context.values.new_password1,
            new_password2: context.values.new_password2,
          }),
          onDone: 'changed',
          onError: [
            { guard: ({ event }) => isBadLink(event.error), target: 'badLink' },
            {
              target: 'editing',
              actions: assign(({ event }) => describeFailure(event.error)),
            },
          ],
        },
      },
      changed: { type: 'final', entry: 'goHome' },
      badLink: { type: 'final', entry: 'goToBadLink' },
    },
  });
}

function isBadLink(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 400) return false;
  const read = readServerErrors(error.body, NEW_PASSWORD_FIELDS, (_, text) => ({ text }));
  return 'token' in read.other || 'uid' in read.other;
}

function rewordNewPasswordError(field: NewPasswordField, text: string): Message {
  if (isRequiredMessage(text)) {
    return { key: field === 'new_password1' ? 'passwordReset.required' : 'passwordReset.confirmationRequired' };
  }
  return rewordCommon(text) ?? { text };
}

function describeFailure(error: unknown): Pick<NewPasswordContext, 'errors' | 'formErrors'> {
  if (error instanceof ApiError && error.status === 400) {
    const read = readServerErrors(error.body, NEW_PASSWORD_FIELDS, rewordNewPasswordError);
    const strays = Object.values(read.other).flatMap((texts) => texts.map((text) => ({ text })));
    // The body's "error" repeats the field messages for clients that read only it.
    const formErrors = hasErrors(read.fields) ? strays : [...read.form, ...strays];
    return { errors: read.fields, formErrors };
  }
  if (error instanceof NetworkError) return { errors: {}, formErrors: [{ key: 'common.networkError' }] };
  console.error('password reset confirmation failed', error);
  return { errors: {}, formErrors: [{ key: 'common.serverError' }] };
}
