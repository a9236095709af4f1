#!/usr/bin/env node
// Re-records the help page's video tutorials from the product itself:
//
//   node web/scripts/record-help-videos.mjs [bin/draindesign]   (or `make help-videos`)
//
// Starts the built binary on a throwaway data directory with a GB account,
// drives the real screens in Debian's chromium (playwright-core; CHROMIUM_PATH
// to use another), takes the screen's frames through the DevTools screencast,
// encodes them to VP8 in the browser itself (WebCodecs' VideoEncoder) and
// writes WebM files (scripts/lib/webm.mjs), a poster image each and
// manifest.json to web/public/static/help/videos/, which the server answers
// as /static/help/videos/. No ffmpeg: Playwright's own video recording needs
// an ffmpeg build that cannot be downloaded on the project's machines.
// Rebuild the binary afterwards (`make build`) to ship the new videos.
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { muxWebM } from './lib/webm.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const binary = resolve(process.argv[2] ?? join(here, '..', '..', 'bin', 'draindesign'));
const outDir = resolve(process.env.HELP_VIDEOS_DIR ?? join(here, '..', 'public', 'static', 'help', 'videos'));
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WIDTH = 960;
const HEIGHT = 600;
const FPS = 12;
const BITRATE = 300_000;

// Each tutorial: its file name, the catalogue key of its title and its steps.
const only = process.env.HELP_VIDEOS_ONLY;
const tutorials = [
  { file: 'design-a-run', title: 'help.videos.designRun', steps: designARun },
  { file: 'rainfall-map', title: 'help.videos.rainfallMap', steps: rainfallMap },
  { file: 'documents', title: 'help.videos.documents', steps: documents },
];

const username = 'tutorial';
const password = `Tutorial-${Date.now()}`;
const data = await mkdtemp(join(tmpdir(), 'draindesign-videos-'));
let server = null;
let browser = null;
try {
  run(binary, ['users', 'add', '--data-dir', data, '--username', username, '--email', 'tutorial@example.com', '--password', password, '--first', 'Alex', '--last', 'Planner', '--company', 'Drainage Works Ltd']);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = spawn(binary, ['serve', '--addr', `127.0.0.1:${port}`, '--data-dir', data], {
    env: { ...withoutStores(process.env), PUBLIC_URL: base },
    stdio: ['ignore', 'ignore', process.env.HELP_VIDEOS_DEBUG ? 'inherit' : 'ignore'],
  });
  await waitFor(base);
  browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
  await mkdir(outDir, { recursive: true });
  const manifest = [];
  for (const tutorial of tutorials.filter((t) => !only || t.file === only)) {
    const frames = await record(browser, base, tutorial.steps);
    const { video, duration } = await encode(browser, frames);
    await writeFile(join(outDir, `${tutorial.file}.webm`), video);
    await writeFile(join(outDir, `${tutorial.file}.jpg`), frames.poster);
    manifest.push({
      file: `${tutorial.file}.webm`,
      title: tutorial.title,
      poster: `${tutorial.file}.jpg`,
      duration: Math.round(duration / 100) / 10,
      width: WIDTH,
      height: HEIGHT,
    });
    console.log(`${tutorial.file}.webm: ${(duration / 1000).toFixed(1)} s, ${(video.length / 1024).toFixed(0)} KiB`);
  }
  await writeFile(join(outDir, 'manifest.json'), `${JSON.stringify({ videos: manifest }, null, 2)}\n`);
} finally {
  await browser?.close();
  if (server) {
    server.kill();
    await new Promise((done) => server.once('exit', done));
  }
  await rm(data, { recursive: true, force: true });
}

/** Runs one walkthrough in a fresh browser context and returns its screencast frames. */
async function record(browser, base, steps) {
  const context = await browser.newContext({ baseURL: base, viewport: { width: WIDTH, height: HEIGHT }, locale: 'en-GB' });
  context.setDefaultTimeout(20_000);
  // Headless screens have no mouse pointer: draw one that follows the mouse, so viewers see what is clicked.
  await context.addInitScript(pointerScript);
  const page = await context.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
  // The cookie notice is acknowledged before the recording starts: it would cover the screens.
  const notice = page.getByRole('region', { name: 'Cookie notice' });
  if (await notice.count()) await notice.getByRole('button', { name: 'OK' }).click();
  const cdp = await context.newCDPSession(page);
  const frames = [];
  cdp.on('Page.screencastFrame', ({ data, metadata, sessionId }) => {
    frames.push({ data: Buffer.from(data, 'base64'), time: metadata.timestamp * 1000 });
    cdp.send('Page.screencastFrameAck', { sessionId }).catch(() => {});
  });
  await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 80, maxWidth: WIDTH, maxHeight: HEIGHT, everyNthFrame: 1 });
  let poster = null;
  await steps(page, {
    poster: async () => {
      poster = await page.screenshot({ type: 'jpeg', quality: 80 });
    },
  });
  await pause(page, 1500);
  await cdp.send('Page.stopScreencast');
  await context.close();
  if (!frames.length) throw new Error('record: the screencast sent no frames');
  if (process.env.HELP_VIDEOS_DEBUG) {
    console.log(`${frames.length} frames over ${((frames.at(-1).time - frames[0].time) / 1000).toFixed(1)} s`);
    await mkdir(join(outDir, 'frames'), { recursive: true });
    for (const [i, frame] of frames.entries()) await writeFile(join(outDir, 'frames', `${String(i).padStart(4, '0')}.jpg`), frame.data);
  }
  frames.poster = poster ?? frames.at(-1).data;
  return frames;
}

/**
 * Encodes the frames at a steady FPS (each tick shows the newest frame
 * taken by then) with the browser's VP8 encoder, then muxes them to WebM.
 */
async function encode(browser, frames) {
  const page = await browser.newPage();
  // WebCodecs needs a secure context: a page on 127.0.0.1, answered here.
  await page.route('http://127.0.0.1:9/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: `<canvas width="${WIDTH}" height="${HEIGHT}"></canvas>` }),
  );
  await page.goto('http://127.0.0.1:9/');
  const start = frames[0].time;
  const end = frames.at(-1).time - start + 1000;
  const step = 1000 / FPS;
  const ticks = [];
  let k = 0;
  for (let t = 0; t < end; t += step) {
    while (k + 1 < frames.length && frames[k + 1].time - start <= t) k++;
    ticks.push(k);
  }
  await page.evaluate(
    async ({ width, height, fps, bitrate }) => {
      const chunks = [];
      const failures = [];
      const encoder = new VideoEncoder({
        output: (chunk) => {
          const bytes = new Uint8Array(chunk.byteLength);
          chunk.copyTo(bytes);
          chunks.push({ key: chunk.type === 'key', timestamp: chunk.timestamp / 1000, data: bytes });
        },
        error: (error) => failures.push(String(error)),
      });
      encoder.configure({ codec: 'vp8', width, height, bitrate, framerate: fps, latencyMode: 'quality' });
      const canvas = document.querySelector('canvas');
      const ctx = canvas.getContext('2d');
      let count = 0;
      // Frames arrive in batches from node: addFrame(jpeg bytes as base64, how many ticks it shows).
      window.addFrames = async (batch) => {
        for (const { jpeg, ticks } of batch) {
          const bitmap = await createImageBitmap(await (await fetch(`data:image/jpeg;base64,${jpeg}`)).blob());
          ctx.fillStyle = '#fff';
          ctx.fillRect(0, 0, width, height);
          ctx.drawImage(bitmap, 0, 0);
          bitmap.close();
          for (let i = 0; i < ticks; i++) {
            const frame = new VideoFrame(canvas, { timestamp: Math.round((count * 1e6) / fps), duration: Math.round(1e6 / fps) });
            encoder.encode(frame, { keyFrame: count % (fps * 2) === 0 });
            frame.close();
            count++;
          }
          while (encoder.encodeQueueSize > 4) await new Promise((done) => setTimeout(done, 5));
        }
        if (failures.length) throw new Error(failures.join('; '));
      };
      window.finish = async () => {
        await encoder.flush();
        if (failures.length) throw new Error(failures.join('; '));
        let text = '';
        const out = chunks.map(({ key, timestamp, data }) => {
          text = '';
          for (let i = 0; i < data.length; i += 0x8000) text += String.fromCharCode(...data.subarray(i, i + 0x8000));
          return { key, timestamp, data: btoa(text) };
        });
        return { chunks: out, count };
      };
    },
    { width: WIDTH, height: HEIGHT, fps: FPS, bitrate: BITRATE },
  );
  // Runs of equal ticks: one frame drawn once, encoded as many times as it shows.
  const runs = [];
  for (const index of ticks) {
    if (runs.length && runs.at(-1).index === index) runs.at(-1).ticks++;
    else runs.push({ index, ticks: 1 });
  }
  for (let i = 0; i < runs.length; i += 20) {
    const batch = runs.slice(i, i + 20).map(({ index, ticks }) => ({ jpeg: frames[index].data.toString('base64'), ticks }));
    await page.evaluate((b) => window.addFrames(b), batch);
  }
  const { chunks, count } = await page.evaluate(() => window.finish());
  await page.close();
  const duration = (count * 1000) / FPS;
  const video = muxWebM({
    width: WIDTH,
    height: HEIGHT,
    duration,
    frames: chunks.map(({ key, timestamp, data }) => ({ key, timestamp, data: Buffer.from(data, 'base64') })),
  });
  return { video, duration };
}

// --- the walkthroughs ------------------------------------------------------

async function logIn(page) {
  await pause(page, 800);
  await typeInto(page, page.getByLabel(/^Username/), username);
  await typeInto(page, page.getByLabel(/^Password/), password);
  await clickOn(page, page.getByRole('button', { name: 'Login', exact: true }));
  await page.getByRole('button', { name: 'Calculate', exact: true }).waitFor();
  await pause(page, 800);
}

async function chooseRun(page, { system, length, area }) {
  const group = page.getByLabel('Channel group');
  await group.locator(`option[value="${system}"]`).waitFor({ state: 'attached' });
  await group.scrollIntoViewIfNeeded();
  await movePointer(page, group);
  await group.selectOption(system);
  await pause(page, 900);
  await enterNumber(page, 'Channel length', length);
  await enterNumber(page, 'Catchment area', area);
}

/** Sign in, describe a run, calculate and read the specification and the hydraulic profile. */
async function designARun(page, { poster }) {
  await logIn(page);
  await chooseRun(page, { system: 'poly-100', length: 20, area: 144 });
  await clickOn(page, page.getByRole('button', { name: 'Calculate', exact: true }));
  await page.getByRole('heading', { name: 'Design specification' }).waitFor();
  await pause(page, 1500);
  const profile = page.getByRole('img', { name: /^Hydraulic profile of/ });
  await profile.scrollIntoViewIfNeeded();
  await pause(page, 600);
  const box = await profile.boundingBox();
  if (box) {
    // Along the profile: the readout follows the pointer.
    for (let x = 0.15; x <= 0.85; x += 0.1) {
      await page.mouse.move(box.x + box.width * x, box.y + box.height / 2, { steps: 6 });
      await pause(page, 250);
    }
  }
  await poster();
  await pause(page, 1200);
  const materials = page.getByRole('tab', { name: 'Materials list', exact: true });
  await clickOn(page, materials);
  await pause(page, 2000);
}

/** The UK rainfall map: a place clicked, the storm changed, the intensity taken for the run. */
async function rainfallMap(page, { poster }) {
  await logIn(page);
  await chooseRun(page, { system: 'poly-100', length: 30, area: 200 });
  await clickOn(page, page.getByRole('button', { name: 'Rainfall map', exact: true }));
  const dialog = page.getByRole('dialog', { name: 'UK rainfall map' });
  const map = dialog.getByTestId('rainfall-map');
  await map.waitFor();
  await pause(page, 1200);
  const box = await map.boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.3, { steps: 12 });
  await pause(page, 300);
  await page.mouse.click(box.x + box.width / 2 - 20, box.y + box.height / 2 + 40);
  await page.waitForFunction(() => /\([A-Z]{2}\d{4}\)$/.test(document.querySelector('.rainfall-map__location')?.textContent ?? ''));
  await pause(page, 1500);
  const storm = dialog.getByLabel(/^Storm duration/);
  await storm.scrollIntoViewIfNeeded();
  await movePointer(page, storm);
  await storm.fill('60');
  await storm.press('Enter');
  await pause(page, 1500);
  await poster();
  await clickOn(page, dialog.getByRole('button', { name: 'OK' }));
  const question = page.getByRole('dialog', { name: 'Default rainfall' });
  await question.waitFor();
  await pause(page, 1200);
  await clickOn(page, question.getByRole('button', { name: 'No' }));
  await pause(page, 1800);
}

/** The Documents tab: the project's details, the document language and the PDFs. */
async function documents(page, { poster }) {
  await logIn(page);
  await chooseRun(page, { system: 'poly-100', length: 20, area: 144 });
  await clickOn(page, page.getByRole('button', { name: 'Calculate', exact: true }));
  await page.getByRole('heading', { name: 'Design specification' }).waitFor();
  await pause(page, 1000);
  await clickOn(page, page.getByRole('tab', { name: 'Documents', exact: true }));
  await pause(page, 1200);
  const language = page.getByLabel('Document language');
  await movePointer(page, language);
  await language.selectOption('de');
  await pause(page, 1000);
  await poster();
  const button = page.getByRole('button', { name: 'Introduction', exact: true });
  await button.scrollIntoViewIfNeeded();
  const [download] = await Promise.all([page.waitForEvent('download'), clickOn(page, button)]);
  await download.cancel().catch(() => {});
  await pause(page, 1500);
  await language.scrollIntoViewIfNeeded();
  await movePointer(page, language);
  await language.selectOption('en');
  await pause(page, 1500);
}

// --- pacing: a person's speed, not a test's ---------------------------------

function pause(page, ms) {
  return page.waitForTimeout(ms);
}

async function movePointer(page, locator) {
  const box = await locator.boundingBox();
  if (box) await page.mouse.move(box.x + Math.min(box.width / 2, 60), box.y + box.height / 2, { steps: 10 });
  await pause(page, 300);
}

async function clickOn(page, locator) {
  await locator.scrollIntoViewIfNeeded();
  await movePointer(page, locator);
  await locator.click();
  await pause(page, 500);
}

async function typeInto(page, locator, text) {
  await movePointer(page, locator);
  await locator.click();
  await locator.pressSequentially(text, { delay: 60 });
  await pause(page, 300);
}

async function enterNumber(page, label, value) {
  const input = page.getByLabel(new RegExp(`^${label}( \\*)?( \\(optional\\))?( ⚠)?$`));
  await movePointer(page, input);
  await input.fill('');
  await input.pressSequentially(String(value), { delay: 120 });
  await input.press('Enter');
  await pause(page, 700);
}

// A pointer drawn into the page (headless screenshots show none) and a ring on each click.
function pointerScript() {
  window.addEventListener('DOMContentLoaded', () => {
    const dot = document.createElement('div');
    dot.setAttribute('aria-hidden', 'true');
    dot.style.cssText =
      'position:fixed;left:-40px;top:-40px;width:18px;height:18px;margin:-9px 0 0 -9px;border-radius:50%;background:rgba(220,40,40,.55);border:2px solid #fff;box-shadow:0 0 3px rgba(0,0,0,.5);pointer-events:none;z-index:2147483647;transition:transform .15s';
    document.body.appendChild(dot);
    document.addEventListener('mousemove', (e) => {
      dot.style.left = `${e.clientX}px`;
      dot.style.top = `${e.clientY}px`;
    }, true);
    document.addEventListener('mousedown', () => (dot.style.transform = 'scale(1.8)'), true);
    document.addEventListener('mouseup', () => (dot.style.transform = ''), true);
  });
}

// --- the server --------------------------------------------------------------

function run(command, args) {
  const result = spawnSync(command, args, { env: withoutStores(process.env), stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${args[0]} ${args[1]} failed (${result.error?.message ?? `exit ${result.status}`})`);
}

/** The embedded store and mail to files: the recording never touches a real database or mailbox. */
function withoutStores(env) {
  const copy = { ...env };
  delete copy.DATABASE_URL;
  delete copy.NATS_URL;
  delete copy.SMTP_URL;
  return copy;
}

function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
    probe.on('error', fail);
  });
}

async function waitFor(base) {
  for (let i = 0; i < 60; i++) {
    try {
      const response = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not yet up
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  throw new Error(`the server at ${base} did not answer`);
}
