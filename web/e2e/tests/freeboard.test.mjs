// A run that barely fits: 20 m of the polymer 100 channel taking 840 m² at
// 50 mm/h is about 98 % full. The results, the run list and the hydraulics
// document warn of its low freeboard; a margin the project relaxes lifts the
// warning everywhere. Needs E2E_USERNAME / E2E_PASSWORD (scripts/e2e.sh).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { acceptCookies, calculateButton, designRun, enter, logIn } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';

const username = process.env.E2E_USERNAME;
const password = process.env.E2E_PASSWORD;
const skip = username && password ? false : 'E2E_USERNAME and E2E_PASSWORD are not set';

describe('a nearly full run', { skip }, () => {
  let browser;
  let page;
  let results;

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
    await page.goto('/');
    await logIn(page, username, password);
    await acceptCookies(page);
    await designRun(page, { length: 20, area: 840 });
    const answer = page.waitForResponse((r) => r.url().includes('/api/drainage/calculate/') && r.request().method() === 'POST');
    await calculateButton(page).click();
    const body = await (await answer).json();
    results = body.results ?? body;
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
  });

  after(async () => {
    await browser?.close();
  });

  const warning = () => page.getByRole('status').filter({ hasText: /^Low freeboard:/ });
  const flag = () => page.locator('.run-item__flag');

  test('shows the low-freeboard warning on the run and in the run list', async () => {
    assert.ok(results.percentage_full > 97 && results.percentage_full < 100, `the run is ${results.percentage_full} % full`);
    await warning().waitFor();
    const text = await warning().innerText();
    assert.match(text, new RegExp(`^Low freeboard: ${Math.round(results.freeboard)} mm`), text);
    assert.match(text, /margin of 20 mm or 10 %/);
    assert.equal(await flag().count(), 1, 'the run list flags the run');
    assert.equal(await flag().getAttribute('title'), 'low freeboard');
    await screenshot(page, 'results-low-freeboard');
  });

  test('lifts the warning when the project relaxes its margin', async () => {
    await page.getByText('Project details', { exact: true }).click();
    await enter(page, 'Least freeboard', 0);
    await enter(page, 'Least freeboard, share of channel depth', 0);
    await warning().waitFor({ state: 'detached' });
    assert.equal(await flag().count(), 0, 'the run list no longer flags it');
    await enter(page, 'Least freeboard', 20);
    await enter(page, 'Least freeboard, share of channel depth', 10);
    await warning().waitFor();
  });
});
