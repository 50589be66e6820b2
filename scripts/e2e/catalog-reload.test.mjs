// Live catalog reload through the whole stack: `talk2tables serve` runs both
// MCP servers as stdio children; editing the catalog file makes the metadata
// server notify, the orchestrator drop its cached resources, and the next
// question use the new alias — with no restart. An invalid edit keeps the
// last good catalog in service.
//
// Run: T2T_BIN=bin/talk2tables node --test scripts/e2e/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, writeFileSync, renameSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServe, stopServe, writeStackConfig } from '../testlib.mjs';


const root = resolve(import.meta.dirname, '..', '..');
const bin = resolve(process.env.T2T_BIN || join(root, 'bin', 'talk2tables'));

// writeAtomically replaces path the way editors do: write a temp file, rename.
function writeAtomically(path, text) {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

async function ask(base, question) {
  const r = await fetch(`${base}/api/query`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ question }),
  });
  return { status: r.status, body: await r.json() };
}

// eventually polls fn until it returns a truthy value or the deadline passes.
async function eventually(fn, what, ms = 15_000) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    last = await fn();
    if (last.ok) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${what}: still ${JSON.stringify(last).slice(0, 400)}`);
}

test('editing the catalog reaches the next question without a restart', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 't2t-reload-'));
  const db = join(dir, 'sales.db');
  const catalog = join(dir, 'catalog.json');
  const original = readFileSync(join(root, 'testdata', 'sales_catalog.json'), 'utf8');
  writeFileSync(catalog, original);
  execFileSync(bin, ['gen-data', '--db', db, '--rows', '2000', '--catalog', catalog]);
  const cfg = writeStackConfig(dir, { bin, db, catalog, llm: '  provider: builtin' });
  // Invalidations are logged at DEBUG (with a count): ask for them.
  appendFileSync(cfg, 'orchestration:\n  log_level: debug\n');
  const server = await startServe({ bin, cfg, logFile: join(dir, 'serve.log') });
  const base = server.base.replace(/\/$/, '');
  const log = () => server.stderrText();
  try {
    const question = 'revenue for wizzbang this year';
    const before = await ask(base, question);
    assert.equal(before.status, 422, 'an unknown alias is declined before the edit');
    assert.match(before.body.error.message, /wizzbang/);

    // Valid edit: "wizzbang" becomes an alias of product 123.
    const cat = JSON.parse(original);
    const products = cat.entities.find((s) => s.table === 'products' && s.key === 'product_id');
    products.values.find((e) => e.key === 123).aliases.push('wizzbang');
    writeAtomically(catalog, JSON.stringify(cat, null, 2));
    const after = await eventually(async () => {
      const r = await ask(base, question);
      return { ok: r.status === 200, ...r };
    }, 'the new alias never reached the generator');
    assert.equal(after.body.resolved_entities.wizzbang['products.product_id'], '123');
    assert.match(after.body.sql, /product_id = 123/);

    // Invalid edit: the metadata server keeps the last good catalog.
    writeAtomically(catalog, '{"version": 2, "tables": ');
    await eventually(async () => ({ ok: log().includes('"catalog_reload_failed"') }), 'no catalog_reload_failed logged');
    const still = await ask(base, question);
    assert.equal(still.status, 200, 'the last good catalog stays in service after an invalid edit');
    assert.equal(still.body.resolved_entities.wizzbang['products.product_id'], '123');
    // logged (with the count) when the 1 s coalescing window closes
    await eventually(async () => ({ ok: log().includes('"resource_cache_invalidated"') }),
      'the orchestrator never logged the invalidation');
  } finally {
    await stopServe(server, dir);
    server.log.end();
  }
  rmSync(dir, { recursive: true, force: true });
});
