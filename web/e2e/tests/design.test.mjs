// The designer's day in standard mode: sign up, confirm, sign in, design and
// calculate a run, read the results and profile, save, reload, load, share;
// a second user opens the share link; a second browser of the designer sees
// an edit live; the language changes the screens. Needs E2E_MAIL_DIR and a
// second account in E2E_USERNAME / E2E_PASSWORD (scripts/e2e.sh sets both).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { calculateButton, derivedValue, designRun, enter, field, logIn, signUpAndConfirm } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';
import { mailDir } from '../lib/mail.mjs';

/** The text of a PDF by poppler's pdftotext (installed by make test), or null where it is missing. */
function pdfText(path) {
  try {
    return execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
  } catch (error) {
    if (error.code === 'ENOENT' && !process.env.CI) return null;
    throw error;
  }
}

const viewer = { username: process.env.E2E_USERNAME, password: process.env.E2E_PASSWORD };
const support = { username: process.env.E2E_SUPPORT_USERNAME, password: process.env.E2E_SUPPORT_PASSWORD };
const skip = !mailDir ? 'E2E_MAIL_DIR is not set' : !viewer.username ? 'E2E_USERNAME and E2E_PASSWORD are not set' : false;

/**
 * Hovers the profile at a known chainage, then steps along it with the
 * keyboard, and checks that the readout shows that slice of the
 * calculation (to the readout's decimals).
 */
async function checkProfileReadout(page, profile, calculation) {
  const slices = calculation.results.segments.flatMap((segment) => segment.slices);
  const length = Math.max(...slices.map((slice) => slice.distance_m));
  const readout = page.locator('.profile-readout');
  const shown = async (field) => Number((await readout.locator(`[data-field="${field}"]`).innerText()).replace(/[^\d.-]/g, ''));
  const matches = async (where) => {
    const chainage = await shown('chainage');
    const slice = slices.find((s) => Math.abs(s.distance_m - chainage) < 0.005);
    assert.ok(slice, `${where}: a slice at the shown chainage ${chainage} m`);
    for (const [field, value, half] of [['depth', slice.depth_mm, 0.05], ['flow', slice.flow_l_s, 0.005], ['velocity', slice.velocity_m_s, 0.005], ['froude', slice.froude, 0.005]]) {
      const got = await shown(field);
      assert.ok(Math.abs(got - value) <= half + 1e-9, `${where}: ${field} ${got} shown, the calculation has ${value}`);
    }
    return chainage;
  };

  await page.setViewportSize({ width: 1440, height: 900 });
  const plot = profile.locator('.u-over');
  await plot.waitFor();
  await profile.scrollIntoViewIfNeeded();
  const area = await plot.boundingBox();
  // The plot spans the run from the head (left) to the outlet: 12.5 m of 20 is 5/8 across.
  await page.mouse.move(area.x + (area.width * 12.5) / length, area.y + area.height / 2);
  await readout.locator('[data-field="depth"]').waitFor();
  assert.equal(await matches('hover'), 12.5, 'the slice under the cursor');
  await screenshot(page, 'results-profile', { phone: true });

  // The keyboard reads the same slices: End is the outlet, each left arrow a slice back.
  await profile.focus();
  await profile.press('End');
  assert.equal(await matches('End'), length);
  await profile.press('ArrowLeft');
  assert.ok((await matches('ArrowLeft')) < length);
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('a designer', { skip }, () => {
  let browser;
  let page;
  const stamp = Date.now().toString(36);
  const designer = { username: `designer_${stamp}`, email: `designer_${stamp}@example.com`, password: 'Channel-Design-2468' };
  const projectName = `Depot yard ${stamp}`;
  let shareLink = null;

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
  });

  after(async () => {
    await browser?.close();
  });

  const tab = (name) => page.getByRole('tab', { name, exact: true });

  test('signs up, confirms the e-mailed link and signs in to a fresh design', async () => {
    await signUpAndConfirm(page, designer);
    await logIn(page, designer.username, designer.password);
    assert.equal(await calculateButton(page).isDisabled(), true, 'nothing to calculate yet');
    await page.getByText('Choose a drainage system to calculate.').waitFor();
    assert.equal(await tab('Run 1').isDisabled(), true, 'the design run tab waits for a calculation');
    // The cookie notice is acknowledged once, for 30 days.
    await page.getByRole('region', { name: 'Cookie notice' }).getByRole('button', { name: 'OK' }).click();
    const cookies = await browser.context.cookies();
    const notice = cookies.find((cookie) => cookie.name === 'draindesign_cookie_notice');
    assert.ok(notice, 'the notice cookie is set');
    const days = (notice.expires - Date.now() / 1000) / 86400;
    assert.ok(days > 29.9 && days <= 30, `the notice cookie lasts 30 days (${days.toFixed(2)})`);
  });

  test('designs a run with the standard-mode form and its warnings', async () => {
    await designRun(page, { length: 20, area: 144 });
    assert.equal(await derivedValue(page.getByLabel('Loading class')), 'C250', 'the highest class is chosen');
    assert.equal(await derivedValue(field(page, 'Catchment depth')), '3.6', 'depth follows area and length');

    await enter(page, 'Longitudinal slope', 12);
    const steep = page.getByRole('alertdialog', { name: 'Slope too steep' });
    await steep.getByText('the steepest slope allowed is 9.9 % (1 in 10.1)', { exact: false }).waitFor();
    await steep.getByRole('button', { name: 'OK' }).click();
    assert.equal(await field(page, 'Longitudinal slope').inputValue(), '9.9', 'the slope is capped');
    await enter(page, 'Longitudinal slope', 0.5);

    await enter(page, 'Channel length', 620);
    await page.getByRole('alertdialog', { name: 'Long channel run' }).getByRole('button', { name: 'OK' }).click();
    await enter(page, 'Channel length', 20);
    assert.equal(await calculateButton(page).isEnabled(), true);
    await screenshot(page, 'design-form');
  });

  test('calculates and reads the specification, profile and materials', async () => {
    // The calculation's own answer, to check the profile's readout against.
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/drainage/calculate/') && response.request().method() === 'POST'),
      calculateButton(page).click(),
    ]);
    const calculation = await answer.json();
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
    assert.equal(await tab('Run 1').getAttribute('aria-selected'), 'true', 'the design run tab opens');
    const spec = page.locator('.spec-table');
    assert.match(await spec.innerText(), /Channel discharge\s+2 l\/s/);
    assert.match(await spec.innerText(), /Flooding\s+No/);
    const profile = page.getByRole('img', { name: /^Hydraulic profile of a 20 m run/ });
    await profile.waitFor();
    const box = await profile.boundingBox();
    assert.ok(box && box.width >= 600, 'the profile is drawn at its width');
    await checkProfileReadout(page, profile, calculation);
    // The cross-section is drawn to scale from the catalogue, with the table's figures.
    await page.getByText(/^Drawn to scale from the catalogue dimensions/).waitFor();
    const results = calculation.results ?? calculation;
    const sectionValue = (label) => page.locator('.cross-section__legend').locator(`dt:text-is("${label}") + dd`).innerText();
    assert.equal(await sectionValue('Invert depth (downstream end)'), `${results.invert_depth_mm} mm`);
    assert.match(await spec.innerText(), new RegExp(`Invert depth at the outlet\\s+${results.invert_depth_mm} mm`));
    assert.equal(await sectionValue('Internal width'), `${results.channel_internal_width_mm} mm`);
    await screenshot(page, 'results', { phone: true });
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the profile (CSV)' }).click()]);
    assert.match(csv.suggestedFilename(), /Run-1-profile-en\.csv$/);
    assert.match(await readFile(await csv.path(), 'utf8'), /^\ufeffDistance \(m\),/, 'English spreadsheets split on commas');

    await tab('Materials list').click();
    await page.getByRole('cell', { name: /Polymer 100 Type/ }).first().waitFor();
    await tab('Run 1').click();
  });

  test('downloads the hydraulic profile as CSV from the Documents tab, in the document language', async () => {
    await tab('Documents').click();
    await page.getByLabel('Document language').selectOption('de');
    assert.equal(await page.getByText('Editable documents (RTF)').count(), 0, 'RTF comes with advanced mode only');
    const button = page.getByRole('button', { name: 'Profile of Run 1 (CSV)' });
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    assert.match(download.suggestedFilename(), /Run-1-profile-de\.csv$/, 'file name: project, run, kind and language');
    const text = await readFile(await download.path(), 'utf8');
    assert.ok(text.startsWith('\ufeff'), 'UTF-8 with a byte-order mark, for spreadsheets');
    const rows = text.slice(1).trim().split('\r\n');
    assert.match(rows[0], /^Distance \(m\);/, 'German spreadsheets split on semicolons');
    assert.ok(rows.length > 5, 'one row per slice of the profile');
    assert.match(rows.at(-1), /;2,000;/, 'the outlet carries 2 l/s, with a decimal comma');
    // Each kind, with a German word of its own (documents.pdf.* in web/locales/de.json) where poppler can read it.
    const kinds = [
      ['Introduction', /introduction-de\.pdf$/, 'Einführung'],
      ['Materials list', /materials-de\.pdf$/, 'Projektsumme'],
      ['Information', /information-de\.pdf$/, 'Einbauhinweise'],
      ['All documents', /all-de\.pdf$/, 'Inhalt'],
      ['Hydraulic analysis (PDF)', /hydraulics-1-de\.pdf$/, 'Hydraulische Bemessung'],
    ];
    for (const [name, file, word] of kinds) {
      const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name, exact: true }).click()]);
      assert.match(pdf.suggestedFilename(), file, `${name}: kind and language in the file name`);
      const path = await pdf.path();
      const bytes = await readFile(path);
      assert.equal(bytes.subarray(0, 5).toString(), '%PDF-', `${name} is a PDF`);
      assert.ok(bytes.length > 10_000, `${name} has content`);
      const text = pdfText(path);
      if (text !== null) assert.ok(text.includes(word), `${name} is in German (${word}):\n${text.slice(0, 400)}`);
    }
    await screenshot(page, 'documents-tab', { phone: true });
    await page.getByLabel('Document language').selectOption('en');
    await tab('Run 1').click();
  });

  test('adds, renames and reorders runs', async () => {
    await page.getByRole('button', { name: 'Duplicate' }).click();
    await page.getByRole('button', { name: /^Run 2 ?,/ }).waitFor();
    await page.getByRole('button', { name: 'Rename Run 2' }).click();
    const rename = page.getByRole('textbox', { name: 'Run name' });
    await rename.fill('Gate lane');
    await rename.press('Enter');
    await page.getByRole('button', { name: /^Gate lane ?,/ }).waitFor();
    await page.locator('.run-item', { hasText: 'Gate lane' }).dragTo(page.locator('.run-item', { hasText: 'Run 1' }));
    await page.waitForFunction(() => document.querySelector('.run-item')?.textContent?.includes('Gate lane'));
  });

  test('saves the project, which a reload brings back', async () => {
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save project' });
    await dialog.getByLabel(/^Project name/).fill(projectName);
    await dialog.getByLabel('Location').fill('Leeds');
    await dialog.getByLabel('Reference (project number)').fill('P-2468');
    await dialog.getByLabel(/^Share this project with the provider/).check();
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await page.getByLabel('Project name').inputValue(), projectName);

    await page.reload();
    await calculateButton(page).waitFor();
    await page.waitForFunction((name) => document.querySelector('#project-name')?.value === name, projectName);
    await page.getByRole('button', { name: /^Gate lane ?,/ }).waitFor();
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
  });

  test('loads it from the load dialog and shares it', async () => {
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('#project-name')?.value === '');
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Load project' });
    for (const column of ['Name', 'Location', 'Reference', 'Date', 'Creator']) {
      await dialog.getByRole('columnheader', { name: column }).waitFor();
    }
    await dialog.getByText(projectName).waitFor();
    await screenshot(page, 'load-dialog');

    await dialog.getByRole('button', { name: `Share ${projectName}` }).click();
    const share = page.getByRole('dialog', { name: 'Share link' });
    shareLink = await share.getByRole('textbox', { name: 'Share link' }).inputValue();
    assert.match(shareLink, /\/[0-9a-f-]{36}$/);
    await share.getByRole('button', { name: 'Copy' }).click();
    await share.getByText('The link is copied.').waitFor();
    await share.getByRole('button', { name: 'Close' }).click();

    await dialog.getByText(projectName).click();
    await page.waitForFunction((name) => document.querySelector('#project-name')?.value === name, projectName);
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
  });

  test('another user opens the share link and may only save a copy', async () => {
    assert.ok(shareLink, 'a link was made in the step before');
    const other = await openBrowser();
    try {
      const otherPage = await other.newPage();
      await otherPage.goto(shareLink);
      await logIn(otherPage, viewer.username, viewer.password);
      await otherPage.waitForFunction((name) => document.querySelector('#project-name')?.value === name, projectName);
      await otherPage.getByText(`Shared by ${designer.username}`).waitFor();
      await otherPage.getByRole('heading', { name: 'Design specification' }).waitFor();
      await otherPage.getByRole('button', { name: 'Save', exact: true }).click();
      const dialog = otherPage.getByRole('dialog', { name: 'Save project' });
      assert.equal(await dialog.getByRole('button', { name: 'Save', exact: true }).count(), 0, 'no saving over the owner’s project');
      await dialog.getByRole('button', { name: 'Save as new' }).waitFor();
      assert.deepEqual(other.pageErrors, []);
    } finally {
      await other.close();
    }
  });

  test('provider support finds it among the shared projects and opens it by its support id', { skip: support.username ? false : 'E2E_SUPPORT_USERNAME is not set' }, async () => {
    const staff = await openBrowser();
    try {
      const staffPage = await staff.newPage();
      await staffPage.goto('/');
      await logIn(staffPage, support.username, support.password);
      await staffPage.getByRole('link', { name: 'Shared projects' }).click();
      await staffPage.getByRole('heading', { name: 'Shared projects' }).waitFor();
      for (const column of ['Name', 'Location', 'Reference', 'Country', 'Date', 'Creator', 'Last saved by']) {
        await staffPage.getByRole('columnheader', { name: column }).waitFor();
      }
      await staffPage.getByText(projectName).click();
      await staffPage.waitForURL(/\/(projects\/\d+)?$/);
      await staffPage.waitForFunction((name) => document.querySelector('#project-name')?.value === name, projectName);
      await staffPage.getByRole('heading', { name: 'Design specification' }).waitFor();
      assert.deepEqual(staff.pageErrors, []);
    } finally {
      await staff.close();
    }
  });

  test('a second browser sees an edit within a second', async () => {
    const second = await openBrowser();
    try {
      const secondPage = await second.newPage();
      await secondPage.goto('/');
      await logIn(secondPage, designer.username, designer.password);
      await secondPage.getByRole('button', { name: 'Load', exact: true }).click();
      await secondPage.getByRole('dialog', { name: 'Load project' }).getByText(projectName).click();
      await secondPage.waitForFunction((name) => document.querySelector('#project-name')?.value === name, projectName);
      await secondPage.getByRole('tab', { name: 'System selection' }).click();
      await secondPage.getByText('Saved as you work', { exact: false }).waitFor();

      await page.getByRole('tab', { name: 'System selection' }).click();
      await enter(page, 'Channel length', 24);
      const started = Date.now();
      await secondPage.waitForFunction(() => document.querySelector('#run-length')?.value === '24', null, { timeout: 1000 });
      assert.ok(Date.now() - started < 1000, 'the edit arrived within a second');
      // The edit makes the run need a new calculation in both.
      await secondPage.locator('.run-actions__calculate.button--attention').waitFor();
      assert.deepEqual(second.pageErrors, []);
    } finally {
      await second.close();
    }
  });

  test('an ended session asks to log in again and keeps the design', async () => {
    // Let the reads that follow the last edit (the history panel's, 250 ms after it) finish, so the
    // calculation below is the call that finds the session gone.
    await page.waitForTimeout(1500);
    await browser.context.clearCookies();
    await calculateButton(page).click();
    await page.getByText('Your session has expired. Please log in again.').waitFor();
    assert.equal(await field(page, 'Username').inputValue(), designer.username, 'the username is kept');
    await logIn(page, designer.username, designer.password);
    const expired = page.getByRole('alertdialog', { name: 'Something went wrong' });
    await expired.getByText('calculate again; your design is kept').waitFor();
    await expired.getByRole('button', { name: 'OK' }).click();
    assert.equal(await page.getByLabel('Project name').inputValue(), projectName);
    assert.equal(await field(page, 'Channel length').inputValue(), '24', 'the unsaved edit is still there');
    await calculateButton(page).click();
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
  });

  test('switching the language changes the screens', async () => {
    await page.getByLabel('Language').first().selectOption('de');
    await page.getByRole('tab', { name: 'Systemauswahl' }).waitFor();
    await page.getByRole('button', { name: 'Berechnen', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Bemessungsergebnis' }).waitFor();
    await page.getByRole('tab', { name: 'Stückliste' }).waitFor();
    await page.getByLabel('Sprache').first().selectOption('en');
    await page.getByRole('tab', { name: 'System selection' }).waitFor();
  });

  test('the owner stops sharing: the holder is told at once, and sharing again makes a new link', async () => {
    assert.ok(shareLink, 'a link was made before');
    const other = await openBrowser();
    try {
      const otherPage = await other.newPage();
      await otherPage.goto(shareLink);
      await logIn(otherPage, viewer.username, viewer.password);
      await otherPage.waitForFunction((name) => document.querySelector('#project-name')?.value === name, projectName);
      await otherPage.getByText("Showing the owner's changes as they are made.").waitFor();

      await page.getByRole('button', { name: 'Load', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Load project' });
      await dialog.getByRole('button', { name: `Share ${projectName}` }).click();
      const share = page.getByRole('dialog', { name: 'Share link' });
      await share.getByRole('button', { name: 'Copy' }).waitFor();
      await screenshot(page, 'share-dialog', { phone: true });
      await share.getByRole('button', { name: 'Stop sharing' }).click();
      await share.getByText('The link no longer opens the project.', { exact: false }).waitFor();
      await screenshot(page, 'share-stopped', { phone: true });
      await share.getByRole('button', { name: 'Close' }).click();
      await otherPage.getByText('This project is no longer shared with you.', { exact: false }).waitFor({ timeout: 5000 });
      await screenshot(otherPage, 'share-link-withdrawn', { phone: true });

      await dialog.getByRole('button', { name: `Share ${projectName}` }).click();
      const again = await share.getByRole('textbox', { name: 'Share link' }).inputValue();
      assert.match(again, /\/[0-9a-f-]{36}$/);
      assert.notEqual(again, shareLink, 'a withdrawn link is never issued again');
      shareLink = again;
      await share.getByRole('button', { name: 'Close' }).click();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      assert.deepEqual(other.pageErrors, []);
    } finally {
      await other.close();
    }
  });

  test('a share-link holder sees the owner’s changes live, and is told when the project is deleted', async () => {
    assert.ok(shareLink, 'a link was made before');
    const other = await openBrowser();
    try {
      const otherPage = await other.newPage();
      await otherPage.goto(shareLink);
      await logIn(otherPage, viewer.username, viewer.password);
      await otherPage.waitForFunction((name) => document.querySelector('#project-name')?.value === name, projectName);
      await otherPage.getByText("Showing the owner's changes as they are made.").waitFor();
      await otherPage.getByRole('tab', { name: 'System selection' }).click();

      await page.getByRole('tab', { name: 'System selection' }).click();
      await enter(page, 'Channel length', 26);
      await otherPage.waitForFunction(() => document.querySelector('#run-length')?.value === '26', null, { timeout: 2000 });

      await page.getByRole('button', { name: 'Load', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Load project' });
      await dialog.getByRole('button', { name: `Delete ${projectName}` }).click();
      await page.getByRole('button', { name: 'Delete project' }).click();
      await otherPage.getByText('The owner deleted this project.', { exact: false }).waitFor();
      assert.equal(await otherPage.getByLabel('Project name').inputValue(), projectName, 'what the holder saw stays on the screen');
      await screenshot(otherPage, 'share-link-deleted');
      assert.deepEqual(other.pageErrors, []);
    } finally {
      await other.close();
    }
  });

  test('the page threw no uncaught errors', () => {
    assert.deepEqual(browser.pageErrors, []);
  });
});
