// The README's first command, checked the way a newcomer runs it: clone the
// repository into an empty directory, `make run` (build, generate the sample
// database, start API + UI + both MCP servers as stdio children), ask a
// question over HTTP, stop with SIGINT and check that nothing is left running
// and the clone is still clean.
//
// Run: node --test scripts/e2e/   (from the repository root; clones HEAD)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { freePort, processesMentioning } from '../testlib.mjs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');

test('make run works from a fresh clone', { timeout: 600_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 't2t-clone-'));
  const clone = join(dir, 'talk2tables');
  execFileSync('git', ['clone', '--quiet', root, clone]);
  const port = await freePort();
  let log = '';
  const make = spawn('make', ['run', `ADDR=127.0.0.1:${port}`], {
    cwd: clone, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, OPENAI_API_KEY: '' },
  });
  make.stdout.on('data', (d) => { log += d; });
  make.stderr.on('data', (d) => { log += d; });
  const exited = new Promise((res) => make.on('exit', (code, signal) => res({ code, signal })));
  try {
    const base = `http://127.0.0.1:${port}`;
    let health;
    for (let i = 0; i < 1200 && make.exitCode === null; i++) {
      try {
        const r = await fetch(`${base}/health`);
        health = await r.json();
        if (r.status === 200) break;
      } catch { /* not up yet */ }
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(health?.status, 'healthy', `service never became healthy; log:\n${log.slice(-3000)}`);
    assert.equal(health.servers.database_mcp, 'connected');
    assert.equal(health.servers.product_metadata_mcp, 'connected');
    assert.ok(existsSync(join(clone, 'testdata', 'sales.db')), 'make run generated testdata/sales.db');

    const r = await fetch(`${base}/api/query`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ question: 'total revenue by region this year' }),
    });
    const body = await r.json();
    assert.equal(r.status, 200, JSON.stringify(body));
    assert.equal(body.success, true);
    assert.deepEqual(body.result.columns, ['region', 'total_revenue']);
    assert.equal(body.result.row_count, 4);
    assert.equal(body.metadata.generator, 'builtin');

    const page = await fetch(`${base}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /talk2tables/i);
  } finally {
    if (make.exitCode === null) process.kill(-make.pid, 'SIGINT');
  }
  const { code, signal } = await exited;
  assert.ok(code === 0 || code === 2 || signal === 'SIGINT', `make run exit code ${code} signal ${signal}`);
  // Every child (serve, both MCP servers) must be gone shortly after.
  let left = [];
  for (let i = 0; i < 40; i++) {
    left = processesMentioning(clone);
    if (left.length === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.deepEqual(left, [], 'no process of the clone is left running');
  const status = execFileSync('git', ['status', '--porcelain'], { cwd: clone, encoding: 'utf8' });
  assert.equal(status, '', 'generated files (binary, database) are git-ignored');
  rmSync(dir, { recursive: true, force: true });
});
