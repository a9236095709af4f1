// The public API: the reference page renders the server's OpenAPI document
// offline, and a personal API token made in the settings dialog calculates
// from a script until it is revoked. Needs a confirmed account in
// E2E_USERNAME / E2E_PASSWORD (scripts/e2e.sh makes one).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { logIn } from '../lib/app.mjs';
import { baseURL, openBrowser, screenshot } from '../lib/browser.mjs';

const username = process.env.E2E_USERNAME;
const password = process.env.E2E_PASSWORD;

const run = {
  calculation_method: 'GVF', channel_group: 'concrete', concreteChannel: { width: 100, depth: 300, roughness: 0.011 },
  channel_length_m: 20, drainage_area_m2: 144, rainfall: { rainfall_mm_per_hr: 50 },
};

/** A script's call: no cookies, the token in the Authorization header. */
async function calculateWith(token) {
  const answer = await fetch(new URL('/api/drainage/calculate/', baseURL), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(run),
  });
  return { status: answer.status, body: await answer.json() };
}

describe('the public API', () => {
  let browser;
  let page;

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
  });

  after(async () => {
    await browser?.close();
  });

  test('the reference page renders the API document from the server alone', async () => {
    const elsewhere = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(baseURL) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });
    await page.goto('/api/docs/');
    const calculate = page.locator('.opblock-post', { has: page.locator('[data-path="/api/drainage/calculate/"]') });
    await calculate.waitFor();
    for (const [method, path] of [
      ['get', '/api/drainage/projects/'],
      ['post', '/api/auth/tokens/'],
      ['delete', '/api/auth/tokens/{id}/'],
      ['get', '/api/staff/users/'],
    ]) {
      await page.locator(`.opblock-${method} [data-path="${path}"]`).waitFor();
    }
    assert.match(await page.locator('.info .title').innerText(), /draindesign API/);
    // An operation opens on its request body and answers, the errors included.
    await calculate.locator('.opblock-summary').first().click();
    await calculate.getByText('Request body').first().waitFor();
    await calculate.locator('.response[data-code="401"]').waitFor();
    await calculate.locator('.response[data-code="429"]').waitFor();
    await screenshot(page, 'api-reference', { phone: true });
    assert.deepEqual(elsewhere, [], 'the page loads nothing from outside the server');
    assert.deepEqual(browser.pageErrors, []);
  });

  test('a token from the settings calculates from a script until it is revoked', { skip: username && password ? false : 'E2E_USERNAME and E2E_PASSWORD are not set' }, async () => {
    await page.goto('/');
    await logIn(page, username, password);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'User settings' });
    const section = dialog.getByRole('region', { name: 'API tokens' });
    await section.getByText('You have no API tokens.').waitFor();
    await section.getByLabel('Name of a new token').fill('e2e script');
    await section.getByRole('button', { name: 'Create token' }).click();
    const shown = section.getByLabel('New API token');
    await shown.waitFor();
    const token = await shown.inputValue();
    assert.match(token, /^ddt\.[^.]+\.[A-Za-z0-9_-]{43}$/);
    await section.getByRole('list', { name: 'Your API tokens' }).getByText('e2e script').waitFor();
    await screenshot(page, 'settings-api-token');
    // On a phone the dialog scrolls: the section as a designer on site sees it.
    await page.setViewportSize({ width: 390, height: 844 });
    await section.getByRole('button', { name: 'Copy' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-api-token-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    const ok = await calculateWith(token);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.results.calculated, true);
    assert.ok(Math.abs(ok.body.results.channel_discharge - 2) < 1e-9, `discharge ${ok.body.results.channel_discharge}`);

    // The token is shown once: after Done, only its name stays.
    await section.getByRole('button', { name: 'Done' }).click();
    assert.equal(await section.getByLabel('New API token').count(), 0);
    const row = section.getByRole('listitem').filter({ hasText: 'e2e script' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('Revoke “e2e script”? Scripts using it stop working at once.').waitFor();
    await row.getByRole('button', { name: 'Revoke' }).click();
    await section.getByText('You have no API tokens.').waitFor();

    const refused = await calculateWith(token);
    assert.equal(refused.status, 401);
    assert.match(refused.body.error, /revoked/);
    assert.deepEqual(browser.pageErrors, []);
  });
});
