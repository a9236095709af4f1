// A registered user's session: failed and successful logins, the language
// choice, an ended session and logging out. Needs a confirmed account in
// E2E_USERNAME / E2E_PASSWORD (scripts/e2e.sh makes one).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openBrowser, screenshot } from '../lib/browser.mjs';

const username = process.env.E2E_USERNAME;
const password = process.env.E2E_PASSWORD;
const skip = username && password ? false : 'E2E_USERNAME and E2E_PASSWORD are not set';

describe('a registered user', { skip }, () => {
  let browser;
  let page;

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
  });

  after(async () => {
    await browser?.close();
  });

  const field = (label) => page.getByLabel(new RegExp(`^${label}( \\*)?$`));

  async function logIn() {
    await field('Username').fill(username);
    await field('Password').fill(password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
  }

  test('a wrong password is refused and cleared', async () => {
    await page.goto('/');
    await field('Username').fill(username);
    await field('Password').fill('certainly-not-the-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'The username or password is incorrect.' }).waitFor();
    assert.equal(await field('Password').inputValue(), '');
    assert.equal(await field('Username').inputValue(), username);
  });

  test('logging in opens the design screen; the load dialog lists projects ten rows a page', async () => {
    await logIn();
    await page.getByRole('tab', { name: 'System selection' }).waitFor();
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Load project' });
    for (const column of ['Name', 'Location', 'Reference', 'Date', 'Creator']) {
      await dialog.getByRole('columnheader', { name: column }).waitFor();
    }
    assert.equal(await dialog.getByLabel('Rows per page').first().isVisible(), true);
    await screenshot(page, 'projects');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  test('a chosen language applies at once and stays after a reload', async () => {
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('tab', { name: 'Systemauswahl' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Abmelden' }).waitFor();
    await page.getByRole('tab', { name: 'Systemauswahl' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
    await screenshot(page, 'design-de');
    await page.getByLabel('Sprache').selectOption('en');
    await page.getByRole('tab', { name: 'System selection' }).waitFor();
  });

  test('an ended session brings back the login form with the expired message', async () => {
    await browser.context.clearCookies();
    await page.reload();
    await page.getByText('Your session has expired. Please log in again.').waitFor();
    assert.equal(await field('Username').inputValue(), username, 'the username is kept');
    await screenshot(page, 'session-expired');
    await logIn();
    await page.getByRole('tab', { name: 'System selection' }).waitFor();
  });

  test('logging out returns to the login form for good', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    assert.deepEqual(browser.pageErrors, []);
  });
});
