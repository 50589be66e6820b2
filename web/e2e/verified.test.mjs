// Browser test of verified questions in the web UI against the real stack
// (`talk2tables serve` with the offline generator; the state database is the
// default one beside the configuration file): an analyst edits the SQL of an
// answer, runs it and saves it; the next ask of the same question (worded
// differently) is answered with it and shows the badge; the list page finds
// and deletes it.
//
//   go build -o bin/talk2tables . && node --test web/e2e/verified.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bin, catalog, checkPrerequisites, openPage, outDir } from './browser.mjs';
import { startServe, stopServe, writeStackConfig } from '../../scripts/testlib.mjs';

const QUESTION = 'how many orders by status';
const EDITED = 'SELECT status, COUNT(*) AS orders FROM orders WHERE status <> \'cancelled\' GROUP BY status ORDER BY orders DESC';

async function ask(page, question) {
  await page.fill('#question', question);
  await page.press('#question', 'Enter');
  await page.waitForSelector('#result:not([hidden]) #table tbody tr, #error:not([hidden])', { timeout: 60_000 });
  assert.equal(await page.isHidden('#error'), true, `error shown: ${await page.textContent('#error')}`);
}

test('an edited query saved from the UI answers the next ask, with a badge', { timeout: 180_000 }, async (t) => {
  checkPrerequisites();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 't2t-verified-'));
  let server;
  let context;
  try {
    const db = path.join(tmp, 'sales.db');
    execFileSync(bin, ['gen-data', '--db', db, '--rows', '3000'], { stdio: ['ignore', 'ignore', 'pipe'] });
    const cfg = writeStackConfig(tmp, { bin, db, catalog, llm: '  provider: builtin' });
    server = await startServe({ bin, cfg, logFile: path.join(outDir, 'serve-verified.log') });
    const { base } = server;
    const opened = await openPage(path.join(tmp, 'chromium-profile'), base, /^Failed to load resource: .* 409 /);
    context = opened.context;
    const { page, pageErrors, foreign } = opened;
    await page.goto(base);
    await page.waitForSelector('#verified-link:not([hidden])', { timeout: 15_000 });

    await t.test('the planner answers; the edited SQL runs and is saved', async () => {
      await ask(page, QUESTION);
      assert.equal(await page.isVisible('#verified-badge'), false, 'badge on an answer no one verified');
      assert.equal(await page.isVisible('#save-verified'), true, 'no save button under the answer');
      await page.fill('#sql', EDITED);
      await page.click('#run-sql');
      await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('Ran the SQL'));
      assert.equal(await page.locator('#table tbody tr').count(), 3, 'edited SQL leaves out cancelled orders');
      await page.click('#save-verified');
      await page.waitForFunction(() => /Saved as verified question #1/.test(document.getElementById('save-status').textContent));
      assert.equal(await page.getAttribute('#save-status a', 'href'), 'verified.html#entry-1');
    });

    await t.test('the next ask, worded differently, is answered with it and shows who verified it', async () => {
      await page.reload();
      await page.waitForSelector('#verified-link:not([hidden])');
      await ask(page, 'How many orders, by status?');
      await page.waitForSelector('#verified-badge:not([hidden])');
      const badge = await page.textContent('#verified-badge');
      assert.match(badge, /Verified question #1 · verified by ui on /);
      assert.equal(await page.inputValue('#sql').then((s) => s.replace(/\s+/g, ' ').trim()), EDITED);
      assert.equal(await page.locator('#table tbody tr').count(), 3);
      assert.match(await page.textContent('#meta'), /verified/);
      await page.screenshot({ path: path.join(outDir, 'ui-verified-badge.png'), fullPage: true });
      // Saving it again names the entry that exists.
      await page.click('#save-verified');
      await page.waitForFunction(() => /verified already: verified question #1/.test(document.getElementById('save-status').textContent));
    });

    await t.test('the list page finds the entry from the badge and deletes it', async () => {
      await page.click('#verified-badge a');
      await page.waitForSelector('#entries tbody tr#entry-1');
      assert.match(await page.textContent('#entry-1'), /how many orders by status/);
      assert.match(await page.textContent('#entry-1'), /ui/);
      await page.fill('#search', 'no such words');
      await page.press('#search', 'Enter');
      await page.waitForFunction(() => /No verified question matches/.test(document.getElementById('list-status').textContent));
      await page.fill('#search', 'cancelled');
      await page.press('#search', 'Enter');
      await page.waitForSelector('#entries tbody tr#entry-1');
      await page.screenshot({ path: path.join(outDir, 'ui-verified-list.png'), fullPage: true });
      page.once('dialog', (d) => d.accept());
      await page.click('#entry-1 button');
      await page.waitForFunction(() => /Deleted verified question #1|No verified question/.test(document.getElementById('list-status').textContent));
      assert.equal(await page.locator('#entries tbody tr').count(), 0);
    });

    await t.test('after the delete the planner answers again, with no badge', async () => {
      await page.goto(base);
      await ask(page, QUESTION);
      assert.equal(await page.isVisible('#verified-badge'), false);
      assert.doesNotMatch(await page.inputValue('#sql'), /cancelled/);
    });

    assert.deepEqual(pageErrors, [], 'errors in the page');
    assert.deepEqual(foreign, [], 'requests outside the server');
  } finally {
    if (context) await context.close();
    if (server) {
      await stopServe(server, tmp);
      server.log.end();
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
