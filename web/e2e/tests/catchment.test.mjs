// A real site (issue 12): an irregular catchment drawn in the editor with
// the mouse and with the keyboard, whose design flow is the sum of the areas
// × permeability × intensity; a 5 l/s inflow placed on the profile at 12 m,
// whose step the profile's readout shows; an access box; the position
// warning when a run is shortened below its inflow; a second run sent into
// the first run's trash box, calculated together, the box listed once; and
// all of it back after a save, a reload and a load. Needs E2E_USERNAME /
// E2E_PASSWORD (scripts/e2e.sh).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calculateButton, designRun, enter, field, logIn } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';

const username = process.env.E2E_USERNAME;
const password = process.env.E2E_PASSWORD;
const skip = username && password ? false : 'E2E_USERNAME and E2E_PASSWORD are not set';

const RAIN_MM_H = 50;
const fmt = (v, d = 2) => new Intl.NumberFormat('en', { maximumFractionDigits: d }).format(v);
const number = (text) => Number(text.replace(/[^\d.-]/g, ''));

/** Σ area × permeability × intensity, l/s (1 mm/h on 1 m² is 1 l/h), from the areas as sent to the server. */
function designFlow(body) {
  const areas = [...body.leftAreas, ...body.rightAreas];
  const runoff = areas.reduce((sum, a) => sum + (a.length_m * (a.start_width_m + a.end_width_m) * a.permeability_value) / 2, 0);
  return (runoff * RAIN_MM_H) / 3600;
}

describe('a real site', { skip }, () => {
  let browser;
  let page;
  const projectName = `Yard with two runs ${Date.now().toString(36)}`;
  /** Run 1's areas table as drawn, and its first calculation's answer. */
  let areaRows;
  let boxHan;

  const tab = (name) => page.getByRole('tab', { name, exact: true });
  const editor = () => page.getByRole('dialog', { name: 'Catchment shape' });
  const rows = (scope) => scope.locator('.catchment-table tbody tr').allInnerTexts();

  /** Clicks Calculate and waits for the answer of the call it makes (calculate or calculate_shared). */
  async function calculate(path = '/drainage/calculate/') {
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(path) && r.request().method() === 'POST'),
      calculateButton(page).click(),
    ]);
    assert.equal(response.status(), 200, await response.text());
    const answer = await response.json();
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
    const superCritical = page.getByRole('alertdialog', { name: 'Super-critical flow' });
    if (await superCritical.count()) await superCritical.getByRole('button', { name: 'OK' }).click();
    return { request: response.request().postDataJSON(), answer };
  }

  /** Hovers the profile at a chainage and reads the readout's chainage and flow. */
  async function readAt(chainage, length) {
    const plot = page.locator('.profile-chart .u-over');
    await plot.scrollIntoViewIfNeeded();
    const area = await plot.boundingBox();
    await page.mouse.move(area.x + (area.width * chainage) / length, area.y + area.height / 2);
    const readout = page.locator('.profile-readout');
    await readout.locator('[data-field="flow"]').waitFor();
    return { chainage: number(await readout.locator('[data-field="chainage"]').innerText()), flow: number(await readout.locator('[data-field="flow"]').innerText()) };
  }

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
    await page.goto('/');
    await logIn(page, username, password);
    const notice = page.getByRole('region', { name: 'Cookie notice' });
    if (await notice.count()) await notice.getByRole('button', { name: 'OK' }).click();
    await designRun(page, { length: 20, area: 200 });
  });

  after(async () => {
    await browser?.close();
  });

  test('draws an irregular catchment with the mouse: divides an area and drags a corner', async () => {
    await page.getByRole('radio', { name: 'Irregular' }).check();
    // One area each side, as deep as the uniform catchment: 200 m² / 20 m / 2 = 5 m.
    assert.deepEqual(await rows(page), ['Upper area 1\t0\t20\t5\t5\t100\tConcrete pavement (1)', 'Lower area 1\t0\t20\t5\t5\t100\tConcrete pavement (1)']);
    await page.getByRole('button', { name: 'Edit shape' }).click();
    const dialog = editor();
    const canvas = dialog.locator('canvas');
    const box = await canvas.boundingBox();
    // The spec's canvas: 350 px high, 500 px wide under a 1900 px window.
    assert.equal(Math.round(box.height), 350);
    assert.equal(Math.round(box.width), 500);

    await dialog.getByRole('button', { name: 'Divide…' }).click();
    const divide = page.getByRole('dialog', { name: 'Divide Upper area 1' });
    await enter(divide, 'Left part length', 8);
    // The parts always sum to the area's 20 m, and each shows its area.
    assert.equal(await field(divide, 'Right part length').inputValue(), '12');
    await divide.getByText('Area: 40 m²').waitFor();
    await divide.getByText('Area: 60 m²').waitFor();
    await divide.getByRole('button', { name: 'Divide', exact: true }).click();
    await divide.waitFor({ state: 'detached' });

    // Select upper area 2 on the drawing (above the channel, three quarters along), and drag its end corner up.
    await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2 - 40);
    const corner = dialog.getByRole('slider', { name: 'Upper area 2: end depth' });
    const at = await corner.boundingBox();
    await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
    await page.mouse.down();
    await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2 - 24, { steps: 6 });
    await page.mouse.up();
    const dragged = Number(await corner.getAttribute('aria-valuenow'));
    assert.ok(dragged > 6 && dragged < 8, `the end depth went from 5 m to ${dragged} m`);
    // The neighbours' shared corner stayed: the drag moved the end of the last area.
    const upper = await rows(dialog);
    assert.match(upper[0], /^\tUpper area 1\t0\t8\t5\t5\t40\t/);
    assert.match(upper[1], new RegExp(`^\\tUpper area 2\\t8\\t12\\t5\\t${fmt(dragged)}\\t${fmt(12 * (5 + dragged) / 2)}\\t`));
    await screenshot(page, 'catchment-editor-mouse');
  });

  test('and with the keyboard: selects, divides, moves a corner by 0.1 m, merges and sets a surface', async () => {
    const dialog = editor();
    const drawing = dialog.getByRole('group', { name: /^Catchment drawing/ });
    await drawing.focus();
    // ↓ goes across the channel: the lower area under the selected one.
    await page.keyboard.press('ArrowDown');
    await dialog.getByText('Lower area 1: from 0 m to 20 m, 100 m²').waitFor();
    await page.keyboard.press('d');
    const divide = page.getByRole('dialog', { name: 'Divide Lower area 1' });
    await field(divide, 'Right part length').fill('5');
    await field(divide, 'Right part length').press('Enter');
    assert.equal(await field(divide, 'Left part length').inputValue(), '15');
    await divide.getByRole('button', { name: 'Divide', exact: true }).press('Enter');
    await divide.waitFor({ state: 'detached' });

    // Back on the drawing; Tab reaches the selected area's corners: three steps up is 0.3 m wider.
    await page.keyboard.press('Tab');
    const start = dialog.getByRole('slider', { name: 'Lower area 1: start depth' });
    assert.equal(await start.evaluate((el) => el === document.activeElement), true, 'the start corner has the focus');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp');
    assert.equal(await start.getAttribute('aria-valuenow'), '5.3');

    // → to lower area 2, divide it in halves, then merge them back with M.
    await drawing.focus();
    await page.keyboard.press('ArrowRight');
    await dialog.getByText('Lower area 2: from 15 m to 20 m, 25 m²').waitFor();
    await page.keyboard.press('d');
    const halves = page.getByRole('dialog', { name: 'Divide Lower area 2' });
    await halves.getByRole('button', { name: 'Divide', exact: true }).press('Enter');
    await halves.waitFor({ state: 'detached' });
    assert.equal((await rows(dialog)).length, 5);
    await page.keyboard.press('m');
    assert.equal((await rows(dialog)).length, 4);
    await dialog.getByText('Lower area 2: from 15 m to 20 m, 25 m²').waitFor();

    // Lower area 2 is gravel (0.6).
    await dialog.getByLabel('Surface (permeability)').focus();
    await dialog.getByLabel('Surface (permeability)').selectOption('gravel');
    await dialog.getByRole('row', { name: /Lower area 2/ }).getByText('Gravel (0.6)').waitFor();
    await screenshot(page, 'catchment-editor-keyboard', { phone: true });
    await dialog.getByRole('button', { name: 'Close' }).click();
    areaRows = await rows(page);
    assert.equal(areaRows.length, 4);
  });

  test('calculates, and the design flow is the sum of area × permeability × intensity', async () => {
    await page.getByLabel('Into a trash box').check();
    const { request, answer } = await calculate();
    assert.equal(request.catchmentShape, 'irregular');
    assert.equal(request.leftAreas.length + request.rightAreas.length, 4);
    const flow = designFlow(request);
    // Upper 40 + 12 × (5 + d) / 2, lower 15 × 10.3 / 2 + 25 × 0.6, at 50 mm/h.
    assert.ok(Math.abs(answer.results.flow - flow) < 1e-9, `the server's design flow ${answer.results.flow} l/s, the areas give ${flow} l/s`);
    const spec = page.locator('.spec-table');
    assert.match(await spec.innerText(), new RegExp(`Design flow\\s+${fmt(flow).replace('.', '\\.')} l/s`));
    boxHan = answer.results.box[0].HAN;
    await page.getByRole('heading', { name: 'Drainage area' }).waitFor();
    await screenshot(page, 'catchment-results');
  });

  test('places a 5 l/s inflow at 12 m on the profile, and the readout shows the flow step there', async () => {
    assert.equal(await page.getByRole('radio', { name: 'Inflow', exact: true }).isChecked(), true);
    const plot = page.locator('.profile-chart .u-over');
    await plot.scrollIntoViewIfNeeded();
    const area = await plot.boundingBox();
    await page.mouse.click(area.x + (area.width * 12) / 20, area.y + area.height / 2);
    const popup = page.getByRole('dialog', { name: 'Inflow' });
    assert.equal(await field(popup, 'Position from the head').inputValue(), '12');
    await enter(popup, 'Flow rate', 5);
    await popup.getByRole('radio', { name: 'Direct pipe' }).check();
    await screenshot(page, 'catchment-inflow-popup');
    await popup.getByRole('button', { name: 'OK' }).click();
    await page.getByText('Inflow at 12 m: 5 l/s (Direct pipe)').waitFor();

    const { request, answer } = await calculate();
    assert.deepEqual(request.inflows.map((i) => [i.distance_m, i.flow_lps, i.toBeConfirmed]), [[12, 5, false]]);
    const slices = answer.results.segments.flatMap((s) => s.slices);
    const before = await readAt(11.5, 20);
    const after = await readAt(12.5, 20);
    assert.deepEqual([before.chainage, after.chainage], [11.5, 12.5]);
    for (const read of [before, after]) {
      const slice = slices.find((s) => Math.abs(s.distance_m - read.chainage) < 0.005);
      assert.ok(Math.abs(slice.flow_l_s - read.flow) <= 0.005, `the readout shows the slice's flow at ${read.chainage} m`);
    }
    // The step: 5 l/s more, plus the rain on the metre between.
    const rainPerMetre = designFlow(request) / 20;
    assert.ok(after.flow - before.flow >= 5 - 0.01 && after.flow - before.flow <= 5 + 2 * rainPerMetre + 0.01, `flow ${before.flow} → ${after.flow} l/s`);
    await screenshot(page, 'catchment-inflow-profile');
  });

  test('adds an access box from the keyboard form, listed in the materials', async () => {
    await enter(page, 'Chainage from the head', 5);
    await page.getByRole('button', { name: 'Add accessory' }).click();
    const popup = page.getByRole('dialog', { name: 'Accessory' });
    assert.equal(await field(popup, 'Distance from the discharge end').inputValue(), '15');
    assert.equal(await popup.getByLabel('Type').inputValue(), 'access-box');
    await popup.getByRole('button', { name: 'OK' }).click();
    await page.getByText('Access box: 15 m from the discharge end (5 m from the head)').waitFor();
    const { request, answer } = await calculate();
    assert.deepEqual(request.accessories.map((a) => [a.type, a.distance_m]), [['access-box', 15]]);
    const access = answer.results.box.find((line) => line.HAN !== boxHan);
    assert.ok(access, 'an access box line besides the trash box');
    await tab('Materials list').click();
    await page.locator('.materials-table__han', { hasText: new RegExp(`^${access.HAN}$`) }).waitFor();
    await tab('Run 1').click();
  });

  test('gives the position warning when a run is shortened below its inflow', async () => {
    await page.getByRole('button', { name: 'Add run' }).click();
    await page.getByRole('button', { name: /^Run 2 ?,/ }).waitFor();
    await designRun(page, { length: 15, area: 100 });
    await calculate();
    await enter(page, 'Chainage from the head', 12);
    await page.getByRole('button', { name: 'Add inflow' }).click();
    const popup = page.getByRole('dialog', { name: 'Inflow' });
    await enter(popup, 'Flow rate', 2);
    await popup.getByRole('button', { name: 'OK' }).click();
    await page.getByText('Inflow at 12 m: 2 l/s (Direct pipe)').waitFor();

    await tab('System selection').click();
    await enter(page, 'Channel length', 10);
    await calculateButton(page).click();
    const warning = page.getByRole('alertdialog', { name: 'Inflows and accessories reset' });
    await warning.getByText('Some inflows or accessories lay beyond the end of the run.', { exact: false }).waitFor();
    await screenshot(page, 'catchment-position-warning');
    await warning.getByRole('button', { name: 'OK' }).click();
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
    await page.getByText('No inflows or accessories placed.', { exact: false }).waitFor();
  });

  test('sends run 2 into run 1’s trash box: calculated together, the box listed once', async () => {
    await tab('System selection').click();
    await page.getByRole('radio', { name: 'Into the trash box of another run' }).check();
    assert.equal(await page.getByLabel('Run with the trash box').locator('option:checked').innerText(), 'Run 1');
    const { request, answer } = await calculate('/drainage/calculate_shared/');
    assert.equal(request.main.outflowTrashbox, request.second.run_id, 'run 2 names run 1 by its id');
    // Run 1 takes run 2's discharge at its trash box: its flow is its own rain, the 5 l/s inflow and run 2's outflow.
    const run1 = answer.second.results;
    const run2 = answer.main.results;
    assert.ok(Math.abs(run1.flow - (designFlow(request.second) + 5 + run2.channel_discharge)) < 1e-6, `run 1 carries ${run1.flow} l/s`);
    assert.equal(run2.box.filter((line) => line.HAN === boxHan).length, 0, 'run 2 lists no trash box of its own');
    await page.getByText("This run's outflow goes into the trash box of Run 1; the box is listed with Run 1.").waitFor();

    await tab('Materials list').click();
    await page.getByRole('radio', { name: 'The whole project' }).check();
    const total = page.getByRole('table', { name: 'Project total' });
    const boxRow = total.getByRole('row').filter({ has: page.locator('.materials-table__han', { hasText: new RegExp(`^${boxHan}$`) }) });
    assert.equal(await boxRow.count(), 1);
    assert.equal((await boxRow.locator('td').last().innerText()).trim(), '1', 'one trash box for the two runs');
    await screenshot(page, 'catchment-shared-materials', { phone: true });
  });

  test('saves, reloads and loads: the catchment, the items and the link are back', async () => {
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save project' });
    await dialog.getByLabel(/^Project name/).fill(projectName);
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    const check = async () => {
      await page.waitForFunction((name) => document.querySelector('#project-name')?.value === name, projectName);
      await page.getByRole('button', { name: /^Run 1 ?,/ }).click();
      await tab('Run 1').click();
      await page.getByText('Inflow at 12 m: 5 l/s (Direct pipe)').waitFor();
      await page.getByText('Access box: 15 m from the discharge end (5 m from the head)').waitFor();
      await tab('System selection').click();
      assert.equal(await page.getByRole('radio', { name: 'Irregular' }).isChecked(), true);
      assert.deepEqual(await rows(page), areaRows);
      assert.equal(await page.getByLabel('Into a trash box').isChecked(), true);
      await page.getByText("Flows into this run's trash box: Run 2.", { exact: false }).waitFor();
      await page.getByRole('button', { name: /^Run 2 ?,/ }).click();
      await tab('System selection').click();
      assert.equal(await page.getByRole('radio', { name: 'Into the trash box of another run' }).isChecked(), true);
      assert.equal(await page.getByLabel('Run with the trash box').locator('option:checked').innerText(), 'Run 1');
      await tab('Materials list').click();
      await page.getByRole('radio', { name: 'The whole project' }).check();
      const boxRow = page.getByRole('table', { name: 'Project total' }).getByRole('row').filter({ has: page.locator('.materials-table__han', { hasText: new RegExp(`^${boxHan}$`) }) });
      assert.equal((await boxRow.locator('td').last().innerText()).trim(), '1');
    };

    await page.reload();
    await calculateButton(page).waitFor();
    await check();

    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('#project-name')?.value === '');
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    const load = page.getByRole('dialog', { name: 'Load project' });
    await load.getByText(projectName).click();
    await check();
    await screenshot(page, 'catchment-loaded');
    assert.deepEqual(browser.pageErrors, []);
  });
});
