// Pure helpers for result sets: cell formatting, sorting, TSV/CSV and chart
// detection. No DOM access, so node can test them.

/** isNumber reports whether v is a finite JSON number. */
export function isNumber(v) {
  return typeof v === 'number' && Number.isFinite(v);
}

const DATE_RE = /^\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** isDateLike reports whether v looks like YYYY-MM, YYYY-MM-DD or an ISO timestamp. */
export function isDateLike(v) {
  return typeof v === 'string' && DATE_RE.test(v);
}

const intFmt = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const decFmt = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const smallFmt = new Intl.NumberFormat(undefined, { maximumSignificantDigits: 4 });
const compactFmt = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

/** formatNumber renders a number for people: grouped, 2 decimals for money-like values. */
export function formatNumber(v, decimals = false) {
  if (Number.isInteger(v) && !decimals) return intFmt.format(v);
  if (Math.abs(v) < 1) return smallFmt.format(v);
  return decFmt.format(v);
}

/** formatCompact renders an axis tick: 1.2K, 3.4M. */
export function formatCompact(v) {
  return Math.abs(v) < 1000 ? formatNumber(v) : compactFmt.format(v);
}

/**
 * formatCell renders any cell value for display; decimals shows whole
 * numbers with two decimals too, so a column of amounts lines up.
 */
export function formatCell(v, decimals = false) {
  if (v === null || v === undefined) return 'NULL';
  if (isNumber(v)) return formatNumber(v, decimals);
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** compareValues orders numbers numerically, strings naturally, nulls last. */
export function compareValues(a, b) {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  if (isNumber(a) && isNumber(b)) return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

/**
 * sortRows returns a sorted copy of rows by column index col; dir is 1 or -1.
 * Nulls stay last in both directions; ties keep their original order.
 */
export function sortRows(rows, col, dir) {
  return rows
    .map((r, i) => [r, i])
    .sort(([a, ai], [b, bi]) => {
      const an = a[col] === null || a[col] === undefined;
      const bn = b[col] === null || b[col] === undefined;
      if (an || bn) return an === bn ? ai - bi : an ? 1 : -1;
      return dir * compareValues(a[col], b[col]) || ai - bi;
    })
    .map(([r]) => r);
}

function plain(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** toTSV renders columns and rows as tab-separated text (tabs/newlines in cells become spaces). */
export function toTSV(columns, rows) {
  const cell = (v) => plain(v).replace(/[\t\r\n]+/g, ' ');
  return [columns, ...rows].map((r) => r.map(cell).join('\t')).join('\n') + '\n';
}

/** csvField quotes one CSV field per RFC 4180 when it needs it. */
export function csvField(v) {
  const s = plain(v);
  return /[",\r\n]|^\s|\s$/.test(s) ? '"' + s.replaceAll('"', '""') + '"' : s;
}

/** toCSV renders columns and rows as RFC 4180 CSV with CRLF line ends. */
export function toCSV(columns, rows) {
  return [columns, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/**
 * chartSpec decides whether and how to chart a result set. It returns null
 * when there is nothing sensible to draw, otherwise
 * {kind: 'line'|'bar', label: index, series: [index...]}.
 * The label column is the first date-like column, else the first text column;
 * series are the other columns whose non-null values are all numbers.
 */
export function chartSpec(columns, rows) {
  if (!columns || !rows || rows.length === 0 || columns.length < 2) return null;
  const kinds = columns.map((_, c) => {
    let num = 0, date = 0, text = 0;
    for (const r of rows) {
      const v = r[c];
      if (v === null || v === undefined) continue;
      if (isNumber(v)) num++;
      else if (isDateLike(v)) date++;
      else text++;
    }
    if (num > 0 && date === 0 && text === 0) return 'num';
    if (date > 0 && num === 0 && text === 0) return 'date';
    if (num + date + text === 0) return 'empty';
    return 'text';
  });
  let label = kinds.indexOf('date');
  const kind = label >= 0 ? 'line' : 'bar';
  if (label < 0) label = kinds.indexOf('text');
  if (label < 0) return null;
  const series = kinds.flatMap((k, c) => (k === 'num' && c !== label ? [c] : []));
  // Identifier columns (product_id) chart as nonsense: drop *_id when a real measure exists.
  const measures = series.filter((c) => !/(^|_)id$/i.test(columns[c]));
  let use = measures.length > 0 ? measures : series;
  if (use.length === 0) return null;
  // One shared axis: a series 10x smaller than the first would draw as a flat line.
  const peak = (c) => Math.max(...rows.map((r) => (isNumber(r[c]) ? Math.abs(r[c]) : 0)));
  const first = peak(use[0]);
  use = use.filter((c, i) => i === 0 || (peak(c) * 10 >= first && peak(c) <= first * 10));
  return { kind, label, series: use.slice(0, 4) };
}

/**
 * formatSQL puts each main clause of one-line SQL on its own line, for
 * reading and editing. It never touches quoted text, and leaves SQL that
 * already has line breaks as it is.
 */
export function formatSQL(sql) {
  if (typeof sql !== 'string' || sql.includes('\n')) return sql || '';
  // Split into quoted ('...', "...", `...`) and unquoted runs; only the latter change.
  const parts = sql.match(/'(?:[^']|'')*'?|"(?:[^"]|"")*"?|`[^`]*`?|[^'"`]+/g) || [];
  let depth = 0;
  return parts.map((p) => {
    if (/^['"`]/.test(p)) return p;
    let out = '';
    let last = 0;
    // Subqueries (inside parentheses) stay on their line.
    for (const m of p.matchAll(/[()]|\s+\b(?:FROM|WHERE|GROUP\s+BY|HAVING|ORDER\s+BY|LIMIT|UNION(?:\s+ALL)?|(?:LEFT\s+(?:OUTER\s+)?|INNER\s+|CROSS\s+)?JOIN)\b/gi)) {
      if (m[0] === '(') depth++;
      else if (m[0] === ')') depth = Math.max(0, depth - 1);
      else if (depth === 0) {
        out += p.slice(last, m.index) + '\n' + m[0].trimStart();
        last = m.index + m[0].length;
      }
    }
    return out + p.slice(last);
  }).join('');
}
