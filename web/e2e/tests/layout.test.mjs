// The screens from a 390 px phone to a 1440 px desktop: no sideways page
// scroll, every top-bar action reachable (behind the menu button on a phone),
// the top bar one line high for a staff user, the tabs and tables inside their
// boxes, a visible "Project saved", dates as an English user in the UK writes
// them. Writes the screenshots docs/screenshots/ keeps (results-1440,
// results-390, design-390). Needs E2E_USERNAME / E2E_PASSWORD, a GB account
// (scripts/e2e.sh makes one), and E2E_SUPPORT_USERNAME for the staff bar.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calculateButton, designRun, logIn } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';

const designer = { username: process.env.E2E_USERNAME, password: process.env.E2E_PASSWORD };
const support = { username: process.env.E2E_SUPPORT_USERNAME, password: process.env.E2E_SUPPORT_PASSWORD };
const skip = designer.username && designer.password ? false : 'E2E_USERNAME and E2E_PASSWORD are not set';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

/** A full-page picture from the top: sticky parts are drawn where the scroll left them. */
async function pageShot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await settle(page);
  await screenshot(page, name);
}

/** Two frames: the top bar measures itself after a resize before it settles. */
const settle = (page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

async function assertNoSideScroll(page, where) {
  await settle(page);
  const { scrollWidth, innerWidth, wide } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    // For the message only: what reaches past the right edge.
    wide: [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.getAttribute('class') ?? ''}`),
  }));
  assert.ok(scrollWidth <= innerWidth, `${where}: the page is ${scrollWidth} px wide in a ${innerWidth} px window (${wide.join(', ')})`);
}

/** Visible and wholly inside the window's width. */
async function assertOnScreen(locator, what) {
  await locator.waitFor();
  const box = await locator.boundingBox();
  const width = locator.page().viewportSize().width;
  assert.ok(box && box.x >= 0 && box.x + box.width <= width + 0.5, `${what} is on screen (${JSON.stringify(box)} in ${width} px)`);
}

/** The top bar's controls on the bar itself (not in an open menu) share one line, and the bar is one control high. */
async function assertTopBarOneLine(page, where) {
  await settle(page);
  const { height, spread } = await page.evaluate(() => {
    const bar = document.querySelector('header.topbar');
    const controls = [...bar.querySelectorAll('a, button, select, summary')].filter((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && !element.closest('.menu__list, .topbar--account .topbar__panel, .topbar--menu .topbar__panel');
    });
    const middles = controls.map((element) => {
      const box = element.getBoundingClientRect();
      return box.top + box.height / 2;
    });
    return { height: bar.getBoundingClientRect().height, spread: Math.max(...middles) - Math.min(...middles) };
  });
  assert.ok(spread < 6, `${where}: the top bar's controls are on one line (their middles differ by ${spread} px)`);
  assert.ok(height < 70, `${where}: the top bar is one line high (${height} px)`);
}

/** On a phone: the menu button shows every top-bar action inside the screen; Escape closes it and gives focus back. */
async function assertMenuHoldsEveryAction(page, where) {
  const toggle = page.getByRole('banner').getByRole('button', { name: 'Menu' });
  await assertOnScreen(toggle, `${where}: the menu button`);
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false', `${where}: the menu starts closed`);
  assert.equal(await page.getByRole('button', { name: 'Log out' }).count(), 0, `${where}: Log out waits in the menu`);
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  const menu = page.locator(`#${await toggle.getAttribute('aria-controls')}`);
  // The links stay on the bar while they fit beside the menu button, or join the menu.
  await assertOnScreen(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Home', exact: true }), `${where}: Home`);
  await assertOnScreen(menu.getByRole('button', { name: 'Settings', exact: true }), `${where}: Settings`);
  await assertOnScreen(menu.getByRole('link', { name: 'Help', exact: true }), `${where}: Help`);
  await assertOnScreen(menu.getByRole('button', { name: 'Log out', exact: true }), `${where}: Log out`);
  await assertOnScreen(menu.getByLabel('Language'), `${where}: the language`);
  await page.keyboard.press('Escape');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false', `${where}: Escape closes the menu`);
  assert.equal(await menu.isVisible(), false);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-controls')), 'topbar-menu', `${where}: focus is back on the menu button`);
  return { toggle, menu };
}

describe('the layout from a phone to a desktop', { skip }, () => {
  let browser;
  let page;
  const tab = (name) => page.getByRole('tab', { name, exact: true });

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
    await page.setViewportSize(PHONE);
  });

  after(async () => {
    await browser?.close();
  });

  test('on a phone: the login page, then the design screen with its menu', async () => {
    await page.goto('/');
    await assertNoSideScroll(page, 'login page');
    await logIn(page, designer.username, designer.password);
    await page.getByRole('region', { name: 'Cookie notice' }).getByRole('button', { name: 'OK' }).click();
    await designRun(page, { length: 20, area: 144 });
    await assertNoSideScroll(page, 'design screen');
    // The catchment picture shrinks into its card instead of running past its edge.
    const picture = await page.locator('.catchment-canvas').first().boundingBox();
    const card = await page.locator('.catchment-panel').first().boundingBox();
    assert.ok(picture && card && picture.x + picture.width <= card.x + card.width + 0.5, `the catchment picture (${JSON.stringify(picture)}) fits its panel (${JSON.stringify(card)})`);
    // Scrolled down, the project column stays above the tabs instead of sliding over them.
    await page.evaluate(() => window.scrollTo(0, 400));
    await settle(page);
    const overlap = await page.evaluate(() => document.querySelector('.project-column').getBoundingClientRect().bottom - document.querySelector('[role="tablist"]').getBoundingClientRect().top);
    assert.ok(overlap <= 0, `the project column covers the tabs by ${overlap} px`);
    const { toggle, menu } = await assertMenuHoldsEveryAction(page, 'design screen');

    // An action from the menu: Settings opens its dialog, and closing it gives focus back to the menu button.
    await toggle.click();
    await menu.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'User settings' });
    await settings.waitFor();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false', 'the menu closes behind the dialog');
    await assertNoSideScroll(page, 'settings dialog');
    await settings.getByRole('button', { name: 'Cancel' }).click();
    await settings.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-controls')), 'topbar-menu');
    await pageShot(page, 'design-390');
  });

  test('on a phone: the results, with the tabs and the profile inside the screen', async () => {
    await calculateButton(page).click();
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
    await assertNoSideScroll(page, 'results page');
    for (const name of ['System selection', 'Run 1', 'Materials list', 'Documents']) await assertOnScreen(tab(name), `the ${name} tab`);
    await assertOnScreen(page.getByRole('heading', { name: 'Hydraulic profile' }), 'the profile panel');
    const { toggle, menu } = await assertMenuHoldsEveryAction(page, 'results page');

    // Help from the menu opens the help pages in a new tab.
    await toggle.click();
    const [help] = await Promise.all([browser.context.waitForEvent('page'), menu.getByRole('link', { name: 'Help', exact: true }).click()]);
    await help.waitForLoadState('domcontentloaded');
    assert.match(help.url(), /\/help\?topic=design-parameters$/, 'help opens at the topic of the design screen');
    await help.close();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await pageShot(page, 'results-390');
  });

  test('on a phone: the materials list and the documents tab', async () => {
    await tab('Materials list').click();
    await page.getByRole('cell', { name: /Polymer 100 Type/ }).first().waitFor();
    await assertNoSideScroll(page, 'materials list');
    // The quantity column is reachable inside the table's panel, never by scrolling the page.
    const table = await page.locator('.materials-table').evaluate((element) => ({ right: element.getBoundingClientRect().right, panel: element.parentElement.getBoundingClientRect().right }));
    assert.ok(table.right <= table.panel + 1, `the materials table fits its panel (${table.right} > ${table.panel})`);

    await tab('Documents').click();
    await page.getByRole('button', { name: 'All documents' }).waitFor();
    await assertNoSideScroll(page, 'documents tab');
    // The project date is written the UK way, as the user's country says.
    const date = page.locator('#documents-date');
    await date.fill('3/4/2025');
    await date.press('Tab');
    assert.equal(await date.inputValue(), '03/04/2025');
    await assertMenuHoldsEveryAction(page, 'documents tab');
    await tab('Run 1').click();
  });

  test('on a desktop: the results page, its top bar on one line, a visible save and UK dates', async () => {
    await page.setViewportSize(DESKTOP);
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
    await assertNoSideScroll(page, 'results page at 1440 px');
    const bar = page.getByRole('banner');
    for (const name of ['Settings', 'Log out']) await assertOnScreen(bar.getByRole('button', { name, exact: true }), name);
    await assertOnScreen(bar.getByRole('link', { name: 'Help', exact: true }), 'Help');
    assert.equal(await bar.getByRole('button', { name: 'Menu' }).count(), 0, 'nothing is folded away at 1440 px');
    await assertTopBarOneLine(page, 'designer at 1440 px');
    // The tab strip holds its tabs exactly: any overflow gives it a scroll control at its end.
    const strip = await page.getByRole('tablist').evaluate((element) => [element.scrollHeight, element.clientHeight, element.scrollWidth, element.clientWidth]);
    assert.ok(strip[0] <= strip[1] && strip[2] <= strip[3], `the tab strip does not overflow (${strip})`);
    const widths = await page.evaluate(() => [document.querySelector('.run-results').getBoundingClientRect().width, document.querySelector('.run-results__profile').getBoundingClientRect().width]);
    assert.ok(widths[1] >= widths[0] - 1, `the profile's panel spans the results (${widths[1]} of ${widths[0]} px)`);
    await pageShot(page, 'results-1440');

    const name = `Layout check of a long project name for the load list ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save project' });
    await dialog.getByLabel(/^Project name/).fill(name);
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const saved = page.getByRole('status').filter({ hasText: 'Project saved' });
    await saved.waitFor();
    await assertOnScreen(saved, 'the save confirmation');
    await saved.waitFor({ state: 'hidden', timeout: 8000 });

    await page.getByRole('button', { name: 'Load', exact: true }).click();
    const load = page.getByRole('dialog', { name: 'Load project' });
    const row = load.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    // Created moments ago: today's date, day first, as en-GB writes it.
    const today = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date());
    const cells = await row.getByRole('gridcell').allInnerTexts();
    assert.ok(cells.some((text) => text.startsWith(`${today}, `)), `a ${today} date among ${JSON.stringify(cells)}`);
    // The long name wraps inside its cell rather than ending in an ellipsis.
    const nameCell = row.getByRole('gridcell').filter({ hasText: name });
    assert.ok(await nameCell.evaluate((cell) => cell.scrollWidth <= cell.clientWidth + 1 && cell.innerText.trim().length > 0), 'the whole name shows');
    await load.getByRole('button', { name: 'Cancel' }).click();
  });

  test("a staff user's top bar is one line at 1440 px", { skip: support.username ? false : 'E2E_SUPPORT_USERNAME is not set' }, async () => {
    const staff = await openBrowser();
    try {
      const staffPage = await staff.newPage();
      await staffPage.setViewportSize(DESKTOP);
      await staffPage.goto('/');
      await logIn(staffPage, support.username, support.password);
      await assertOnScreen(staffPage.getByRole('banner').getByRole('link', { name: 'Shared projects' }), 'the shared-projects link');
      await assertTopBarOneLine(staffPage, 'support user at 1440 px');
      await assertNoSideScroll(staffPage, 'support user at 1440 px');
      assert.deepEqual(staff.pageErrors, []);
    } finally {
      await staff.close();
    }
  });

  test('on a phone: logs out from the menu, and the logged-out pages fit the screen', async () => {
    await page.setViewportSize(PHONE);
    const toggle = page.getByRole('banner').getByRole('button', { name: 'Menu' });
    await toggle.click();
    await page.locator(`#${await toggle.getAttribute('aria-controls')}`).getByRole('button', { name: 'Log out', exact: true }).click();
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    for (const path of ['/', '/sign-up', '/password-reset', '/no-such-page']) {
      await page.goto(path);
      await page.getByRole('main').waitFor();
      await assertNoSideScroll(page, `logged out: ${path}`);
    }
  });

  test('the pages threw no uncaught errors', () => {
    assert.deepEqual(browser.pageErrors, []);
  });
});
