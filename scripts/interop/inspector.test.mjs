// Interop: the official MCP Inspector CLI (npm @modelcontextprotocol/inspector,
// pinned in package.json) talks to both talk2tables MCP servers over stdio,
// SSE and streamable HTTP: it lists tools and resources, reads every resource
// and calls both tools, and the answers are checked.
//
// Run: T2T_BIN=bin/talk2tables node --test scripts/interop/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import net from 'node:net';
import { freePort } from '../testlib.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const bin = resolve(process.env.T2T_BIN || join(root, 'bin', 'talk2tables'));
const catalog = join(root, 'testdata', 'sales_catalog.json');
const inspector = join(root, 'node_modules', '.bin', 'mcp-inspector');
let dir, db;
const children = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 't2t-interop-'));
  db = join(dir, 'sales.db');
  await run(bin, ['gen-data', '--db', db, '--rows', '3000', '--catalog', catalog]);
});

after(() => {
  for (const c of children) c.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function run(cmd, args, opts = {}) {
  return new Promise((res, rej) => {
    execFile(cmd, args, { timeout: 60_000, maxBuffer: 32 << 20, cwd: root, ...opts }, (err, stdout, stderr) => {
      if (err && !opts.allowFail) {
        rej(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\nstdout: ${stdout}\nstderr: ${stderr}`));
        return;
      }
      res({ code: err ? err.code : 0, stdout, stderr });
    });
  });
}

// inspect runs one inspector CLI call and returns its JSON output. The CLI
// exits non-zero when a tool answers isError, so that is not a failure here:
// the caller checks isError itself.
async function inspect(target, ...args) {
  // The server command goes after "--": the inspector has flags of its own
  // (e.g. --catalog) that would otherwise swallow the server's.
  const argv = ['--cli', ...args, ...target.opts, '--', ...target.positional];
  const { code, stdout } = await run(inspector, argv, { allowFail: true });
  if (code !== 0 && !stdout.includes('"isError": true')) {
    throw new Error(`inspector exited ${code}: ${stdout.slice(0, 500)}`);
  }
  try {
    return JSON.parse(stdout);
  } catch {
    throw new Error(`inspector printed non-JSON: ${stdout.slice(0, 500)}`);
  }
}

async function waitForPort(port, child) {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`server exited early with ${child.exitCode}`);
    const ok = await new Promise((res) => {
      const c = net.connect(port, '127.0.0.1', () => { c.end(); res(true); });
      c.on('error', () => res(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`port ${port} never opened`);
}

// target returns the inspector's target options and positional arguments for a server over a transport,
// starting an HTTP server first when needed.
async function target(kind, transport) {
  const args = kind === 'database' ? ['database-mcp', '--db', db] : ['metadata-mcp', '--catalog', catalog];
  if (transport === 'stdio') return { opts: [], positional: [bin, ...args] };
  const port = await freePort();
  const child = spawn(bin, [...args, '--transport', transport, '--addr', `127.0.0.1:${port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.resume();
  children.push(child);
  await waitForPort(port, child);
  const path = transport === 'sse' ? 'sse' : 'mcp';
  return { opts: ['--transport', transport], positional: [`http://127.0.0.1:${port}/${path}`] };
}

function textOf(result) {
  assert.ok(Array.isArray(result.content) && result.content.length > 0, `tool result has content: ${JSON.stringify(result)}`);
  return result.content.map((c) => c.text || '').join('');
}

for (const transport of ['stdio', 'sse', 'http']) {
  test(`database-mcp over ${transport}`, async () => {
    const t = await target('database', transport);

    const tools = await inspect(t, '--method', 'tools/list');
    const names = tools.tools.map((x) => x.name).sort();
    assert.deepEqual(names, ['execute_query', 'validate_query']);
    for (const tool of tools.tools) {
      assert.equal(tool.annotations?.readOnlyHint, true, `${tool.name} is annotated read-only`);
    }

    const resources = await inspect(t, '--method', 'resources/list');
    const uris = resources.resources.map((r) => r.uri);
    assert.ok(uris.includes('database://schema'), `schema resource listed: ${uris}`);
    for (const uri of uris) {
      const read = await inspect(t, '--method', 'resources/read', '--uri', uri);
      const schema = JSON.parse(read.contents[0].text);
      assert.equal(schema.dialect, 'sqlite');
      const tables = schema.tables.map((x) => x.name).sort();
      assert.deepEqual(tables, ['customers', 'orders', 'products', 'sales']);
      const sales = schema.tables.find((x) => x.name === 'sales');
      const region = sales.columns.find((c) => c.name === 'region');
      assert.deepEqual(region.distinct_values, ['East', 'North', 'South', 'West']);
    }

    const res = await inspect(t, '--method', 'tools/call', '--tool-name', 'execute_query',
      '--tool-arg', 'query=SELECT region, COUNT(*) AS n FROM sales GROUP BY region ORDER BY region');
    assert.notEqual(res.isError, true, `execute_query succeeded: ${JSON.stringify(res)}`);
    const data = JSON.parse(textOf(res));
    assert.deepEqual(data.columns, ['region', 'n']);
    assert.equal(data.row_count, 4);
    assert.deepEqual(data.rows.map((r) => r[0]), ['East', 'North', 'South', 'West']);
    assert.equal(data.rows.reduce((s, r) => s + r[1], 0), 3000);

    const capped = await inspect(t, '--method', 'tools/call', '--tool-name', 'execute_query',
      '--tool-arg', 'query=SELECT product_id FROM products ORDER BY product_id', 'max_rows=2');
    const cappedData = JSON.parse(textOf(capped));
    assert.equal(cappedData.row_count, 2);
    assert.equal(cappedData.truncated, true);

    const ok = await inspect(t, '--method', 'tools/call', '--tool-name', 'validate_query',
      '--tool-arg', 'query=SELECT * FROM products');
    assert.notEqual(ok.isError, true);
    assert.equal(JSON.parse(textOf(ok)).valid, true);

    const bad = await inspect(t, '--method', 'tools/call', '--tool-name', 'validate_query',
      '--tool-arg', 'query=SELECT * FROM sale');
    assert.equal(bad.isError, true);
    assert.equal(JSON.parse(textOf(bad)).category, 'MISSING_TABLE');

    const write = await inspect(t, '--method', 'tools/call', '--tool-name', 'execute_query',
      '--tool-arg', 'query=DELETE FROM sales');
    assert.equal(write.isError, true);
    assert.equal(JSON.parse(textOf(write)).category, 'PERMISSION_ERROR');
  });

  test(`metadata-mcp over ${transport}`, async () => {
    const t = await target('metadata', transport);
    const resources = await inspect(t, '--method', 'resources/list');
    const uris = resources.resources.map((r) => r.uri).sort();
    assert.deepEqual(uris, ['metadata://column_mappings', 'metadata://entities', 'metadata://metadata_summary',
      'metadata://product_aliases', 'metadata://semantic_model']);
    const read = {};
    for (const uri of uris) {
      const r = await inspect(t, '--method', 'resources/read', '--uri', uri);
      assert.equal(r.contents[0].mimeType, 'application/json');
      read[uri] = JSON.parse(r.contents[0].text);
    }
    const model = read['metadata://semantic_model'];
    assert.equal(model.version, 2);
    assert.equal(model.tables.sales.columns.total_amount.measure, 'additive');
    assert.equal(model.tables.sales.date_column, 'sale_date');
    const products = read['metadata://entities'].entities.find((s) => s.table === 'products' && s.key === 'product_id');
    const magic = products.values.find((e) => e.key === 123);
    assert.equal(magic.name, 'Magic Wand Pro');
    assert.ok(magic.aliases.includes('abracadabra'));
    const summary = read['metadata://metadata_summary'];
    assert.equal(summary.version, 2);
    assert.equal(summary.tables, 4);
    assert.ok(summary.entities >= 40, `entities ${summary.entities}`);
    // the original design's resources, derived from the version-2 catalog
    assert.equal(read['metadata://product_aliases']['magic wand pro'].canonical_id, '123');
    assert.equal(read['metadata://column_mappings'].user_friendly_terms['sales amount'], 'sales.total_amount');
  });
}
