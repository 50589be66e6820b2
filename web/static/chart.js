// A small SVG chart: vertical (grouped) bars for categories, lines for dates.
// Colours come from CSS (classes .series-N), so light and dark mode just work.

import { compareValues, formatCompact, formatNumber } from './format.js';

const NS = 'http://www.w3.org/2000/svg';
const MAX_BARS = 40;
const MAX_POINTS = 1000;

function el(name, attrs = {}, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** niceTicks returns about count round tick values covering [min, max]. */
export function niceTicks(min, max, count = 5) {
  if (min === max) {
    if (min === 0) return [0, 1];
    min = Math.min(0, min);
    max = Math.max(0, max);
  }
  const raw = (max - min) / count;
  let step = 10 ** Math.floor(Math.log10(raw));
  const err = raw / step;
  if (err >= 7.5) step *= 10;
  else if (err >= 3.5) step *= 5;
  else if (err >= 1.5) step *= 2;
  const ticks = [];
  for (let t = Math.floor(min / step) * step; t <= max + step * 1e-9; t += step) ticks.push(+t.toPrecision(12));
  if (ticks[ticks.length - 1] < max) ticks.push(+(ticks[ticks.length - 1] + step).toPrecision(12));
  return ticks;
}

function short(s, n) {
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}

/**
 * renderChart draws rows as an SVG chart per spec (see format.chartSpec) and
 * returns {svg, note}; note says when only part of the data is drawn.
 */
export function renderChart({ title, columns, rows, spec, width = 720 }) {
  const W = Math.max(300, Math.min(1200, width));
  let data = rows.filter((r) => r[spec.label] !== null && r[spec.label] !== undefined);
  let note = '';
  if (spec.kind === 'line') data = [...data].sort((a, b) => compareValues(a[spec.label], b[spec.label]));
  const cap = spec.kind === 'line' ? MAX_POINTS : Math.min(MAX_BARS, Math.floor(W / 14));
  if (data.length > cap) {
    note = `Chart shows the first ${cap} of ${data.length} rows.`;
    data = data.slice(0, cap);
  }
  const labels = data.map((r) => String(r[spec.label]));
  const n = labels.length;
  const values = spec.series.flatMap((c) => data.map((r) => r[c]).filter((v) => typeof v === 'number'));
  const ticks = niceTicks(Math.min(0, ...values), Math.max(0, ...values));
  const lo = ticks[0];
  const hi = ticks[ticks.length - 1];

  const multi = spec.series.length > 1;
  const rotate = spec.kind === 'bar' ? n * 7 * Math.max(...labels.map((l) => Math.min(12, l.length))) > W * 0.8 : false;
  const top = multi ? 34 : 14;
  let left = 16 + Math.max(...ticks.map((t) => formatCompact(t).length)) * 7.5 + 20;
  // A rotated first label reaches left of its bar: keep it inside the chart.
  if (rotate) left = Math.max(left, Math.min(18, Math.max(...labels.map((l) => l.length))) * 6.2 * 0.77 - 8);
  const bottom = rotate ? 24 + Math.min(18, Math.max(...labels.map((l) => l.length))) * 5.6 : 52;
  const H = Math.round(Math.min(320, Math.max(220, W * 0.45))) + (rotate ? bottom - 52 : 0);
  const plotW = W - left - (spec.kind === 'line' ? 34 : 16);
  const plotH = H - top - bottom;
  const y = (v) => top + plotH - ((v - lo) / (hi - lo)) * plotH;

  const svg = el('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: `chart chart-${spec.kind}`,
    role: 'img',
    'aria-labelledby': 'chart-svg-title',
    preserveAspectRatio: 'xMidYMid meet',
  });
  svg.append(el('title', { id: 'chart-svg-title' }, title));

  const grid = el('g', { class: 'grid' });
  for (const t of ticks) {
    grid.append(el('line', { x1: left, x2: left + plotW, y1: y(t), y2: y(t), class: t === 0 ? 'zero' : '' }));
    grid.append(el('text', { x: left - 6, y: y(t) + 4, 'text-anchor': 'end', class: 'tick' }, formatCompact(t)));
  }
  svg.append(grid);

  // Axis titles.
  const yName = multi ? 'value' : columns[spec.series[0]];
  svg.append(el('text', { class: 'axis-label', transform: `translate(14 ${top + plotH / 2}) rotate(-90)`, 'text-anchor': 'middle' }, yName));
  svg.append(el('text', { class: 'axis-label', x: left + plotW / 2, y: H - 6, 'text-anchor': 'middle' }, columns[spec.label]));

  // X positions: bands for bars, evenly spaced points for lines.
  const band = plotW / n;
  const cx = (i) => (spec.kind === 'bar' ? left + band * (i + 0.5) : n === 1 ? left + plotW / 2 : left + (i * plotW) / (n - 1));
  const labelW = rotate ? 16 : 12 + 6.5 * Math.min(12, Math.max(...labels.map((l) => l.length)));
  const every = Math.max(1, Math.ceil(n / Math.max(1, Math.floor(plotW / labelW))));
  const xl = el('g', { class: 'x-labels' });
  labels.forEach((l, i) => {
    if (i % every !== 0) return;
    const t = rotate
      ? el('text', { transform: `translate(${cx(i)} ${top + plotH + 12}) rotate(-40)`, 'text-anchor': 'end', class: 'tick' }, short(l, 18))
      : el('text', { x: cx(i), y: top + plotH + 18, 'text-anchor': 'middle', class: 'tick' }, short(l, Math.max(6, Math.floor((spec.kind === 'bar' ? band * every : labelW) / 6.8))));
    t.append(el('title', {}, l));
    xl.append(t);
  });
  svg.append(xl);

  const plot = el('g', { class: 'plot' });
  spec.series.forEach((c, s) => {
    const name = columns[c];
    if (spec.kind === 'bar') {
      const inner = band * 0.75;
      const bw = Math.max(1, inner / spec.series.length);
      data.forEach((r, i) => {
        const v = r[c];
        if (typeof v !== 'number') return;
        const x = cx(i) - inner / 2 + s * bw;
        const y0 = y(Math.max(0, v));
        const rect = el('rect', { x, y: y0, width: Math.max(1, bw - 1), height: Math.max(1, Math.abs(y(v) - y(0))), class: `bar series-${s}` });
        rect.append(el('title', {}, `${labels[i]} · ${name}: ${formatNumber(v)}`));
        plot.append(rect);
      });
      return;
    }
    let d = '';
    data.forEach((r, i) => {
      const v = r[c];
      if (typeof v !== 'number') return;
      d += `${d === '' ? 'M' : 'L'}${cx(i).toFixed(1)},${y(v).toFixed(1)}`;
    });
    plot.append(el('path', { d, class: `line series-${s}` }));
    data.forEach((r, i) => {
      const v = r[c];
      if (typeof v !== 'number') return;
      const dot = el('circle', { cx: cx(i), cy: y(v), r: n > 60 ? 2 : 3.5, class: `point series-${s}` });
      dot.append(el('title', {}, `${labels[i]} · ${name}: ${formatNumber(v)}`));
      plot.append(dot);
    });
  });
  svg.append(plot);

  if (multi) {
    const legend = el('g', { class: 'legend' });
    let x = left;
    spec.series.forEach((c, s) => {
      legend.append(el('rect', { x, y: 10, width: 12, height: 12, class: `swatch series-${s}` }));
      legend.append(el('text', { x: x + 16, y: 20, class: 'tick' }, short(columns[c], 24)));
      x += 32 + Math.min(24, columns[c].length) * 7;
    });
    svg.append(legend);
  }
  return { svg, note };
}
