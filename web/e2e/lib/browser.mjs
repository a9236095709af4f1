// One headless Debian chromium per test file, driven by playwright-core.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));

export const baseURL = requireEnv('DRAINDESIGN_URL');
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const screenshotDir = process.env.E2E_SCREENSHOTS ?? join(here, '..', 'screenshots');

// The machine's network is closed: without the background-networking flags
// chromium keeps dialling out and its refused connections slow every start.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Starts chromium with a fresh profile. Uncaught errors in the page are
 * collected so a test can insist there were none.
 */
export async function openBrowser() {
  const profile = await mkdtemp(join(tmpdir(), 'draindesign-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: ARGS,
    baseURL,
    locale: 'en-GB',
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(15_000);
  const pageErrors = [];
  context.on('page', (page) => watch(page, pageErrors));
  for (const page of context.pages()) watch(page, pageErrors);

  return {
    context,
    pageErrors,
    async newPage() {
      return context.pages()[0] ?? context.newPage();
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

function watch(page, pageErrors) {
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
}

export async function screenshot(page, name, { phone = false } = {}) {
  await mkdir(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  if (phone) {
    // The same screen at a phone's width, as a designer on site sees it;
    // the desktop size comes back for the steps that follow.
    const desktop = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    // Two frames for the screen to lay itself out at the new width (the top bar folds into its menu).
    await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
    await page.screenshot({ path: join(screenshotDir, `${name}-phone.png`), fullPage: true });
    if (desktop) await page.setViewportSize(desktop);
  }
  return path;
}

function requireEnv(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set; start the tests with e2e/run.mjs`);
  return value;
}
