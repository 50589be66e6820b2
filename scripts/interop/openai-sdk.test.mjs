// The official OpenAI Node SDK (npm `openai`, pinned in package.json) against
// talk2tables' OpenAI-compatible endpoints, with `serve` running the offline
// generator over both MCP servers as stdio children: models, an answer,
// streaming, a declined question as a normal assistant message (200,
// finish_reason stop — chat front ends show HTTP errors as failures, and
// some retry them) and a real failure (a wrong API key) as an error.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import OpenAI from 'openai';

import { startServe, stopServe, writeStackConfig } from '../testlib.mjs';

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = process.env.T2T_BIN || path.join(root, 'bin', 'talk2tables');
const out = process.env.T2T_TEST_OUTPUT || path.join(root, 'test-output');
const KEY = 'sdk-test-key';

test('the OpenAI Node SDK talks to talk2tables', { timeout: 180_000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 't2t-openai-sdk-'));
  const db = path.join(dir, 'sales.db');
  execFileSync(bin, ['gen-data', '--db', db, '--rows', '2000', '--as-of', '2026-06-30']);
  const cfg = writeStackConfig(dir, {
    bin, db, catalog: path.join(root, 'testdata', 'sales_catalog.json'), llm: '  provider: builtin',
  });
  fs.appendFileSync(cfg, 'http:\n  api_keys_env: T2T_SDK_KEYS\n');
  fs.mkdirSync(out, { recursive: true });
  const server = await startServe({ bin, cfg, logFile: path.join(out, 'openai-sdk-serve.log'), env: { T2T_SDK_KEYS: KEY } });
  t.after(async () => {
    await stopServe(server, dir);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const client = new OpenAI({ baseURL: server.base + 'v1', apiKey: KEY, maxRetries: 0 });

  await t.test('models lists talk2tables', async () => {
    const ids = [];
    for await (const m of client.models.list()) ids.push(m.id);
    assert.deepEqual(ids, ['talk2tables']);
  });

  await t.test('a question is answered with a markdown table', async () => {
    const res = await client.chat.completions.create({
      model: 'talk2tables', messages: [{ role: 'user', content: 'total revenue by region' }],
    });
    const choice = res.choices[0];
    assert.equal(choice.finish_reason, 'stop');
    assert.equal(choice.message.role, 'assistant');
    assert.match(choice.message.content, /```sql\n/);
    assert.match(choice.message.content, /\| --- \|/);
    for (const region of ['East', 'North', 'South', 'West']) assert.match(choice.message.content, new RegExp(region));
  });

  await t.test('streaming assembles the same kind of answer', async () => {
    const stream = await client.chat.completions.create({
      model: 'talk2tables', stream: true, messages: [{ role: 'user', content: 'number of orders by status' }],
    });
    let text = '';
    let finish = null;
    for await (const chunk of stream) {
      const c = chunk.choices[0];
      if (!c) continue;
      text += c.delta?.content ?? '';
      finish = c.finish_reason ?? finish;
    }
    assert.equal(finish, 'stop');
    assert.match(text, /completed/);
  });

  await t.test('a declined question is a normal answer, not an error', async () => {
    for (const stream of [false, true]) {
      const messages = [{ role: 'user', content: 'why did revenue drop last month' }];
      let text = '';
      let finish = null;
      if (stream) {
        for await (const chunk of await client.chat.completions.create({ model: 'talk2tables', stream, messages })) {
          const c = chunk.choices[0];
          if (!c) continue;
          text += c.delta?.content ?? '';
          finish = c.finish_reason ?? finish;
        }
      } else {
        const res = await client.chat.completions.create({ model: 'talk2tables', messages });
        text = res.choices[0].message.content;
        finish = res.choices[0].finish_reason;
      }
      assert.equal(finish, 'stop', `stream ${stream}`);
      assert.ok(text.startsWith('**I could not answer that.**'), `stream ${stream}: ${text}`);
    }
  });

  await t.test('a real failure stays an error', async () => {
    const wrong = new OpenAI({ baseURL: server.base + 'v1', apiKey: 'not-the-key', maxRetries: 0 });
    await assert.rejects(
      wrong.chat.completions.create({ model: 'talk2tables', messages: [{ role: 'user', content: 'total revenue' }] }),
      (err) => err instanceof OpenAI.AuthenticationError && err.status === 401,
    );
  });
});
