// Shared set-up of the browser tests: where the binary, catalog, output and
// chromium are, and a chromium page that records page errors and any request
// leaving the server under test.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** bin is the talk2tables binary under test ($T2T_BIN, default ./bin/talk2tables). */
export const bin = path.resolve(process.env.T2T_BIN || './bin/talk2tables');
/** outDir receives screenshots and serve logs ($T2T_TEST_OUTPUT, default ./test-output). */
export const outDir = path.resolve(process.env.T2T_TEST_OUTPUT || './test-output');
/** catalog is the repository's product catalog. */
export const catalog = path.join(repoRoot, 'testdata', 'sales_catalog.json');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
// FACTS.md: the flags Debian chromium needs here.
const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** checkPrerequisites fails with how to fix it when the binary or chromium is missing, and creates outDir. */
export function checkPrerequisites() {
  assert.ok(fs.existsSync(bin), `talk2tables binary not found at ${bin}: build it with "go build -o bin/talk2tables ." or set T2T_BIN`);
  assert.ok(fs.existsSync(chromiumPath), `chromium not found at ${chromiumPath}: install it with "apt-get install -y chromium" or set CHROMIUM`);
  fs.mkdirSync(outDir, { recursive: true });
}

/**
 * openPage launches chromium with a fresh profile under profileDir and
 * returns its context and first page, plus the page errors and the requests
 * to anything but base (blob: and data: aside) seen from then on. Chromium
 * logs every non-2xx response as a console error; those whose text matches
 * expectedFailedLoad are expected by the test and not counted.
 */
export async function openPage(profileDir, base, expectedFailedLoad) {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    viewport: { width: 1280, height: 900 },
    colorScheme: 'light',
  });
  const page = context.pages()[0] || (await context.newPage());
  const pageErrors = [];
  const foreign = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !expectedFailedLoad.test(m.text())) pageErrors.push(m.text()); });
  page.on('request', (r) => { if (!r.url().startsWith(base) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) foreign.push(r.url()); });
  return { context, page, pageErrors, foreign };
}
