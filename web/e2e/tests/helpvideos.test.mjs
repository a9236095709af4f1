// The help page's video tutorials (recorded from the product by
// scripts/record-help-videos.mjs): listed with their titles in the reader's
// language, and one chosen plays in the page's player. Then the software
// features and feedback pages, each a page of its own, reached from the
// logged-out header and home page.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { acceptCookies } from '../lib/app.mjs';
import { openBrowser, screenshot } from '../lib/browser.mjs';

describe('a visitor', () => {
  let browser;
  let page;

  before(async () => {
    browser = await openBrowser();
    page = await browser.newPage();
  });

  after(async () => {
    await browser?.close();
  });

  test('plays a video tutorial on the help page', async () => {
    const manifest = await (await page.request.get('/static/help/videos/manifest.json')).json();
    assert.ok(manifest.videos.length >= 2, 'the tutorials are in the build');
    await page.goto('/help');
    await acceptCookies(page);
    const list = page.getByRole('list', { name: 'Video tutorials' });
    await list.waitFor();
    const titles = (await list.getByRole('button').allInnerTexts()).map((text) => text.replace(/^▶\s*/, ''));
    assert.equal(titles.length, manifest.videos.length);
    assert.match(titles[0], /^Design and calculate a run \d:\d\d$/);

    const first = manifest.videos[0];
    const served = await page.request.get(`/static/help/videos/${first.file}`);
    assert.equal(served.status(), 200);
    assert.match(served.headers()['content-type'], /^video\/webm/);

    await list.getByRole('button', { name: /Design and calculate a run/ }).click();
    const player = page.getByRole('region', { name: 'Design and calculate a run' });
    const video = player.locator('video');
    await video.waitFor();
    assert.equal(await video.getAttribute('controls'), '', 'the player has controls');
    await video.evaluate((element) => element.play());
    // Playing: the clock moves past a second, the frames have a size, and nothing failed.
    await page.waitForFunction((element) => element.currentTime > 1 && !element.paused, await video.elementHandle(), { timeout: 15_000 });
    const state = await video.evaluate((element) => ({
      error: element.error?.message ?? null,
      width: element.videoWidth,
      height: element.videoHeight,
      duration: element.duration,
    }));
    assert.equal(state.error, null);
    assert.equal(state.width, first.width);
    assert.equal(state.height, first.height);
    assert.ok(Math.abs(state.duration - first.duration) < 0.5, `duration ${state.duration}, the manifest says ${first.duration}`);
    await video.evaluate((element) => element.pause());
    await screenshot(page, 'help-video');

    // In French, the same tutorials under French titles.
    await page.goto('/');
    await page.locator('#public-language').selectOption('fr');
    await page.goto('/help');
    await page.getByRole('list', { name: 'Tutoriels vidéo' }).getByRole('button', { name: /Concevoir et calculer un tronçon/ }).waitFor();
    await page.goto('/');
    await page.locator('#public-language').selectOption('en');
  });

  test('opens the software features page from the logged-out header, and the feedback page from the home page', async () => {
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Software features', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Software features' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/features');
    await page.getByText('Standard mode selects the smallest channel that does not flood').waitFor();
    await page.getByRole('heading', { name: 'European and international version' }).waitFor();
    await page.getByText(/^The results are a design aid\./).waitFor();
    assert.equal(await page.getByRole('link', { name: 'UK version (PDF)' }).count(), 1, 'the feature sheets are on the page');
    await screenshot(page, 'features-page', { phone: true });

    await page.goto('/');
    await page.getByRole('link', { name: 'Give feedback' }).click();
    await page.getByRole('heading', { level: 1, name: 'Feedback' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/feedback');
    await page.getByText('Europe and beyond: send your comments and questions to your local branch of the provider.').waitFor();
    await page.getByText('United Kingdom: send your comments and questions to the UK office.').waitFor();
    const write = page.getByRole('link', { name: 'Write to us' });
    const href = await write.getAttribute('href');
    assert.equal(href, `mailto:${process.env.E2E_FEEDBACK_EMAIL}?subject=${encodeURIComponent('Feedback on the drainage design software')}`);
    await screenshot(page, 'feedback-page', { phone: true });

    // Another language: the pages' texts are the catalogue's.
    await page.locator('#public-language').selectOption('de');
    await page.getByRole('heading', { level: 1, name: 'Rückmeldung' }).waitFor();
    await page.getByRole('link', { name: 'Schreiben Sie uns' }).waitFor();
    await page.getByRole('banner').getByRole('link', { name: 'Funktionen der Software' }).click();
    await page.getByRole('heading', { level: 1, name: 'Funktionen der Software' }).waitFor();
    await page.locator('#public-language').selectOption('en');
    assert.deepEqual(browser.pageErrors, []);
  });
});
