// Shared helpers of the node test suites (interop, e2e, browser): free
// ports, a `talk2tables serve` stack with both MCP servers as stdio
// children, and the checks that it stops cleanly.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** sleep resolves after ms milliseconds. */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** freePort returns a TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** processesMentioning lists live (non-zombie) processes whose command line mentions dir. */
export function processesMentioning(dir) {
  const out = [];
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (cmd.includes(dir) && !/\) Z /.test(stat)) out.push(`${pid}: ${cmd.replaceAll('\0', ' ')}`);
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

/**
 * writeStackConfig writes dir/cfg.yaml running both MCP servers as stdio
 * children of `serve` (bin over db and catalog) with the given `llm:` body
 * (YAML lines, indented by two spaces) and any extra top-level YAML, and
 * returns its path.
 */
export function writeStackConfig(dir, { bin, db, catalog, llm, extra = '' }) {
  const q = JSON.stringify; // YAML accepts JSON strings: safe for any path
  const cfg = path.join(dir, 'cfg.yaml');
  fs.writeFileSync(cfg, `mcp_servers:
  database_mcp:
    name: "Database MCP Server"
    transport: stdio
    command: ${q(bin)}
    args: [database-mcp, --db, ${q(db)}]
    priority: 10
    domains: [sales, transactions, orders, products, customers]
    capabilities: [execute_query, validate_query, list_resources]
  product_metadata_mcp:
    name: "Product Metadata MCP"
    transport: stdio
    command: ${q(bin)}
    args: [metadata-mcp, --catalog, ${q(catalog)}]
    priority: 1
    domains: [products, customers, orders, sales, entities, semantic_model]
    capabilities: [list_resources]
llm:
${llm}
${extra}`);
  return cfg;
}

/**
 * startServe runs `bin serve --config cfg` on a free port, copies its output
 * to logFile, and resolves once /health answers 200. The result has proc,
 * base (ending in /), exited (resolves to {code, signal}), closed (output
 * drained), log (the file stream) and stderrText().
 */
export async function startServe({ bin, cfg, logFile, env = {} }) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/`;
  const proc = spawn(bin, ['serve', '--config', cfg, '--addr', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const stderr = [];
  proc.stderr.on('data', (c) => stderr.push(c));
  const log = fs.createWriteStream(logFile);
  proc.stdout.pipe(log, { end: false });
  proc.stderr.pipe(log, { end: false });
  const exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  // 'close' fires after the exit and once stdout/stderr are drained.
  const closed = new Promise((resolve) => proc.on('close', resolve));
  let running = true;
  exited.then(() => { running = false; });
  const server = { proc, base, exited, closed, log, stderrText: () => Buffer.concat(stderr).toString('utf8') };
  for (let i = 0; i < 300 && running; i++) {
    try {
      const res = await fetch(base + 'health');
      if (res.ok) return server;
    } catch {
      /* not listening yet */
    }
    await sleep(100);
  }
  if (running) proc.kill('SIGKILL');
  log.end();
  throw new Error(`talk2tables serve did not become healthy; see ${logFile}`);
}

/**
 * stopServe sends SIGTERM and checks that serve exits 0 within 10 s and
 * that no process mentioning dir (its MCP children) is left.
 */
export async function stopServe(server, dir) {
  server.proc.kill('SIGTERM');
  const res = await Promise.race([server.exited, sleep(10_000).then(() => null)]);
  if (res === null) server.proc.kill('SIGKILL');
  assert.ok(res !== null, 'serve did not exit within 10 s of SIGTERM');
  assert.equal(res.code, 0, `serve exited with ${res.code ?? res.signal} after SIGTERM`);
  await Promise.race([server.closed, sleep(5_000)]);
  let left = processesMentioning(dir);
  for (let i = 0; i < 20 && left.length > 0; i++) {
    await sleep(100);
    left = processesMentioning(dir);
  }
  assert.deepEqual(left, [], 'MCP child processes left running after serve exited');
}
