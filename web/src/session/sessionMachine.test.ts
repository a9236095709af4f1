import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError, NetworkError, type Send } from '../api/http';
import type { User } from '../api/types';
import { aUser, deferred, unauthorized } from '../test/fakes';
import { SessionExpiredError, sessionGate, withSessionRefresh } from './authedSend';
import { canLogin, createSessionMachine, type SessionDeps } from './sessionMachine';
import { memoryUserStore, type UserStore } from './userStore';

type Api = SessionDeps['api'];

function fakeApi() {
  return {
    login: vi.fn<Api['login']>(async () => ({ user: aUser() })),
    logout: vi.fn<Api['logout']>(async () => null),
    me: vi.fn<Api['me']>(async () => ({ user: aUser() })),
    refresh: vi.fn<Api['refresh']>(async () => null),
  };
}

function setUp(options: { stored?: User | null; api?: Partial<ReturnType<typeof fakeApi>> } = {}) {
  const store: UserStore = memoryUserStore(options.stored ?? null);
  const api = { ...fakeApi(), ...options.api };
  const applyLanguage = vi.fn();
  const onSignedOut = vi.fn();
  const actor = createActor(createSessionMachine({ api, store, applyLanguage, onSignedOut }));
  actor.start();
  return { actor, api, store, applyLanguage, onSignedOut };
}

async function signedIn() {
  const setup = setUp({ stored: aUser() });
  await waitFor(setup.actor, (s) => s.matches('signedIn'));
  return setup;
}

function typeCredentials(actor: ReturnType<typeof setUp>['actor'], username: string, password: string) {
  actor.send({ type: 'CREDENTIALS.CHANGE', username });
  actor.send({ type: 'CREDENTIALS.CHANGE', password });
}

describe('start-up', () => {
  it('is signed out at once when no user is stored', () => {
    const { actor, api } = setUp();
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
    expect(api.me).not.toHaveBeenCalled();
  });

  it('verifies a stored user with /auth/me/ and signs in', async () => {
    const { actor, api, applyLanguage } = setUp({ stored: aUser({ language: 'fr' }) });
    expect(actor.getSnapshot().matches('checking')).toBe(true);
    await waitFor(actor, (s) => s.matches({ signedIn: 'active' }));
    expect(api.me).toHaveBeenCalledTimes(1);
    expect(applyLanguage).toHaveBeenCalledWith('de');
  });

  it('refreshes once when /auth/me/ answers 401, then asks again', async () => {
    const me = vi.fn<Api['me']>().mockRejectedValueOnce(unauthorized()).mockResolvedValueOnce({ user: aUser() });
    const { actor, api } = setUp({ stored: aUser(), api: { me } });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(api.refresh).toHaveBeenCalledTimes(1);
    expect(me).toHaveBeenCalledTimes(2);
  });

  it('shows the expired-session login when the stored session cannot be refreshed', async () => {
    const { actor, store, onSignedOut } = setUp({
      stored: aUser({ username: 'grace' }),
      api: { me: vi.fn<Api['me']>().mockRejectedValue(unauthorized()), refresh: vi.fn<Api['refresh']>().mockRejectedValue(unauthorized()) },
    });
    await waitFor(actor, (s) => s.matches({ signedOut: 'expired' }));
    expect(store.load()).toBeNull();
    expect(onSignedOut).toHaveBeenCalled();
    expect(actor.getSnapshot().context.username).toBe('grace');
  });

  it('keeps the stored user when the server cannot be reached', async () => {
    const { actor } = setUp({
      stored: aUser(),
      api: { me: vi.fn<Api['me']>().mockRejectedValue(new NetworkError(new TypeError('fetch failed'))) },
    });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(actor.getSnapshot().context.user?.username).toBe('ada');
  });
});

describe('login', () => {
  it('stays closed until both username and password are filled', () => {
    const { actor, api } = setUp();
    expect(canLogin(actor.getSnapshot().context)).toBe(false);
    actor.send({ type: 'CREDENTIALS.CHANGE', username: 'ada' });
    actor.send({ type: 'LOGIN' });
    expect(canLogin(actor.getSnapshot().context)).toBe(false);
    expect(api.login).not.toHaveBeenCalled();
    actor.send({ type: 'CREDENTIALS.CHANGE', password: 'secret' });
    expect(canLogin(actor.getSnapshot().context)).toBe(true);
  });

  it('signs in, stores the user and applies the user language', async () => {
    const { actor, api, store, applyLanguage } = setUp();
    typeCredentials(actor, ' ada ', 'secret');
    actor.send({ type: 'LOGIN' });
    expect(actor.getSnapshot().matches({ signedOut: 'loggingIn' })).toBe(true);
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(api.login).toHaveBeenCalledWith('ada', 'secret');
    expect(store.load()?.username).toBe('ada');
    expect(applyLanguage).toHaveBeenCalledWith('de');
    expect(actor.getSnapshot().context.password).toBe('');
  });

  it('clears the password and reports bad credentials on failure', async () => {
    const { actor, store } = setUp({
      api: { login: vi.fn<Api['login']>().mockRejectedValue(new ApiError(400, { error: 'Invalid credentials' })) },
    });
    typeCredentials(actor, 'ada', 'wrong');
    actor.send({ type: 'LOGIN' });
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }) && s.context.loginError !== null);
    const { context } = actor.getSnapshot();
    expect(context.loginError).toBe('credentials');
    expect(context.password).toBe('');
    expect(context.username).toBe('ada');
    expect(store.load()).toBeNull();
  });

  it('tells a server error (500) apart from bad credentials', async () => {
    const { actor } = setUp({ api: { login: vi.fn<Api['login']>().mockRejectedValue(new ApiError(500, null)) } });
    typeCredentials(actor, 'ada', 'secret');
    actor.send({ type: 'LOGIN' });
    await waitFor(actor, (s) => s.context.loginError !== null);
    expect(actor.getSnapshot().context.loginError).toBe('server');
    expect(actor.getSnapshot().context.password).toBe('');
  });

  it.each([
    [new ApiError(401, { error: 'Unable to log in with the provided credentials.' }), 'credentials'],
    [new ApiError(403, { error: 'Please confirm your e-mail address first.' }), 'notConfirmed'],
    [new ApiError(403, { error: 'This account cannot log in.' }), 'blocked'],
    [new ApiError(429, { error: 'Too many failed log-in attempts.' }), 'throttled'],
    [new NetworkError(new TypeError('offline')), 'network'],
  ])('names the failure %#', async (error, failure) => {
    const { actor } = setUp({ api: { login: vi.fn<Api['login']>().mockRejectedValue(error) } });
    typeCredentials(actor, 'ada', 'secret');
    actor.send({ type: 'LOGIN' });
    await waitFor(actor, (s) => s.context.loginError !== null);
    expect(actor.getSnapshot().context.loginError).toBe(failure);
  });

  it('can log in again from the expired-session form', async () => {
    const { actor } = setUp({
      stored: aUser(),
      api: { me: vi.fn<Api['me']>().mockRejectedValue(unauthorized()), refresh: vi.fn<Api['refresh']>().mockRejectedValue(unauthorized()) },
    });
    await waitFor(actor, (s) => s.matches({ signedOut: 'expired' }));
    actor.send({ type: 'CREDENTIALS.CHANGE', password: 'secret' });
    actor.send({ type: 'LOGIN' });
    await waitFor(actor, (s) => s.matches('signedIn'));
  });
});

describe('logout', () => {
  it('tells the server, forgets the user and drops cached data', async () => {
    const { actor, api, store, onSignedOut } = await signedIn();
    actor.send({ type: 'LOGOUT' });
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }));
    expect(api.logout).toHaveBeenCalledTimes(1);
    expect(store.load()).toBeNull();
    expect(onSignedOut).toHaveBeenCalled();
  });

  it('forgets the user even when the server call fails', async () => {
    const setup = setUp({ stored: aUser(), api: { logout: vi.fn<Api['logout']>().mockRejectedValue(new ApiError(500, null)) } });
    await waitFor(setup.actor, (s) => s.matches('signedIn'));
    setup.actor.send({ type: 'LOGOUT' });
    await waitFor(setup.actor, (s) => s.matches('signedOut'));
    expect(setup.store.load()).toBeNull();
  });
});

describe('an authenticated call meeting 401', () => {
  function authedSend(setup: Awaited<ReturnType<typeof signedIn>>, send: Send) {
    return withSessionRefresh(send, sessionGate(setup.actor, setup.store));
  }

  it('refreshes the session once and repeats the call', async () => {
    const setup = await signedIn();
    const raw = vi.fn().mockRejectedValueOnce(unauthorized()).mockResolvedValueOnce([{ id: 1 }]);
    const result = await authedSend(setup, raw as unknown as Send)('GET', '/drainage/projects/');
    expect(result).toEqual([{ id: 1 }]);
    expect(raw).toHaveBeenCalledTimes(2);
    expect(setup.api.refresh).toHaveBeenCalledTimes(1);
    expect(setup.actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
  });

  it('ends the session with the expired message when the refresh fails', async () => {
    const setup = await signedIn();
    setup.api.refresh.mockRejectedValueOnce(unauthorized());
    const raw = vi.fn().mockRejectedValue(unauthorized());
    await expect(authedSend(setup, raw as unknown as Send)('GET', '/drainage/projects/')).rejects.toBeInstanceOf(
      SessionExpiredError,
    );
    expect(raw).toHaveBeenCalledTimes(1);
    expect(setup.actor.getSnapshot().matches({ signedOut: 'expired' })).toBe(true);
    expect(setup.actor.getSnapshot().context.username).toBe('ada');
    expect(setup.store.load()).toBeNull();
  });

  it('ends the session when the repeated call still meets 401', async () => {
    const setup = await signedIn();
    const raw = vi.fn().mockRejectedValue(unauthorized());
    await expect(authedSend(setup, raw as unknown as Send)('GET', '/drainage/projects/')).rejects.toBeInstanceOf(
      SessionExpiredError,
    );
    expect(raw).toHaveBeenCalledTimes(2);
    expect(setup.api.refresh).toHaveBeenCalledTimes(1);
    expect(setup.actor.getSnapshot().matches({ signedOut: 'expired' })).toBe(true);
  });

  it('shares one refresh between calls that meet 401 together', async () => {
    const setup = await signedIn();
    const refresh = deferred<null>();
    setup.api.refresh.mockReturnValueOnce(refresh.promise);
    let failFirst = 2;
    const raw = vi.fn(async () => {
      if (failFirst-- > 0) throw unauthorized();
      return 'ok';
    });
    const send = authedSend(setup, raw as unknown as Send);
    const both = Promise.all([send('GET', '/a/'), send('GET', '/b/')]);
    await vi.waitFor(() => expect(setup.actor.getSnapshot().matches({ signedIn: 'refreshing' })).toBe(true));
    refresh.resolve(null);
    await expect(both).resolves.toEqual(['ok', 'ok']);
    expect(setup.api.refresh).toHaveBeenCalledTimes(1);
  });

  it('passes the 401 through when no user is stored', async () => {
    const setup = setUp();
    const raw = vi.fn().mockRejectedValue(unauthorized());
    const send = withSessionRefresh(raw as unknown as Send, sessionGate(setup.actor, setup.store));
    await expect(send('GET', '/drainage/projects/')).rejects.toMatchObject({ status: 401 });
    expect(setup.api.refresh).not.toHaveBeenCalled();
  });

  it('leaves other errors alone', async () => {
    const setup = await signedIn();
    const raw = vi.fn().mockRejectedValue(new ApiError(500, null));
    await expect(authedSend(setup, raw as unknown as Send)('GET', '/x/')).rejects.toMatchObject({ status: 500 });
    expect(setup.api.refresh).not.toHaveBeenCalled();
    expect(setup.actor.getSnapshot().matches('signedIn')).toBe(true);
  });
});

describe('user updates', () => {
  it('applies and remembers a newly chosen language', async () => {
    const setup = await signedIn();
    setup.actor.send({ type: 'USER.UPDATE', changes: { language: 'pl' } });
    expect(setup.applyLanguage).toHaveBeenLastCalledWith('pl');
    expect(setup.store.load()?.language).toBe('pl');
  });
});
