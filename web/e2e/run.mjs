#!/usr/bin/env node
// Browser tests against a running draindesign server.
//
//   DRAINDESIGN_URL=http://127.0.0.1:8080 npm run e2e [-- test files...]
//
// DRAINDESIGN_URL   where the server (API and built client) answers; required
// CHROMIUM_PATH     the browser to drive (default /usr/bin/chromium, from
//                   scripts/install-chromium.sh)
// E2E_WAIT_SECONDS  how long to wait for the server to answer first (default 30)
// E2E_SCREENSHOTS   where screenshots go (default e2e/screenshots)
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const url = process.env.DRAINDESIGN_URL;
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!url) {
  console.error('e2e: set DRAINDESIGN_URL to the running server, e.g. DRAINDESIGN_URL=http://127.0.0.1:8080 npm run e2e');
  process.exit(2);
}
if (!existsSync(chromium)) {
  console.error(`e2e: no browser at ${chromium}; run web/scripts/install-chromium.sh (or set CHROMIUM_PATH)`);
  process.exit(2);
}

await waitForServer(url, Number(process.env.E2E_WAIT_SECONDS ?? 30));

const testsDir = join(here, 'tests');
const requested = process.argv.slice(2).map((file) => resolve(file));
const files = requested.length
  ? requested
  : readdirSync(testsDir)
      .filter((name) => name.endsWith('.test.mjs'))
      .sort()
      .map((name) => join(testsDir, name));

// Node 20's --test takes no globs, so the files are listed here. One file at a
// time: each drives its own browser and the machine has two cores.
const child = spawn(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: { ...process.env, DRAINDESIGN_URL: url, CHROMIUM_PATH: chromium },
});
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));

async function waitForServer(base, seconds) {
  const deadline = Date.now() + seconds * 1000;
  let lastError = null;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(new URL('/', base), { signal: AbortSignal.timeout(2000) });
      if (response.status < 500) return;
      lastError = new Error(`HTTP ${response.status}`);
    } catch (error) {
      lastError = error;
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  console.error(`e2e: ${base} did not answer within ${seconds}s (${lastError?.message ?? 'no answer'})`);
  process.exit(2);
}
