// talk2tables web UI: ask a question, watch progress, read the SQL and the
// result (table + chart), edit and re-run the SQL, watch the MCP servers.

import { readEvents } from './sse.js';
import { chartSpec, formatCell, formatSQL, isNumber, sortRows, toCSV, toTSV } from './format.js';
import { renderChart } from './chart.js';

const $ = (id) => document.getElementById(id);
const STAGES = ['gathering', 'generating', 'validating', 'executing'];
const STAGE_TEXT = {
  gathering: 'Gathering resources from the MCP servers…',
  generating: 'Generating SQL…',
  validating: 'Validating the SQL…',
  executing: 'Running the query…',
};
// The sections that show an answer: hidden while a question runs, shown
// again if the user stops it.
const ANSWER_SECTIONS = ['answer', 'result', 'details'];
const MAX_RENDERED_ROWS = 2000;
const HEALTH_EVERY_MS = 15000;

const state = {
  columns: [],
  rows: [], // as received
  view: [], // as displayed (sorted)
  sort: { col: -1, dir: 1 },
  controller: null, // the running question's AbortController, null when none runs
  previous: [], // the answer sections shown before the running question
  title: '',
  question: '', // the question whose answer is shown (what "Save" verifies)
  verifiedOn: false, // the server keeps verified questions (GET api/verified answers)
};

// ---- small DOM helpers ----------------------------------------------------

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k.startsWith('data-') || k.startsWith('aria-') || k === 'role' || k === 'title' || k === 'scope') e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children.flat()) if (c !== undefined && c !== null && c !== false) e.append(c);
  return e;
}

function setStatus(text) {
  $('status').textContent = text;
}

// ---- settings: API key, max rows, theme ---------------------------------------

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key, value) {
  try {
    if (value === null || value === '') localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* storage blocked: the setting lasts for this page only */
  }
}

function headers(extra = {}) {
  const hd = { ...extra };
  const key = $('api-key').value.trim();
  if (key) hd.Authorization = `Bearer ${key}`;
  return hd;
}

function maxRows() {
  const n = Number.parseInt($('max-rows').value, 10);
  return Number.isFinite(n) && n > 0 ? n : 500;
}

const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');

function effectiveTheme() {
  return document.documentElement.dataset.theme || (darkQuery.matches ? 'dark' : 'light');
}

function syncThemeButton() {
  const dark = effectiveTheme() === 'dark';
  const btn = $('theme-toggle');
  btn.setAttribute('aria-pressed', String(dark));
  btn.textContent = 'Dark mode';
  btn.title = dark ? 'Switch to light mode' : 'Switch to dark mode';
}

function initSettings() {
  $('api-key').value = stored('t2t-api-key') || '';
  $('api-key').addEventListener('change', () => {
    store('t2t-api-key', $('api-key').value.trim());
    refreshHealth();
  });
  const mr = stored('t2t-max-rows');
  if (mr) $('max-rows').value = mr;
  $('max-rows').addEventListener('change', () => store('t2t-max-rows', String(maxRows())));

  syncThemeButton();
  $('theme-toggle').addEventListener('click', () => {
    const next = effectiveTheme() === 'dark' ? 'light' : 'dark';
    document.documentElement.dataset.theme = next;
    store('t2t-theme', next);
    syncThemeButton();
  });
  darkQuery.addEventListener('change', syncThemeButton);
}

// ---- errors -------------------------------------------------------------------

/** readError turns a failed response into {message, code, request_id, result}. */
async function readError(res) {
  const rid = res.headers.get('X-Request-ID') || '';
  let body = null;
  try {
    body = await res.json();
  } catch {
    /* not JSON */
  }
  return errorFrom(body, rid, res.status);
}

function errorFrom(body, rid = '', status = 0) {
  const e = body && typeof body === 'object' ? body.error : null;
  if (e && typeof e === 'object') {
    return { message: e.message || 'the request failed', code: e.code || '', hint: e.hint || '', request_id: e.request_id || rid, result: body.result || null };
  }
  if (typeof e === 'string') return { message: e, code: '', request_id: rid, result: null };
  const msg = status === 401
    ? 'this server requires an API key: enter it under Settings'
    : `the server answered with HTTP ${status || 'error'}`;
  return { message: msg, code: '', request_id: rid, result: null };
}

// declineCode is the error code of a question the generator declined: not a
// failure of the system, so it reads as an answer, with how to rephrase.
const declineCode = 'question_declined';

function showError(err) {
  const box = $('error');
  const declined = err.code === declineCode;
  box.classList.toggle('declined', declined);
  box.replaceChildren(
    h('h2', {}, declined ? 'I could not answer that' : 'Something went wrong'),
    h('p', { class: 'error-message' }, capitalize(err.message)),
    err.hint ? h('p', { class: 'decline-hint' }, h('strong', {}, 'Try: '), err.hint.replace(/^try:\s*/i, '')) : '',
    err.code || err.request_id
      ? h('p', { class: 'hint' },
        err.code ? h('span', {}, 'Code ', h('code', {}, err.code)) : '',
        err.code && err.request_id ? ' · ' : '',
        err.request_id ? h('span', {}, 'Request id ', h('code', { class: 'request-id' }, err.request_id)) : '')
      : '',
  );
  box.hidden = false;
  setStatus(declined ? 'Not answered: see why below.' : 'Failed: see the error below.');
  if (err.result) showAnswer(err.result, false);
}

function clearError() {
  $('error').hidden = true;
  $('error').replaceChildren();
}

function capitalize(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

// ---- asking a question --------------------------------------------------------------

function resetProgress() {
  $('progress-card').hidden = false;
  for (const li of $('stages').children) {
    li.className = '';
    li.removeAttribute('aria-current');
  }
  $('retries').replaceChildren();
}

function markStage(stage) {
  const idx = STAGES.indexOf(stage);
  if (idx < 0) return;
  [...$('stages').children].forEach((li, i) => {
    li.className = i < idx ? 'done' : i === idx ? 'active' : '';
    if (i === idx) li.setAttribute('aria-current', 'step');
    else li.removeAttribute('aria-current');
  });
  setStatus(STAGE_TEXT[stage]);
}

/** finishStages ends the progress display: outcome is 'done', 'failed' or 'stopped'. */
function finishStages(outcome) {
  for (const li of $('stages').children) {
    li.removeAttribute('aria-current');
    if (outcome === 'done') li.className = 'done';
    else if (li.className === 'active') li.className = outcome;
  }
}

function parseJSON(s) {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}

/** progressOf reads a progress event's data, whatever its key casing. */
function progressOf(ev) {
  const d = parseJSON(ev.data) || {};
  return {
    stage: d.stage || d.Stage || ev.event,
    attempt: d.attempt ?? d.Attempt ?? 0,
    category: d.category || d.Category || '',
    message: d.message || d.Message || '',
  };
}

function onProgress(p) {
  if (p.stage === 'retry') {
    // The retry event carries the number of the attempt about to start; the
    // one that failed is the one before it.
    const next = Number(p.attempt) || 0;
    const failed = next > 1 ? `Attempt ${next - 1} failed` : 'An attempt failed';
    const what = `${failed}${p.message ? `: ${p.message}` : ''}. Asking the generator to repair it${next > 1 ? ` (attempt ${next})` : ''}.`;
    $('retries').append(h('li', { 'data-category': p.category || null }, p.category ? h('span', { class: 'cat' }, p.category) : '', ' ', what));
    markStage('generating');
    setStatus(p.category ? `${what} (${p.category})` : what);
    return;
  }
  markStage(p.stage);
}

/** setRunning shows whether a question is running: Ask off and Stop on, or the reverse. */
function setRunning(running) {
  $('ask-btn').disabled = running;
  $('stop-btn').hidden = !running;
  $('progress-card').setAttribute('aria-busy', String(running));
}

/**
 * abortRunning aborts the running question, if any, and reports whether one
 * ran. Its handlers see that it is no longer state.controller and leave the
 * page alone from then on.
 */
function abortRunning() {
  const c = state.controller;
  if (!c) return false;
  state.controller = null;
  c.abort();
  return true;
}

/** stop is the Stop button (and Escape): abort the question, keep what was shown before it. */
function stop() {
  const hadFocus = document.activeElement === $('stop-btn');
  if (!abortRunning()) return;
  finishStages('stopped');
  for (const id of state.previous) $(id).hidden = false;
  setRunning(false);
  setStatus('Stopped.');
  // The Stop button just disappeared: keep keyboard focus in the same place.
  if (hadFocus) $('ask-btn').focus();
}

async function ask(question) {
  question = question.trim();
  if (!question) {
    showError({ message: 'type a question first, or pick one of the examples' });
    $('question').focus();
    return;
  }
  // One question at a time: a new one aborts the running one first, so two
  // streams never write progress into the page together.
  if (!abortRunning()) state.previous = ANSWER_SECTIONS.filter((id) => !$(id).hidden);
  const controller = new AbortController();
  state.controller = controller;
  const current = () => state.controller === controller;
  // release ends this question's turn once its answer or error is in: a Stop
  // clicked while the stream closes must not turn the answer into "Stopped.".
  const release = () => {
    if (!current()) return;
    state.controller = null;
    setRunning(false);
  };
  clearError();
  state.question = question;
  // A new question starts from a clean slate: no stale answer under a new error.
  for (const id of ANSWER_SECTIONS) $(id).hidden = true;
  resetProgress();
  markStage('gathering');
  setRunning(true);
  const started = performance.now();
  let finished = false;
  try {
    const res = await fetch('api/query', {
      method: 'POST',
      headers: headers({ 'Content-Type': 'application/json', Accept: 'text/event-stream' }),
      body: JSON.stringify({ question, max_rows: maxRows() }),
      signal: controller.signal,
    });
    if (!res.ok) {
      finished = true;
      const err = await readError(res);
      if (!current()) return;
      finishStages('failed');
      showError(err);
      return;
    }
    const rid = res.headers.get('X-Request-ID') || '';
    const type = res.headers.get('Content-Type') || '';
    if (!type.includes('text/event-stream')) {
      // A server (or proxy) that ignores Accept answers with plain JSON.
      finished = true;
      const r = await res.json();
      if (current()) done(r, rid, started);
      return;
    }
    await readEvents(res.body, (ev) => {
      if (finished || state.controller !== controller) return;
      switch (ev.event) {
        case 'done': {
          finished = true;
          release();
          const r = parseJSON(ev.data);
          if (r) done(r, rid, started);
          else showError({ message: 'the server sent an unreadable answer; try again', request_id: rid });
          break;
        }
        case 'error': {
          finished = true;
          release();
          finishStages('failed');
          showError(errorFrom(parseJSON(ev.data), rid));
          break;
        }
        default:
          onProgress(progressOf(ev));
      }
    });
    if (!finished && current()) {
      finished = true;
      finishStages('failed');
      showError({ message: 'the connection closed before the answer arrived; try again', request_id: rid });
    }
  } catch (err) {
    // Aborted (stopped, or replaced by a newer question): that code already
    // updated the page.
    if (!current()) return;
    finishStages('failed');
    showError({ message: `the server could not be reached (${err.message}); check that talk2tables is running` });
  } finally {
    release();
  }
}

function done(r, rid, started) {
  if (!r.success) {
    finishStages('failed');
    showError({ message: r.error || 'the question could not be answered', request_id: rid, result: r });
    return;
  }
  finishStages('done');
  showAnswer(r, true);
  const ms = performance.now() - started;
  const took = ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
  const n = r.result ? r.result.row_count : 0;
  const tries = (r.attempts || []).length;
  const repaired = tries > 1 ? ` after ${tries} attempts` : '';
  setStatus(`Answered in ${took}${repaired}: ${n} row${n === 1 ? '' : 's'}.`);
}

// ---- the answer: explanation, entities, SQL, attempts, metadata ---------------------------

function showAnswer(r, withResult) {
  $('details').hidden = false;
  $('explanation').textContent = r.explanation || '';
  $('sql').value = formatSQL(r.sql || (r.attempts && r.attempts.length ? r.attempts[r.attempts.length - 1].sql : ''));
  fitRows($('sql'));

  const chips = [];
  for (const [phrase, cols] of Object.entries(r.resolved_entities || {})) {
    for (const [col, val] of Object.entries(cols || {})) {
      chips.push(h('li', { class: 'chip' },
        h('span', { class: 'phrase' }, phrase), ' → ', h('code', {}, col), ' = ', h('strong', {}, String(val))));
    }
  }
  $('entities').replaceChildren(...chips);
  $('entities-wrap').hidden = chips.length === 0;
  const assumptions = (r.assumptions || []).filter((a) => typeof a === 'string' && a.trim() !== '');
  $('assumptions').replaceChildren(...assumptions.map((a) => h('li', {}, a)));
  $('assumptions-wrap').hidden = assumptions.length === 0;
  renderVerifiedBadge(r.verified);
  $('answer').hidden = !r.explanation && chips.length === 0 && assumptions.length === 0 && !r.verified;
  resetSave();

  renderAttempts(r.attempts || []);
  renderMeta(r.metadata || {}, r.attempts || [], r.success);
  if (withResult && r.result) showResult(r.result, r.query || 'Result');
  else if (!withResult) $('result').hidden = true;
}

function renderAttempts(attempts) {
  const failed = attempts.filter((a) => a.error);
  const wrap = $('attempts-wrap');
  wrap.hidden = failed.length === 0;
  if (failed.length === 0) return;
  wrap.open = true;
  $('attempts-summary').textContent = `Attempts: ${attemptsText(attempts, !attempts[attempts.length - 1].error)}`;
  $('attempts').replaceChildren(...attempts.map((a, i) => h('li', { class: a.error ? 'failed' : 'ok' },
    h('div', { class: 'attempt-head' },
      h('strong', {}, `#${i + 1}`), ' ',
      a.error ? h('span', { class: 'cat' }, a.category || 'UNKNOWN_ERROR') : h('span', { class: 'cat ok' }, 'OK'),
      ' ', h('span', { class: 'hint' }, `${a.duration_ms ?? 0} ms`)),
    a.error ? h('p', { class: 'attempt-error' }, a.error) : '',
    a.sql ? h('pre', {}, h('code', {}, formatSQL(a.sql))) : '')));
}

/** attemptsText summarises attempts: "1", "2 (1 failed, recovered)", "3 (3 failed)". */
function attemptsText(attempts, success) {
  const failed = attempts.filter((a) => a.error).length;
  if (failed === 0) return String(attempts.length);
  return `${attempts.length} (${failed} failed${success ? ', recovered' : ''})`;
}

function renderMeta(m, attempts, success) {
  const rows = [];
  const add = (k, v) => {
    if (v !== undefined && v !== null && v !== '') rows.push(h('div', {}, h('dt', {}, k), h('dd', {}, v)));
  };
  add('Generator', m.generator ? m.generator + (m.fallback ? ' (fallback)' : '') : '');
  if (attempts.length > 0) add('Attempts', attemptsText(attempts, success));
  if (typeof m.execution_time === 'number') add('Time', `${m.execution_time.toFixed(m.execution_time < 1 ? 3 : 2)} s`);
  add('Database', m.executor);
  pickExecutor(m.executor);
  add('Servers used', (m.mcp_servers_used || []).join(', '));
  add('Servers missing', (m.missing_servers || []).join(', '));
  add('Resource cache', m.cache);
  if (typeof m.confidence === 'number' && m.confidence > 0) add('Confidence', `${Math.round(m.confidence * 100)}%`);
  if (m.usage) add('Tokens', `${m.usage.total_tokens} (${m.usage.prompt_tokens} prompt + ${m.usage.completion_tokens} completion)`);
  if (m.timestamp) {
    const d = new Date(m.timestamp);
    add('At', Number.isNaN(d.getTime()) ? m.timestamp : d.toLocaleString());
  }
  $('meta').replaceChildren(...rows);
}

/** fitRows sizes a textarea to its text (6 to 20 lines); the user can still resize it. */
function fitRows(ta) {
  const lines = ta.value.split('\n').reduce((n, l) => n + Math.max(1, Math.ceil(l.length / 90)), 0);
  ta.rows = Math.min(20, Math.max(6, lines + 1));
}

// ---- verified questions ------------------------------------------------------------------

/** renderVerifiedBadge shows who verified the question that answered, and when, with a link to it. */
function renderVerifiedBadge(v) {
  const badge = $('verified-badge');
  badge.hidden = !v;
  if (!v) {
    badge.replaceChildren();
    return;
  }
  const at = new Date(v.at);
  const when = Number.isNaN(at.getTime()) ? v.at : at.toLocaleDateString();
  const subs = (v.substituted || []).map((s) => `${s.to} for ${s.from}`).join(', ');
  badge.replaceChildren('✓ ', h('a', { href: `verified.html#entry-${v.id}` }, `Verified question #${v.id}`),
    ` · verified by ${v.by} on ${when}`, subs ? ` · with ${subs}` : '');
  badge.title = `Answered with the SQL verified for "${v.question}"`;
}

/** resetSave shows the save row for the answer on screen (when the server keeps verified questions). */
function resetSave() {
  $('save-row').hidden = !state.verifiedOn || !state.question;
  $('save-verified').disabled = false;
  $('save-status').replaceChildren('Right answer? Save this SQL so that this question (and the same one for another value, year or number) is answered with it from now on.');
}

/** probeVerified finds out whether the server keeps verified questions (and this key may read them). */
async function probeVerified() {
  const res = await fetch('api/verified?limit=1', { headers: headers() }).catch(() => null);
  state.verifiedOn = !!(res && res.ok);
  $('verified-link').hidden = !state.verifiedOn;
  if (!$('details').hidden) resetSave();
}

/** saveVerified verifies the SQL in the editor as the answer to the question asked. */
async function saveVerified() {
  const sql = $('sql').value.trim();
  if (!state.question || !sql) {
    showError({ message: 'ask a question and have SQL in the box first: that pair is what is saved' });
    return;
  }
  clearError();
  $('save-verified').disabled = true;
  $('save-status').textContent = 'Running the SQL and saving it…';
  const body = { question: state.question, sql };
  if (!$('sql-server-wrap').hidden && $('sql-server').value) body.server = $('sql-server').value;
  try {
    const res = await fetch('api/verified', {
      method: 'POST',
      headers: headers({ 'Content-Type': 'application/json', 'X-Talk2tables-Client': 'ui' }),
      body: JSON.stringify(body),
    });
    const data = await res.json().catch(() => null);
    if (res.status === 409 && data && data.error && data.error.existing_id) {
      const id = data.error.existing_id;
      $('save-status').replaceChildren('This question is verified already: ',
        h('a', { href: `verified.html#entry-${id}` }, `verified question #${id}`), ' (change or delete it there).');
      return;
    }
    if (!res.ok) {
      $('save-status').textContent = 'Not saved: see the error above.';
      showError(errorFrom(data, res.headers.get('X-Request-ID') || '', res.status));
      return;
    }
    const e = data.entry;
    if (data.result) showResult(data.result, state.question);
    $('save-status').replaceChildren('Saved as ', h('a', { href: `verified.html#entry-${e.id}` }, `verified question #${e.id}`),
      e.slots && e.slots.length ? ` — ${e.slots.length} value${e.slots.length === 1 ? '' : 's'} a later question may change.` : '.');
    setStatus(`Saved: "${e.question}" is answered with this SQL from now on.`);
  } catch (err) {
    $('save-status').textContent = '';
    showError({ message: `the server could not be reached (${err.message}); check that talk2tables is running` });
  } finally {
    $('save-verified').disabled = false;
  }
}

// ---- running edited SQL -------------------------------------------------------------

/** sqlBody is the /api/sql request: the SQL, max rows and, when several databases are configured, the picked one. */
function sqlBody(sql) {
  const body = { sql, max_rows: maxRows() };
  if (!$('sql-server-wrap').hidden && $('sql-server').value) body.server = $('sql-server').value;
  return body;
}

/** setExecutors fills the SQL editor's database picker from /api/servers; it shows only with more than one. */
function setExecutors(servers) {
  const ids = servers.filter((s) => (s.capabilities || []).includes('execute_query')).map((s) => s.id);
  state.executors = ids;
  const sel = $('sql-server');
  const keep = sel.value;
  if (ids.join('\n') !== [...sel.options].map((o) => o.value).join('\n')) {
    sel.replaceChildren(...ids.map((id, i) => h('option', { value: id }, i === 0 ? `${id} (default)` : id)));
    if (ids.includes(keep)) sel.value = keep;
  }
  $('sql-server-wrap').hidden = ids.length < 2;
}

/** pickExecutor selects the database that answered, so edited SQL runs there again. */
function pickExecutor(id) {
  if (id && (state.executors || []).includes(id)) $('sql-server').value = id;
}

async function runSQL() {
  const sql = $('sql').value.trim();
  if (!sql) {
    showError({ message: 'the SQL box is empty: write a SELECT query or ask a question first' });
    $('sql').focus();
    return;
  }
  clearError();
  $('run-sql').disabled = true;
  setStatus('Running the SQL…');
  try {
    const res = await fetch('api/sql', {
      method: 'POST',
      headers: headers({ 'Content-Type': 'application/json' }),
      body: JSON.stringify(sqlBody(sql)),
    });
    if (!res.ok) {
      $('result').hidden = true;
      showError(await readError(res));
      return;
    }
    const data = await res.json();
    showResult(data, 'Edited SQL');
    const n = data.row_count ?? (data.rows || []).length;
    setStatus(`Ran the SQL: ${n} row${n === 1 ? '' : 's'}${typeof data.elapsed_ms === 'number' ? ` in ${data.elapsed_ms.toFixed(1)} ms` : ''}.`);
  } catch (err) {
    showError({ message: `the server could not be reached (${err.message}); check that talk2tables is running` });
  } finally {
    $('run-sql').disabled = false;
  }
}

// ---- the result: table + chart ---------------------------------------------------------

function showResult(data, title) {
  state.columns = data.columns || [];
  state.rows = data.rows || [];
  state.view = state.rows;
  state.sort = { col: -1, dir: 1 };
  state.title = title;
  $('result').hidden = false;

  const n = data.row_count ?? state.rows.length;
  const parts = [`${n} row${n === 1 ? '' : 's'}`];
  if (typeof data.elapsed_ms === 'number') parts.push(`${data.elapsed_ms.toFixed(1)} ms`);
  if (data.executor && (state.executors || []).length > 1) parts.push(`database ${data.executor}`);
  $('row-count').replaceChildren(parts.join(' · '),
    data.truncated ? h('span', { class: 'truncated' }, ` · truncated at max rows (${maxRows()}): refine the question or raise Max rows in Settings`) : '');

  renderTable();
  renderChartFor(title);
  $('copy-btn').disabled = state.columns.length === 0;
  $('csv-btn').disabled = state.columns.length === 0;
}

function renderChartFor(title) {
  const fig = $('chart');
  const spec = chartSpec(state.columns, state.rows);
  if (!spec) {
    fig.hidden = true;
    $('chart-svg').replaceChildren();
    return;
  }
  const names = spec.series.map((c) => state.columns[c]).join(', ');
  const caption = `${names} by ${state.columns[spec.label]}`;
  fig.hidden = false;
  const width = $('chart-svg').clientWidth || 720;
  state.chartWidth = width;
  const { svg, note } = renderChart({ title: `${title}: ${caption}`, columns: state.columns, rows: state.rows, spec, width });
  $('chart-title').textContent = `${capitalize(title)} — ${caption}`;
  $('chart-svg').replaceChildren(svg);
  $('chart-note').textContent = note;
  fig.hidden = false;
}

function renderTable() {
  const table = $('table');
  const numeric = state.columns.map((_, c) => state.rows.length > 0 && state.rows.every((r) => r[c] === null || isNumber(r[c])));
  const decimals = state.columns.map((_, c) => numeric[c] && state.rows.some((r) => isNumber(r[c]) && !Number.isInteger(r[c]) && Math.abs(r[c]) >= 1));
  const head = h('tr', {}, state.columns.map((name, c) => {
    const sorted = state.sort.col === c;
    const dir = sorted ? (state.sort.dir === 1 ? 'ascending' : 'descending') : 'none';
    const btn = h('button', { type: 'button', class: 'sort', title: `Sort by ${name}` },
      name, h('span', { class: 'sort-mark', 'aria-hidden': 'true' }, sorted ? (state.sort.dir === 1 ? ' ▲' : ' ▼') : ''));
    btn.addEventListener('click', () => sortBy(c));
    return h('th', { scope: 'col', 'aria-sort': dir, class: numeric[c] ? 'num' : '' }, btn);
  }));
  const shown = state.view.slice(0, MAX_RENDERED_ROWS);
  const body = shown.map((r) => h('tr', {}, state.columns.map((_, c) => {
    const v = r[c];
    const td = h('td', { class: v === null || v === undefined ? 'null' : numeric[c] ? 'num' : '' }, formatCell(v, decimals[c]));
    if (isNumber(v)) td.dataset.value = String(v);
    return td;
  })));
  const caption = state.rows.length === 0
    ? h('caption', {}, 'No rows matched.')
    : state.view.length > MAX_RENDERED_ROWS
      ? h('caption', {}, `Showing the first ${MAX_RENDERED_ROWS} of ${state.view.length} rows; Copy and Export CSV include all of them.`)
      : '';
  table.replaceChildren(...[caption, h('thead', {}, head), h('tbody', {}, body)].filter(Boolean));
}

function sortBy(col) {
  const dir = state.sort.col === col ? -state.sort.dir : 1;
  state.sort = { col, dir };
  state.view = sortRows(state.rows, col, dir);
  renderTable();
  const th = $('table').querySelectorAll('th')[col];
  th.querySelector('button').focus();
  setStatus(`Sorted by ${state.columns[col]}, ${dir === 1 ? 'ascending' : 'descending'}.`);
}

async function copyTSV() {
  const text = toTSV(state.columns, state.view);
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API needs a secure context; fall back to a hidden textarea.
    const ta = h('textarea', { value: text, class: 'offscreen', readOnly: true });
    document.body.append(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    if (!ok) {
      setStatus('Copy failed: this browser blocked clipboard access; use Export CSV instead.');
      return;
    }
  }
  setStatus(`Copied ${state.view.length} row${state.view.length === 1 ? '' : 's'} as tab-separated text.`);
}

function exportCSV() {
  // The BOM makes spreadsheet programs read UTF-8 correctly.
  const blob = new Blob(['\ufeff' + toCSV(state.columns, state.view)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  const a = h('a', { href: url, download: `talk2tables-${stamp}.csv`, class: 'offscreen' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  setStatus(`Exported ${state.view.length} row${state.view.length === 1 ? '' : 's'} as CSV.`);
}

// ---- server health -----------------------------------------------------------------------

function ago(ts) {
  const d = new Date(ts);
  if (!ts || Number.isNaN(d.getTime()) || d.getFullYear() < 2000) return 'never';
  const s = Math.max(0, Math.round((Date.now() - d.getTime()) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  return d.toLocaleString();
}

function list(label, items) {
  if (!items || items.length === 0) return '';
  return h('div', { class: 'kv' }, h('span', { class: 'k' }, label), ' ', h('span', {}, items.join(', ')));
}

function renderServer(s) {
  const st = s.state || 'unknown';
  return h('li', { class: `server state-${st}`, 'data-id': s.id, 'data-state': st },
    h('div', { class: 'server-head' },
      h('h3', {}, s.name || s.id),
      h('span', { class: `pill state-${st}` }, h('span', { class: 'dot', 'aria-hidden': 'true' }), st)),
    h('div', { class: 'hint' }, [s.id, s.transport, `priority ${s.priority}`, s.required ? 'required' : 'optional'].filter(Boolean).join(' · ')),
    list('Domains', s.domains),
    list('Capabilities', s.capabilities),
    list('Tools', s.tools),
    list('Resources', s.resources),
    h('div', { class: 'kv' }, h('span', { class: 'k' }, 'Last contact'), ' ', ago(s.last_contact)),
    s.last_error ? h('p', { class: 'server-error' }, s.last_error) : '');
}

let healthBusy = false;

async function refreshHealth() {
  if (healthBusy) return;
  healthBusy = true;
  try {
    const [hres, sres] = await Promise.all([
      fetch('health', { headers: headers() }).catch(() => null),
      fetch('api/servers', { headers: headers() }).catch(() => null),
    ]);
    if (hres) {
      const body = await hres.json().catch(() => null);
      if (body && body.generator) $('generator').textContent = `generator: ${body.generator}`;
      if (body && body.status) $('generator').dataset.status = body.status;
    }
    if (!sres) {
      $('health-status').textContent = 'The server cannot be reached.';
      return;
    }
    if (!sres.ok) {
      const err = await readError(sres);
      $('health-status').textContent = capitalize(err.message);
      return;
    }
    const body = await sres.json();
    const servers = Array.isArray(body) ? body : body.servers || [];
    $('servers').replaceChildren(...servers.map(renderServer));
    setExecutors(servers);
    const up = servers.filter((s) => s.state === 'connected').length;
    $('health-status').textContent = `${up} of ${servers.length} connected · updated ${new Date().toLocaleTimeString()}`;
  } finally {
    healthBusy = false;
  }
}

// ---- wiring --------------------------------------------------------------------------------

function init() {
  initSettings();
  const q = $('question');
  $('ask-form').addEventListener('submit', (e) => {
    e.preventDefault();
    ask(q.value);
  });
  q.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && state.controller) {
      e.preventDefault();
      stop();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey && !e.isComposing) {
      e.preventDefault();
      $('ask-form').requestSubmit();
    }
  });
  for (const b of document.querySelectorAll('button.example')) {
    b.addEventListener('click', () => {
      q.value = b.textContent;
      ask(q.value);
    });
  }
  $('stop-btn').addEventListener('click', stop);
  $('sql-form').addEventListener('submit', (e) => {
    e.preventDefault();
    runSQL();
  });
  $('sql').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      $('sql-form').requestSubmit();
    }
  });
  $('copy-btn').addEventListener('click', copyTSV);
  $('csv-btn').addEventListener('click', exportCSV);
  $('health-refresh').addEventListener('click', refreshHealth);
  $('save-verified').addEventListener('click', saveVerified);
  $('api-key').addEventListener('change', probeVerified);
  $('settings-form').addEventListener('submit', (e) => e.preventDefault());
  // Redraw the chart at the new width so its text stays readable.
  new ResizeObserver(() => {
    const w = $('chart-svg').clientWidth;
    if (!$('chart').hidden && state.chartWidth && Math.abs(w - state.chartWidth) > 40) renderChartFor(state.title);
  }).observe($('result'));

  refreshHealth();
  probeVerified();
  setInterval(() => {
    if (!document.hidden) refreshHealth();
  }, HEALTH_EVERY_MS);
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) refreshHealth();
  });
}

init();
