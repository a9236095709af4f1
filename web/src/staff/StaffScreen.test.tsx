import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Root } from '../app/Root';
import { createServices } from '../app/services';
import { memoryUserStore } from '../session/userStore';
import { aUser, fakeFetch } from '../test/fakes';

// The staff map's code is refused, as a browser refuses a chunk that a new
// release has replaced: the import of the module fails.
vi.mock('./StaffMapScreen', () => {
  throw new TypeError('Failed to fetch dynamically imported module: /assets/StaffMapScreen-old.js');
});

describe('staff screen', () => {
  it('shows the retry message, not a blank page, when the map’s code fails to load', async () => {
    window.history.replaceState(null, '', '/staff/map');
    window.localStorage.setItem('draindesign.language', 'en');
    const user = aUser({ language: 'en', is_admin: true });
    const fake = fakeFetch(({ path }) => (path === '/auth/me/' ? { status: 200, body: { user } } : undefined));
    render(<Root services={createServices({ fetchFn: fake.fetchFn, store: memoryUserStore(user), live: false })} />);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This part of the page could not be loaded');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    // The staff navigation around it stays usable.
    expect(screen.getByRole('navigation', { name: /staff/i })).toBeInTheDocument();
  });
});
