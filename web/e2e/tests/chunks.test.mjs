// A page whose code does not arrive (network failure, a release that
// replaced the files) shows a retry message instead of a blank screen, and
// the retry loads it: the design screen, and a dialog loaded on demand (the
// UK rainfall map). Needs the GB account of E2E_USERNAME / E2E_PASSWORD
// (scripts/e2e.sh).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { acceptCookies, calculateButton, field } from '../lib/app.mjs';
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

  test('the rainfall map’s code fails once: a retry message in its place, then the map on retry', async () => {
    await acceptCookies(page);
    let refused = 0;
    const mapChunk = /\/assets\/RainfallMapDialog-[^/]+\.js$/;
    await page.route(mapChunk, (route) => {
      refused += 1;
      return route.abort('connectionreset');
    });
    await page.getByRole('button', { name: 'Rainfall map', exact: true }).click();
    // The message shows as a dialog, where the map would have opened.
    const dialog = page.getByRole('dialog', { name: 'UK rainfall map' });
    const alert = dialog.getByRole('alert').filter({ hasText: 'could not be loaded' });
    await alert.waitFor();
    assert.ok(refused >= 1, 'the map chunk was asked for');
    await screenshot(page, 'chunk-retry-rainfall-map');

    await page.unroute(mapChunk);
    await dialog.getByRole('button', { name: 'Try again' }).click();
    await dialog.getByTestId('rainfall-map').waitFor();
    assert.equal(await alert.count(), 0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});
