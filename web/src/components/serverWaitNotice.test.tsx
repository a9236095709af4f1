import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Root } from '../app/Root';
import { createServices } from '../app/services';
import { memoryUserStore } from '../session/userStore';
import { aUser, fakeFetch } from '../test/fakes';

describe('the notice while the server waits for its database', () => {
  it('shows while a calculation waits out 503 answers, and goes when it is answered', async () => {
    window.history.replaceState(null, '', '/');
    window.localStorage.setItem('draindesign.language', 'en');
    const user = aUser({ language: 'en', country: { iso_code: 'GB', name: 'United Kingdom', region: 'UK' } });
    let refusals = 1;
    const fake = fakeFetch(({ path }) => {
      if (path === '/auth/me/') return { status: 200, body: { user } };
      if (path === '/drainage/projects/') return { status: 200, body: [] };
      if (path === '/drainage/calculate/') {
        if (refusals-- > 0) return { status: 503, body: { error: 'The server cannot reach its database at the moment.' } };
        return { status: 200, body: { results: { calculated: true } } };
      }
      return undefined;
    });
    const services = createServices({ fetchFn: fake.fetchFn, store: memoryUserStore(user), live: false });
    render(<Root services={services} />);
    const text = 'The server cannot reach its database at the moment. Your change will be sent again in a few seconds…';
    expect(screen.queryByText(text)).toBeNull();

    let answered = false;
    let calculation: Promise<unknown> = Promise.resolve();
    act(() => {
      calculation = services.drainage.calculate({ channel_length_m: 20 }).then(() => (answered = true));
    });
    expect(await screen.findByText(text)).toHaveAttribute('role', 'status');
    await act(async () => {
      await calculation;
    });
    expect(answered).toBe(true);
    await waitFor(() => expect(screen.queryByText(text)).toBeNull());
    expect(fake.calls.filter((call) => call.path === '/drainage/calculate/')).toHaveLength(2);
  });
});
