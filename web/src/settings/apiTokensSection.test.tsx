import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Root } from '../app/Root';
import { createServices } from '../app/services';
import type { ApiToken } from '../api/types';
import { memoryUserStore } from '../session/userStore';
import { aUser, fakeFetch } from '../test/fakes';

// The settings dialog's API tokens against a fake server that keeps them.
function renderSignedIn() {
  window.history.replaceState(null, '', '/');
  window.localStorage.setItem('draindesign.language', 'en');
  const user = aUser({ language: 'en', country: { iso_code: 'GB', name: 'United Kingdom', region: 'UK' } });
  let tokens: ApiToken[] = [{ id: 't1', name: 'old laptop', created: '2026-03-02T09:00:00Z' }];
  const fake = fakeFetch(({ method, path, body }) => {
    if (path === '/auth/me/') return { status: 200, body: { user } };
    if (path === '/drainage/projects/') return { status: 200, body: [] };
    if (path === '/auth/tokens/' && method === 'GET') return { status: 200, body: tokens };
    if (path === '/auth/tokens/' && method === 'POST') {
      const created = { id: 't2', name: (body as { name: string }).name, created: '2026-03-04T10:00:00Z' };
      tokens = [...tokens, created];
      return { status: 201, body: { ...created, token: 'ddt.user.s3cret' } };
    }
    const revoke = /^\/auth\/tokens\/(\w+)\/$/.exec(path);
    if (revoke && method === 'DELETE') {
      tokens = tokens.filter((t) => t.id !== revoke[1]);
      return { status: 200, body: { id: revoke[1], revoked: true } };
    }
    return undefined;
  });
  const services = createServices({ fetchFn: fake.fetchFn, store: memoryUserStore(user), live: false });
  render(<Root services={services} />);
  return { user: userEvent.setup({ delay: null }), calls: fake.calls };
}

describe('API tokens in the user settings', () => {
  it('creates a token shown once, and revokes one after confirming', async () => {
    const { user, calls } = renderSignedIn();
    await user.click(await screen.findByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'User settings' });
    const section = within(dialog).getByRole('region', { name: 'API tokens' });
    const list = await within(section).findByRole('list', { name: 'Your API tokens' });
    expect(within(list).getByText('old laptop')).toBeInTheDocument();
    expect(within(list).getByText('created 02/03/2026')).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/api/docs/');

    const create = within(section).getByRole('button', { name: 'Create token' });
    expect(create).toBeDisabled();
    await user.type(within(section).getByLabelText('Name of a new token'), 'CI job');
    await user.click(create);
    expect(await within(section).findByLabelText('New API token')).toHaveValue('ddt.user.s3cret');
    expect(within(section).getByText('Your new token “CI job”. Copy it now: it will not be shown again.')).toBeInTheDocument();
    expect(within(list).getByText('CI job')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/auth/tokens/')?.body).toEqual({ name: 'CI job' });
    await user.click(within(section).getByRole('button', { name: 'Done' }));
    expect(within(section).queryByLabelText('New API token')).toBeNull();

    const oldRow = within(list).getByText('old laptop').closest('li')!;
    await user.click(within(oldRow as HTMLElement).getByRole('button', { name: 'Revoke' }));
    expect(within(section).getByText('Revoke “old laptop”? Scripts using it stop working at once.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(oldRow as HTMLElement).getByRole('button', { name: 'Revoke' }));
    await vi.waitFor(() => expect(within(list).queryByText('old laptop')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/auth/tokens/t1/']);
  });
});
