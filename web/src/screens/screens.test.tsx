import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Root } from '../app/Root';
import { createServices } from '../app/services';
import { memoryUserStore } from '../session/userStore';
import { aUser, fakeFetch } from '../test/fakes';

type Route = Parameters<typeof fakeFetch>[0];

const countries = [
  { name: 'Germany', iso_code: 'DE', region: 'EU' },
  { name: 'United Kingdom', iso_code: 'UK', region: 'UK' },
];

function renderAt(path: string, route: Route, stored = memoryUserStore()) {
  window.history.replaceState(null, '', path);
  window.localStorage.setItem('draindesign.language', 'en');
  const fake = fakeFetch(route);
  const services = createServices({ fetchFn: fake.fetchFn, store: stored, live: false });
  render(<Root services={services} />);
  return { ...fake, services, user: userEvent.setup({ delay: null }) };
}

describe('login page', () => {
  it('enables Login only once both fields are filled', async () => {
    const { user } = renderAt('/', () => undefined);
    const login = screen.getByRole('button', { name: 'Login' });
    expect(login).toBeDisabled();
    await user.type(screen.getByLabelText('Username'), 'ada');
    expect(login).toBeDisabled();
    await user.type(screen.getByLabelText('Password'), 'secret');
    expect(login).toBeEnabled();
  });

  it('clears the password and says so when the login fails', async () => {
    const { user } = renderAt('/', ({ path }) =>
      path === '/auth/login/' ? { status: 400, body: { error: 'bad credentials' } } : undefined,
    );
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'wrong{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('The username or password is incorrect.');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Username')).toHaveValue('ada');
  });

  it('shows the server error on 500', async () => {
    const { user } = renderAt('/', ({ path }) => (path === '/auth/login/' ? { status: 500 } : undefined));
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'secret{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Server error, try again later');
  });

  it('signs in with credentials included and applies the user language', async () => {
    const { user, calls, services } = renderAt('/', ({ path }) => {
      if (path === '/auth/login/') return { status: 200, body: { user: aUser({ language: 'de' }) } };
      if (path === '/drainage/projects/') return { status: 200, body: [] };
      return undefined;
    });
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'secret{Enter}');
    expect(await screen.findByRole('button', { name: 'Abmelden' })).toBeInTheDocument();
    const login = calls.find((call) => call.path === '/auth/login/');
    expect(login?.body).toEqual({ username: 'ada', password: 'secret' });
    expect(login?.init.credentials).toBe('include');
    expect(new Headers(login?.init.headers).get('Content-Type')).toBe('application/json');
    expect(services.i18n.language).toBe('de');
  });

  it('says when the e-mail confirmation link worked', () => {
    renderAt('/?confirmed=1', () => undefined);
    expect(screen.getByRole('status')).toHaveTextContent('Your e-mail address is confirmed. You can now log in.');
  });

  it('explains a refused login in the words of the product', async () => {
    const { user } = renderAt('/', ({ path }) =>
      path === '/auth/login/'
        ? { status: 403, body: { error: 'Please confirm your e-mail address first: follow the link in the e-mail we sent you.' } }
        : undefined,
    );
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'secret{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please confirm your e-mail address first');
  });

  it('sends a password reset request from the same panel', async () => {
    const { user, calls } = renderAt('/', ({ path }) =>
      path === '/auth/password/reset/' ? { status: 200, body: {} } : undefined,
    );
    await user.click(screen.getByRole('button', { name: 'Forgotten your password?' }));
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await user.type(screen.getByLabelText('E-mail address'), 'ada@example.com');
    await user.click(send);
    expect(await screen.findByRole('status')).toHaveTextContent('A password reset e-mail has been sent.');
    expect(calls.at(-1)?.body).toEqual({ email: 'ada@example.com' });
  });
});

describe('sign-up page', () => {
  it('marks required fields, lists countries with flags and shows the saved overlay', async () => {
    const { user, calls } = renderAt('/sign-up', ({ path }) => {
      if (path === '/drainage/countries/') return { status: 200, body: countries };
      if (path === '/drainage/register/') return { status: 201, body: {} };
      return undefined;
    });
    const country = screen.getByLabelText(/Country/);
    await within(country).findByRole('option', { name: /Germany/ });
    expect(within(country).getByRole('option', { name: /United Kingdom/ }).textContent).toContain('🇬🇧');

    const fields: [RegExp, string][] = [
      [/^Username/, 'ada.l'],
      [/^E-mail address/, 'ada@example.com'],
      [/^Password/, 'difference-engine'],
      [/^Confirm password/, 'difference-engine'],
      [/^First name/, 'Ada'],
      [/^Last name/, 'Lovelace'],
      [/^Company/, 'Engines Ltd'],
      [/^Address/, '12 St James Square'],
      [/^City/, 'London'],
      [/^Postcode/, 'SW1Y 4JH'],
    ];
    for (const [label] of fields) {
      expect(screen.getByText((_, node) => node?.tagName === 'LABEL' && label.test(node.textContent ?? '') && (node.textContent ?? '').includes('*'))).toBeInTheDocument();
    }
    expect(screen.getByLabelText(/^Telephone/)).not.toBeRequired();

    for (const [label, value] of fields) await user.type(screen.getByLabelText(label), value);
    await user.selectOptions(country, 'UK');
    await user.click(screen.getByRole('button', { name: 'Register' }));

    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Registration successfully saved');
    expect(dialog).toHaveTextContent('check your e-mail for the confirmation link');
    expect(calls.find((call) => call.path === '/drainage/register/')?.body).toMatchObject({
      username: 'ada.l',
      country: 'UK',
      firstName: 'Ada',
    });
  });

  it('says the passwords do not match and shows server errors per field', async () => {
    const { user } = renderAt('/sign-up', ({ path }) => {
      if (path === '/drainage/countries/') return { status: 200, body: countries };
      if (path === '/drainage/register/') {
        return {
          status: 400,
          body: {
            error: 'account: invalid input: username: A user with that username already exists.',
            username: ['A user with that username already exists.'],
          },
        };
      }
      return undefined;
    });
    await user.type(screen.getByLabelText(/^Password/), 'first-password');
    await user.type(screen.getByLabelText(/^Confirm password/), 'second-password');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByText('Please enter a username')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Username/)).toHaveFocus();

    await user.type(screen.getByLabelText(/^Username/), 'ada');
    await user.type(screen.getByLabelText(/^E-mail address/), 'ada@example.com');
    await user.clear(screen.getByLabelText(/^Confirm password/));
    await user.type(screen.getByLabelText(/^Confirm password/), 'first-password');
    for (const label of [/^First name/, /^Last name/, /^Company/, /^Address/, /^City/, /^Postcode/]) {
      await user.type(screen.getByLabelText(label), 'x');
    }
    await within(screen.getByLabelText(/Country/)).findByRole('option', { name: /Germany/ });
    await user.selectOptions(screen.getByLabelText(/Country/), 'DE');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('A user with that username already exists.')).toBeInTheDocument();
    // The body's summary sentence is not for people when the fields say it all.
    expect(screen.queryByText(/account: invalid input/)).not.toBeInTheDocument();
  });
});

describe('signed in', () => {
  it('goes back to the login form with the expired message when the session cannot be refreshed', async () => {
    const stored = memoryUserStore(aUser({ language: 'en' }));
    renderAt('/', ({ path }) => {
      if (path === '/auth/me/') return { status: 200, body: { user: aUser({ language: 'en' }) } };
      if (path === '/projects/') return { status: 401, body: { detail: 'expired' } };
      if (path === '/drainage/product/') return { status: 401, body: { detail: 'expired' } };
      if (path === '/auth/token/refresh/') return { status: 401, body: { detail: 'expired' } };
      return undefined;
    }, stored);
    expect(await screen.findByText('Your session has expired. Please log in again.')).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveValue('ada');
    expect(stored.load()).toBeNull();
  });

  it('applies a chosen language at once and saves it on the account', async () => {
    const stored = memoryUserStore(aUser({ language: 'en' }));
    const { user, calls } = renderAt('/', ({ path }) => {
      if (path === '/auth/me/') return { status: 200, body: { user: aUser({ language: 'en' }) } };
      if (path === '/drainage/projects/') return { status: 200, body: [] };
      if (path === '/drainage/user_settings/') return { status: 200, body: {} };
      return undefined;
    }, stored);
    const select = await screen.findByLabelText('Language');
    await user.selectOptions(select, 'nl');
    expect(await screen.findByRole('button', { name: 'Uitloggen' })).toBeInTheDocument();
    const patch = calls.find((call) => call.path === '/drainage/user_settings/');
    expect(patch?.method).toBe('PATCH');
    expect(patch?.body).toEqual({ language: 'nl' });
    expect(stored.load()?.language).toBe('nl');
  });
});
