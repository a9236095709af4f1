// Advanced mode, as a planner with the advanced-mode right designs by hand:
// a 24.6 m run laid from 25 m of two fibre-concrete channel types (stepped
// turns on by itself), the auto-cut dialog cutting 400 mm off at the
// discharge, a trash box outlet; the specification and the materials name
// the channels, the cut piece and the trash box. A second tab follows the
// edits live; the project comes back as it was after a save, a reload and
// a load. An in-situ concrete run shows its n with Kst = 1/n. A standard
// user never sees the mode switch, and the server refuses them an advanced
// calculation (403). Needs E2E_ADVANCED_USERNAME / E2E_ADVANCED_PASSWORD
// and E2E_USERNAME / E2E_PASSWORD (scripts/e2e.sh sets them).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calculateButton, enter, logIn } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';

const planner = { username: process.env.E2E_ADVANCED_USERNAME, password: process.env.E2E_ADVANCED_PASSWORD };
const standard = { username: process.env.E2E_USERNAME, password: process.env.E2E_PASSWORD };
const skip = planner.username && standard.username ? false : 'E2E_ADVANCED_USERNAME and E2E_USERNAME are not set';

const D250 = 'FC 200 Standard D250 +200';
const D300 = 'FC 200 Standard D300 +200';

const tab = (page, name) => page.getByRole('tab', { name, exact: true });
const view = (page, name) => page.getByRole('radio', { name: new RegExp(`^${name}`) });
const count = (page, name) => page.getByRole('spinbutton', { name: `Number of ${name}`, exact: true });
const specRow = (page, label) => page.locator('.spec-table tr', { has: page.locator('th', { hasText: new RegExp(`^${label}$`) }) }).locator('td');

async function dismissCookies(page) {
  const notice = page.getByRole('region', { name: 'Cookie notice' });
  if (await notice.count()) await notice.getByRole('button', { name: 'OK' }).click();
}

/** Presses Calculate (or a dialog's button that calculates) and waits for the answer; closes a super-critical notice. */
async function calculating(page, press) {
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/drainage/calculate/') && r.request().method() === 'POST');
  await press();
  const response = await answer;
  const body = await response.json();
  assert.equal(response.status(), 200, JSON.stringify(body));
  if (body.results?.went_super_critical) {
    const dialog = page.getByRole('alertdialog', { name: 'Super-critical flow' });
    if (await dialog.count()) await dialog.getByRole('button', { name: 'OK' }).click();
  }
  return body.results;
}

/** The channels screen shows the hand-picked design: counts, stepping, the cut and the trash box. */
async function checkChannels(page) {
  await view(page, 'Channels').check();
  await count(page, D250).waitFor();
  assert.equal(await count(page, D250).inputValue(), '12');
  assert.equal(await count(page, D300).inputValue(), '13');
  await page.getByText('Stepped: the run changes channel along its length.').waitFor();
  assert.equal(await page.getByLabel('Trash box', { exact: true }).inputValue(), '25');
  await page.getByRole('button', { name: 'Edit discharge' }).click();
  assert.equal(await page.locator('#adv-cut-discharge-distance').inputValue(), '400');
  await page.getByRole('button', { name: 'Edit discharge' }).click();
}

describe('advanced mode', { skip }, () => {
  let browser;
  let page;
  const projectName = `Hand-laid yard ${Date.now().toString(36)}`;

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
    await page.goto('/');
    await logIn(page, planner.username, planner.password);
    await dismissCookies(page);
  });

  after(async () => {
    await browser?.close();
  });

  test('the switch puts the run in advanced mode: no system selection, the run tab holds catchment, channels and results', async () => {
    const mode = page.getByRole('group', { name: 'Mode' });
    await mode.waitFor();
    assert.equal(await mode.getByRole('radio', { name: 'Standard' }).isChecked(), true, 'the user\'s default is standard');
    await mode.getByRole('radio', { name: 'Advanced' }).check();
    await view(page, 'Catchment').waitFor();
    assert.equal(await tab(page, 'System selection').count(), 0, 'advanced mode omits the system selection');
    assert.equal(await tab(page, 'Run 1').isEnabled(), true, 'the design run tab is open before any calculation');
    assert.equal(await view(page, 'Results').isDisabled(), true, 'results wait for a calculation');
    assert.equal(await page.getByLabel('Channel group').count(), 0, 'the catchment view has no system selector');
    await enter(page, 'Channel length', 24.6);
    await enter(page, 'Catchment area', 300);
    await enter(page, 'Longitudinal slope', 0.5);
  });

  test('builds 25 m by hand from two channel types; stepped turns on by itself', async () => {
    await view(page, 'Channels').check();
    const system = page.getByLabel('Drainage system');
    await system.locator('option[value="fibre"]').waitFor({ state: 'attached' });
    await system.selectOption('fibre');
    await page.getByLabel('Loading class').selectOption('C250');
    const type = page.getByLabel('Channel type');
    await type.locator('option[value="10200"]').waitFor({ state: 'attached' });
    await type.selectOption('10200');
    await count(page, D250).fill('12');
    await count(page, D250).press('Enter');
    await page.getByText('Single size.').waitFor();
    await count(page, D300).fill('13');
    await count(page, D300).press('Enter');
    await page.getByText('Stepped: the run changes channel along its length.').waitFor();
    // The channels lay 25 m against the run's 24.6 m: flagged.
    await page.getByText('The channels lay 25 m; the run is 24.6 m long.').waitFor();
    const drawing = page.getByRole('img', { name: /^Drawing of the run: 25 elements laying 25 m/ });
    await drawing.waitFor();
    assert.equal(await drawing.locator('.run-preview__stretch').count(), 2, 'one stretch a channel type');
  });

  test('chooses a trash box outlet by its discharge', async () => {
    assert.equal(await page.getByRole('radio', { name: 'Modification of the last element' }).isEnabled(), true);
    await page.getByRole('radio', { name: 'Outflow in trash box' }).check();
    const box = page.getByLabel('Trash box', { exact: true });
    await box.locator('option[value="25"]').waitFor({ state: 'attached' });
    // Only the boxes that fit the 200 mm standard channel at C 250: 15 and 25 l/s.
    assert.deepEqual(await box.locator('option:not([disabled])').evaluateAll((options) => options.map((o) => o.value)), ['15', '25']);
    await box.selectOption('25');
    await screenshot(page, 'advanced-channels', { phone: true });
  });

  test('Calculate opens the auto-cut dialog; cutting at the discharge calculates the hand-picked design', async () => {
    await calculateButton(page).click();
    const dialog = page.getByRole('alertdialog', { name: 'The channels do not match the run length' });
    await dialog.getByText('The channels are 0.4 m longer than the run (24.6 m).').waitFor();
    await screenshot(page, 'advanced-auto-cut');
    const results = await calculating(page, () => dialog.getByRole('button', { name: 'Cut at the discharge' }).click());
    assert.deepEqual(
      results.channels_used.map((u) => [u.name, u.count]),
      [[D250, 12], [D300, 13]],
      'the hand-picked channels, head to outlet',
    );
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
    assert.equal(await view(page, 'Results').isChecked(), true, 'the results view opens');
    const channels = await specRow(page, 'Channels, head to outlet').locator('li').allInnerTexts();
    assert.equal(channels.length, 2);
    assert.equal(channels[0], `${D250}: 0–12 m (12 ×)`);
    assert.equal(channels[1], `${D300}: 12–24.6 m (13 ×)`);
    assert.equal(await specRow(page, 'Cut at the discharge').innerText(), '400 mm at 90°');
    assert.equal(await specRow(page, 'Discharge').innerText(), 'Outflow in trash box, 25 l/s');
    await screenshot(page, 'advanced-results', { phone: true });

    await tab(page, 'Materials list').click();
    const table = page.locator('.materials-panel');
    await table.getByText(`${D300}, cut to 600 mm`).waitFor();
    await table.getByText('Trash box FC 200 Standard, DN 200 outlet').waitFor();
    await screenshot(page, 'advanced-materials');
    await tab(page, 'Run 1').click();
    await checkChannels(page);
  });

  test('a second tab follows the edits live, both ways', async () => {
    const second = await browser.context.newPage();
    try {
      await second.goto('/');
      await calculateButton(second).waitFor();
      await view(second, 'Channels').check();
      const there = second.getByLabel('Trash box', { exact: true });
      await there.locator('option[value="15"]').waitFor({ state: 'attached' });
      assert.equal(await there.inputValue(), '25');
      await page.getByLabel('Trash box', { exact: true }).selectOption('15');
      await second.waitForFunction(() => document.querySelector('#adv-trashbox')?.value === '15', null, { timeout: 5000 });
      await count(second, D250).fill('11');
      await count(second, D250).press('Enter');
      await page.waitForFunction(() => document.querySelector('[aria-label="Number of FC 200 Standard D250 +200"]')?.value === '11', null, { timeout: 5000 });
      await count(second, D250).fill('12');
      await count(second, D250).press('Enter');
      await second.getByLabel('Trash box', { exact: true }).selectOption('25');
      await page.waitForFunction(
        () => document.querySelector('#adv-trashbox')?.value === '25' && document.querySelector('[aria-label="Number of FC 200 Standard D250 +200"]')?.value === '12',
        null,
        { timeout: 5000 },
      );
      assert.deepEqual(browser.pageErrors, []);
    } finally {
      await second.close();
    }
    // The edits left the run to calculate again; it lays the run length, so no auto-cut.
    await calculating(page, () => calculateButton(page).click());
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
  });

  test('saves; a reload and a load bring everything back', async () => {
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save project' });
    await dialog.getByLabel(/^Project name/).fill(projectName);
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.reload();
    await calculateButton(page).waitFor();
    await page.waitForFunction((name) => document.querySelector('#project-name')?.value === name, projectName);
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
    assert.equal(await page.getByRole('group', { name: 'Mode' }).getByRole('radio', { name: 'Advanced' }).isChecked(), true);
    assert.equal(await page.getByRole('group', { name: 'Mode' }).getByRole('radio', { name: 'Advanced' }).isDisabled(), true, 'locked after an advanced calculation');
    assert.equal(await specRow(page, 'Cut at the discharge').innerText(), '400 mm at 90°');
    await checkChannels(page);

    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('#project-name')?.value === '');
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await page.getByRole('dialog', { name: 'Load project' }).getByText(projectName).click();
    await page.waitForFunction((name) => document.querySelector('#project-name')?.value === name, projectName);
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
    assert.equal(await specRow(page, 'Discharge').innerText(), 'Outflow in trash box, 25 l/s');
    await checkChannels(page);
  });

  test('an in-situ concrete run calculates and shows n with Kst = 1/n', async () => {
    await page.getByRole('button', { name: 'Add run' }).click();
    await page.getByRole('button', { name: /^Run 2 ?,/ }).waitFor();
    await page.getByRole('group', { name: 'Mode' }).getByRole('radio', { name: 'Advanced' }).check();
    await view(page, 'Catchment').check();
    await enter(page, 'Channel length', 20);
    await enter(page, 'Catchment area', 144);
    await view(page, 'Channels').check();
    await page.getByLabel('Drainage system').selectOption('concrete');
    assert.equal(await page.getByLabel('Channel type').count(), 0, 'no channel type for the concrete channel');
    await enter(page, 'Width', 100);
    await enter(page, 'Depth', 300);
    await enter(page, "Roughness \\(Manning's n\\)", 0.011);
    // Kst = 1/0.011 follows the n typed.
    await page.waitForFunction(() => document.querySelector('#adv-concrete-kst')?.value === '90.91');
    assert.equal(await page.getByRole('radio', { name: 'Outflow in trash box' }).isDisabled(), true);
    await screenshot(page, 'advanced-concrete');
    const results = await calculating(page, () => calculateButton(page).click());
    assert.equal(results.channel_internal_width_mm, 100);
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
    assert.equal(await specRow(page, "Roughness \\(Manning's n\\)").innerText(), '0.011');
    assert.equal(await specRow(page, 'Kst = 1/n').innerText(), '90.91 m^⅓/s');
    assert.deepEqual(browser.pageErrors, []);
  });
});

describe('a standard user', { skip }, () => {
  test('never sees the mode switch, and the server refuses them an advanced calculation', async () => {
    const browser = await openBrowser();
    try {
      const page = await browser.newPage();
      await page.goto('/');
      await logIn(page, standard.username, standard.password);
      await dismissCookies(page);
      await page.getByLabel('Channel group').waitFor();
      assert.equal(await page.getByRole('group', { name: 'Mode' }).count(), 0, 'no standard/advanced switch');
      assert.equal(await page.getByRole('radio', { name: 'Advanced' }).count(), 0);
      const status = await page.evaluate(async () => {
        const body = {
          advanced: true, channel_group: 'concrete', concreteChannel: { width: 100, depth: 300, roughness: 0.011 },
          channel_length_m: 20, drainage_area_m2: 144, rainfall: { rainfall_mm_per_hr: 50 },
        };
        const response = await fetch('/api/drainage/calculate/', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        return response.status;
      });
      assert.equal(status, 403);
    } finally {
      await browser.close();
    }
  });
});
