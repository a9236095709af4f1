// The rainfall map's place search and town labels: a UK designer finds a
// town by name and a postcode district by its code, with the keyboard, and
// sees the place's indicative M5-60 and r with their typical error and
// source. Everything comes from the bundled gazetteer: no request leaves
// the server. Needs the GB account of E2E_USERNAME / E2E_PASSWORD.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { designRun, logIn } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';

const username = process.env.E2E_USERNAME;
const password = process.env.E2E_PASSWORD;
const skip = username && password ? false : 'E2E_USERNAME and E2E_PASSWORD are not set';

describe('the rainfall map search', { skip }, () => {
  let browser;
  let page;

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!['data:', 'blob:'].includes(url.protocol) && url.hostname !== '127.0.0.1') {
        browser.pageErrors.push(`request off the server: ${request.url()}`);
      }
    });
    await page.goto('/');
    await logIn(page, username, password);
    await page.getByRole('region', { name: 'Cookie notice' }).getByRole('button', { name: 'OK' }).click();
    await designRun(page, { system: 'poly-hicap', length: 50, area: 300 });
    await page.getByRole('button', { name: 'Rainfall map', exact: true }).click();
  });

  after(async () => {
    await browser?.close();
  });

  const dialog = () => page.getByRole('dialog', { name: 'UK rainfall map' });
  const stats = () => dialog().getByTestId('rainfall-stats');

  async function answerFor(lookUp) {
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/rainfall/findRainStats/')), lookUp()]);
    assert.equal(response.status(), 200);
    return response.json();
  }

  test('labels towns on the map, more as it zooms in', async () => {
    const map = dialog().getByTestId('rainfall-map');
    await map.waitFor();
    await dialog().locator('.rainfall-map__town span').first().waitFor();
    const names = await dialog().locator('.rainfall-map__town').allInnerTexts();
    assert.ok(['Birmingham', 'Leeds', 'Sheffield'].every((name) => names.includes(name)), `labels at the opening zoom: ${names}`);
    assert.ok(names.length < 60, `${names.length} labels at the opening zoom: not cluttered`);
    await screenshot(page, 'rainfall-map-labels');
    // Barnsley (71 000 people, near the map's centre) is named only one step in.
    assert.ok(!names.includes('Barnsley'), 'Barnsley is not named at the opening zoom');
    await map.getByRole('button', { name: 'Zoom in' }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('.rainfall-map__town')].some((el) => el.textContent === 'Barnsley'));
  });

  test('finds a town by name with the arrow keys and Enter', async () => {
    const search = dialog().getByRole('combobox', { name: 'Find a place' });
    await search.fill('sheff');
    const options = dialog().getByRole('listbox', { name: 'Places found' }).getByRole('option');
    await options.first().waitFor();
    assert.match(await options.first().innerText(), /^Sheffield\s+England · S1/);
    await search.press('ArrowDown');
    assert.equal(await options.first().getAttribute('aria-selected'), 'true');
    const answer = await answerFor(() => search.press('Enter'));
    assert.equal(await search.inputValue(), 'Sheffield');
    assert.equal(answer.town, 'Sheffield');
    await page.waitForFunction(() => /Sheffield \(SK\d{4}\)/.test(document.querySelector('.rainfall-map__location')?.textContent ?? ''));
    const shown = await stats().innerText();
    assert.equal(shown, `M5-60 ${answer.M5.toFixed(1)} mm ± ${answer.uncertainty.M5.toFixed(1)} mm, r ${answer.r.toFixed(2)} ± ${answer.uncertainty.r.toFixed(2)} (typical error against ${answer.uncertainty.points} published FSR values)`);
    const source = await dialog().locator('.rainfall-map__source details p').innerText();
    assert.match(source, /^Indicative: interpolated from NRFA catchment rainfall/);
    assert.match(source, /typical error against \d+ published FSR values/);
    assert.match(source, /National River Flow Archive/);
    assert.equal(Number(await dialog().locator('#rainfall-m5').inputValue()), answer.M5);
    await dialog().getByText('Chosen in the search: Sheffield').waitFor();
    await screenshot(page, 'rainfall-search-town');
  });

  test('finds a postcode district and moves the map there', async () => {
    const search = dialog().getByRole('combobox', { name: 'Find a place' });
    await search.fill('SW1A');
    const first = dialog().getByRole('listbox', { name: 'Places found' }).getByRole('option').first();
    await first.waitFor();
    assert.match(await first.innerText(), /^SW1A\s+postcode district near City of Westminster/);
    const answer = await answerFor(() => search.press('Enter'));
    assert.equal(answer.LocationIndex, 'TQ2979');
    await page.waitForFunction(() => /\(TQ2979\)/.test(document.querySelector('.rainfall-map__location')?.textContent ?? ''));
    assert.match(await stats().innerText(), new RegExp(`^M5-60 ${answer.M5.toFixed(1)} mm ± [\\d.]+ mm, r ${answer.r.toFixed(2)} ± `));
    // The map is now zoomed on London: its labels are the city's districts.
    await page.waitForFunction(() => [...document.querySelectorAll('.rainfall-map__town')].some((el) => el.textContent === 'City of Westminster'));
    await screenshot(page, 'rainfall-search-postcode');
    // On a phone the dialog still shows the place, its labels and the table.
    const desktop = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => [...document.querySelectorAll('.rainfall-map__town')].some((el) => el.textContent === 'City of Westminster'));
    assert.match(await dialog().locator('.rainfall-map__location').innerText(), /\(TQ2979\)/);
    await screenshot(page, 'rainfall-search-postcode-phone');
    await page.setViewportSize(desktop);
  });

  test('a Northern Ireland postcode says to search by town', async () => {
    const search = dialog().getByRole('combobox', { name: 'Find a place' });
    await search.fill('BT7');
    await dialog().getByText('Northern Ireland postcodes are not in the offline map; search by town name').waitFor();
    await search.fill('Belf');
    await dialog().getByRole('option', { name: /^Belfast/ }).waitFor();
    const answer = await answerFor(() => search.press('Enter'));
    assert.equal(answer.region, 'Northern Ireland');
    assert.deepEqual(browser.pageErrors, []);
  });
});
