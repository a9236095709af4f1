import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError, NetworkError } from '../api/http';
import { createSignUpMachine, SIGN_UP_FIELDS, type SignUpValues } from './signUpMachine';

const complete: SignUpValues = {
  username: 'ada.l',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  company: 'Analytical Engines Ltd',
  telephone: '',
  country: 'GB',
  address: '12 St James Square',
  city: 'London',
  postcode: 'SW1Y 4JH',
  password: 'difference-engine',
  passwordConfirmation: 'difference-engine',
};

function start(register = vi.fn(async () => ({}))) {
  const actor = createActor(createSignUpMachine(register)).start();
  const fill = (values: Partial<SignUpValues>) => {
    for (const [field, value] of Object.entries(values)) {
      actor.send({ type: 'CHANGE', field: field as keyof SignUpValues, value });
    }
  };
  return { actor, register, fill };
}

describe('sign-up', () => {
  it('asks for every required field and leaves telephone optional', () => {
    const { actor, register } = start();
    actor.send({ type: 'SUBMIT' });
    const { errors, refusals } = actor.getSnapshot().context;
    expect(register).not.toHaveBeenCalled();
    expect(refusals).toBe(1);
    for (const field of SIGN_UP_FIELDS) {
      if (field === 'telephone') expect(errors.telephone).toBeUndefined();
      else expect(errors[field], field).toEqual([{ key: `signUp.required.${field}` }]);
    }
  });

  it('says when the passwords do not match', () => {
    const { actor, fill, register } = start();
    fill({ ...complete, passwordConfirmation: 'something-else' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context.errors).toEqual({
      passwordConfirmation: [{ key: 'common.passwordsDoNotMatch' }],
    });
    expect(register).not.toHaveBeenCalled();
  });

  it('checks the username characters before sending', () => {
    const { actor, fill } = start();
    fill({ ...complete, username: 'ada lovelace' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context.errors.username).toEqual([{ key: 'signUp.usernameInvalid' }]);
  });

  it('sends the registration in the server shape and ends on the saved overlay', async () => {
    const { actor, fill, register } = start();
    fill({ ...complete, username: '  ada.l ' });
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(register).toHaveBeenCalledWith({
      username: 'ada.l',
      password: 'difference-engine',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      company: 'Analytical Engines Ltd',
      telephone: '',
      address: '12 St James Square',
      city: 'London',
      postcode: 'SW1Y 4JH',
      country: 'GB',
    });
  });

  it('shows server field errors under their fields, reworded where familiar', async () => {
    const register = vi.fn().mockRejectedValue(
      new ApiError(400, {
        username: ['A user with that username already exists.'],
        email: ['Enter a valid email address.'],
        city: ['This field may not be blank.'],
        country: ['This field may not be null.'],
        password: ['This password is too common.'],
      }),
    );
    const { actor, fill } = start(register);
    fill(complete);
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.refusals > 0);
    const { errors, formErrors } = actor.getSnapshot().context;
    expect(errors.username).toEqual([{ key: 'signUp.usernameTaken' }]);
    expect(errors.email).toEqual([{ key: 'signUp.emailInvalid' }]);
    expect(errors.city).toEqual([{ key: 'signUp.required.city' }]);
    expect(errors.country).toEqual([{ key: 'signUp.required.country' }]);
    expect(errors.password).toEqual([{ text: 'This password is too common.' }]);
    expect(formErrors).toEqual([]);
  });

  it('translates the Go server\'s own sentences', async () => {
    const register = vi.fn().mockRejectedValue(
      new ApiError(400, {
        error: 'account: invalid input: ...',
        email: ['Please enter a valid email address'],
        address: ['Please enter an address'],
        country: ['Please select a valid country'],
        telephone: ['Please enter a valid telephone number'],
        password: ['This password is too short. It must contain at least 8 characters.'],
        passwordConfirmation: ['Passwords do not match'],
        postcode: ['Ensure this field has no more than 20 characters.'],
      }),
    );
    const { actor, fill } = start(register);
    fill(complete);
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.context.refusals > 0);
    const { errors, formErrors } = actor.getSnapshot().context;
    expect(errors).toEqual({
      email: [{ key: 'signUp.emailInvalid' }],
      address: [{ key: 'signUp.required.address' }],
      country: [{ key: 'signUp.required.country' }],
      telephone: [{ key: 'signUp.telephoneInvalid' }],
      password: [{ key: 'common.passwordTooShort', values: { min: '8' } }],
      passwordConfirmation: [{ key: 'common.passwordsDoNotMatch' }],
      postcode: [{ key: 'common.tooLong', values: { max: '20' } }],
    });
    expect(formErrors).toEqual([]);
  });

  it('wants a password of at least eight characters', () => {
    const { actor, fill } = start();
    fill({ ...complete, password: 'short', passwordConfirmation: 'short' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context.errors.password).toEqual([
      { key: 'common.passwordTooShort', values: { min: '8' } },
    ]);
  });

  it('shows an {"error": ...} answer above the buttons', async () => {
    const register = vi.fn().mockRejectedValue(new ApiError(400, { error: 'Registration is closed.' }));
    const { actor, fill } = start(register);
    fill(complete);
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.context.refusals > 0);
    expect(actor.getSnapshot().context.formErrors).toEqual([{ text: 'Registration is closed.' }]);
  });

  it('reports a server failure without losing what was typed', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { actor, fill } = start(vi.fn().mockRejectedValue(new ApiError(503, null)));
    fill(complete);
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.context.refusals > 0);
    expect(actor.getSnapshot().context.formErrors).toEqual([{ key: 'common.serverError' }]);
    expect(actor.getSnapshot().context.values).toEqual(complete);
    expect(consoleError).toHaveBeenCalled();
    consoleError.mockRestore();
  });

  it('says so when the server cannot be reached', async () => {
    const { actor, fill } = start(vi.fn().mockRejectedValue(new NetworkError(new TypeError('offline'))));
    fill(complete);
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.context.refusals > 0);
    expect(actor.getSnapshot().context.formErrors).toEqual([{ key: 'common.networkError' }]);
  });

  it('drops a field message once that field is edited', () => {
    const { actor } = start();
    actor.send({ type: 'SUBMIT' });
    actor.send({ type: 'CHANGE', field: 'city', value: 'Paris' });
    expect(actor.getSnapshot().context.errors.city).toBeUndefined();
    expect(actor.getSnapshot().context.errors.postcode).toBeDefined();
  });
});
