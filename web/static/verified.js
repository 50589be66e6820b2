// talk2tables verified questions page: list, search and delete the
// questions analysts verified (GET/DELETE api/verified).

const $ = (id) => document.getElementById(id);

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k.startsWith('data-') || k.startsWith('aria-') || k === 'title' || k === 'id') e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children.flat()) if (c !== undefined && c !== null && c !== false) e.append(c);
  return e;
}

/** headers carries the API key the main page keeps in this browser. */
function headers() {
  let key = '';
  try {
    key = localStorage.getItem('t2t-api-key') || '';
  } catch {
    /* storage blocked */
  }
  return key ? { Authorization: `Bearer ${key}` } : {};
}

function showError(message) {
  const box = $('list-error');
  box.hidden = !message;
  box.replaceChildren(message ? h('p', { class: 'error-message' }, message) : '');
}

async function errorText(res) {
  const body = await res.json().catch(() => null);
  const e = body && body.error;
  if (e && typeof e === 'object' && e.message) return e.message;
  if (res.status === 401) return 'this server requires an API key: enter it under Settings on the main page';
  return `the server answered with HTTP ${res.status}`;
}

function when(ts) {
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? ts || '' : d.toLocaleString();
}

function row(e) {
  const del = h('button', { type: 'button', class: 'secondary small', 'data-id': String(e.id) }, 'Delete');
  del.addEventListener('click', () => remove(e));
  return h('tr', { id: `entry-${e.id}`, class: e.status, 'data-id': String(e.id) },
    h('td', {}, String(e.id)),
    h('td', {}, e.question),
    h('td', {}, h('pre', {}, h('code', {}, e.sql))),
    h('td', {}, e.database),
    h('td', {}, e.verified_by, h('br'), h('span', { class: 'hint' }, when(e.verified_at))),
    h('td', {}, h('span', { class: `status-pill ${e.status}`, title: e.stale_reason || '' }, e.status),
      e.stale_reason ? h('div', { class: 'hint' }, e.stale_reason) : ''),
    h('td', {}, String(e.use_count), e.last_used ? h('div', { class: 'hint' }, when(e.last_used)) : ''),
    h('td', {}, del));
}

async function load() {
  const params = new URLSearchParams({ limit: '1000' });
  const q = $('search').value.trim();
  if (q) params.set('q', q);
  if ($('status-filter').value) params.set('status', $('status-filter').value);
  $('list-status').textContent = 'Loading…';
  try {
    const res = await fetch(`api/verified?${params}`, { headers: headers() });
    if (!res.ok) {
      $('list-status').textContent = '';
      showError(await errorText(res));
      return;
    }
    showError('');
    const body = await res.json();
    const entries = body.entries || [];
    $('entries').tBodies[0].replaceChildren(...entries.map(row));
    $('list-status').textContent = entries.length === 0
      ? (q ? 'No verified question matches.' : 'No verified questions yet: ask a question on the main page and save its SQL.')
      : `${body.total} verified question${body.total === 1 ? '' : 's'}${entries.length < body.total ? ` (first ${entries.length} shown)` : ''}.`;
    const target = location.hash && document.getElementById(location.hash.slice(1));
    if (target) target.scrollIntoView({ block: 'center' });
  } catch (err) {
    $('list-status').textContent = '';
    showError(`the server could not be reached (${err.message}); check that talk2tables is running`);
  }
}

async function remove(e) {
  if (!window.confirm(`Delete verified question #${e.id}, "${e.question}"? Later questions will be answered without it.`)) return;
  const res = await fetch(`api/verified/${e.id}`, { method: 'DELETE', headers: headers() }).catch(() => null);
  if (!res) {
    showError('the server could not be reached; check that talk2tables is running');
    return;
  }
  if (!res.ok) {
    showError(await errorText(res));
    return;
  }
  $('list-status').textContent = `Deleted verified question #${e.id}.`;
  await load();
}

$('search-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  load();
});
$('status-filter').addEventListener('change', load);
load();
