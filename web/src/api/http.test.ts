import { describe, expect, it } from 'vitest';
import { fakeFetch } from '../test/fakes';
import { ApiError, createHttp, NetworkError } from './http';

describe('createHttp', () => {
  it('sends JSON to /api with the session cookie and the interface language', async () => {
    const fake = fakeFetch(() => ({ status: 200, body: { ok: true } }));
    const send = createHttp({ fetchFn: fake.fetchFn, language: () => 'sr-Latn' });
    await expect(send('PATCH', '/drainage/user_settings/', { language: 'rs' })).resolves.toEqual({ ok: true });
    const [call] = fake.calls;
    expect(call?.path).toBe('/drainage/user_settings/');
    expect(call?.init.credentials).toBe('include');
    const headers = new Headers(call?.init.headers);
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('Accept-Language')).toBe('sr-Latn');
    expect(call?.body).toEqual({ language: 'rs' });
  });

  it('marks bodiless writes as JSON too, and sends no body', async () => {
    const fake = fakeFetch(() => ({ status: 204 }));
    await expect(createHttp({ fetchFn: fake.fetchFn })('POST', '/auth/logout/')).resolves.toBeNull();
    expect(fake.calls[0]?.init.body).toBeUndefined();
    expect(new Headers(fake.calls[0]?.init.headers).get('Content-Type')).toBe('application/json');
  });

  it('turns an error status into ApiError carrying the parsed body', async () => {
    const fake = fakeFetch(() => ({ status: 400, body: { email: ['Enter a valid email address.'] } }));
    const error = await createHttp({ fetchFn: fake.fetchFn })('POST', '/auth/password/reset/', { email: 'x' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, body: { email: ['Enter a valid email address.'] } });
  });

  it('turns a failed connection into NetworkError', async () => {
    const send = createHttp({ fetchFn: async () => Promise.reject(new TypeError('Failed to fetch')) });
    await expect(send('GET', '/auth/me/')).rejects.toBeInstanceOf(NetworkError);
  });
});
