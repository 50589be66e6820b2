// Interop: the official MCP Inspector CLI (npm @modelcontextprotocol/inspector,
// pinned in package.json) talks to talk2tables itself as an MCP server: over
// stdio (`talk2tables mcp`, as a desktop host runs it) and over streamable
// HTTP and SSE (`talk2tables serve` at /mcp and /sse). It lists the tools and
// resources, asks a question, runs SQL (a write is refused) and calls a
// downstream tool by its namespaced name.
//
// Run: T2T_BIN=bin/talk2tables node --test scripts/interop/gateway.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServe, stopServe, writeStackConfig } from '../testlib.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const bin = resolve(process.env.T2T_BIN || join(root, 'bin', 'talk2tables'));
const catalog = join(root, 'testdata', 'product_metadata.json');
const inspector = join(root, 'node_modules', '.bin', 'mcp-inspector');
let dir, cfg, serve;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 't2t-gateway-'));
  const db = join(dir, 'sales.db');
  await run(bin, ['gen-data', '--db', db, '--rows', '3000', '--catalog', catalog]);
  cfg = writeStackConfig(dir, { bin, db, catalog, llm: '  provider: builtin' });
  serve = await startServe({ bin, cfg, logFile: join(dir, 'serve.log') });
});

after(async () => {
  if (serve) await stopServe(serve, dir);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function run(cmd, args, opts = {}) {
  return new Promise((res, rej) => {
    execFile(cmd, args, { timeout: 90_000, maxBuffer: 32 << 20, cwd: root, ...opts }, (err, stdout, stderr) => {
      if (err && !opts.allowFail) {
        rej(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\nstdout: ${stdout}\nstderr: ${stderr}`));
        return;
      }
      res({ code: err ? err.code : 0, stdout, stderr });
    });
  });
}

// inspect runs one inspector CLI call against a target and returns its JSON
// output (the CLI exits non-zero on an isError result: the caller checks it).
async function inspect(target, ...args) {
  const argv = ['--cli', ...args, ...target.opts, '--', ...target.positional];
  const { code, stdout } = await run(inspector, argv, { allowFail: true });
  if (code !== 0 && !stdout.includes('"isError": true')) {
    throw new Error(`inspector exited ${code}: ${stdout.slice(0, 500)}`);
  }
  return JSON.parse(stdout);
}

const textOf = (res) => res.content.map((c) => c.text || '').join('');

function targets() {
  return {
    stdio: { opts: [], positional: [bin, 'mcp', '--config', cfg, '--log-level', 'warn'] },
    http: { opts: ['--transport', 'http'], positional: [serve.base + 'mcp'] },
    sse: { opts: ['--transport', 'sse'], positional: [serve.base + 'sse'] },
  };
}

for (const kind of ['stdio', 'http', 'sse']) {
  test(`talk2tables as an MCP server over ${kind}`, async () => {
    const t = targets()[kind];
    const tools = await inspect(t, '--method', 'tools/list');
    const names = tools.tools.map((x) => x.name);
    for (const want of ['ask', 'run_sql', 'health', 'search', 'execute', 'database_mcp__execute_query', 'database_mcp__validate_query']) {
      assert.ok(names.includes(want), `tools/list has ${want}: ${names}`);
    }
    const ask = tools.tools.find((x) => x.name === 'ask');
    assert.equal(ask.outputSchema.type, 'object');
    assert.equal(ask.annotations.readOnlyHint, true);

    const answer = await inspect(t, '--method', 'tools/call', '--tool-name', 'ask',
      '--tool-arg', 'question=total revenue by region');
    assert.notEqual(answer.isError, true, textOf(answer));
    assert.match(textOf(answer), /```sql\n/);
    assert.equal(answer.structuredContent.success, true);
    assert.deepEqual(answer.structuredContent.result.rows.map((r) => r[0]).sort(), ['East', 'North', 'South', 'West']);

    const sql = await inspect(t, '--method', 'tools/call', '--tool-name', 'run_sql',
      '--tool-arg', 'sql=SELECT status, COUNT(*) AS n FROM orders GROUP BY status ORDER BY status');
    assert.notEqual(sql.isError, true);
    assert.deepEqual(sql.structuredContent.columns, ['status', 'n']);

    const write = await inspect(t, '--method', 'tools/call', '--tool-name', 'run_sql', '--tool-arg', 'sql=DELETE FROM sales');
    assert.equal(write.isError, true);
    assert.match(textOf(write), /PERMISSION_ERROR/);

    const direct = await inspect(t, '--method', 'tools/call', '--tool-name', 'database_mcp__execute_query',
      '--tool-arg', 'query=SELECT COUNT(*) AS n FROM customers');
    assert.notEqual(direct.isError, true);
    assert.deepEqual(JSON.parse(textOf(direct)).columns, ['n']);

    const resources = await inspect(t, '--method', 'resources/list');
    const uris = resources.resources.map((r) => r.uri);
    assert.ok(uris.includes('t2t://database_mcp/database://schema'), `prefixed schema resource: ${uris}`);
    const schema = await inspect(t, '--method', 'resources/read', '--uri', 't2t://database_mcp/database://schema');
    assert.equal(JSON.parse(schema.contents[0].text).dialect, 'sqlite');
  });
}
