// A UK designer's rainfall and storage: the rainfall map (a place clicked on
// the bundled UK outline, no tiles, the intensity table, OK, the default
// question) changes the run's rainfall; the controlled discharge dialog of a
// high-capacity run calculates, shows its results and images, goes to the
// map and back, and confirms. Needs the GB account of E2E_USERNAME /
// E2E_PASSWORD (scripts/e2e.sh makes one; `users add` defaults to GB).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calculateButton, designRun, enter, field, logIn } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';

const username = process.env.E2E_USERNAME;
const password = process.env.E2E_PASSWORD;
const skip = username && password ? false : 'E2E_USERNAME and E2E_PASSWORD are not set';

describe('a UK designer', { skip }, () => {
  let browser;
  let page;
  let mapIntensity = null;
  // The dialog's results table as confirmed: label → shown value.
  let confirmedDesign = null;

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
    // The map must never need the internet: any request off this server fails the test.
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!['data:', 'blob:'].includes(url.protocol) && url.origin !== new URL(page.url() || 'http://x').origin && url.hostname !== '127.0.0.1') {
        browser.pageErrors.push(`request off the server: ${request.url()}`);
      }
    });
    await page.goto('/');
    await logIn(page, username, password);
    await page.getByRole('region', { name: 'Cookie notice' }).getByRole('button', { name: 'OK' }).click();
    await designRun(page, { system: 'poly-hicap', length: 50, area: 300 });
  });

  after(async () => {
    await browser?.close();
  });

  const mapDialog = () => page.getByRole('dialog', { name: 'UK rainfall map' });

  async function clickMap(dialog, dx = 0, dy = 0) {
    const map = dialog.getByTestId('rainfall-map');
    await map.waitFor();
    const box = await map.boundingBox();
    await page.mouse.click(box.x + box.width / 2 + dx, box.y + box.height / 2 + dy);
  }

  test('looks the rainfall up on the map and makes it the run\'s', async () => {
    assert.equal(await field(page, 'Rainfall intensity').inputValue(), '50', 'the default rainfall');
    await page.getByRole('button', { name: 'Rainfall map', exact: true }).click();
    const dialog = mapDialog();
    await dialog.waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'OK' }).isDisabled(), true, 'OK waits for a location');
    assert.equal(await dialog.getByText('No location chosen').count(), 1);
    // The outline is drawn from the bundle: an SVG path, no tile images.
    assert.ok((await dialog.locator('path.leaflet-interactive, .leaflet-overlay-pane path').count()) >= 1, 'the UK outline is drawn');
    assert.equal(await dialog.locator('img.leaflet-tile').count(), 0, 'no tiles by default');

    await clickMap(dialog);
    const location = dialog.locator('.rainfall-map__location');
    await page.waitForFunction(() => /\([A-Z]{2}\d{4}\)$/.test(document.querySelector('.rainfall-map__location')?.textContent ?? ''));
    const place = await location.innerText();
    const cells = await dialog.getByRole('table', { name: 'Rainfall intensity by storm duration' }).locator('td').allInnerTexts();
    assert.equal(cells.length, 8, 'eight durations');
    const rates = cells.map(Number);
    assert.ok(rates.every((rate) => rate > 0), `rates ${cells}`);
    assert.ok(rates.every((rate, i) => i === 0 || rate < rates[i - 1]), 'intensity falls with duration');
    const headers = await dialog.getByRole('columnheader').allInnerTexts();
    assert.deepEqual(headers, ['5 min', '10 min', '15 min', '30 min', '1 h', '2 h', '4 h', '8 h']);
    mapIntensity = await field(dialog, 'Rainfall intensity').inputValue();
    assert.equal(Number(mapIntensity), rates[3], 'the 30-minute storm is the run\'s');

    // A longer storm is less intense; the table follows the return period too.
    await enter(dialog, 'Storm duration', 60);
    await page.waitForFunction((before) => document.querySelector('#rainfall-intensity')?.value !== before, mapIntensity);
    assert.equal(await field(dialog, 'Rainfall intensity').inputValue(), String(rates[4]));
    await enter(dialog, 'Storm duration', 30);
    await page.waitForFunction((before) => document.querySelector('#rainfall-intensity')?.value === before, mapIntensity);
    await dialog.getByLabel('Climate change').selectOption('20');
    await page.waitForFunction((before) => Number(document.querySelector('#rainfall-intensity')?.value) > Number(before), mapIntensity);
    mapIntensity = await field(dialog, 'Rainfall intensity').inputValue();
    await screenshot(page, 'rainfall-map');

    await dialog.getByRole('button', { name: 'OK' }).click();
    const question = page.getByRole('dialog', { name: 'Default rainfall' });
    await question.getByText(`Make ${mapIntensity} mm/h the default rainfall`).waitFor();
    await question.getByRole('button', { name: 'Yes' }).click();
    await question.waitFor({ state: 'detached' });
    assert.equal(await field(page, 'Rainfall intensity').inputValue(), mapIntensity, 'the run takes the map\'s rainfall');
    await page.getByText(`From the map: ${place.replace(/ \(.*$/, '')}, 30 years, 30 min`).waitFor();
    await screenshot(page, 'design-form-uk');
  });

  test('a place in the sea is refused and keeps OK disabled', async () => {
    await page.getByRole('button', { name: 'Rainfall map', exact: true }).click();
    const dialog = mapDialog();
    await page.waitForFunction(() => /\([A-Z]{2}\d{4}\)$/.test(document.querySelector('.rainfall-map__location')?.textContent ?? ''));
    // The map opens on the UK's middle; 3° to the east of it is the North Sea.
    await clickMap(dialog, 270, -60);
    await dialog.getByRole('alert').filter({ hasText: /in the sea|outside the United Kingdom/ }).waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'OK' }).isDisabled(), true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await field(page, 'Rainfall intensity').inputValue(), mapIntensity, 'cancel changes nothing');
  });

  test('sizes a controlled discharge, goes to the map and back, and confirms', async () => {
    await page.getByRole('button', { name: 'Controlled discharge…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Controlled discharge' });
    await dialog.waitFor();
    assert.equal(await field(dialog, 'Channel length').inputValue(), '50');
    assert.equal(await field(dialog, 'Catchment area').inputValue(), '300');
    const free = Number(await field(dialog, 'Free discharge').inputValue());
    assert.equal(free, Math.round((300 * Number(mapIntensity)) / 3600 * 10) / 10, 'free discharge = area × intensity / 3600');
    assert.equal(await field(dialog, 'Free discharge').getAttribute('readonly'), '');
    const calculate = dialog.getByRole('button', { name: 'Calculate', exact: true });
    const confirm = dialog.getByRole('button', { name: 'Confirm' });
    assert.equal(await calculate.isDisabled(), true, 'no controlled discharge yet');

    // Held to the free discharge.
    await enter(dialog, 'Controlled discharge', 999);
    // The cap is applied when the form has taken the value: wait for it
    // rather than read the field the instant Enter was pressed.
    const controlled = await field(dialog, 'Controlled discharge').elementHandle();
    await page.waitForFunction(([el, want]) => Number(el.value) === want, [controlled, free], { timeout: 2000 }).catch(() => {});
    assert.equal(Number(await field(dialog, 'Controlled discharge').inputValue()), free);
    await enter(dialog, 'Controlled discharge', 2);
    const [storageAnswer] = await Promise.all([page.waitForResponse((response) => response.url().endsWith('/drainage/calculate_storage/')), calculate.click()]);
    const storage = await storageAnswer.json();
    const results = dialog.getByRole('region', { name: 'Controlled discharge results' });
    await results.waitFor();
    const table = await results.locator('table').innerText();
    for (const row of ['Selected channel', 'Critical duration', 'Orifice diameter', 'Critical rainfall', 'Total channel volume', 'Minimum free board']) {
      assert.match(table, new RegExp(row), row);
    }
    assert.match(table, /High-Capacity/);
    const section = results.getByRole('img', { name: /^Cross-section of the channel/ });
    await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await section.elementHandle());
    // The storage graph is drawn in the page from the critical storm's numbers.
    const graph = results.getByRole('img', { name: /^Storage graph/ });
    await graph.locator('canvas').waitFor();
    await graph.scrollIntoViewIfNeeded();
    const plot = await graph.locator('.u-over').boundingBox();
    await page.mouse.move(plot.x + plot.width / 3, plot.y + plot.height / 2);
    // The readout is a moment of the critical storm as the server routed it.
    const shown = async (field) => Number((await results.locator(`.chart-readout [data-field="${field}"]`).innerText()).replace(/[^\d.]/g, ''));
    const minute = await shown('time');
    const moment = storage.critical_storm.find((p) => Math.abs(p.t_min - minute) <= 0.05 + 1e-9);
    assert.ok(moment, `the critical storm has a moment at ${minute} min`);
    assert.ok(Math.abs((await shown('stored')) - moment.stored_m3) <= 0.0005 + 1e-9, 'stored volume');
    assert.ok(Math.abs((await shown('outflow')) - moment.outflow_l_s) <= 0.005 + 1e-9, 'outflow');
    assert.equal(await confirm.isEnabled(), true);
    await page.setViewportSize({ width: 1280, height: 1250 });
    await screenshot(page, 'controlled-discharge');
    await page.setViewportSize({ width: 1280, height: 900 });

    // A changed field makes the result stale until calculated again.
    await enter(dialog, 'Controlled discharge', 1.5);
    assert.equal(await confirm.isDisabled(), true, 'stale results cannot be confirmed');

    // The round trip: the dialog hides while the map is open and comes back with its fields.
    await dialog.getByRole('button', { name: 'Rainfall map', exact: true }).click();
    await mapDialog().waitFor();
    assert.equal(await dialog.count(), 0, 'the controlled discharge dialog is hidden');
    await mapDialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor();
    assert.equal(await field(dialog, 'Controlled discharge').inputValue(), '1.5', 'its fields are kept');

    await calculate.click();
    await page.waitForFunction(() => !document.querySelector('.storage-results--stale') && document.querySelector('.storage-results'));
    confirmedDesign = Object.fromEntries(
      await dialog.locator('.storage-results__table tr').evaluateAll((rows) => rows.map((row) => [row.querySelector('th').textContent, row.querySelector('td').textContent])),
    );
    await confirm.click();
    await dialog.waitFor({ state: 'detached' });
    // Confirm calculates the run, single size (never stepped with controlled discharge).
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
    assert.match(await page.locator('.spec-table').innerText(), /Configuration\s+Single size/i);
    await page.getByRole('tab', { name: 'System selection' }).click();
    assert.equal(await page.locator('#run-controlled').innerText(), '1.5 l/s');
    assert.equal(await page.getByRole('radio', { name: 'Stepped' }).isDisabled(), true);
  });

  test('the confirmed design is the run’s: specification and materials show it, also after a save and a reload', async () => {
    assert.ok(confirmedDesign, 'a design was confirmed in the step before');
    const orifice = confirmedDesign['Orifice diameter'];
    assert.match(orifice, /^\d+(\.\d)? mm$/, 'an orifice is needed at 1.5 l/s');
    const tab = (name) => page.getByRole('tab', { name, exact: true });

    async function showsTheDesign(when) {
      await tab('Run 1').click();
      const spec = page.locator('.spec-table');
      await spec.waitFor();
      const cell = async (label) => (await spec.getByRole('rowheader', { name: label, exact: true }).locator('xpath=following-sibling::td').innerText()).trim();
      // The channel the dialog chose, not one chosen again for the flow.
      assert.equal(await cell('Channel'), confirmedDesign['Selected channel'], `${when}: channel`);
      assert.equal(await cell('Controlled discharge'), '1.5 l/s', `${when}: controlled outflow`);
      assert.equal(await cell('Orifice diameter'), orifice, `${when}: orifice`);
      assert.equal(await cell('Critical duration'), confirmedDesign['Critical duration'], `${when}: critical duration`);
      assert.equal(await cell('Storage capacity of the channel'), confirmedDesign['Total channel volume'], `${when}: capacity`);
      assert.match(await cell('Storage volume in the critical storm'), /^\d+(\.\d+)? m³$/, `${when}: storage volume`);
      assert.equal(await cell('Flooding in the critical storm'), 'No', `${when}: not flooded`);
      // The profile draws the critical storm's water level (once the run's slices are back after a load).
      await page.locator('.chart-legend').getByText('Water level in the critical storm').waitFor();
      await tab('Materials list').click();
      const plate = page.getByRole('row').filter({ hasText: `orifice plate Ø ${orifice}` });
      await plate.waitFor();
      const article = (await plate.locator('.materials-table__han').innerText()).trim();
      assert.match(article, /^\d+$/, `${when}: the end cap holding the plate has its article (got ${article})`);
      await tab('Run 1').click();
    }

    await showsTheDesign('after confirming');
    await screenshot(page, 'results-controlled', { phone: true });

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const save = page.getByRole('dialog', { name: 'Save project' });
    await save.getByLabel(/^Project name/).fill(`Storage yard ${Date.now()}`);
    await save.getByRole('button', { name: 'Save', exact: true }).click();
    await save.waitFor({ state: 'detached' });
    await page.reload();
    await calculateButton(page).waitFor();
    await page.waitForFunction(() => (document.querySelector('#project-name')?.value ?? '').startsWith('Storage yard'));
    await showsTheDesign('after a reload');
    await tab('System selection').click();
    assert.equal(await page.locator('#run-controlled').innerText(), '1.5 l/s');
  });

  test('reset turns controlled discharge off and calculates the run again', async () => {
    await page.getByRole('button', { name: 'Controlled discharge…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Controlled discharge' });
    // A confirmed design shows again at once.
    await dialog.getByRole('region', { name: 'Controlled discharge results' }).waitFor();
    await dialog.getByRole('button', { name: 'Reset' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
    assert.match(await page.locator('.spec-table').innerText(), /Configuration\s+Stepped/i);
    await page.getByRole('tab', { name: 'System selection' }).click();
    assert.equal(await page.locator('#run-controlled').innerText(), 'None');
    assert.equal(await calculateButton(page).isEnabled(), true);
    assert.deepEqual(browser.pageErrors, []);
  });
});
