// Translators, help and the texts around the tool: a translator's change of
// a German text reaches a German user's open page without a server restart
// (and after a reload), a change that loses a placeholder is refused with
// the server's message, help topics open in French and fall back to English
// with a notice, a Belgian user sees the partner logo and the web links,
// and the logged-out page shows the advert box and both feature sheets.
// Needs the translator and Belgian accounts that scripts/e2e.sh creates.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { logIn } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';

const translator = { username: process.env.E2E_TRANSLATOR_USERNAME, password: process.env.E2E_TRANSLATOR_PASSWORD };
const belgian = { username: process.env.E2E_BELGIAN_USERNAME, password: process.env.E2E_BELGIAN_PASSWORD };
const skip = !translator.username || !belgian.username ? 'the translator and Belgian accounts are not set (run through scripts/e2e.sh)' : false;

/** The editable cell of a key in the translation grid. */
const textCell = (page, key) => page.locator(`.ag-row:has(.ag-cell[col-id="key"]:text-is("${key}")) .ag-cell[col-id="text"]`);

async function editText(page, key, text) {
  await page.getByLabel('Search').fill(key);
  const cell = textCell(page, key);
  await cell.waitFor();
  await cell.dblclick();
  const editor = page.locator('.ag-large-text textarea');
  await editor.waitFor();
  await editor.fill(text);
  await editor.press('Enter');
}

describe('translators, help and the logged-out page', { skip }, () => {
  let visitor;
  let translatorBrowser;
  let germanBrowser;

  before(async () => {
    visitor = await openBrowser();
    translatorBrowser = await openBrowser();
    germanBrowser = await openBrowser();
  });
  after(async () => {
    await visitor?.close();
    await translatorBrowser?.close();
    await germanBrowser?.close();
  });

  test('the logged-out page shows the advert box and both feature sheets download as PDFs', async () => {
    const page = await visitor.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Freedom of design, free to use' }).waitFor();
    await page.getByText('Just three clicks to a calculation.').waitFor();
    for (const heading of ['Software features', 'Design reassurance', 'Confidentiality', 'Experience', 'Feedback', 'Privacy', 'Cookies']) {
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    }
    for (const [name, file] of [
      ['UK version (PDF)', 'feature-sheet-uk-en.pdf'],
      ['International version (PDF)', 'feature-sheet-int-en.pdf'],
    ]) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
      assert.equal(download.suggestedFilename(), file);
      const bytes = await readFile(await download.path());
      assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-', `${name} is a PDF`);
      assert.ok(bytes.length > 5000, `${name} has pages (${bytes.length} bytes)`);
    }
    await screenshot(page, 'home-logged-out', { phone: true });
  });

  test('a help topic opens in French, and one without French text falls back to English with a notice', async () => {
    const page = await visitor.newPage();
    await page.goto('/');
    await page.locator('#public-language').selectOption('fr');
    await page.goto('/help?topic=about');
    await page.getByRole('heading', { level: 1, name: 'À propos du logiciel' }).waitFor();
    assert.equal(await page.locator('.help__fallback').count(), 0, 'no fallback notice on a French topic');
    await screenshot(page, 'help-fr');
    await page.getByRole('link', { name: 'Autoriser le débordement' }).click();
    await page.getByRole('heading', { level: 1, name: 'Allow flooding' }).waitFor();
    await page.getByRole('note').getByText("Cette rubrique n'existe pas encore en français ; elle est affichée en anglais.").waitFor();
    await screenshot(page, 'help-fr-fallback', { phone: true });
    await page.locator('#public-language').selectOption('en');
  });

  test('a Belgian user sees the partner logo and the web links, and help opens at the screen\'s topic', async () => {
    const page = await germanBrowser.newPage();
    await page.goto('/');
    await logIn(page, belgian.username, belgian.password);
    await page.getByRole('img', { name: 'Belgian partner' }).waitFor();
    const help = page.getByRole('link', { name: 'Help', exact: true });
    assert.match((await help.getAttribute('href')) ?? '', /\/help\?topic=design-parameters$/);
    await page.getByText('Web links', { exact: true }).click();
    await page.getByRole('link', { name: 'EN 1433 drainage channels (CEN)' }).waitFor();
    await page.getByText('Web links', { exact: true }).click();
    await screenshot(page, 'topbar-belgian');
  });

  test('a translator changes a German text: an open German page shows it without a reload, and after one', async () => {
    const german = await germanBrowser.newPage();
    // The Belgian planner works in German.
    await german.locator('#user-language').selectOption('de');
    // The top bar's home link (the brand is a home link too, named alike).
    const homeLink = (text) => german.locator('a.topbar__link', { hasText: new RegExp(`^${text}$`) });
    await homeLink('Startseite').waitFor();

    const page = await translatorBrowser.newPage();
    await page.goto('/');
    await logIn(page, translator.username, translator.password);
    await page.goto('/staff/translate/calculator');
    await page.getByRole('heading', { name: 'Calculator translations' }).waitFor();
    await page.locator('.translate__tools select').first().selectOption('de');
    await page.getByText(/of \d+ texts/).waitFor();
    const changed = 'Zur Startseite';
    await editText(page, 'nav.home', changed);
    await page.getByText('Saved nav.home: every user sees it now.').waitFor();
    assert.equal(await textCell(page, 'nav.home').innerText(), changed);
    await textCell(page, 'nav.home').click();
    await page.locator('.translate__preview').getByText(changed).waitFor();
    await screenshot(page, 'translate-calculator');

    // The German page learns of the change by itself (it polls every 10 s).
    await homeLink(changed).waitFor({ timeout: 25_000 });
    await german.reload();
    await homeLink(changed).waitFor();
    await german.getByRole('button', { name: 'Berechnen', exact: true }).waitFor();
    await screenshot(german, 'translate-seen-by-german-user');

    // Back to the shipped text, for whoever runs next.
    await textCell(page, 'nav.home').click();
    await page.getByRole('button', { name: 'Back to the shipped text' }).click();
    await page.getByText('nav.home is back to the shipped text.').waitFor();
  });

  test('a change that loses a placeholder is refused with a message', async () => {
    const page = await translatorBrowser.newPage();
    await editText(page, 'runs.defaultName', 'Lauf');
    const alert = page.getByRole('alert');
    await alert.getByText('The text must keep the placeholders of the English text: {{n}} missing').waitFor();
    // The grid shows the stored text again, placeholder and all.
    await page.getByText(/of \d+ texts/).waitFor();
    // The grid takes the stored text back when the refusal arrives.
    const cell = textCell(page, 'runs.defaultName');
    for (let i = 0; i < 50 && !/\{\{n\}\}/.test(await cell.innerText()); i++) await page.waitForTimeout(100);
    assert.match(await cell.innerText(), /\{\{n\}\}/);
    await screenshot(page, 'translate-refused');
  });

  test('the help editor shows a topic with its preview', async () => {
    const page = await translatorBrowser.newPage();
    await page.goto('/staff/translate/help');
    await page.getByRole('heading', { name: 'Help translations' }).waitFor();
    await page.locator('.translate__tools select').first().selectOption('fr');
    await page.getByRole('button', { name: /^About the software/ }).click();
    await page.locator('.help-editor__preview h1', { hasText: 'À propos du logiciel' }).waitFor();
    await screenshot(page, 'translate-help-editor');
    assert.deepEqual(translatorBrowser.pageErrors, []);
    assert.deepEqual(germanBrowser.pageErrors, []);
    assert.deepEqual(visitor.pageErrors, []);
  });
});
