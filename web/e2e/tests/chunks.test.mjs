// A page whose code does not arrive (network failure, a release that
// replaced the files) shows a retry message instead of a blank screen, and
// the retry loads it. Needs E2E_USERNAME / E2E_PASSWORD (scripts/e2e.sh).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calculateButton, field } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';

const username = process.env.E2E_USERNAME;
const password = process.env.E2E_PASSWORD;

describe('page chunks that fail to load', () => {
  let browser;
  let page;

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
  });

  after(async () => {
    await browser?.close();
  });

  test('the design screen’s code fails once: a retry message, then the screen on retry', async () => {
    let refused = 0;
    const designChunk = /\/assets\/DesignScreen-[^/]+\.js$/;
    await page.route(designChunk, (route) => {
      refused += 1;
      return route.abort('connectionreset');
    });
    await page.goto('/');
    await field(page, 'Username').fill(username);
    await field(page, 'Password').fill(password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();

    const alert = page.getByRole('alert').filter({ hasText: 'could not be loaded' });
    await alert.waitFor();
    assert.ok(refused >= 1, 'the design chunk was asked for');
    await screenshot(page, 'chunk-retry', { phone: true });

    await page.unroute(designChunk);
    await page.getByRole('button', { name: 'Try again' }).click();
    await calculateButton(page).waitFor();
    assert.equal(await alert.count(), 0);
  });
});
