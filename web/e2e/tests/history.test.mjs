// A project's history in the browser. The designer makes three edits,
// undoes two with the keyboard, reloads, redoes one and restores an older
// version from the history panel, while a second browser of theirs follows
// every step, its history included. Provider support then opens the
// project's timeline (the project is shared with the provider when saved),
// picks version 3 and sees the run as it was, compares versions 3 and 7,
// and copies a version into a project of their own. Needs E2E_USERNAME and
// E2E_SUPPORT_USERNAME with their passwords (scripts/e2e.sh sets them).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calculateButton, designRun, enter, logIn } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';

const designer = { username: process.env.E2E_USERNAME, password: process.env.E2E_PASSWORD };
const support = { username: process.env.E2E_SUPPORT_USERNAME, password: process.env.E2E_SUPPORT_PASSWORD };
const skip = !designer.username ? 'E2E_USERNAME and E2E_PASSWORD are not set' : !support.username ? 'E2E_SUPPORT_USERNAME is not set' : false;

const commandAnswer = (page) => page.waitForResponse((r) => r.url().includes('/commands') && r.request().method() === 'POST' && r.ok());

/** Waits until the run's channel length field shows `value`. */
async function lengthIs(page, value, timeout = 5000) {
  await page.waitForFunction((v) => document.querySelector('#run-length')?.value === v, String(value), { timeout });
}

async function dismissCookies(page) {
  const notice = page.getByRole('region', { name: 'Cookie notice' });
  if (await notice.count()) await notice.getByRole('button', { name: 'OK' }).click();
}

describe('the history of a project', { skip }, () => {
  let browser;
  let page;
  let second;
  let tab2;
  let projectId;
  const projectName = `History yard ${Date.now().toString(36)}`;

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
    await page.goto('/');
    await logIn(page, designer.username, designer.password);
    await dismissCookies(page);
  });

  after(async () => {
    await second?.close();
    await browser?.close();
  });

  test('the designer designs, calculates and saves a run shared with the provider', async () => {
    await designRun(page, { length: 20, area: 144 });
    await calculateButton(page).click();
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save project' });
    await dialog.getByLabel(/^Project name/).fill(projectName);
    await dialog.getByLabel(/^Share this project with the provider/).check();
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    projectId = await page.evaluate((name) => localStorage.getItem(`draindesign.project.${name}`), designer.username);
    assert.ok(projectId, 'the open project is remembered');
  });

  test('a second browser of the designer follows the project and its history', async () => {
    second = await openBrowser();
    tab2 = await second.newPage();
    await tab2.goto('/');
    await logIn(tab2, designer.username, designer.password);
    await dismissCookies(tab2);
    await tab2.getByRole('button', { name: 'Load', exact: true }).click();
    await tab2.getByRole('dialog', { name: 'Load project' }).getByText(projectName).click();
    await tab2.waitForFunction((name) => document.querySelector('#project-name')?.value === name, projectName);
    await tab2.getByRole('tab', { name: 'System selection' }).click();
    await lengthIs(tab2, 20);
    await tab2.getByRole('button', { name: /^History \(\d+\)$/ }).click();
    await tab2.getByRole('complementary', { name: 'History' }).waitFor();
  });

  test('three edits, two undone with the keyboard', async () => {
    await page.getByRole('tab', { name: 'System selection' }).click();
    for (const length of [21, 22, 23]) {
      // Each edit reaches the server before the next: three versions, not one merged edit.
      await Promise.all([commandAnswer(page), enter(page, 'Channel length', length)]);
      await lengthIs(tab2, length);
    }
    const undo = page.getByRole('button', { name: 'Undo' });
    await page.waitForFunction(() => !document.querySelector('.history-bar button')?.disabled);
    await undo.waitFor();

    await page.keyboard.press('Control+z');
    await lengthIs(page, 22);
    await page.keyboard.press('Control+z');
    await lengthIs(page, 21);
    await lengthIs(tab2, 21);
    // The other browser's history shows the undo as it happens.
    const drawer2 = tab2.getByRole('complementary', { name: 'History' });
    await drawer2.getByText('Undo of version', { exact: false }).first().waitFor();
    // Both undone edits are marked in the other browser.
    await tab2.waitForFunction(() => document.querySelectorAll('.history-entry--undone').length === 2);
  });

  test('after a reload, redo brings back one edit', async () => {
    await page.reload();
    await calculateButton(page).waitFor();
    await page.getByRole('tab', { name: 'System selection' }).click();
    await lengthIs(page, 21);
    const redo = page.getByRole('button', { name: 'Redo' });
    await page.waitForFunction(() => [...document.querySelectorAll('.history-bar button')].some((b) => b.textContent?.includes('Redo') && !b.disabled));
    assert.equal(await redo.isEnabled(), true, 'the undone edits are still there to redo after the reload');
    await page.keyboard.press('Control+Shift+Z');
    await lengthIs(page, 22);
    await lengthIs(tab2, 22);
    await page.getByRole('button', { name: /^History \(\d+\)$/ }).click();
    const drawer = page.getByRole('complementary', { name: 'History' });
    await drawer.getByText('Redo of version', { exact: false }).first().waitFor();
    assert.equal(await drawer.locator('.history-entry--undone').count(), 1, 'one edit is still undone');
    await screenshot(page, 'history-drawer', { phone: true });
  });

  test('an older version opens read-only and is restored from the history panel', async () => {
    const drawer = page.getByRole('complementary', { name: 'History' });
    const saved = drawer.locator('.history-entry', { hasText: 'Saved and shared with the provider' }).first();
    const label = await saved.getAttribute('aria-label');
    const version = Number(label?.replace(/\D+/g, ''));
    assert.ok(version > 0, `the save is a version (${label})`);

    await saved.getByRole('button', { name: `View version ${version}` }).click();
    const view = page.getByRole('dialog', { name: `Version ${version} (read only)` });
    // A calculated run opens on its results, as on the design screen.
    await view.getByRole('heading', { name: 'Design specification' }).waitFor();
    await screenshot(page, 'history-version');
    await view.getByRole('tab', { name: 'System selection' }).click();
    await view.locator('#run-length').waitFor();
    assert.equal(await view.locator('#run-length').inputValue(), '20', 'the version as it was saved');
    assert.equal(await view.locator('#run-length').isDisabled(), true, 'nothing can be changed in a version');
    await screenshot(page, 'history-version-form');
    await view.getByRole('button', { name: 'Close' }).last().click();
    await view.waitFor({ state: 'detached' });

    await saved.getByRole('button', { name: `Restore version ${version}` }).click();
    await page.getByRole('status').filter({ hasText: 'The version is restored.' }).waitFor();
    await page.getByRole('tab', { name: 'System selection' }).click();
    await lengthIs(page, 20);
    await lengthIs(tab2, 20);
    await drawer.getByText(`Version ${version} restored`).first().waitFor();
    await tab2.getByRole('complementary', { name: 'History' }).getByText(`Version ${version} restored`).first().waitFor();
    // The restore brought back the calculated run: its results show again (the tab is named after the run).
    await page.getByRole('tab', { name: 'Run 1', exact: true }).click();
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
    await screenshot(tab2, 'history-second-tab');
    // A restore is an edit like any other: Ctrl+Z takes it back.
    await page.getByRole('tab', { name: 'System selection' }).click();
    await page.keyboard.press('Control+z');
    await lengthIs(page, 22);
    await lengthIs(tab2, 22);
    assert.deepEqual(second.pageErrors, []);
  });

  test('support opens the timeline, sees version 3 as it was and compares versions 3 and 7', async () => {
    const staff = await openBrowser();
    try {
      const s = await staff.newPage();
      await s.goto('/');
      await logIn(s, support.username, support.password);
      await dismissCookies(s);
      await s.getByRole('link', { name: 'Shared projects' }).click();
      await s.getByRole('button', { name: `Timeline of ${projectName}` }).click();
      await s.getByRole('heading', { name: `Timeline of ${projectName}` }).waitFor();
      await s.getByRole('button', { name: /^Show version 1: / }).waitFor();

      // What the server says the project was at version 3, and is now.
      const v3 = await (await s.request.get(`/api/projects/${projectId}/timeline?version=3`)).json();
      const run3 = v3.state.runs[0];
      await enter(s, 'Version', 3);
      await s.getByRole('heading', { name: /^Version 3 of \d+/ }).waitFor();
      await s.locator('#run-length').waitFor();
      const shownLength = await s.locator('#run-length').inputValue();
      assert.equal(shownLength, run3.channel_length_m === undefined || run3.channel_length_m === null ? '' : String(run3.channel_length_m), 'the length as it was at version 3');
      assert.notEqual(shownLength, '22', 'not the length the run has now');
      assert.equal(await s.locator('#run-system').inputValue(), String(run3.selectedSystem?.slug ?? ''), 'the channel group as it was at version 3');
      assert.equal(await s.getByRole('button', { name: /^Show version 3: / }).getAttribute('aria-pressed'), 'true', 'the list marks the version shown');
      await screenshot(s, 'timeline', { phone: true });

      const diff = await (await s.request.get(`/api/projects/${projectId}/diff?from=3&to=7`)).json();
      await enter(s, 'From version', 3);
      await enter(s, 'To version', 7);
      await s.getByRole('button', { name: 'Compare', exact: true }).click();
      const result = s.getByRole('region', { name: 'Changes from version 3 to 7' });
      await result.waitFor();
      const block = result.getByRole('region', { name: 'Run 1' });
      const rows = block.locator('table:not(.diff__table--results) tbody tr');
      assert.equal(await rows.count(), diff.runs[0].fields.length, 'one row per field the server found changed');
      const lengthChange = diff.runs[0].fields.find((f) => f.field === 'channel_length_m');
      if (lengthChange) {
        const row = block.getByRole('row', { name: /^Channel length/ });
        assert.equal((await row.locator('.diff__after').innerText()).trim(), String(lengthChange.after), 'the length at version 7');
      }
      await s.evaluate(() => window.scrollTo(0, 0));
      await screenshot(s, 'timeline-diff');

      // A copy of the newest version opens as the support user's own project; the designer's stays.
      const { version: latest } = await (await s.request.get(`/api/projects/${projectId}/history`)).json();
      await enter(s, 'Version', latest);
      await s.getByRole('heading', { name: `Version ${latest} of ${latest}, as the designer saw it` }).waitFor();
      await s.getByRole('button', { name: 'Copy this version into a new project' }).click();
      await s.waitForURL((url) => url.pathname === '/');
      await s.waitForFunction((name) => document.querySelector('#project-name')?.value === name, projectName);
      await s.getByText('Saved as you work', { exact: false }).waitFor();
      await s.getByRole('tab', { name: 'System selection' }).click();
      await lengthIs(s, 22);
      // Its history starts with the copy: nothing of the designer's edits to undo.
      await s.getByRole('button', { name: 'History (1)' }).waitFor();
      assert.equal(await s.getByRole('button', { name: 'Undo' }).isDisabled(), true);
      assert.equal(await page.locator('#run-length').inputValue(), '22', 'the designer’s project did not move');
      assert.deepEqual(staff.pageErrors, []);
    } finally {
      await staff.close();
    }
  });

  test('the pages threw no uncaught errors', () => {
    assert.deepEqual(browser.pageErrors, []);
  });
});
