// A designer's own data: from the settings dialog they download everything
// the product holds about them (a ZIP of account.json and, per saved
// project, project.json and its PDF), then delete their account, after
// which they cannot sign in. Needs E2E_MAIL_DIR (scripts/e2e.sh sets it)
// for the sign-up.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { acceptCookies, calculateButton, designRun, field, logIn, signUpAndConfirm } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';
import { mailDir } from '../lib/mail.mjs';

const skip = mailDir ? false : 'E2E_MAIL_DIR is not set';

/** The files of a ZIP archive, name to text (PDFs as latin1), read by Python's zipfile. */
function unzip(path) {
  const script = 'import json,sys,zipfile\nz=zipfile.ZipFile(sys.argv[1])\nprint(json.dumps({n: z.read(n).decode("latin1") for n in z.namelist()}))';
  return JSON.parse(execFileSync('python3', ['-c', script, path], { encoding: 'utf8', maxBuffer: 64 << 20 }));
}

describe('a user’s own data', { skip }, () => {
  let browser;
  let page;
  const username = `e2e_priv_${Date.now().toString(36)}`;
  const email = `${username}@example.com`;
  const password = 'Drain-Design-privacy-1357';
  const projectName = 'Courtyard drain';

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
  });

  after(async () => {
    await browser?.close();
  });

  const settings = () => page.getByRole('dialog', { name: 'User settings' });
  const yourData = () => settings().getByRole('region', { name: 'Your data' });

  test('signs up, calculates a run and saves the project', async () => {
    await signUpAndConfirm(page, { username, email, password });
    await logIn(page, username, password);
    await acceptCookies(page);
    await designRun(page, { length: 20, area: 144 });
    await calculateButton(page).click();
    await page.getByRole('heading', { name: 'Design specification' }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save project' });
    await dialog.getByLabel(/^Project name/).fill(projectName);
    await dialog.getByLabel('Location').fill('Leeds');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  test('downloads their data from the settings', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await yourData().waitFor();
    const link = yourData().getByRole('link', { name: 'Download my data' });
    await link.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-your-data');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    assert.equal(download.suggestedFilename(), 'draindesign-export.zip');
    const files = unzip(await download.path());
    const account = JSON.parse(files['account.json']);
    assert.equal(account.username, username);
    assert.equal(account.email, email);
    assert.equal(account.first_name, 'Grace');
    assert.equal(account.last_name, 'Hopper');
    assert.ok(account.history.some((event) => event.type === 'account.registered'), 'the account history');
    const projectFile = Object.keys(files).find((name) => name.endsWith('/project.json'));
    assert.ok(projectFile, `a project in ${Object.keys(files)}`);
    const project = JSON.parse(files[projectFile]);
    assert.equal(project.details.name, projectName);
    assert.equal(project.runs.length, 1);
    assert.ok(project.runs[0].results, 'the run’s results');
    assert.ok(project.history.length > 0, 'the project’s timeline');
    const pdf = files[projectFile.replace('project.json', project.document)];
    assert.ok(pdf?.startsWith('%PDF-'), `the PDF ${project.document}`);
  });

  test('deletes the account on the password, and can no longer sign in', async () => {
    await yourData().getByRole('button', { name: 'Delete my account…' }).click();
    const confirm = yourData().getByRole('button', { name: 'Delete my account for good' });
    assert.equal(await confirm.isDisabled(), true, 'not without the password');
    await yourData().getByLabel('Your password').fill('not my password');
    await confirm.click();
    await yourData().getByText('The password is not correct.').waitFor();
    await yourData().getByLabel('Your password').fill(password);
    await confirm.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-delete-account');
    await confirm.click();
    await settings().waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();

    await field(page, 'Username').fill(username);
    await field(page, 'Password').fill(password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByText('The username or password is incorrect.').waitFor();
    await screenshot(page, 'deleted-account-login');
    assert.deepEqual(browser.pageErrors, []);
  });
});
