// What a visitor does first: the login form, then registering an account.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openBrowser, screenshot } from '../lib/browser.mjs';

describe('signed-out visitor', () => {
  let browser;
  let page;

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
  });

  after(async () => {
    await browser?.close();
  });

  test('the login button waits for both username and password', async () => {
    await page.goto('/');
    const login = page.getByRole('button', { name: 'Login', exact: true });
    await login.waitFor();
    assert.equal(await login.isDisabled(), true, 'disabled on an empty form');

    await page.getByLabel('Username').fill('someone');
    assert.equal(await login.isDisabled(), true, 'disabled with only a username');

    await page.getByLabel('Password', { exact: true }).fill('not-a-real-password');
    assert.equal(await login.isDisabled(), false, 'enabled once both are filled');

    await page.getByLabel('Username').fill('');
    assert.equal(await login.isDisabled(), true, 'disabled again when the username is emptied');
    await screenshot(page, 'login');
  });

  test('registering with every field shows the saved overlay', async () => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL('**/sign-up');
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();

    const username = `e2e_${Date.now().toString(36)}`;
    const password = 'Drain-Design-e2e-2468';
    const fields = [
      ['Username', username],
      ['E-mail address', `${username}@example.com`],
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
    for (const [label, value] of fields) {
      await page.getByLabel(new RegExp(`^${label}( \\*)?( \\(optional\\))?$`)).fill(value);
    }

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

    assert.deepEqual(browser.pageErrors, [], 'no uncaught errors in the page');
  });
});
