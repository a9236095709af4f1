// The staff area: every group's top-bar links lead to a page; an
// administrator blocks a designer (refused at sign-in, live stream ended),
// moves them to another group, deletes another account after confirming,
// opens the designer's deleted project read-only, filters the calculation
// history to that designer's failed calculations and exports them as CSV;
// channel availability reaches a designer's open system list at once.
// Needs the accounts scripts/e2e.sh makes (E2E_ADMIN_USERNAME and the rest).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { calculateButton, designRun, enter, field, logIn } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';

const env = process.env;
const admin = { username: env.E2E_ADMIN_USERNAME, password: env.E2E_ADMIN_PASSWORD };
const victim = { username: 'e2e-blockme', password: env.E2E_STAFF_PASSWORD };
const doomed = 'e2e-deleteme';
const groups = [
  ['standard', env.E2E_USERNAME, env.E2E_PASSWORD],
  ['support', env.E2E_SUPPORT_USERNAME, env.E2E_SUPPORT_PASSWORD],
  ['marketing', env.E2E_MARKETING_USERNAME, env.E2E_STAFF_PASSWORD],
  ['translator', env.E2E_TRANSLATOR_USERNAME, env.E2E_STAFF_PASSWORD],
  ['admin', admin.username, admin.password],
];
const skip = admin.username && env.E2E_STAFF_PASSWORD && env.E2E_USERNAME ? false : 'the staff accounts of scripts/e2e.sh are not set';

async function logOut(page) {
  // A top bar with many links folds the user's actions behind its menu button.
  const logOutButton = page.getByRole('button', { name: 'Log out' });
  if (!(await logOutButton.isVisible())) await page.getByRole('button', { name: 'Menu' }).click();
  await logOutButton.click();
  await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
}

describe('the staff area', { skip }, () => {
  let browser;
  let page;
  let victimBrowser;
  let victimPage;
  const projectName = `Depot yard ${Date.now().toString(36)}`;

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
  });

  after(async () => {
    await victimBrowser?.close();
    await browser?.close();
  });

  test('no top-bar link of any group leads to "Page not found"', async () => {
    for (const [group, username, password] of groups) {
      await page.goto('/');
      await logIn(page, username, password);
      const hrefs = await page.locator('header.topbar a[href]').evaluateAll((links) => [...new Set(links.map((a) => a.getAttribute('href')))]);
      assert.ok(hrefs.some((href) => href.startsWith('/help')), `${group}: the help link`);
      if (group === 'admin') assert.ok(hrefs.includes('/staff'), 'admin: the staff link');
      if (group === 'marketing' || group === 'admin') assert.ok(hrefs.includes('/staff/channels'), `${group}: the channel availability link`);
      if (group === 'translator') assert.ok(hrefs.includes('/staff/translate/calculator'), 'translator: the translation menu');
      // The web links lead off the product (and off this machine): only its own pages are visited.
      for (const href of hrefs.filter((h) => h.startsWith('/'))) {
        await page.goto(href);
        if (href === '/') await calculateButton(page).waitFor();
        else await page.locator('main h1').first().waitFor();
        assert.equal(await page.getByRole('heading', { name: 'Page not found' }).count(), 0, `${group}: ${href} is not "Page not found"`);
        if (href.startsWith('/help') && group === 'standard') await screenshot(page, 'help-from-top-bar');
        if (href === '/staff/translate/documents') await screenshot(page, 'translations-documents');
      }
      await page.goto('/');
      await calculateButton(page).waitFor();
      await logOut(page);
    }
    assert.deepEqual(browser.pageErrors, []);
  });

  test('a designer saves a project, calculates one that cannot be designed, and deletes the project', async () => {
    victimBrowser = await openBrowser();
    victimPage = await victimBrowser.newPage();
    await victimPage.goto('/');
    await logIn(victimPage, victim.username, victim.password);
    await designRun(victimPage, { length: 10, area: 100 });
    await calculateButton(victimPage).click();
    await victimPage.getByRole('heading', { name: 'Design specification' }).waitFor();
    await victimPage.getByRole('button', { name: 'Save', exact: true }).click();
    const save = victimPage.getByRole('dialog', { name: 'Save project' });
    await save.getByLabel(/^Project name/).fill(projectName);
    await save.getByLabel('Location').fill('Leeds');
    await save.getByRole('button', { name: 'Save', exact: true }).click();
    await save.waitFor({ state: 'detached' });

    // Twice a rain no channel of the range can carry: failed calculations.
    await victimPage.getByRole('tab', { name: 'System selection' }).click();
    for (const rain of [5000, 6000]) {
      await enter(victimPage, 'Rainfall intensity', rain);
      await calculateButton(victimPage).click();
      const failed = victimPage.getByRole('alertdialog').filter({ hasText: 'No channel could be designed' });
      await failed.waitFor();
      await failed.getByRole('button').first().click();
      await failed.waitFor({ state: 'detached' });
    }

    await victimPage.getByRole('button', { name: 'Load', exact: true }).click();
    const load = victimPage.getByRole('dialog', { name: 'Load project' });
    await load.getByRole('button', { name: `Delete ${projectName}` }).click();
    await victimPage.getByRole('button', { name: 'Delete project' }).click();
    await load.getByText(projectName).waitFor({ state: 'detached' });
    if (await load.isVisible()) await victimPage.keyboard.press('Escape');
    await calculateButton(victimPage).waitFor();
  });

  test('the administrator blocks the designer, who is logged out at once and refused at sign-in', async () => {
    await page.goto('/');
    await logIn(page, admin.username, admin.password);
    await page.getByRole('region', { name: 'Cookie notice' }).getByRole('button', { name: 'OK' }).click();
    // The top bar's Staff link opens a new tab; the area is an address like any other.
    const staffLink = page.locator('header.topbar a[href="/staff"]');
    assert.equal(await staffLink.getAttribute('target'), '_blank');
    await page.goto('/staff');
    await page.getByRole('heading', { name: 'Staff administration' }).waitFor();
    await page.getByText('Fact of the day').waitFor();
    const users = page.locator('.staff-grid');
    await users.getByRole('row').filter({ hasText: admin.username }).waitFor();
    await page.waitForFunction(() => !document.querySelector('.staff-stats')?.textContent?.includes('–'));
    await screenshot(page, 'staff-home', { phone: true });
    assert.equal(await page.locator('header.topbar a[href="/staff"]').getAttribute('target'), null, 'in staff, the Staff link stays in the tab');

    await page.getByLabel('Search', { exact: true }).fill('e2e-');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const row = users.getByRole('row').filter({ hasText: victim.username });
    await row.waitFor();
    await row.getByRole('button', { name: `Block ${victim.username}` }).click();
    await page.getByText(`${victim.username} is blocked and has been logged out.`).waitFor();
    await row.getByRole('button', { name: `Unblock ${victim.username}` }).waitFor();
    assert.match(await row.innerText(), /\bYes\b/, 'the row says blocked');

    // The designer's open design screen loses its live stream and its session.
    await victimPage.getByRole('button', { name: 'Login', exact: true }).waitFor({ timeout: 10_000 });
    await field(victimPage, 'Username').fill(victim.username);
    await field(victimPage, 'Password').fill(victim.password);
    await victimPage.getByRole('button', { name: 'Login', exact: true }).click();
    await victimPage.getByText('This account cannot log in. Please contact the provider.').waitFor();
    await screenshot(victimPage, 'staff-blocked-login');

    // Hidden with the blocked ones.
    await page.getByLabel('Hide blocked users').check();
    await users.getByRole('row').filter({ hasText: victim.username }).waitFor({ state: 'detached' });
    await page.getByLabel('Hide blocked users').uncheck();
    await row.waitFor();
  });

  test('moves the designer to another group, and deletes another account after confirming', async () => {
    const users = page.locator('.staff-grid');
    const group = page.getByLabel(`Permission group of ${victim.username}`);
    const offered = await group.locator('option').evaluateAll((options) => options.map((o) => o.value));
    assert.deepEqual(offered, ['standard', 'advanced', 'support', 'translator', 'marketing'], 'an administrator grants no staff group');
    await group.selectOption('advanced');
    await page.getByText(`${victim.username} is now in the group Advanced user.`).waitFor();
    assert.equal(await page.getByLabel(`Permission group of ${victim.username}`).inputValue(), 'advanced');

    const doomedRow = users.getByRole('row').filter({ hasText: doomed });
    await doomedRow.getByRole('button', { name: `Delete ${doomed}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Delete ${doomed}?` });
    await confirm.getByText('this cannot be undone').waitFor();
    await screenshot(page, 'staff-delete-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await doomedRow.waitFor();
    await doomedRow.getByRole('button', { name: `Delete ${doomed}` }).click();
    await confirm.getByRole('button', { name: 'Delete user' }).click();
    await page.getByText(`The account of ${doomed} is deleted.`).waitFor();
    await doomedRow.waitFor({ state: 'detached' });

    const history = page.getByRole('region', { name: 'Latest staff actions' }).or(page.locator('.staff-history'));
    // Deleting erases the account's personal data, its username too: the
    // history names it "erased" from now on (docs/privacy.md).
    await history.getByText(`${admin.username} deleted the account of erased`).waitFor();
    assert.equal(await history.getByText(doomed).count(), 0, 'the erased username is gone from the staff history');
    await history.getByText(`${admin.username} moved ${victim.username} from Standard user to Advanced user`).waitFor();
    await history.getByText(`${admin.username} blocked ${victim.username}`).waitFor();
  });

  test("opens the designer's deleted project read-only, saying whose it is", async () => {
    await page.getByRole('link', { name: victim.username, exact: true }).click();
    await page.getByRole('heading', { name: `Projects of ${victim.username}` }).waitFor();
    const row = page.getByRole('row').filter({ hasText: projectName });
    await row.waitFor();
    const cells = await row.innerText();
    assert.match(cells, /Leeds/);
    const deletedCell = row.locator('[col-id="deleted"]');
    assert.notEqual((await deletedCell.innerText()).trim(), '', 'the deleted date is shown');
    await screenshot(page, 'staff-user-projects');

    await row.getByText(projectName).click();
    await page.waitForURL(/\/staff\/user\/[^/]+\/[^/]+$/);
    const banner = page.getByRole('note', { name: 'Whose project this is' });
    await banner.getByText(`Project of Grace Hopper (${victim.username}).`).waitFor();
    await banner.getByText('The user deleted it on', { exact: false }).waitFor();
    await page.waitForFunction((name) => document.querySelector('#project-name')?.value === name, projectName);
    await calculateButton(page).waitFor();
    await screenshot(page, 'staff-project-read-only');
    // Opened read-only: the project cannot be saved over.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save project' });
    assert.equal(await dialog.getByRole('button', { name: 'Save', exact: true }).count(), 0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  test("filters the calculation history to the designer's failed calculations and exports them", async () => {
    await page.goto('/staff/calculations');
    await page.getByRole('heading', { name: 'Calculation history' }).waitFor();
    await page.getByText(/\d+ calculations match\./).waitFor();
    await page.getByLabel('User', { exact: true }).fill(victim.username);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    // Hers only: one that worked, and the failures.
    await page.waitForFunction(() => /^[3-9] calculations match\./.test(document.querySelector('.staff-status')?.textContent ?? ''));
    await page.getByLabel('Result', { exact: true }).selectOption('failed');
    await page.getByText('2 calculations match.').waitFor();
    const grid = page.locator('.staff-grid');
    await grid.getByText('Failed: No channel could be designed', { exact: false }).first().waitFor();
    await screenshot(page, 'staff-calculations');
    const rows = grid.locator('.ag-row');
    assert.equal(await rows.count(), 2);
    for (const text of await rows.allInnerTexts()) {
      assert.match(text, new RegExp(victim.username));
      assert.match(text, /Failed: No channel could be designed/);
    }

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    assert.match(download.suggestedFilename(), /^calculations-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile(await download.path(), 'utf8')).replace(/^\ufeff/, '');
    const [header, ...lines] = csv.trim().split(/\r?\n/);
    assert.equal(header, 'time_utc,user,project,run,system,method,length_m,area_m2,intensity_mm_h,discharge_l_s,result,message,duration_ms');
    assert.equal(lines.length, 2);
    for (const line of lines) {
      const cells = line.split(',');
      assert.equal(cells[1], victim.username);
      assert.equal(cells[10], 'failed');
      assert.ok(['5000', '6000'].includes(cells[8]), `the rain of the failed calculation: ${cells[8]}`);
      assert.ok(Number(cells[12]) > 0, 'its duration');
    }

    // A click shows exactly what went in and what came out.
    await rows.first().click();
    const detail = page.getByRole('dialog', { name: 'Calculation' });
    await detail.getByRole('heading', { name: 'Inputs' }).waitFor();
    await detail.getByRole('rowheader', { name: 'channel_length_m' }).waitFor();
    await detail.getByText('No channel could be designed', { exact: false }).first().waitFor();
    await screenshot(page, 'staff-calculation-detail');
    await detail.getByRole('button', { name: 'Close' }).click();
  });

  test('a system withdrawn in a country leaves its designers’ open system list at once', async () => {
    const designerBrowser = await openBrowser();
    try {
      const designer = await designerBrowser.newPage();
      await designer.goto('/');
      await logIn(designer, env.E2E_USERNAME, env.E2E_PASSWORD);
      const steel = designer.getByLabel('Channel group').locator('option[value="steel"]');
      await steel.waitFor({ state: 'attached' });

      await page.goto('/staff/channels');
      await page.getByRole('heading', { name: 'Channel availability' }).waitFor();
      await page.getByLabel('Country', { exact: true }).selectOption('GB');
      const system = page.locator('.staff-channels__system').filter({ hasText: 'Stainless Steel Channel' });
      // Checked as the server has it: the box changes once the change is recorded.
      await system.getByRole('checkbox').first().click();
      const withdrawn = page.locator('.staff-channels__system--off', { hasText: 'Stainless Steel Channel' });
      await withdrawn.waitFor();
      await page.locator('.staff-history').getByText(`${admin.username} withdrew steel in GB`).waitFor();
      await screenshot(page, 'staff-channels');
      await steel.waitFor({ state: 'detached', timeout: 10_000 });

      // Offered again, for the other tests.
      await system.getByRole('checkbox').first().click();
      await withdrawn.waitFor({ state: 'detached' });
      await page.locator('.staff-history').getByText(`${admin.username} offered steel in GB again`).waitFor();
      await steel.waitFor({ state: 'attached', timeout: 10_000 });
      assert.deepEqual(designerBrowser.pageErrors, []);
    } finally {
      await designerBrowser.close();
    }
  });

  test('the staff map shows where users and calculated projects are', async () => {
    await page.goto('/staff/map');
    await page.getByRole('heading', { name: 'Where users and projects are' }).waitFor();
    const table = page.locator('.staff-table').first();
    await table.getByRole('rowheader', { name: 'United Kingdom (GB)' }).waitFor();
    await page.locator('.staff-map__map .leaflet-interactive').first().waitFor();
    await screenshot(page, 'staff-map', { phone: true });
    assert.deepEqual(browser.pageErrors, []);
  });
});
