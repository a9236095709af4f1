import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../api/http';
import { createNewPasswordMachine } from './newPasswordMachine';
import { createResetRequestMachine } from './resetRequestMachine';

describe('password reset request', () => {
  it('opens from the login panel and sends the e-mail address', async () => {
    const request = vi.fn(async (_email: string) => ({}));
    const actor = createActor(createResetRequestMachine(request), { input: {} }).start();
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    actor.send({ type: 'TOGGLE' });
    actor.send({ type: 'SEND' });
    expect(request).not.toHaveBeenCalled();
    actor.send({ type: 'CHANGE', email: ' ada@example.com ' });
    actor.send({ type: 'SEND' });
    await waitFor(actor, (s) => s.context.outcome !== null);
    expect(request).toHaveBeenCalledWith('ada@example.com');
    expect(actor.getSnapshot().context.outcome).toBe('sent');
  });

  it('asks to check the address on 400', async () => {
    const actor = createActor(
      createResetRequestMachine(vi.fn().mockRejectedValue(new ApiError(400, { email: ['Enter a valid email address.'] }))),
      { input: { open: true } },
    ).start();
    expect(actor.getSnapshot().matches('open')).toBe(true);
    actor.send({ type: 'CHANGE', email: 'nope' });
    actor.send({ type: 'SEND' });
    await waitFor(actor, (s) => s.context.outcome !== null);
    expect(actor.getSnapshot().context.outcome).toBe('invalid');
  });
});

describe('new password', () => {
  function start(confirm: (c: unknown) => Promise<unknown>) {
    const goHome = vi.fn();
    const goToBadLink = vi.fn();
    const machine = createNewPasswordMachine(confirm).provide({ actions: { goHome, goToBadLink } });
    const actor = createActor(machine, { input: { uid: 'MQ', token: 'abc-123' } }).start();
    actor.send({ type: 'CHANGE', field: 'new_password1', value: 'n3w-secret' });
    actor.send({ type: 'CHANGE', field: 'new_password2', value: 'n3w-secret' });
    return { actor, goHome, goToBadLink };
  }

  it('sends uid, token and both passwords, then goes home', async () => {
    const confirm = vi.fn(async () => ({}));
    const { actor, goHome } = start(confirm);
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(confirm).toHaveBeenCalledWith({
      uid: 'MQ',
      token: 'abc-123',
      new_password1: 'n3w-secret',
      new_password2: 'n3w-secret',
    });
    expect(goHome).toHaveBeenCalled();
  });

  it('goes to the bad-link page when the token or uid is refused', async () => {
    const { actor, goToBadLink, goHome } = start(
      vi.fn().mockRejectedValue(new ApiError(400, { token: ['Invalid value'] })),
    );
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(goToBadLink).toHaveBeenCalled();
    expect(goHome).not.toHaveBeenCalled();
  });

  it('follows the Go server: 400 {token: [...]} is a bad link', async () => {
    const { actor, goToBadLink } = start(
      vi.fn().mockRejectedValue(
        new ApiError(400, {
          error: 'account: invalid input: token: The link is invalid',
          token: ['The link is invalid, probably because it has already been used. Please request a new password reset.'],
        }),
      ),
    );
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(goToBadLink).toHaveBeenCalled();
  });

  it('shows new_password1 and new_password2 errors under their fields', async () => {
    const { actor } = start(
      vi.fn().mockRejectedValue(
        new ApiError(400, { new_password2: ['This password is too short.', 'This password is too common.'] }),
      ),
    );
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.errors.new_password2 !== undefined);
    expect(actor.getSnapshot().context.errors.new_password2).toEqual([
      { text: 'This password is too short.' },
      { text: 'This password is too common.' },
    ]);
  });

  it('checks the two passwords match before sending', () => {
    const confirm = vi.fn();
    const { actor } = start(confirm);
    actor.send({ type: 'CHANGE', field: 'new_password2', value: 'other-secret' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context.errors.new_password2).toEqual([{ key: 'common.passwordsDoNotMatch' }]);
    expect(confirm).not.toHaveBeenCalled();
  });
});
