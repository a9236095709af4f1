import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../api/http';
import { createAccountDataMachine } from './accountDataMachine';

function start(deleteAccount = vi.fn(async () => ({ detail: 'Account deleted' }))) {
  const actor = createActor(createAccountDataMachine({ deleteAccount }));
  actor.start();
  return { actor, deleteAccount };
}

describe('account deletion', () => {
  it.each([
    { name: 'asks for the password before deleting', password: '', deletes: false },
    { name: 'deletes with the password', password: 'a long password', deletes: true },
  ])('$name', async ({ password, deletes }) => {
    const { actor, deleteAccount } = start();
    actor.send({ type: 'CONFIRM' });
    expect(actor.getSnapshot().matches('idle')).toBe(true); // no confirmation without asking first
    actor.send({ type: 'DELETE' });
    actor.send({ type: 'PASSWORD', value: password });
    actor.send({ type: 'CONFIRM' });
    if (deletes) {
      await waitFor(actor, (s) => s.matches('deleted'));
      expect(deleteAccount).toHaveBeenCalledWith(password);
      expect(actor.getSnapshot().context.password).toBe('');
    } else {
      expect(actor.getSnapshot().matches('confirming')).toBe(true);
      expect(deleteAccount).not.toHaveBeenCalled();
    }
  });

  it.each([
    { name: 'a wrong password', error: new ApiError(400, { password: ['The password is not correct'] }), key: 'accountData.wrongPassword' },
    { name: 'a server failure', error: new ApiError(500, { error: 'Server error' }), key: 'common.serverError' },
    { name: 'an unexpected failure', error: new Error('boom'), key: 'accountData.deleteFailed' },
  ])('stays on the confirmation after $name, saying why', async ({ error, key }) => {
    const { actor } = start(vi.fn(async () => Promise.reject(error)));
    actor.send({ type: 'DELETE' });
    actor.send({ type: 'PASSWORD', value: 'guess' });
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (s) => s.matches('confirming') && s.context.error !== null);
    const { error: shown, password } = actor.getSnapshot().context;
    expect(shown && 'key' in shown ? shown.key : shown).toBe(key);
    expect(password).toBe('');
    actor.send({ type: 'PASSWORD', value: 'another guess' });
    expect(actor.getSnapshot().context.error).toBeNull(); // typing again clears the refusal
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (s) => s.matches('confirming') && s.context.error !== null);
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
