// An advanced-mode planner's editable documents: the Documents tab offers
// RTF beside PDF, and each RTF kind downloads as an RTF file named for the
// project, the kind and the language, written in that language. Needs the
// advanced account of E2E_ADVANCED_USERNAME / E2E_ADVANCED_PASSWORD
// (scripts/e2e.sh makes one in the `advanced` group).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { acceptCookies, calculateButton, designRun, logIn } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';

const username = process.env.E2E_ADVANCED_USERNAME;
const password = process.env.E2E_ADVANCED_PASSWORD;
const skip = username && password ? false : 'E2E_ADVANCED_USERNAME and E2E_ADVANCED_PASSWORD are not set';

describe('an advanced planner', { skip }, () => {
  let browser;
  let page;

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
    await page.goto('/');
    await logIn(page, username, password);
    await acceptCookies(page);
    await designRun(page, { length: 20, area: 144 });
    await calculateButton(page).click();
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
  });

  after(async () => {
    await browser?.close();
  });

  test('downloads each editable (RTF) document in the chosen language', async () => {
    await page.getByRole('tab', { name: 'Documents', exact: true }).click();
    await page.getByRole('heading', { name: 'Editable documents (RTF)' }).waitFor();
    await page.getByLabel('Document language').selectOption('pl');
    const kinds = [
      ['Introduction (RTF)', /introduction-pl\.rtf$/, 'Wprowadzenie'],
      ['Materials list (RTF)', /materials-pl\.rtf$/, 'Materia'],
      ['Information (RTF)', /information-pl\.rtf$/, 'Informac'],
      ['All documents (RTF)', /all-pl\.rtf$/, 'Spis tre'],
      ['Hydraulic analysis (RTF)', /hydraulics-1-pl\.rtf$/, 'Wymiarowanie'],
    ];
    for (const [name, file, word] of kinds) {
      const button = page.getByRole('button', { name, exact: true });
      const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
      assert.match(download.suggestedFilename(), file, `${name}: kind and language in the file name`);
      const text = await readFile(await download.path(), 'latin1');
      assert.ok(text.startsWith('{\\rtf1'), `${name} is an RTF file`);
      assert.ok(text.length > 2_000, `${name} has content (${text.length} bytes)`);
      // RTF escapes non-ASCII letters, so the Polish word is checked by its ASCII stem.
      assert.ok(text.includes(word), `${name} is written in Polish (${word})`);
    }
    await screenshot(page, 'documents-tab-advanced');
  });
});
