// Browser test of several databases in the web UI: `talk2tables serve` with
// two database-mcp executors (the sample with 5000 sales rows, and a second
// sample, "archive_db", with 300 rows and domain "archive") plus the
// catalog, and the built-in generator. The SQL editor's database picker
// runs the SQL on the picked database; the answer says which database
// answered.
//
//   go build -o bin/talk2tables . && node --test web/e2e/multidb.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bin, catalog, checkPrerequisites, openPage, outDir } from './browser.mjs';
import { startServe, stopServe } from '../../scripts/testlib.mjs';

/** writeConfig is the two-executor configuration with the builtin generator. */
function writeConfig(dir, salesDB, archiveDB) {
  const q = JSON.stringify; // YAML accepts JSON strings: safe for any path
  const cfg = path.join(dir, 'cfg.yaml');
  const executor = (name, db, priority, domains) => `    name: ${q(name)}
    transport: stdio
    command: ${q(bin)}
    args: [database-mcp, --db, ${q(db)}]
    priority: ${priority}
    domains: [${domains}]
    capabilities: [execute_query, validate_query, list_resources]
`;
  fs.writeFileSync(cfg, `mcp_servers:
  database_mcp:
${executor('Sales', salesDB, 10, 'sales')}  archive_db:
${executor('Archive', archiveDB, 20, 'archive')}  product_metadata_mcp:
    name: "Product Metadata MCP"
    transport: stdio
    command: ${q(bin)}
    args: [metadata-mcp, --catalog, ${q(catalog)}]
    priority: 1
    capabilities: [list_resources]
llm:
  provider: builtin
`);
  return cfg;
}

test('web UI with two databases: picker, routing, which database answered', { timeout: 180_000 }, async (t) => {
  checkPrerequisites();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 't2t-multidb-'));
  let server;
  let context;
  try {
    const salesDB = path.join(tmp, 'sales.db');
    const archiveDB = path.join(tmp, 'archive.db');
    execFileSync(bin, ['gen-data', '--db', salesDB, '--rows', '5000'], { stdio: ['ignore', 'ignore', 'pipe'] });
    execFileSync(bin, ['gen-data', '--db', archiveDB, '--rows', '300', '--seed', '7'], { stdio: ['ignore', 'ignore', 'pipe'] });
    const cfg = writeConfig(tmp, salesDB, archiveDB);
    server = await startServe({ bin, cfg, logFile: path.join(outDir, 'serve-multidb.log') });
    const { base } = server;
    const opened = await openPage(path.join(tmp, 'chromium-profile'), base, /^Failed to load resource: .* 422 /);
    context = opened.context;
    const { page, pageErrors, foreign } = opened;
    await page.goto(base);
    await page.waitForFunction(() => document.querySelectorAll('#servers li[data-state="connected"]').length === 3, null, { timeout: 20_000 });

    let archiveOrders;
    await t.test('a question naming a domain is answered by that database, and the answer says so', async () => {
      await page.fill('#question', 'how many orders in the archive');
      await page.press('#question', 'Enter');
      await page.waitForSelector('#result:not([hidden]) #table tbody tr, #error:not([hidden])', { timeout: 60_000 });
      assert.equal(await page.isHidden('#error'), true, `error shown: ${await page.textContent('#error')}`);
      assert.match(await page.textContent('#meta'), /Database\s*archive_db/);
      assert.match(await page.textContent('#row-count'), /database archive_db/);
      archiveOrders = Number(await page.getAttribute('#table tbody tr td:first-child', 'data-value'));
      assert.ok(archiveOrders > 0, `orders in the archive: ${archiveOrders}`);
    });

    await t.test('the SQL editor has a database picker set to the database that answered', async () => {
      assert.equal(await page.isVisible('#sql-server'), true, 'no database picker with two executors');
      const options = await page.$$eval('#sql-server option', (os) => os.map((o) => o.value));
      assert.deepEqual(options, ['database_mcp', 'archive_db']);
      assert.equal(await page.inputValue('#sql-server'), 'archive_db');
    });

    await t.test('the picked database runs the SQL', async () => {
      const counts = {};
      for (const server of ['database_mcp', 'archive_db']) {
        await page.selectOption('#sql-server', server);
        await page.fill('#sql', 'SELECT COUNT(*) AS n FROM sales');
        await page.click('#run-sql');
        await page.waitForFunction((s) => document.getElementById('row-count').textContent.includes(`database ${s}`), server, { timeout: 15_000 });
        counts[server] = Number(await page.getAttribute('#table tbody tr td:first-child', 'data-value'));
      }
      assert.deepEqual(counts, { database_mcp: 5000, archive_db: 300 });
      await page.fill('#sql', 'SELECT COUNT(*) AS n FROM orders');
      await page.click('#run-sql');
      await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('Ran the SQL'), null, { timeout: 15_000 });
      assert.equal(Number(await page.getAttribute('#table tbody tr td:first-child', 'data-value')), archiveOrders,
        'the answer from archive_db is its own count of orders');
    });

    await t.test('a question that reads the same in both databases is declined naming both', async () => {
      await page.fill('#question', 'how many orders');
      await page.press('#question', 'Enter');
      await page.waitForSelector('#error:not([hidden])', { timeout: 30_000 });
      const text = await page.textContent('#error');
      assert.match(text, /"database_mcp"/);
      assert.match(text, /"archive_db"/);
    });
    await page.screenshot({ path: path.join(outDir, 'ui-multidb.png'), fullPage: true });

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
