// A visitor's first steps: the login form, registering, confirming the
// e-mail address, logging in and out, and resetting a forgotten password.
// The steps after registering read the server's mails from E2E_MAIL_DIR
// (scripts/e2e.sh sets it) and are skipped without it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openBrowser, screenshot } from '../lib/browser.mjs';
import { mailCount, mailDir, waitForLink } from '../lib/mail.mjs';

const needsMail = mailDir ? false : 'E2E_MAIL_DIR is not set';

describe('a new user', () => {
  let browser;
  let page;
  const username = `e2e_${Date.now().toString(36)}`;
  const email = `${username}@example.com`;
  let password = 'Drain-Design-e2e-2468';
  let registered = false;
  let resetLink = null;

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
  });

  after(async () => {
    await browser?.close();
  });

  const field = (label) => page.getByLabel(new RegExp(`^${label}( \\*)?( \\(optional\\))?$`));
  const loginButton = () => page.getByRole('button', { name: 'Login', exact: true });

  async function logIn(name, secret) {
    await field('Username').fill(name);
    await field('Password').fill(secret);
    await loginButton().click();
    await page.getByRole('button', { name: 'Calculate', exact: true }).waitFor();
  }

  async function logOut() {
    await page.getByRole('button', { name: 'Log out' }).click();
    await loginButton().waitFor();
  }

  test('the login button waits for both username and password', async () => {
    await page.goto('/');
    await loginButton().waitFor();
    assert.equal(await loginButton().isDisabled(), true, 'disabled on an empty form');

    await field('Username').fill('someone');
    assert.equal(await loginButton().isDisabled(), true, 'disabled with only a username');

    await field('Password').fill('not-a-real-password');
    assert.equal(await loginButton().isDisabled(), false, 'enabled once both are filled');

    await field('Username').fill('');
    assert.equal(await loginButton().isDisabled(), true, 'disabled again when the username is emptied');
    await screenshot(page, 'login');
  });

  test('registering with every field shows the saved overlay', async () => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL('**/sign-up');
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();

    const values = [
      ['Username', username],
      ['E-mail address', email],
      ['Password', password],
      ['Confirm password', password],
      ['First name', 'Ada'],
      ['Last name', 'Lovelace'],
      ['Company', 'Analytical Engines Ltd'],
      ['Telephone', '+44 20 7946 0000'],
      ['Address', '12 St James Square'],
      ['City', 'London'],
      ['Postcode', 'SW1Y 4JH'],
    ];
    for (const [label, value] of values) await field(label).fill(value);

    // The country list comes from the server; pick its first country.
    const country = page.getByLabel(/^Country/);
    await country.locator('option:nth-child(2)').waitFor({ state: 'attached' });
    const chosen = await country.locator('option:nth-child(2)').getAttribute('value');
    assert.ok(chosen, 'the country list offers at least one country');
    await country.selectOption(chosen);
    await screenshot(page, 'sign-up-filled');

    await page.getByRole('button', { name: 'Register' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const text = await dialog.innerText();
    assert.match(text, /Registration successfully saved/);
    assert.match(text, /confirmation link/);
    await screenshot(page, 'sign-up-saved');
    registered = true;
  });

  test('the e-mailed link confirms the account, which can then log in and out', { skip: needsMail }, async () => {
    assert.ok(registered, 'registered in the step before');
    const link = await waitForLink(email, '/api/auth/confirm/');
    await page.goto(link);
    await page.getByText('Your e-mail address is confirmed. You can now log in.').waitFor();

    await logIn(username, password);
    assert.equal(await page.getByText(username, { exact: true }).first().isVisible(), true, 'the top bar names the user');
    await page.getByRole('tab', { name: 'System selection' }).waitFor();
    await logOut();
  });

  test('a forgotten password is reset through the e-mailed link', { skip: needsMail }, async () => {
    assert.ok(registered, 'registered before');
    const mailsBefore = await mailCount();
    await page.goto('/');
    await page.getByRole('button', { name: 'Forgotten your password?' }).click();
    const send = page.getByRole('button', { name: 'Send' });
    assert.equal(await send.isDisabled(), true, 'Send waits for an address');
    await field('E-mail address').fill(email);
    await send.click();
    await page.getByText('A password reset e-mail has been sent.').waitFor();

    resetLink = await waitForLink(email, '/password-reset/', { after: mailsBefore });
    await page.goto(resetLink);
    password = 'Drain-Design-e2e-new-1357';
    await field('New password').fill(password);
    await field('Confirm new password').fill(password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password has been changed. You can now log in.').waitFor();

    await logIn(username, password);
    await logOut();
  });

  test('a used reset link leads to the bad-link page', { skip: needsMail }, async () => {
    assert.ok(resetLink, 'a reset link was used in the step before');
    await page.goto(resetLink);
    await field('New password').fill('Another-password-2468');
    await field('Confirm new password').fill('Another-password-2468');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL(/\/password-reset$/);
    await page.getByRole('heading', { name: 'Invalid link' }).waitFor();
    await screenshot(page, 'reset-bad-link');
  });

  test('the page threw no uncaught errors', () => {
    assert.deepEqual(browser.pageErrors, []);
  });
});
