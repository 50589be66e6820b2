// Browser test of the web UI against the real stack: `talk2tables serve` with
// both MCP servers as stdio children and the built-in (offline) generator,
// driven in headless Debian chromium through playwright-core.
//
//   go build -o bin/talk2tables . && node --test web/e2e/
//
// Environment: T2T_BIN (default ./bin/talk2tables), T2T_TEST_OUTPUT (default
// ./test-output: screenshots and the server log), CHROMIUM (default
// /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bin, catalog, checkPrerequisites, openPage, outDir } from './browser.mjs';
import { startServe, stopServe, writeStackConfig } from '../../scripts/testlib.mjs';

const QUESTION = 'total revenue by region this year';

/** startServer runs `serve` with the builtin generator and resolves once /health answers. */
async function startServer(tmp) {
  const db = path.join(tmp, 'sales.db');
  execFileSync(bin, ['gen-data', '--db', db, '--rows', '5000'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const cfg = writeStackConfig(tmp, { bin, db, catalog, llm: '  provider: builtin' });
  return startServe({ bin, cfg, logFile: path.join(outDir, 'serve.log') });
}

async function numbersIn(page, col) {
  return page.$$eval(`#table tbody tr td:nth-child(${col + 1})`, (tds) => tds.map((td) => (td.dataset.value === undefined ? NaN : Number(td.dataset.value))));
}

test('web UI answers a question end to end in chromium', { timeout: 180_000 }, async (t) => {
  checkPrerequisites();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 't2t-ui-'));
  let server;
  let context;
  try {
    server = await startServer(tmp);
    const { base } = server;
    // Chromium logs every non-2xx response as a console error: the bad-SQL step expects one 422.
    const opened = await openPage(path.join(tmp, 'chromium-profile'), base, /^Failed to load resource: .* 422 /);
    context = opened.context;
    const { page, pageErrors, foreign } = opened;

    await page.goto(base);
    assert.equal(await page.title(), 'talk2tables');

    await t.test('health panel lists both servers as connected', async () => {
      await page.waitForFunction(() => document.querySelectorAll('#servers li[data-state="connected"]').length === 2, null, { timeout: 15_000 });
      const ids = await page.$$eval('#servers li', (lis) => lis.map((li) => `${li.dataset.id}=${li.dataset.state}`).sort());
      assert.deepEqual(ids, ['database_mcp=connected', 'product_metadata_mcp=connected']);
      await page.waitForFunction(() => !document.getElementById('generator').textContent.includes('…'));
      assert.match(await page.textContent('#generator'), /builtin/);
    });

    await t.test('Shift+Enter adds a new line without asking', async () => {
      await page.fill('#question', 'first line');
      await page.press('#question', 'Shift+Enter');
      assert.equal(await page.inputValue('#question'), 'first line\n');
      assert.equal(await page.isHidden('#progress-card'), true, 'progress shown: Shift+Enter submitted the question');
      await page.fill('#question', '');
    });

    await t.test('an example question yields a table of 4 regions and a 4-bar chart', async () => {
      await page.getByRole('button', { name: QUESTION }).click();
      await page.waitForSelector('#result:not([hidden]) #table tbody tr, #error:not([hidden])', { timeout: 60_000 });
      assert.equal(await page.isHidden('#error'), true, `error shown: ${await page.textContent('#error')}`);
      await page.waitForSelector('#chart:not([hidden]) svg');

      assert.equal(await page.inputValue('#question'), QUESTION);
      assert.equal(await page.locator('#stages li.done').count(), 4, 'all four stages done');
      const columns = await page.$$eval('#table thead th', (ths) => ths.map((th) => th.textContent.trim()));
      assert.equal(columns.length, 2, `columns ${columns}`);
      const regions = await page.$$eval('#table tbody tr td:first-child', (tds) => tds.map((td) => td.textContent).sort());
      assert.deepEqual(regions, ['East', 'North', 'South', 'West']);
      const totals = await numbersIn(page, 1);
      assert.equal(totals.length, 4);
      for (const v of totals) assert.ok(Number.isFinite(v) && v > 0, `total ${v} is not a positive number`);
      assert.equal(await page.locator('#chart svg rect.bar').count(), 4, 'bars in chart');
      const tip = await page.textContent('#chart svg rect.bar title');
      assert.match(tip, /^(North|South|East|West) · /);
      assert.match(await page.textContent('#row-count'), /^4 rows/);
      assert.match(await page.inputValue('#sql'), /select/i);
      assert.match(await page.textContent('#meta'), /builtin/);
    });

    await t.test('clicking a header sorts the table both ways', async () => {
      const th = page.locator('#table thead th').nth(1);
      await th.locator('button').click();
      assert.equal(await th.getAttribute('aria-sort'), 'ascending');
      const asc = await numbersIn(page, 1);
      assert.deepEqual(asc, [...asc].sort((a, b) => a - b));
      await page.locator('#table thead th').nth(1).locator('button').press('Enter');
      assert.equal(await page.locator('#table thead th').nth(1).getAttribute('aria-sort'), 'descending');
      const desc = await numbersIn(page, 1);
      assert.deepEqual(desc, [...asc].reverse());
    });

    await t.test('Export CSV downloads the rows', async () => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv-btn')]);
      const csv = fs.readFileSync(await download.path(), 'utf8').replace(/^\ufeff/, '');
      const lines = csv.trimEnd().split('\r\n');
      assert.equal(lines.length, 5, `csv:\n${csv}`);
      assert.match(download.suggestedFilename(), /^talk2tables-.*\.csv$/);
    });

    await page.screenshot({ path: path.join(outDir, 'ui-light.png'), fullPage: true });

    await t.test('edited SQL with LIMIT 2 re-runs via /api/sql', async () => {
      assert.equal(await page.isHidden('#sql-server-wrap'), true, 'a database picker with one executor');
      const sql = (await page.inputValue('#sql')).trim().replace(/;+\s*$/, '');
      const limited = /\blimit\s+\d+\s*$/i.test(sql) ? sql.replace(/\blimit\s+\d+\s*$/i, 'LIMIT 2') : `${sql}\nLIMIT 2`;
      await page.fill('#sql', limited);
      await page.click('#run-sql');
      await page.waitForFunction(() => document.querySelectorAll('#table tbody tr').length === 2, null, { timeout: 15_000 });
      assert.match(await page.textContent('#row-count'), /^2 rows/);
      assert.equal(await page.locator('#chart svg rect.bar').count(), 2);
    });

    await t.test('bad SQL shows a readable error with the request id', async () => {
      await page.fill('#sql', 'SELECT no_such_column FROM sales');
      await page.click('#run-sql');
      await page.waitForSelector('#error:not([hidden])');
      const text = await page.textContent('#error');
      assert.match(text, /no_such_column|column/i);
      assert.ok((await page.textContent('#error .request-id')).length > 0, 'request id shown');
      assert.doesNotMatch(text, /goroutine|panic|\.go:\d+/);
    });

    await t.test('a question the generator declines reads as a decline, not a failure', async () => {
      await page.fill('#question', 'what is the meaning of life');
      await page.press('#question', 'Enter');
      await page.waitForSelector('#error:not([hidden])', { timeout: 30_000 });
      assert.equal((await page.textContent('#error h2')).trim(), 'I could not answer that');
      assert.doesNotMatch(await page.textContent('#error'), /Something went wrong/);
      assert.match(await page.textContent('#status'), /Not answered/);
      assert.ok((await page.textContent('#error .error-message')).length > 10, 'error message shown');
      assert.ok((await page.textContent('#error .request-id')).length > 0, 'request id shown');
      assert.equal(await page.isHidden('#result'), true, 'a stale result is still shown');
      assert.equal(await page.locator('#stages li.failed').count(), 1, 'failed stage marked');
    });

    await t.test('dark mode toggles and persists', async () => {
      // Back to a good result for the screenshots.
      await page.getByRole('button', { name: QUESTION }).click();
      await page.waitForSelector('#error', { state: 'hidden' });
      await page.waitForSelector('#chart:not([hidden]) svg rect.bar');
      await page.click('#theme-toggle');
      assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
      assert.equal(await page.getAttribute('#theme-toggle', 'aria-pressed'), 'true');
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const [r, g, b] = bg.match(/\d+/g).map(Number);
      assert.ok(r + g + b < 200, `body background ${bg} is not dark`);
      await page.screenshot({ path: path.join(outDir, 'ui-dark.png'), fullPage: true });
    });

    await t.test('narrow screen stacks and keeps the page from scrolling sideways', async () => {
      await page.setViewportSize({ width: 375, height: 800 });
      await page.waitForTimeout(200); // let the chart redraw for the new width
      const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
      assert.ok(widths.page <= widths.view, `page is ${widths.page}px wide in a ${widths.view}px viewport`);
      const main = await page.locator('main').boundingBox();
      const aside = await page.locator('aside.health').boundingBox();
      assert.ok(aside.y >= main.y + main.height - 1, 'health panel is not stacked below the main column');
      await page.screenshot({ path: path.join(outDir, 'ui-narrow.png'), fullPage: true });
      await page.reload();
      assert.equal(await page.getAttribute('html', 'data-theme'), 'dark', 'theme not persisted across reload');
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
