// The design screen in German and French: no English catalogue text (system
// names, grating and material descriptions), default run names and the
// runoff coefficients in the language. The English to look for comes from
// the catalogue keys of locales/en.json, less the words the language's own
// text for the same key keeps (article numbers, product and line names such
// as Polymer 100, FC, KS, DN). Needs E2E_MAIL_DIR (scripts/e2e.sh sets it).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { calculateButton, designRun, logIn, signUpAndConfirm } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';
import { mailDir } from '../lib/mail.mjs';

const locales = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'locales');
const load = (code) => JSON.parse(readFileSync(join(locales, `${code}.json`), 'utf8'));
const en = load('en');

/** Words of a text: runs of letters ("KS-Kantenschutz" is two), no numbers or placeholders. */
const words = (text) =>
  text
    .replace(/\{\{[^}]*\}\}/g, ' ')
    .split(/[^\p{L}\d]+/u)
    .filter((word) => word !== '' && !/\d/.test(word));

/**
 * The English fragments of the catalogue a page in `code` must not show:
 * for each catalogue key, the runs of consecutive English words that the
 * language's text for the key does not share.
 */
function englishFragments(code) {
  const own = load(code);
  const fragments = new Set();
  for (const [key, english] of Object.entries(en)) {
    if (!key.startsWith('catalogue.')) continue;
    const kept = new Set(words(own[key]).map((word) => word.toLowerCase()));
    let run = [];
    const flush = () => {
      const fragment = run.join(' ');
      if (fragment.replace(/[^\p{L}]/gu, '').length >= 4) fragments.add(fragment);
      run = [];
    };
    // Punctuation ends a fragment: "Slotted grating, ductile iron" is two.
    for (const piece of english.replace(/\{\{[^}]*\}\}/g, ',').split(/[,()+:]/)) {
      for (const word of words(piece)) {
        if (kept.has(word.toLowerCase())) flush();
        else run.push(word);
      }
      flush();
    }
  }
  return [...fragments];
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Everything the page shows as text, the options of its drop-downs included. */
const pageText = (page) =>
  page.evaluate(() => [document.body.innerText, ...[...document.querySelectorAll('option')].map((option) => option.textContent)].join('\n'));

function assertNoEnglish(text, code, where) {
  const found = englishFragments(code).filter((fragment) => new RegExp(`(?<![\\p{L}])${escape(fragment).replace(/ /g, '[\\s-]+')}(?![\\p{L}])`, 'iu').test(text));
  assert.deepEqual(found, [], `${code} ${where}: English catalogue text on the page`);
  assert.doesNotMatch(text, /\bRun \d+\b/, `${code} ${where}: an English default run name`);
}

const skip = !mailDir ? 'E2E_MAIL_DIR is not set' : false;

describe('catalogue texts in the interface language', { skip }, () => {
  let browser;
  let page;
  const stamp = Date.now().toString(36);
  const designer = { username: `linguist_${stamp}`, email: `linguist_${stamp}@example.com`, password: 'Channel-Words-1357' };

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
  });

  after(async () => {
    await browser?.close();
  });

  test('the English list of fragments is a real one', () => {
    const fragments = englishFragments('de');
    for (const fragment of ['End cap', 'Slotted grating', 'galvanised steel', 'Trash box', 'cut to']) {
      assert.ok(fragments.includes(fragment), `${fragment} is looked for (${fragments.length} fragments)`);
    }
    assert.ok(!fragments.some((fragment) => /Polymer|\bKS\b|\bDN\b/.test(fragment)), 'product names and DN are not English to look for');
  });

  test('calculates a run in English', async () => {
    await signUpAndConfirm(page, designer);
    await logIn(page, designer.username, designer.password);
    await page.getByRole('region', { name: 'Cookie notice' }).getByRole('button', { name: 'OK' }).click();
    // 20.5 m of 1 m elements: one is cut, which the materials list says.
    await designRun(page, { system: 'poly-100', length: 20.5, area: 144 });
    await page.getByLabel('Surface (permeability)').selectOption('asphalt');
    await calculateButton(page).click();
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
    await page.getByRole('tab', { name: 'Materials list' }).click();
    await page.getByRole('cell', { name: 'End cap Polymer 100, universal' }).waitFor();
    await page.getByRole('cell', { name: /cut to 500 mm$/ }).waitFor();
  });

  for (const code of ['de', 'fr']) {
    test(`in ${code}, no screen shows English catalogue text`, async () => {
      const own = load(code);
      await page.getByLabel(code === 'de' ? 'Language' : 'Sprache').first().selectOption(code);
      const tab = (key) => page.getByRole('tab', { name: key, exact: true });
      const runName = own['runs.defaultName'].replace('{{n}}', '1');

      await tab(own['tabs.materials']).click();
      await page.getByRole('cell', { name: own['catalogue.article.10601'] }).waitFor();
      await page.getByRole('cell', { name: new RegExp(`${escape(own['catalogue.line.cutTo'].replace('{{length}}', '500'))}$`) }).waitFor();
      await page.getByRole('heading', { name: own['materials.title'].replace('{{run}}', runName) }).waitFor();
      if (code === 'de') await screenshot(page, 'materials-de', { phone: true });
      assertNoEnglish(await pageText(page), code, 'materials list');

      await tab(runName).click();
      await page.locator('.spec-table').getByText(own['catalogue.grating.poly-100-slot-iron'], { exact: true }).waitFor();
      assertNoEnglish(await pageText(page), code, 'design run');

      await tab(own['tabs.system']).click();
      const surface = page.locator('#run-surface');
      assert.equal(await surface.locator('option:checked').textContent(), `${own['surface.asphalt']} (0,9)`, 'the runoff coefficient with a decimal comma');
      assert.equal(await page.locator('#run-system option[value="steel"]').textContent(), `${own['catalogue.system.steel']} (100 - 200 mm)`);
      await page.locator('.run-item', { hasText: runName }).waitFor();
      assertNoEnglish(await pageText(page), code, 'system selection');
    });
  }

  test('back in English, the texts are the catalogue’s again', async () => {
    await page.getByLabel(load('fr')['common.language']).first().selectOption('en');
    await page.getByRole('tab', { name: 'Run 1', exact: true }).waitFor();
    assert.equal(await page.locator('#run-surface option:checked').textContent(), 'Asphalt (0.9)');
    assert.deepEqual(browser.pageErrors, []);
  });
});
