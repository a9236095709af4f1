// A database restart seen from the design screen: while the server answers
// 503 (its database out), a calculation waits, a notice says why, and the
// calculation goes through once the server answers again. The 503s are
// the browser's own (a route), shaped as the server sends them
// (api/errors.go: Retry-After, a sentence in "error"). Writes the
// screenshot server-wait. Needs E2E_USERNAME / E2E_PASSWORD.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calculateButton, designRun, logIn } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';

const designer = { username: process.env.E2E_USERNAME, password: process.env.E2E_PASSWORD };
const skip = designer.username && designer.password ? false : 'E2E_USERNAME and E2E_PASSWORD are not set';
const notice = 'The server cannot reach its database at the moment. Your change will be sent again in a few seconds…';

describe('a calculation while the database restarts', { skip }, () => {
  let browser;
  let page;

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
  });

  after(async () => {
    await browser?.close();
  });

  test('waits with a notice, then shows the results', async () => {
    await page.goto('/');
    await logIn(page, designer.username, designer.password);
    const cookies = page.getByRole('region', { name: 'Cookie notice' });
    if (await cookies.isVisible()) await cookies.getByRole('button', { name: 'OK' }).click();
    await designRun(page, { length: 20, area: 144 });

    let refused = 0;
    let restarted = false;
    await page.route('**/api/drainage/calculate/', async (route) => {
      if (!restarted) {
        refused++;
        await route.fulfill({
          status: 503,
          headers: { 'Retry-After': '1', 'Content-Type': 'application/json' },
          body: JSON.stringify({ error: 'The server cannot reach its database at the moment. Please try again in a few seconds.' }),
        });
        return;
      }
      await route.continue();
    });
    await calculateButton(page).click();
    const status = page.getByRole('status').filter({ hasText: notice });
    await status.waitFor();
    await screenshot(page, 'server-wait', { phone: true });
    assert.ok(refused >= 1, 'the calculation was refused while the database was out');

    restarted = true;
    await page.getByRole('heading', { name: 'Design specification' }).waitFor({ timeout: 15_000 });
    await status.waitFor({ state: 'hidden' });
    assert.equal(await page.getByText(notice).count(), 0, 'the notice is gone once the server answers');
  });
});
