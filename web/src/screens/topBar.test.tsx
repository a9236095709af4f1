import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Root } from '../app/Root';
import { createServices } from '../app/services';
import { memoryUserStore } from '../session/userStore';
import { aUser, fakeFetch } from '../test/fakes';

// jsdom lays nothing out, so the bar's row is given widths: the links take
// 400 px, the user's actions 500 px while they sit on the bar (not once they
// drop down from the menu button), the menu button 80 px.
const crowd = (rowWidth: number) => {
  const prototype = HTMLElement.prototype;
  const isRow = (element: HTMLElement) => element.classList.contains('topbar__row');
  Object.defineProperty(prototype, 'scrollWidth', {
    configurable: true,
    get(this: HTMLElement) {
      if (!isRow(this)) return 0;
      const onBar = this.closest('.topbar--full, .topbar--compact') !== null;
      return (this.querySelector(':scope > .topbar__nav') ? 400 : 0) + (onBar ? 500 : 0) + (this.querySelector(':scope > .topbar__toggle') ? 80 : 0);
    },
  });
  Object.defineProperty(prototype, 'clientWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return isRow(this) ? rowWidth : 0;
    },
  });
  // The widths are Element's own: the stand-ins on HTMLElement go again.
  return () => {
    Reflect.deleteProperty(prototype, 'scrollWidth');
    Reflect.deleteProperty(prototype, 'clientWidth');
  };
};

function renderSignedIn() {
  window.history.replaceState(null, '', '/');
  window.localStorage.setItem('draindesign.language', 'en');
  const user = aUser({ language: 'en', shared_projects: true });
  const fake = fakeFetch(({ path }) => {
    if (path === '/auth/me/') return { status: 200, body: { user } };
    if (path === '/drainage/projects/') return { status: 200, body: [] };
    return undefined;
  });
  const services = createServices({ fetchFn: fake.fetchFn, store: memoryUserStore(user), live: false });
  render(<Root services={services} />);
  return userEvent.setup({ delay: null });
}

describe('top bar on a narrow screen', () => {
  let restore: () => void;
  beforeEach(() => {
    restore = crowd(300);
  });
  afterEach(() => restore());

  it('folds its actions behind a menu button that Escape closes', async () => {
    const user = renderSignedIn();
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Log out' })).toBeNull();

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const menu = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    for (const name of ['Settings', 'Log out']) expect(within(menu).getByRole('button', { name })).toBeVisible();
    expect(within(menu).getByRole('link', { name: 'Help' })).toBeVisible();
    expect(within(menu).getByRole('link', { name: 'Shared projects' })).toBeVisible();
    expect(within(menu).getByLabelText('Language')).toBeVisible();

    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Log out' })).toBeNull();
  });

  it('opens Settings from the menu and gives focus back to the menu button', async () => {
    const user = renderSignedIn();
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'User settings' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'User settings' })).toBeNull();
    expect(toggle).toHaveFocus();
  });

  it('closes when the user clicks elsewhere', async () => {
    const user = renderSignedIn();
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    await user.click(toggle);
    await user.click(document.body);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('top bar with room for its links only', () => {
  let restore: () => void;
  beforeEach(() => {
    restore = crowd(600);
  });
  afterEach(() => restore());

  it('keeps the links on the bar and folds the user actions behind the menu button', async () => {
    const user = renderSignedIn();
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    const bar = screen.getByRole('banner');
    expect(within(bar).getByRole('link', { name: 'Shared projects' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Log out' })).toBeNull();
    await user.click(toggle);
    const menu = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(within(menu).getByRole('button', { name: 'Log out' })).toBeVisible();
    expect(within(menu).queryByRole('link', { name: 'Shared projects' })).toBeNull();
  });
});

describe('top bar with room', () => {
  it('shows every action on the bar, with no menu button', async () => {
    renderSignedIn();
    expect(await screen.findByRole('button', { name: 'Log out' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Settings' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Menu' })).toBeNull();
  });
});
