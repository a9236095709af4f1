// A stepped run: 60.5 m of the polymer 100 system taking 800 m² at 50 mm/h
// on a 0.5 % slope steps down through several sizes. The specification
// lists every size with the chainage it covers, as the calculation laid
// them, and the cross-section shows each size to scale with its catalogue
// dimensions. Needs E2E_USERNAME / E2E_PASSWORD (scripts/e2e.sh).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { acceptCookies, calculateButton, designRun, enter, logIn } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';

const username = process.env.E2E_USERNAME;
const password = process.env.E2E_PASSWORD;
const skip = username && password ? false : 'E2E_USERNAME and E2E_PASSWORD are not set';

describe('a stepped run', { skip }, () => {
  let browser;
  let page;
  let results;

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
    await page.goto('/');
    await logIn(page, username, password);
    await acceptCookies(page);
    await designRun(page, { length: 60.5, area: 800 });
    await enter(page, 'Longitudinal slope', 0.5);
    await page.getByRole('radio', { name: 'Stepped' }).check();
    // The polymer system's stepping is theoretical (step adaptors): the form says so once.
    await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
    const answer = page.waitForResponse((r) => r.url().includes('/api/drainage/calculate/') && r.request().method() === 'POST');
    await calculateButton(page).click();
    const body = await (await answer).json();
    results = body.results ?? body;
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
    if (results.went_super_critical) {
      // The run goes super-critical at a step: the screen says so once.
      const dialog = page.getByRole('alertdialog', { name: 'Super-critical flow' });
      await dialog.getByRole('button', { name: 'OK' }).click();
    }
  });

  after(async () => {
    await browser?.close();
  });

  const fmt = (v) => new Intl.NumberFormat('en', { maximumFractionDigits: 2 }).format(v);

  test('lists every channel size with its chainage in the specification', async () => {
    const uses = results.channels_used;
    assert.ok(uses.length >= 2, `${uses.length} sizes`);
    const row = page.locator('.spec-table tr', { hasText: 'Channels, head to outlet' });
    const items = await row.locator('li').allInnerTexts();
    assert.deepEqual(
      items,
      uses.map((u) => `${u.name}: ${fmt(u.from_m)}–${fmt(u.to_m)} m (${u.count} ×)`),
    );
    assert.equal(uses[0].from_m, 0);
    assert.equal(uses.at(-1).to_m, 60.5);
  });

  test('draws each size to scale, the outlet size first', async () => {
    const uses = results.channels_used;
    const legend = page.locator('.cross-section__legend');
    const value = async (label) => legend.locator(`dt:text-is("${label}") + dd`).innerText();
    assert.equal(await value('Channel'), uses.at(-1).name);
    assert.equal(await value('Invert depth (downstream end)'), `${fmt(uses.at(-1).invert_depth_downstream_mm)} mm`);
    assert.equal(await value('Invert depth (downstream end)'), `${fmt(results.invert_depth_mm)} mm`, 'the same invert depth as the table');
    await page.getByLabel('Channel size shown').selectOption('0');
    assert.equal(await value('Channel'), uses[0].name);
    assert.equal(await value('Internal width'), `${fmt(uses[0].width_mm)} mm`);
    assert.equal(await value('Invert depth (downstream end)'), `${fmt(uses[0].invert_depth_downstream_mm)} mm`);
    assert.equal(await value('Overall depth'), `${fmt(uses[0].body_height_mm)} mm`);
    await screenshot(page, 'results-stepped');
  });

  test('lists the whole project\'s materials with a total, as CSV and on the clipboard', async () => {
    await page.getByRole('button', { name: 'Duplicate' }).click();
    await page.getByRole('button', { name: /^Run 2 ?,/ }).waitFor();
    await page.getByRole('tab', { name: 'Materials list', exact: true }).click();
    await page.getByRole('radio', { name: 'The whole project' }).check();
    await page.getByRole('heading', { name: 'Materials for the whole project' }).waitFor();
    // Two identical runs: each article twice the run's count.
    const perRun = new Map(results.channel.map((l) => [l.HAN, 0]));
    for (const l of results.channel) perRun.set(l.HAN, perRun.get(l.HAN) + l.count);
    const total = page.getByRole('table', { name: 'Project total' });
    for (const [han, count] of perRun) {
      const row = total.getByRole('row').filter({ has: page.locator('.materials-table__han', { hasText: new RegExp(`^${han}$`) }) });
      assert.equal((await row.locator('td').last().innerText()).trim(), String(2 * count), `article ${han}`);
    }
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download (CSV)' }).click()]);
    assert.match(download.suggestedFilename(), /all-runs-materials\.csv$/);
    const csv = (await readFile(await download.path(), 'utf8')).slice(1).trim().split('\r\n');
    assert.equal(csv[0], 'Run,Article no.,Description,Length (mm),Quantity');
    const firstHan = results.channel[0].HAN;
    assert.ok(csv.some((row) => row.startsWith(`Project total,${firstHan},`) && row.endsWith(`,${2 * perRun.get(firstHan)}`)), `the total of ${firstHan} in:\n${csv.join('\n')}`);
    assert.ok(csv.some((row) => row.startsWith(`Run 2,${firstHan},`)), 'each run follows the total');

    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy to clipboard' }).click();
    await page.getByText('Copied: paste it into a spreadsheet.').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied.split('\n')[0], 'Run\tArticle no.\tDescription\tLength (mm)\tQuantity');
    await screenshot(page, 'materials-project', { phone: true });
  });
});
