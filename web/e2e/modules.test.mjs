// Unit tests of the UI's DOM-free modules (SSE parsing, CSV/TSV, sorting,
// chart detection). Run: node --test web/e2e/
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { SSEParser, readEvents } from '../static/sse.js';
import { chartSpec, csvField, formatCell, formatSQL, isDateLike, sortRows, toCSV, toTSV } from '../static/format.js';
import { niceTicks } from '../static/chart.js';

test('SSEParser splits events across chunk boundaries and line endings', () => {
  const cases = [
    {
      name: 'one chunk, LF',
      chunks: ['event: gathering\ndata: {"stage":"gathering"}\n\n'],
      want: [{ event: 'gathering', data: '{"stage":"gathering"}' }],
    },
    {
      name: 'CRLF split inside the line ending',
      chunks: ['event: done\r', '\ndata: {"a":1}\r\n\r', '\n'],
      want: [{ event: 'done', data: '{"a":1}' }],
    },
    {
      name: 'multi-line data, comment, no event name',
      chunks: [': keep-alive\n\ndata: a\ndata: b\n', '\n'],
      want: [{ event: 'message', data: 'a\nb' }],
    },
    {
      name: 'field without space, two events',
      chunks: ['event:retry\ndata:{"attempt":2}\n\nevent: executing\ndata: {}\n\n'],
      want: [{ event: 'retry', data: '{"attempt":2}' }, { event: 'executing', data: '{}' }],
    },
    {
      name: 'unterminated last event is flushed at end',
      chunks: ['event: error\ndata: {"error":{}}'],
      want: [{ event: 'error', data: '{"error":{}}' }],
    },
  ];
  for (const c of cases) {
    const p = new SSEParser();
    const got = c.chunks.flatMap((ch) => p.push(ch)).concat(p.end());
    assert.deepEqual(got, c.want, c.name);
  }
});

test('readEvents decodes a byte stream with a split multi-byte character', async () => {
  const bytes = new TextEncoder().encode('event: done\ndata: {"q":"café"}\n\n');
  const cut = bytes.indexOf(0xc3) + 1; // inside "é"
  const body = new ReadableStream({
    start(ctrl) {
      ctrl.enqueue(bytes.slice(0, cut));
      ctrl.enqueue(bytes.slice(cut));
      ctrl.close();
    },
  });
  const got = [];
  await readEvents(body, (ev) => got.push(ev));
  assert.deepEqual(got, [{ event: 'done', data: '{"q":"café"}' }]);
});

test('csvField quotes only when needed, doubling quotes', () => {
  const cases = [
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    [' padded', '" padded"'],
    [null, ''],
    [12.5, '12.5'],
  ];
  for (const [in_, want] of cases) assert.equal(csvField(in_), want, JSON.stringify(in_));
});

test('toCSV and toTSV render header and rows', () => {
  const cols = ['region', 'note', 'total'];
  const rows = [['North', 'a,"b"', 10.5], ['South', 'tab\there', null]];
  assert.equal(toCSV(cols, rows), 'region,note,total\r\nNorth,"a,""b""",10.5\r\nSouth,tab\there,\r\n');
  assert.equal(toTSV(cols, rows), 'region\tnote\ttotal\nNorth\ta,"b"\t10.5\nSouth\ttab here\t\n');
});

test('sortRows sorts numbers numerically and keeps nulls last', () => {
  const rows = [['b', 10], ['a', null], ['c', 9], ['d', 100]];
  assert.deepEqual(sortRows(rows, 1, 1).map((r) => r[0]), ['c', 'b', 'd', 'a']);
  assert.deepEqual(sortRows(rows, 1, -1).map((r) => r[0]), ['d', 'b', 'c', 'a']);
  assert.deepEqual(sortRows([['item 10'], ['item 9']], 0, 1).map((r) => r[0]), ['item 9', 'item 10']);
  assert.deepEqual(rows.map((r) => r[0]), ['b', 'a', 'c', 'd'], 'input left unsorted');
});

test('isDateLike accepts months, days and timestamps only', () => {
  for (const v of ['2026-11', '2026-11-02', '2026-11-02 10:00:00', '2026-11-02T10:00:00Z']) assert.ok(isDateLike(v), v);
  for (const v of ['2026', '2026-13', 'North', '11/02/2026', 2026]) assert.ok(!isDateLike(v), String(v));
});

test('chartSpec picks bars, lines or nothing', () => {
  const cases = [
    { name: 'regions → bars', cols: ['region', 'total'], rows: [['North', 1], ['South', 2]], want: { kind: 'bar', label: 0, series: [1] } },
    { name: 'months → line', cols: ['month', 'revenue'], rows: [['2026-01', 1], ['2026-02', 2]], want: { kind: 'line', label: 0, series: [1] } },
    { name: 'ids dropped when a measure exists', cols: ['product_id', 'product_name', 'revenue'], rows: [[1, 'A', 5]], want: { kind: 'bar', label: 1, series: [2] } },
    { name: 'single number → none', cols: ['count'], rows: [[3]], want: null },
    { name: 'no numeric column → none', cols: ['a', 'b'], rows: [['x', 'y']], want: null },
    { name: 'no rows → none', cols: ['region', 'total'], rows: [], want: null },
    { name: 'series of another magnitude dropped', cols: ['month', 'revenue', 'orders', 'cost'], rows: [['2026-01', 20000, 300, 9000], ['2026-02', 25000, 310, 9500]], want: { kind: 'line', label: 0, series: [1, 3] } },
    { name: 'nulls tolerated', cols: ['region', 'total'], rows: [['North', null], ['South', 2]], want: { kind: 'bar', label: 0, series: [1] } },
  ];
  for (const c of cases) assert.deepEqual(chartSpec(c.cols, c.rows), c.want, c.name);
});

test('niceTicks covers the range with round steps', () => {
  assert.deepEqual(niceTicks(0, 95), [0, 20, 40, 60, 80, 100]);
  assert.deepEqual(niceTicks(-3, 7), [-4, -2, 0, 2, 4, 6, 8]);
  assert.deepEqual(niceTicks(0, 0), [0, 1]);
  const t = niceTicks(0, 1234567);
  assert.ok(t[0] <= 0 && t[t.length - 1] >= 1234567, `ticks ${t}`);
});

test('formatSQL breaks clauses onto lines outside quotes and subqueries', () => {
  const cases = [
    {
      name: 'clauses',
      in: "SELECT region, SUM(total_amount) AS t FROM sales WHERE sale_date >= date('now', 'start of year') GROUP BY region ORDER BY t DESC LIMIT 5",
      want: "SELECT region, SUM(total_amount) AS t\nFROM sales\nWHERE sale_date >= date('now', 'start of year')\nGROUP BY region\nORDER BY t DESC\nLIMIT 5",
    },
    {
      name: 'keywords in strings and subqueries untouched',
      in: "SELECT 'a from b' AS x FROM t JOIN u ON t.id = u.id WHERE id IN (SELECT id FROM v WHERE y = \"where\")",
      want: "SELECT 'a from b' AS x\nFROM t\nJOIN u ON t.id = u.id\nWHERE id IN (SELECT id FROM v WHERE y = \"where\")",
    },
    { name: 'already multi-line', in: 'SELECT 1\nFROM t', want: 'SELECT 1\nFROM t' },
    { name: 'empty', in: '', want: '' },
  ];
  for (const c of cases) assert.equal(formatSQL(c.in), c.want, c.name);
});

test('formatCell groups numbers and keeps amounts aligned', () => {
  assert.equal(formatCell(null), 'NULL');
  assert.equal(formatCell('North'), 'North');
  const en = new Intl.NumberFormat().format(1234) === '1,234';
  if (en) {
    assert.equal(formatCell(968145), '968,145');
    assert.equal(formatCell(968145, true), '968,145.00');
    assert.equal(formatCell(1234.5), '1,234.50');
  }
  assert.equal(formatCell(0.125), '0.125');
});
