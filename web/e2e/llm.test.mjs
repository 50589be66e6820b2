// Browser test of recovery through the real binary with an LLM provider:
// `talk2tables serve` talks to a scripted OpenAI-compatible server (in this
// process) whose first answer names a table that does not exist. The test
// checks the repair request the binary sends, the `retry` progress stage and
// the attempts the UI shows, the result, and that serve's log keeps the API
// key out while recording the recovery. Slow scripted answers then check
// that Stop and Escape abort a running question (serve drops its LLM call)
// and that a new question replaces a running one cleanly.
//
//   go build -o bin/talk2tables . && T2T_BIN=$PWD/bin/talk2tables node --test --test-concurrency=1 web/e2e/
//
// Environment: T2T_BIN (default ./bin/talk2tables), T2T_TEST_OUTPUT (default
// ./test-output: the screenshot and serve-llm.log), CHROMIUM (default
// /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { bin, catalog, checkPrerequisites, openPage, outDir } from './browser.mjs';
import { sleep, startServe as startServeStack, stopServe, writeStackConfig } from '../../scripts/testlib.mjs';


const QUESTION = 'revenue by region from the sale table';
const SECRET = 'sk-e2e-secret-value';
const BAD_SQL = 'SELECT region, SUM(total_amount) AS revenue FROM sale GROUP BY region';
const GOOD_SQL = 'SELECT region, ROUND(SUM(total_amount),2) AS revenue FROM sales GROUP BY region ORDER BY region';
// The Stop scenarios: the LLM answers their questions only after SLOW_MS,
// long after the test has stopped them.
const SLOW_MS = 10_000;
const SLOW_QUESTION = 'revenue by region, slowly';
const ESC_QUESTION = 'revenue by region, slowly, stopped with Escape';
const REPLACED_QUESTION = 'revenue by region, slowly, then replaced';
const REPLACING_QUESTION = 'revenue per region from the sales table';
const slow = (answer) => ({ delayMs: SLOW_MS, answer });
// The scripted answers, in order (an entry with delayMs is sent that much
// later unless serve gives up on the request first); a request beyond them
// gets a 500.
const SCRIPT = [
  { answer: { sql: BAD_SQL, resolved_entities: {}, explanation: 'first try', confidence: 0.6 } },
  { answer: { sql: GOOD_SQL, resolved_entities: { revenue: { column: 'sales.total_amount' } }, explanation: 'Revenue per region.', confidence: 0.9 } },
  slow({ sql: GOOD_SQL, resolved_entities: {}, explanation: 'too late: stopped', confidence: 0.9 }),
  slow({ sql: GOOD_SQL, resolved_entities: {}, explanation: 'too late: stopped with Escape', confidence: 0.9 }),
  slow({ sql: GOOD_SQL, resolved_entities: {}, explanation: 'too late: replaced', confidence: 0.9 }),
  { answer: { sql: GOOD_SQL, resolved_entities: {}, explanation: 'Revenue per region, asked again.', confidence: 0.8 } },
];

/** waitUntil polls cond every 50 ms and fails with what after ms. */
async function waitUntil(cond, what, ms = 10_000) {
  for (let waited = 0; !cond(); waited += 50) {
    if (waited >= ms) assert.fail(`gave up after ${ms} ms waiting until ${what}`);
    await sleep(50);
  }
}

/** textOf returns a chat message's text, whether content is a string or a list of parts. */
function textOf(msg) {
  if (!msg) return '';
  if (typeof msg.content === 'string') return msg.content;
  if (Array.isArray(msg.content)) return msg.content.map((p) => (typeof p === 'string' ? p : p.text || '')).join('');
  return '';
}

/**
 * startScriptedLLM serves POST /v1/chat/completions from SCRIPT on a free
 * loopback port. requests records every request (path, headers, body, and
 * whether the client went away before the answer: abandoned); anything
 * beyond the script, or any other route, gets a 500.
 */
function startScriptedLLM() {
  const requests = [];
  const srv = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body = null;
      try {
        body = JSON.parse(raw);
      } catch {
        /* recorded as null: the assertions below fail on it */
      }
      const record = { method: req.method, url: req.url, authorization: req.headers.authorization || '', body, abandoned: false };
      requests.push(record);
      const n = requests.filter((r) => r.method === 'POST' && r.url === '/v1/chat/completions').length;
      const send = (status, obj) => {
        const b = JSON.stringify(obj);
        res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(b) });
        res.end(b);
      };
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        send(500, { error: { message: `scripted LLM: unexpected ${req.method} ${req.url}`, type: 'server_error' } });
        return;
      }
      if (n > SCRIPT.length || body === null) {
        send(500, { error: { message: `scripted LLM: request ${n} is beyond the script of ${SCRIPT.length}`, type: 'server_error' } });
        return;
      }
      const step = SCRIPT[n - 1];
      const answer = () => send(200, {
        id: `chatcmpl-e2e-${n}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model || 'scripted',
        choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(step.answer) }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 100 * n, completion_tokens: 20 * n, total_tokens: 120 * n },
      });
      if (!step.delayMs) {
        answer();
        return;
      }
      const timer = setTimeout(answer, step.delayMs);
      // serve cancelled the call (its client stopped the question): drop the answer.
      res.on('close', () => {
        if (res.writableEnded) return;
        clearTimeout(timer);
        record.abandoned = true;
      });
    });
  });
  return new Promise((resolve, reject) => {
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => resolve({ srv, port: srv.address().port, requests }));
  });
}

/** startServe runs `serve` against the scripted LLM and resolves once /health answers. */
async function startServe(tmp, llmPort, logFile) {
  const db = path.join(tmp, 'sales.db');
  execFileSync(bin, ['gen-data', '--db', db, '--rows', '3000'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const cfg = writeStackConfig(tmp, {
    bin, db, catalog, llm: `  provider: openai
  model: scripted
  base_url: ${JSON.stringify(`http://127.0.0.1:${llmPort}/v1`)}
  api_key_env: T2T_E2E_KEY
  max_retries: 0
  fallback: none`,
  });
  return startServeStack({ bin, cfg, logFile, env: { T2T_E2E_KEY: SECRET } });
}

/** logEvents parses serve's JSON log lines (others, if any, are skipped). */
function logEvents(text) {
  const out = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      /* not a JSON record */
    }
  }
  return out;
}

test('web UI shows recovery from a MISSING_TABLE answer of an OpenAI-compatible LLM', { timeout: 180_000 }, async (t) => {
  checkPrerequisites();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 't2t-llm-'));
  const llm = await startScriptedLLM();
  let server;
  let context;
  let stopped = false;
  try {
    server = await startServe(tmp, llm.port, path.join(outDir, 'serve-llm.log'));
    const { base } = server;
    // Chromium logs every non-2xx response as a console error: the failing-LLM step may cause a 5xx.
    const opened = await openPage(path.join(tmp, 'chromium-profile'), base, /^Failed to load resource: .* 5\d\d /);
    context = opened.context;
    const { page, pageErrors, foreign } = opened;
    await page.goto(base);
    assert.equal(await page.title(), 'talk2tables');

    await t.test('the generator badge shows the openai generator', async () => {
      await page.waitForFunction(() => document.querySelectorAll('#servers li[data-state="connected"]').length === 2, null, { timeout: 15_000 });
      await page.waitForFunction(() => !document.getElementById('generator').textContent.includes('…'));
      assert.match(await page.textContent('#generator'), /openai:scripted/);
      const health = await (await fetch(base + 'health')).json();
      assert.equal(health.generator, 'openai:scripted');
      assert.equal(llm.requests.length, 0, 'serve called the LLM before any question');
    });

    await t.test('the question is answered after one repair', async () => {
      await page.fill('#question', QUESTION);
      await page.press('#question', 'Enter');
      await page.waitForSelector('#result:not([hidden]) #table tbody tr, #error:not([hidden])', { timeout: 60_000 });
      assert.equal(await page.isHidden('#error'), true, `error shown: ${await page.textContent('#error')}`);
      await page.waitForSelector('#chart:not([hidden]) svg');
    });

    await t.test('the LLM got the question, then a repair request naming MISSING_TABLE and the failed SQL', () => {
      const posts = llm.requests;
      assert.equal(posts.length, 2, `LLM requests: ${posts.map((r) => `${r.method} ${r.url}`).join(', ')}`);
      for (const [i, r] of posts.entries()) {
        assert.equal(r.method, 'POST', `request ${i + 1}`);
        assert.equal(r.url, '/v1/chat/completions', `request ${i + 1}`);
        assert.equal(r.authorization, `Bearer ${SECRET}`, `request ${i + 1} authorization`);
        assert.equal(r.body.model, 'scripted', `request ${i + 1} model`);
      }
      const lastUser = (r) => textOf([...r.body.messages].reverse().find((m) => m.role === 'user'));
      const first = lastUser(posts[0]);
      assert.ok(first.includes(QUESTION), `first user message lacks the question:\n${first.slice(-800)}`);
      assert.doesNotMatch(first, /MISSING_TABLE/, 'the first request is already a repair');
      const second = lastUser(posts[1]);
      assert.match(second, /MISSING_TABLE/, `repair request lacks the category:\n${second.slice(-1200)}`);
      assert.ok(second.includes(BAD_SQL), `repair request lacks the failed SQL:\n${second.slice(-1200)}`);
      assert.ok(second.includes(QUESTION), 'repair request lacks the question');
    });

    await t.test('progress shows a retry after MISSING_TABLE', async () => {
      const retries = await page.$$eval('#retries li', (lis) => lis.map((li) => li.textContent));
      assert.equal(retries.length, 1, `retries: ${JSON.stringify(retries)}`);
      assert.match(retries[0], /MISSING_TABLE/);
      assert.match(retries[0], /^MISSING_TABLE Attempt 1 failed: .*\bsale\b.*attempt 2/);
      assert.match(retries[0], /\bsale\b/, 'the retry line does not say which table was missing');
      assert.equal(await page.locator('#retries li .cat').first().textContent(), 'MISSING_TABLE');
      assert.equal(await page.locator('#stages li.done').count(), 4, 'all four stages done');
      assert.match(await page.textContent('#status'), /after 2 attempts: 4 rows/);
    });

    await t.test('attempts list the failed SQL with MISSING_TABLE and the final SQL', async () => {
      assert.equal(await page.isVisible('#attempts-wrap'), true, 'attempts hidden');
      assert.equal(await page.getAttribute('#attempts-wrap', 'open'), '', 'attempts not expanded');
      assert.equal(await page.textContent('#attempts-summary'), 'Attempts: 2 (1 failed, recovered)');
      const items = await page.$$eval('#attempts > li', (lis) => lis.map((li) => ({
        cls: li.className,
        cat: li.querySelector('.cat')?.textContent || '',
        err: li.querySelector('.attempt-error')?.textContent || '',
        sql: li.querySelector('pre')?.textContent || '',
      })));
      assert.equal(items.length, 2, `attempts: ${JSON.stringify(items)}`);
      const flat = (s) => s.replace(/\s+/g, ' ').trim();
      assert.equal(items[0].cls, 'failed');
      assert.equal(items[0].cat, 'MISSING_TABLE');
      assert.match(items[0].err, /sale/);
      assert.equal(flat(items[0].sql), BAD_SQL);
      assert.equal(items[1].cls, 'ok');
      assert.equal(items[1].err, '');
      assert.equal(flat(items[1].sql), GOOD_SQL);
      assert.equal(flat(await page.inputValue('#sql')), GOOD_SQL, 'the SQL box holds the final SQL');
    });

    await t.test('the result has 4 regions, the chart 4 bars', async () => {
      const regions = await page.$$eval('#table tbody tr td:first-child', (tds) => tds.map((td) => td.textContent));
      assert.deepEqual(regions, ['East', 'North', 'South', 'West']);
      const totals = await page.$$eval('#table tbody tr td:nth-child(2)', (tds) => tds.map((td) => Number(td.dataset.value)));
      for (const v of totals) assert.ok(Number.isFinite(v) && v > 0, `revenue ${v} is not a positive number`);
      assert.equal(await page.locator('#chart svg rect.bar').count(), 4, 'bars in chart');
      assert.match(await page.textContent('#row-count'), /^4 rows/);
    });

    await t.test('explanation, entities and metadata come from the final answer', async () => {
      assert.equal(await page.textContent('#explanation'), 'Revenue per region.');
      const chips = await page.$$eval('#entities li', (lis) => lis.map((li) => li.textContent));
      assert.deepEqual(chips, ['revenue → column = sales.total_amount']);
      const meta = Object.fromEntries(await page.$$eval('#meta > div', (ds) => ds.map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])));
      assert.equal(meta.Generator, 'openai:scripted');
      assert.equal(meta.Attempts, '2 (1 failed, recovered)');
      assert.equal(meta.Confidence, '90%');
      assert.equal(meta.Tokens, '360 (300 prompt + 60 completion)');
    });

    await page.screenshot({ path: path.join(outDir, 'ui-recovery.png'), fullPage: true });

    /** askSlowly asks question n of the LLM script and waits until serve is waiting for the LLM. */
    const askSlowly = async (question, n, submit) => {
      await page.fill('#question', question);
      await submit();
      await page.waitForSelector('#stages li[data-stage="generating"].active', { timeout: 30_000 });
      await waitUntil(() => llm.requests.length === n, `the LLM got request ${n} (it has ${llm.requests.length})`);
      assert.equal(await page.isVisible('#stop-btn'), true, 'no Stop button while the question runs');
      assert.equal(await page.isDisabled('#ask-btn'), true, 'Ask is enabled while the question runs');
    };
    /** checkStopped checks the page after a Stop: no error, Ask back, the previous result still shown. */
    const checkStopped = async () => {
      await page.waitForSelector('#ask-btn:enabled', { timeout: 2_000 });
      assert.equal(await page.textContent('#status'), 'Stopped.');
      assert.equal(await page.isHidden('#error'), true, `error shown: ${await page.textContent('#error')}`);
      assert.equal(await page.isHidden('#stop-btn'), true, 'Stop still shown');
      const stages = await page.$$eval('#stages li', (lis) => lis.map((li) => `${li.dataset.stage}:${li.className}`));
      assert.deepEqual(stages, ['gathering:done', 'generating:stopped', 'validating:', 'executing:'], 'stages after Stop');
      // The earlier answer is still the latest one: Stop does not throw it away.
      assert.equal(await page.isVisible('#result'), true, 'the previous result is hidden after Stop');
      assert.equal(await page.locator('#table tbody tr').count(), 4, 'rows of the previous result');
      assert.equal(await page.textContent('#explanation'), 'Revenue per region.');
    };

    await t.test('Stop aborts a slow question: "Stopped.", no error, Ask back, serve drops the LLM call', async () => {
      await askSlowly(SLOW_QUESTION, 3, () => page.click('#ask-btn'));
      await page.click('#stop-btn');
      await checkStopped();
      assert.equal(await page.evaluate(() => document.activeElement.id), 'ask-btn', 'focus after Stop');
      // serve saw the client go and cancelled the question, LLM call included.
      await waitUntil(() => llm.requests[2].abandoned, 'serve abandoned the slow LLM call');
      await page.screenshot({ path: path.join(outDir, 'ui-stopped.png'), fullPage: true });
    });

    await t.test('Escape in the question box stops a running question', async () => {
      await askSlowly(ESC_QUESTION, 4, () => page.press('#question', 'Enter'));
      assert.equal(await page.evaluate(() => document.activeElement.id), 'question');
      await page.press('#question', 'Escape');
      await checkStopped();
      assert.equal(await page.evaluate(() => document.activeElement.id), 'question', 'focus left the question box');
      await waitUntil(() => llm.requests[3].abandoned, 'serve abandoned the LLM call stopped with Escape');
    });

    await t.test('a new question replaces a running one: the old stream never touches the page', async () => {
      await askSlowly(REPLACED_QUESTION, 5, () => page.press('#question', 'Enter'));
      // Record every stage class and status text from here on.
      await page.evaluate(() => {
        window.seen = [];
        const note = () => {
          window.seen.push(`status=${document.getElementById('status').textContent}`);
          for (const li of document.querySelectorAll('#stages li')) if (li.className) window.seen.push(`${li.dataset.stage}:${li.className}`);
        };
        new MutationObserver(note).observe(document.getElementById('progress-card').parentNode, { subtree: true, attributes: true, childList: true, characterData: true });
      });
      await page.fill('#question', REPLACING_QUESTION);
      await page.press('#question', 'Enter');
      await page.waitForSelector('#result:not([hidden]) #table tbody tr, #error:not([hidden])', { timeout: 30_000 });
      assert.equal(await page.isHidden('#error'), true, `error shown: ${await page.textContent('#error')}`);
      assert.equal(await page.textContent('#explanation'), 'Revenue per region, asked again.');
      assert.match(await page.textContent('#status'), /^Answered in .*: 4 rows\.$/);
      assert.equal(await page.locator('#stages li.done').count(), 4, 'all four stages done');
      assert.equal(await page.isEnabled('#ask-btn'), true, 'Ask disabled after the answer');
      assert.equal(await page.isHidden('#stop-btn'), true, 'Stop still shown after the answer');
      const seen = await page.evaluate(() => window.seen);
      const stray = seen.filter((s) => /failed|stopped|Stopped|Failed|Cancel/.test(s));
      assert.deepEqual(stray, [], 'the replaced question wrote into the page');
      assert.equal(llm.requests.length, 6, 'LLM requests: the replaced question\'s, then the new one\'s');
      await waitUntil(() => llm.requests[4].abandoned, 'serve abandoned the replaced question\'s LLM call');
      const lastUser = textOf([...llm.requests[5].body.messages].reverse().find((m) => m.role === 'user'));
      assert.ok(lastUser.includes(REPLACING_QUESTION), 'the last LLM request is not for the new question');
    });

    await t.test('a failing LLM shows a readable error and no stale attempts', async () => {
      // The script is used up: the scripted server answers this one with a 500.
      await page.fill('#question', 'how many orders per region');
      await page.press('#question', 'Enter');
      await page.waitForSelector('#error:not([hidden])', { timeout: 30_000 });
      assert.equal(llm.requests.length, SCRIPT.length + 1, 'max_retries: 0 means one LLM call for this question');
      const text = await page.textContent('#error');
      assert.ok((await page.textContent('#error .error-message')).length > 10, 'error message shown');
      assert.ok((await page.textContent('#error .request-id')).length > 0, 'request id shown');
      assert.doesNotMatch(text, /goroutine|panic|\.go:\d+/);
      assert.ok(!text.includes(SECRET), 'the API key is shown in the page');
      assert.equal(await page.isHidden('#result'), true, 'a stale result is still shown');
      assert.equal(await page.locator('#retries li').count(), 0, 'stale retries still shown');
      assert.equal(await page.isVisible('#attempts-wrap'), false, 'stale attempts still shown');
      await page.screenshot({ path: path.join(outDir, 'ui-llm-error.png'), fullPage: true });
    });

    assert.deepEqual(pageErrors, [], 'errors in the page');
    assert.deepEqual(foreign, [], 'requests outside the server');

    await context.close();
    context = null;
    stopped = true;
    await stopServe(server, tmp);
    server.log.end();

    await t.test('serve\'s log records the recovery and never the API key', () => {
      const text = server.stderrText();
      assert.ok(!text.includes(SECRET), 'the API key appears in serve\'s log');
      const events = logEvents(text);
      assert.ok(events.length > 0, 'no JSON log records on stderr');
      const recovery = events.filter((e) => e.event === 'recovery_attempted');
      assert.equal(recovery.length, 1, 'recovery_attempted events');
      assert.equal(recovery[0].category, 'MISSING_TABLE');
      assert.ok(recovery[0].operation_id, 'recovery_attempted has no operation_id');
      const answers = events.filter((e) => e.event === 'llm_response_received');
      assert.equal(answers.length, 3, 'llm_response_received events (the recovery\'s two, the replacing question\'s; the stopped ones got none, the last call failed)');
      for (const e of answers.slice(0, 2)) assert.equal(e.operation_id, recovery[0].operation_id, 'one operation id for the question');
    });

    await t.test('serve\'s log shows each stopped question cancelled and its request ended', () => {
      const events = logEvents(server.stderrText());
      for (const question of [SLOW_QUESTION, ESC_QUESTION, REPLACED_QUESTION]) {
        const received = events.filter((e) => e.event === 'query_received' && e.question === question);
        assert.equal(received.length, 1, `query_received for ${JSON.stringify(question)}`);
        const id = received[0].operation_id;
        const reqs = events.filter((e) => e.event === 'http_request' && e.request_id === id);
        assert.equal(reqs.length, 1, `http_request lines for the stopped question ${JSON.stringify(question)}`);
        assert.equal(reqs[0].path, '/api/query');
        // The stream had sent its 200 header; the access log still records
        // that the client closed the request.
        assert.equal(reqs[0].status, 499, `status ${reqs[0].status} for a stopped question`);
        assert.ok(reqs[0].duration_ms < SLOW_MS, `the stopped request lasted ${reqs[0].duration_ms} ms: it waited for the LLM`);
        const completed = events.filter((e) => e.event === 'query_processing_completed' && e.operation_id === id);
        assert.equal(completed.length, 1, `query_processing_completed for ${JSON.stringify(question)}`);
        assert.equal(completed[0].success, false);
        const cause = events.filter((e) => e.operation_id === id && /context canceled/.test(e.error || ''));
        assert.ok(cause.length > 0, `no log record says ${JSON.stringify(question)} was cancelled`);
      }
    });
  } finally {
    if (context) await context.close();
    if (server && !stopped) {
      try {
        await stopServe(server, tmp);
      } finally {
        server.log.end();
      }
    }
    await new Promise((r) => llm.srv.close(r));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
