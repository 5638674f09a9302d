// The page of `report serve`: hand-written, no framework, no request
// outside this server. Charts are SVG, the replay a canvas.
'use strict';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg'; // a namespace name, not a request
const params = new URLSearchParams(location.search);

const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3'];
const DEFAULT_PAIRS = 6;

const state = {
  info: null, exp: 0, pairs: new Set(),
  sort: { col: -1, dir: 1 }, summary: null,
  replay: null, // the /api/replay response
  t: 0, frame: 0, playing: false, timer: null,
};

// ---- helpers -------------------------------------------------------------

async function getJSON(url) {
  const r = await fetch(url);
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

// val decodes the server's numbers: null is NaN, "inf" is +Infinity.
function val(x) {
  if (x === null || x === undefined) return NaN;
  if (x === 'inf') return Infinity;
  if (x === '-inf') return -Infinity;
  return x;
}

function fmt(x) {
  x = val(x);
  if (Number.isNaN(x)) return '–';
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '−∞';
  if (x !== 0 && (Math.abs(x) >= 1e7 || Math.abs(x) < 1e-3)) return x.toExponential(2);
  return Number(x.toPrecision(4)).toLocaleString('en-US', { maximumFractionDigits: 6 });
}

// tick formats an axis value compactly: 400k, 1.2M.
function tick(x) {
  const a = Math.abs(x);
  if (a >= 1e9) return Number((x / 1e9).toPrecision(3)) + 'G';
  if (a >= 1e6) return Number((x / 1e6).toPrecision(3)) + 'M';
  if (a >= 1e4) return Number((x / 1e3).toPrecision(3)) + 'k';
  return fmt(x);
}

function setStatus(msg, err) {
  const s = $('status');
  s.textContent = msg;
  s.classList.toggle('error', !!err);
}

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function sv(parent, tag, attrs, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

function pairStyle(label) {
  const ps = state.info.experiments[state.exp].pairs;
  const i = Math.max(0, ps.findIndex((p) => p.label === label));
  return { color: PALETTE[i % PALETTE.length], dash: DASHES[Math.floor(i / PALETTE.length) % DASHES.length] };
}

// Time scale for a span of the trace's time unit: real logs (seconds)
// read better in minutes, hours or days.
function timeScale(span) {
  const u = state.info.time_unit;
  if (u !== 's') return { div: 1, name: u };
  if (span > 5 * 86400) return { div: 86400, name: 'days' };
  if (span > 5 * 3600) return { div: 3600, name: 'hours' };
  if (span > 5 * 60) return { div: 60, name: 'minutes' };
  return { div: 1, name: 's' };
}

// ---- axes and charts -----------------------------------------------------

function niceTicks(lo, hi, n) {
  if (!(hi > lo)) { hi = lo + 1; }
  const raw = (hi - lo) / n;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) || 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

// logTicks: the powers of ten in [lo, hi], with 2 and 5 times them when
// the range spans fewer than three decades.
function logTicks(lo, hi) {
  const out = [];
  const ms = Math.log10(hi / lo) < 3 ? [1, 2, 5] : [1];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of ms) {
      const v = m * Math.pow(10, e);
      if (v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
    }
  }
  return out;
}

// chart draws series into an SVG: opts {xlabel, ylabel, logx, logy, xmin,
// xmax, ymin, ymax, xcats, xdiv, series: [{label, color, dash, step,
// points: [{x, y, lo, hi}]}], cursor, band, legend}. xdiv (default 1)
// divides x values for their tick labels, ticks falling on round values
// of x / xdiv (whole days, not 2.315 days). It returns the scales.
function chart(svg, opts) {
  clear(svg);
  const vb = svg.viewBox.baseVal;
  const W = vb.width, H = vb.height;
  const legendW = opts.legend === false ? 0 : 220;
  const m = { l: 62, r: 12 + legendW, t: 12, b: 40 };
  const pw = W - m.l - m.r, ph = H - m.t - m.b;
  let xmin = opts.xmin, xmax = opts.xmax, ymin = opts.ymin, ymax = opts.ymax;
  const xs = [], ys = [];
  for (const s of opts.series) for (const p of s.points) {
    if (Number.isFinite(p.x)) xs.push(p.x);
    for (const y of [p.y, p.lo, p.hi]) if (Number.isFinite(y)) ys.push(y);
  }
  if (xmin === undefined) xmin = xs.length ? Math.min(...xs) : 0;
  if (xmax === undefined) xmax = xs.length ? Math.max(...xs) : 1;
  const posY = ys.filter((y) => y > 0);
  if (opts.logy) {
    // A log y axis: from the power of ten at or below the smallest positive
    // value to the largest; values at or below it are drawn on the axis.
    ymin = posY.length ? Math.pow(10, Math.floor(Math.log10(Math.min(...posY)))) : 1;
    ymax = posY.length ? Math.max(...posY) : 10;
    if (!(ymax > ymin)) ymax = ymin * 10;
  }
  if (ymin === undefined) ymin = ys.length ? Math.min(0, ...ys) : 0;
  if (ymax === undefined) ymax = ys.length ? Math.max(...ys) : 1;
  if (!(xmax > xmin)) { const d = opts.xcats ? 0.5 : Math.max(Math.abs(xmin) * 0.2, 0.1); xmin -= d; xmax += d; }
  if (!(ymax > ymin)) ymax = ymin + 1;
  if (opts.padx) { const d = opts.xcats ? 0.5 : (xmax - xmin) * 0.05; xmin -= d; xmax += d; }
  if (!opts.fixedy) ymax = opts.logy ? ymax * 1.2 : ymax + (ymax - ymin) * 0.05;
  const lx = (x) => Math.log10(Math.max(x, xmin));
  const X = opts.logx
    ? (x) => m.l + (lx(x) - Math.log10(xmin)) / (Math.log10(xmax) - Math.log10(xmin)) * pw
    : (x) => m.l + (x - xmin) / (xmax - xmin) * pw;
  const Y = opts.logy
    ? (y) => m.t + ph - (Math.log10(Math.max(y, ymin)) - Math.log10(ymin)) / (Math.log10(ymax) - Math.log10(ymin)) * ph
    : (y) => m.t + ph - (y - ymin) / (ymax - ymin) * ph;
  const clampY = (y) => Math.min(m.t + ph, Math.max(m.t, Y(y)));
  // grid and axes
  const g = sv(svg, 'g', { class: 'axis' });
  const yt = opts.logy ? logTicks(ymin, ymax) : niceTicks(ymin, ymax, 5);
  for (const v of yt) {
    if (v < ymin || v > ymax) continue;
    sv(g, 'line', { x1: m.l, x2: m.l + pw, y1: Y(v), y2: Y(v), class: 'grid' });
    sv(g, 'text', { x: m.l - 6, y: Y(v) + 4, 'text-anchor': 'end' }, tick(v));
  }
  let xt;
  if (opts.xcats) xt = opts.xcats.map((_, i) => i);
  else if (opts.logx) xt = logTicks(xmin, xmax);
  else {
    const div = opts.xdiv || 1;
    xt = niceTicks(xmin / div, xmax / div, 6).map((v) => v * div);
  }
  for (const v of xt) {
    if (v < xmin - 1e-12 || v > xmax + 1e-12) continue;
    sv(g, 'line', { x1: X(v), x2: X(v), y1: m.t + ph, y2: m.t + ph + 4 });
    const label = opts.xcats ? opts.xcats[v] : tick(v / (opts.xdiv || 1));
    sv(g, 'text', { x: X(v), y: m.t + ph + 17, 'text-anchor': 'middle' }, label);
  }
  sv(g, 'line', { x1: m.l, x2: m.l + pw, y1: m.t + ph, y2: m.t + ph });
  sv(g, 'line', { x1: m.l, x2: m.l, y1: m.t, y2: m.t + ph });
  sv(g, 'text', { x: m.l + pw / 2, y: H - 6, 'text-anchor': 'middle' }, opts.xlabel || '');
  sv(g, 'text', { x: 14, y: m.t + ph / 2, 'text-anchor': 'middle', transform: `rotate(-90 14 ${m.t + ph / 2})` }, opts.ylabel || '');
  if (opts.band) {
    const a = Math.max(xmin, opts.band[0]), b = Math.min(xmax, opts.band[1]);
    if (b > a) sv(svg, 'rect', { x: X(a), y: m.t, width: Math.max(1, X(b) - X(a)), height: ph, fill: '#2b6cb0', 'fill-opacity': 0.15, class: 'band' });
  }
  // series
  const clip = 'clip' + Math.random().toString(36).slice(2);
  const defs = sv(svg, 'defs');
  const cp = sv(defs, 'clipPath', { id: clip });
  sv(cp, 'rect', { x: m.l, y: m.t, width: pw, height: ph });
  const body = sv(svg, 'g', { 'clip-path': `url(#${clip})` });
  opts.series.forEach((s) => {
    const pts = s.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
    let d = '';
    if (s.step) {
      // an empirical CDF: horizontal then vertical segments
      let py = 0;
      d = `M${X(xmin)},${Y(0)}`;
      for (const p of pts) { d += `H${X(p.x)}V${Y(p.y)}`; py = p.y; }
      d += `H${X(xmax)}`;
      void py;
    } else if (s.hv) {
      pts.forEach((p, i) => { d += (i ? `H${X(p.x)}V${Y(p.y)}` : `M${X(p.x)},${Y(p.y)}`); });
      if (pts.length) d += `H${X(xmax)}`;
    } else {
      pts.forEach((p, i) => { d += (i ? 'L' : 'M') + X(p.x) + ',' + Y(p.y); });
    }
    sv(body, 'path', { d, fill: 'none', stroke: s.color, 'stroke-width': s.width || 2, 'stroke-dasharray': s.dash || '', class: 'curve', 'data-label': s.label });
    if (!s.step && !s.hv) {
      for (const p of pts) {
        if (Number.isFinite(p.lo) && Number.isFinite(p.hi)) {
          const x = X(p.x);
          sv(body, 'path', { d: `M${x},${clampY(p.lo)}V${clampY(p.hi)}M${x - 4},${clampY(p.lo)}H${x + 4}M${x - 4},${clampY(p.hi)}H${x + 4}`, stroke: s.color, 'stroke-width': 1.2, fill: 'none', class: 'ci' });
        }
        sv(body, 'circle', { cx: X(p.x), cy: Y(p.y), r: 3, fill: s.color, class: 'point' });
      }
    }
  });
  if (opts.cursor !== undefined) {
    sv(svg, 'line', { x1: X(opts.cursor), x2: X(opts.cursor), y1: m.t, y2: m.t + ph, stroke: '#c00', 'stroke-width': 1.5, class: 'cursor' });
  }
  if (legendW) {
    let ly = m.t + 6;
    for (const s of opts.series) {
      sv(svg, 'line', { x1: W - legendW + 4, x2: W - legendW + 30, y1: ly, y2: ly, stroke: s.color, 'stroke-width': 2.5, 'stroke-dasharray': s.dash || '' });
      sv(svg, 'text', { x: W - legendW + 36, y: ly + 4 }, s.label.length > 30 ? s.label.slice(0, 29) + '…' : s.label);
      ly += 18;
      if (ly > H - 10) break;
    }
  }
  return { X, Y, m, pw, ph, xmin, xmax };
}

// ---- experiment, pairs ---------------------------------------------------

function currentExp() { return state.info.experiments[state.exp]; }

function buildExpSelect() {
  const s = $('exp');
  clear(s);
  state.info.experiments.forEach((e) => s.appendChild(el('option', { value: e.id }, `${e.name} (${e.machine})`)));
  s.value = state.exp;
  s.onchange = () => { state.exp = +s.value; loadExperiment(); };
}

function buildPairs() {
  const e = currentExp();
  const box = $('pair-choice');
  clear(box);
  state.pairs = new Set(e.pairs.slice(0, DEFAULT_PAIRS).map((p) => p.param));
  for (const p of params.getAll('pair')) if (e.pairs.some((q) => q.param === p)) state.pairs.add(p);
  e.pairs.forEach((p) => {
    const lab = el('label');
    const cb = el('input', { type: 'checkbox', value: p.param });
    cb.checked = state.pairs.has(p.param);
    cb.onchange = () => { if (cb.checked) state.pairs.add(p.param); else state.pairs.delete(p.param); drawCurves(); drawCDF(); };
    const sw = el('span', { class: 'swatch' });
    sw.style.background = pairStyle(p.label).color;
    lab.append(cb, sw, document.createTextNode(p.label));
    box.appendChild(lab);
  });
}

function pairQuery() {
  const ps = [...state.pairs];
  if (ps.length === 0) return null;
  return ps.map((p) => 'pair=' + encodeURIComponent(p)).join('&');
}

// ---- summary table -------------------------------------------------------

async function loadSummary() {
  state.summary = await getJSON(`/api/summary?exp=${state.exp}`);
  state.sort = { col: -1, dir: 1 };
  drawSummary();
  // ?sort=N[&desc=1] clicks header N as a reader would (once more for
  // descending)
  const n = params.get('sort');
  if (n !== null && !state.sortedFromURL) {
    state.sortedFromURL = true;
    for (let k = 0; k < (params.get('desc') === '1' ? 2 : 1); k++) {
      const th = $('summary-table').tHead.querySelector(`th[data-col="${+n}"]`);
      if (th) th.click();
    }
  }
}

function drawSummary() {
  const s = state.summary;
  const head = ['alloc', 'sched', s.point_by, 'reps', 'jobs'];
  const thead = $('summary-table').tHead, tbody = $('summary-table').tBodies[0];
  clear(thead); clear(tbody);
  const tr = el('tr');
  const ncols = head.length + s.columns.length;
  for (let i = 0; i < ncols; i++) {
    const name = i < head.length ? head[i] : s.columns[i - head.length].short;
    const th = el('th', { scope: 'col', 'data-col': i }, name);
    if (i < 3) th.classList.add('text');
    if (i >= head.length) {
      const c = s.columns[i - head.length];
      th.title = `${c.label}; ${c.lower ? 'lower' : 'higher'} is better; click to sort`;
    } else th.title = 'click to sort';
    if (state.sort.col === i) th.setAttribute('aria-sort', state.sort.dir > 0 ? 'ascending' : 'descending');
    th.onclick = () => {
      state.sort = { col: i, dir: state.sort.col === i ? -state.sort.dir : 1 };
      drawSummary();
    };
    tr.appendChild(th);
  }
  thead.appendChild(tr);
  const key = (r, i) => {
    switch (i) {
      case 0: return r.alloc; case 1: return r.sched;
      case 2: return s.point_by === 'load' ? val(r.load) : r.point;
      case 3: return r.reps; case 4: return r.jobs;
      default: return val(r.values[i - head.length].mean);
    }
  };
  const rows = s.rows.map((r, k) => ({ r, k }));
  if (state.sort.col >= 0) {
    const c = state.sort.col, d = state.sort.dir;
    rows.sort((a, b) => {
      const x = key(a.r, c), y = key(b.r, c);
      const nx = typeof x === 'number' && Number.isNaN(x), ny = typeof y === 'number' && Number.isNaN(y);
      if (nx !== ny) return nx ? 1 : -1; // undefined values last
      if (x < y) return -d;
      if (x > y) return d;
      return a.k - b.k;
    });
  }
  // the best value of each column at each point
  const best = {};
  s.rows.forEach((r) => r.values.forEach((v, j) => {
    const m = val(v.mean), c = s.columns[j], k = r.point + '\u0000' + j;
    if (!Number.isFinite(m)) return;
    if (!(k in best) || (c.lower ? m < best[k] : m > best[k])) best[k] = m;
  }));
  for (const { r } of rows) {
    const tr = el('tr');
    tr.append(el('td', { class: 'text' }, r.alloc), el('td', { class: 'text' }, r.sched), el('td', { class: 'text' }, r.point),
      el('td', {}, String(r.reps)), el('td', {}, String(r.jobs)));
    r.values.forEach((v, j) => {
      const td = el('td', {}, fmt(v.mean));
      if (Number.isFinite(val(v.half))) td.appendChild(el('span', { class: 'hw' }, ' ± ' + fmt(v.half)));
      if (val(v.mean) === best[r.point + '\u0000' + j] && s.rows.length > 1) td.classList.add('best');
      tr.appendChild(td);
    });
    tbody.appendChild(tr);
  }
  $('summary-note').textContent = `${s.name}: means over replications ± ${Math.round(s.level * 100)}% Student-t half-widths (none with one replication); jobs: total over replications; times in ${state.info.time_unit}. Bold: the best value at each ${s.point_by}. Click a header to sort.`;
}

// ---- curves --------------------------------------------------------------

function buildCurveMetric() {
  const s = $('curve-metric');
  clear(s);
  currentExp().metrics.forEach((m) => s.appendChild(el('option', { value: m.column }, m.name)));
  if (params.get('metric')) s.value = params.get('metric');
  s.onchange = () => { state.curvesAutoLog = true; drawCurves(); };
  $('curves-log').onchange = () => { state.curvesAutoLog = false; drawCurves(); };
  state.curvesAutoLog = true;
}

async function drawCurves() {
  const e = currentExp();
  const svg = $('curves');
  $('curves-title').textContent = e.sweep ? 'Metric vs offered load' : 'Metric by trace';
  const q = pairQuery();
  if (!q) { clear(svg); $('curves-note').textContent = 'No pair chosen.'; return; }
  const c = await getJSON(`/api/curves?exp=${state.exp}&metric=${encodeURIComponent($('curve-metric').value)}&${q}`);
  const series = c.curves.map((cv) => ({
    label: cv.pair.label, ...pairStyle(cv.pair.label),
    points: cv.points.map((p) => ({ x: val(p.x), y: val(p.mean), lo: val(p.mean) - val(p.half), hi: val(p.mean) + val(p.half) })),
  }));
  const sweep = c.point_by === 'load';
  // A log y axis, automatic past a 100× range (one pair, FCFS say, would
  // squash the others), or as the checkbox says once it was used.
  if (state.curvesAutoLog) $('curves-log').checked = c.log_suggested;
  const logy = $('curves-log').checked;
  chart(svg, { series, xlabel: c.x_label, ylabel: c.metric.label + (logy ? ', log scale' : ''), padx: true, logy, xcats: sweep ? undefined : c.points.map((p) => p.label) });
  svg.setAttribute('data-curves', String(series.length));
  svg.setAttribute('data-logy', String(logy));
  const reps = Math.max(0, ...c.curves.flatMap((cv) => cv.points.map((p) => p.n)));
  $('curves-note').textContent = reps > 1
    ? `Error bars: ${Math.round(c.level * 100)}% Student-t confidence intervals across up to ${reps} replications. ${c.metric.lower ? 'Lower' : 'Higher'} is better.`
    : `One replication per point: no confidence intervals. ${c.metric.lower ? 'Lower' : 'Higher'} is better.`;
}

// ---- CDFs ----------------------------------------------------------------

function buildCDFPoints() {
  const e = currentExp();
  const s = $('cdf-point');
  clear(s);
  e.points.forEach((p, i) => s.appendChild(el('option', { value: i }, p.label)));
  s.value = e.points.length - 1;
  $('cdf-point-label').textContent = e.sweep ? 'Load' : 'Trace';
  s.onchange = () => { state.cdfAutoLog = true; drawCDF(); };
  $('cdf-metric').onchange = () => { state.cdfAutoLog = true; drawCDF(); };
  $('cdf-log').onchange = () => { state.cdfAutoLog = false; drawCDF(); };
  state.cdfAutoLog = true;
}

async function drawCDF() {
  const e = currentExp();
  const svg = $('cdf');
  if (!e.has_jobs) { clear(svg); $('cdf-note').textContent = 'No jobs.parquet: no per-job distributions.'; return; }
  const q = pairQuery();
  if (!q) { clear(svg); $('cdf-note').textContent = 'No pair chosen.'; return; }
  const c = await getJSON(`/api/cdf?exp=${state.exp}&metric=${$('cdf-metric').value}&point=${$('cdf-point').value}&${q}`);
  if (state.cdfAutoLog) $('cdf-log').checked = c.log_suggested;
  const logx = $('cdf-log').checked;
  let xmax = val(c.p99);
  let xmin = 0;
  if (logx) {
    let pos = Infinity;
    for (const cv of c.curves) for (const x of cv.x) if (val(x) > 0) pos = Math.min(pos, val(x));
    xmin = Math.max(Number.isFinite(pos) ? pos : 1, xmax * 1e-6);
    if (!(xmax > xmin)) xmax = xmin * 10;
  }
  if (!(xmax > xmin)) xmax = xmin + 1;
  const series = c.curves.map((cv) => ({
    label: `${cv.pair.label} (${cv.n} jobs)`, ...pairStyle(cv.pair.label), step: true,
    points: cv.x.map((x, i) => ({ x: logx ? Math.max(val(x), xmin) : val(x), y: val(cv.y[i]) })),
  }));
  chart(svg, { series, xlabel: c.label + (logx ? ', log scale' : ''), ylabel: 'fraction of jobs ≤ x', logx, xmin, xmax, ymin: 0, ymax: 1, fixedy: true });
  svg.setAttribute('data-curves', String(series.length));
  $('cdf-note').textContent = `${e.sweep ? 'Load ' : 'Trace '}${c.point.label}: every row of jobs.parquet (warm-up jobs left out of the summary statistics included), pooled over the replications; x axis cut at the 99th percentile of all the pairs' jobs${logx ? `; log scale from ${fmt(xmin)} (smaller values, zero waits included, drawn there)` : ''}.`;
}

// ---- replay --------------------------------------------------------------

function buildRuns() {
  const e = currentExp();
  const s = $('run');
  clear(s);
  for (const id of e.runs) {
    const r = state.info.runs[id];
    const load = val(r.load) >= 0 ? `load ${fmt(r.load)}, ` : '';
    s.appendChild(el('option', { value: id }, `${r.alloc} / ${r.sched} — ${r.trace} (${load}rep ${r.rep}, ${r.jobs} jobs)`));
  }
  const want = params.get('run');
  if (want !== null && e.runs.includes(+want)) s.value = want;
  s.onchange = () => loadReplay();
}

async function loadReplay(t0, t1, keepPlaying) {
  const id = $('run').value;
  if (id === '' || id === undefined) return;
  const wasPlaying = state.playing && keepPlaying;
  pause();
  if (state.info.runs[+id].jobs === 0) {
    state.replay = null;
    $('machine-note').textContent = 'This run has no job rows (jobs.parquet absent or empty): nothing to replay.';
    return;
  }
  let url = `/api/replay?run=${id}`;
  if (t0 !== undefined) url += `&t0=${t0}`;
  if (t1 !== undefined) url += `&t1=${t1}`;
  const rp = await getJSON(url);
  state.replay = rp;
  rp.w0 = val(rp.window[0]); rp.w1 = val(rp.window[1]);
  rp.jobs.forEach((j) => { j.start = val(j.start); j.end = val(j.end); j.submit = val(j.submit); j.alloc = val(j.alloc); });
  rp.queueS = rp.steps.map(([t, q]) => ({ x: val(t), y: val(q) }));
  rp.busyS = rp.steps.map(([t, , b]) => ({ x: val(t), y: val(b) }));
  rp.scale = timeScale(rp.w1 - rp.w0);
  layoutMachine(rp);
  drawOverview();
  const more = rp.w1 < val(rp.span[1]);
  $('next-window').disabled = !more;
  $('prev-window').disabled = !(rp.w0 > val(rp.span[0]));
  const sc = timeScale(val(rp.span[1]) - val(rp.span[0]));
  $('replay-note').textContent = `${rp.machine.spec}, ${rp.run.alloc} / ${rp.run.sched}, trace ${rp.run.trace}, rep ${rp.run.rep}: ` +
    `window ${fmtT(rp.w0, sc)} to ${fmtT(rp.w1, sc)} of ${fmtT(val(rp.span[0]), sc)} to ${fmtT(val(rp.span[1]), sc)} ${sc.name}; ` +
    `${rp.jobs.length} of the run's ${rp.jobs_total} jobs run in it` +
    (rp.truncated ? ` (the window is cut to ${state.info.limits.replay_jobs} job starts; use the window buttons or the overview for the rest)` : '') +
    (rp.unplaced ? `; ${rp.unplaced} without a recorded placement` : '') + '.';
  seek(rp.w0);
  if (wasPlaying || (params.get('autoplay') === '1' && !state.autoplayed)) { state.autoplayed = true; play(); }
}

function fmtT(t, sc) { return fmt(t / sc.div); }

// layoutMachine sizes the canvas for the machine: a processor strip
// (flat), the W×H grid (mesh) or a grid of node addresses (cube).
function layoutMachine(rp) {
  const c = $('machine');
  const m = rp.machine;
  const L = { kind: m.kind, pad: 24, slices: !!m.slices };
  if (m.kind === 'mesh' || m.slices) {
    L.cols = m.width; L.rows = m.height;
    L.cell = Math.max(3, Math.floor(Math.min(640 / m.width, 560 / m.height)));
    L.cellW = L.cell; L.cellH = L.cell;
  } else if (m.kind === 'cube') {
    L.cols = 1 << Math.ceil(m.dim / 2); L.rows = 1 << Math.floor(m.dim / 2);
    L.cell = Math.max(4, Math.floor(Math.min(640 / L.cols, 480 / L.rows)));
    L.cellW = L.cell; L.cellH = L.cell;
  } else {
    L.cols = Math.min(m.procs, 256); L.rows = Math.ceil(m.procs / L.cols);
    L.cellW = 640 / L.cols; L.cellH = Math.max(28, Math.min(60, 240 / L.rows));
  }
  const w = Math.ceil(L.cols * L.cellW) + 2 * L.pad, h = Math.ceil(L.rows * L.cellH) + 2 * L.pad;
  const dpr = window.devicePixelRatio || 1;
  c.width = w * dpr; c.height = h * dpr;
  c.style.width = w + 'px'; c.style.height = h + 'px';
  c.parentElement.style.maxWidth = Math.max(w, 320) + 'px';
  L.dpr = dpr; L.w = w; L.h = h;
  rp.layout = L;
  const notes = {
    mesh: `The ${m.width}×${m.height} mesh, node (0, 0) at the lower left; each running job is one colour, a rectangle per submesh of its placement (several for a non-contiguous allocation), labelled with its job id where it fits.`,
    cube: `The ${1 << m.dim} nodes of the ${m.dim}-cube by address (row-major, ${L.cols} per row${m.dim <= 8 ? ', addresses in binary' : ''}); each running job's subcube is one colour.`,
    slices: `The ${m.procs} nodes of ${m.spec}: ${m.note}; each running job is one colour.`,
    flat: `The ${m.procs} processors in a strip (${L.cols} per row); each running job's processor ranges are one colour${rp.unplaced ? '; jobs without a recorded placement are stacked in start order after the placed ones (hatched)' : ''}.`,
  };
  $('machine-note').textContent = (m.slices ? notes.slices : notes[m.kind]) || notes.flat;
}

function jobColor(id) {
  const h = (id * 137.508) % 360;
  return `hsl(${h.toFixed(1)}, 55%, ${58 + (id % 3) * 6}%)`;
}

function drawMachine(t) {
  const rp = state.replay;
  const L = rp.layout;
  const c = $('machine');
  const ctx = c.getContext('2d');
  ctx.setTransform(L.dpr, 0, 0, L.dpr, 0, 0);
  ctx.clearRect(0, 0, L.w, L.h);
  const ox = L.pad, oy = L.pad;
  const gw = L.cols * L.cellW, gh = L.rows * L.cellH;
  ctx.fillStyle = '#fff';
  ctx.fillRect(ox, oy, gw, gh);
  // grid lines when cells are large enough
  if (L.cellW >= 6) {
    ctx.strokeStyle = '#e6e6e6'; ctx.lineWidth = 1;
    ctx.beginPath();
    for (let i = 0; i <= L.cols; i++) { const x = Math.round(ox + i * L.cellW) + 0.5; ctx.moveTo(x, oy); ctx.lineTo(x, oy + gh); }
    for (let j = 0; j <= L.rows; j++) { const y = Math.round(oy + j * L.cellH) + 0.5; ctx.moveTo(ox, y); ctx.lineTo(ox + gw, y); }
    ctx.stroke();
  }
  // node (flat/cube index) -> cell rectangle
  const cellOf = (n) => {
    const col = n % L.cols, row = Math.floor(n / L.cols);
    return [ox + col * L.cellW, oy + row * L.cellH];
  };
  let running = 0, busy = 0, stackAt = 0, rects = 0;
  ctx.font = '11px sans-serif'; ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
  const labels = [];
  for (const j of rp.jobs) {
    if (!(j.start <= t && t < j.end)) continue;
    running++;
    busy += j.alloc;
    const col = jobColor(j.id);
    ctx.fillStyle = col;
    ctx.strokeStyle = 'rgba(0,0,0,0.55)';
    ctx.lineWidth = 1;
    if ((L.kind === 'mesh' || L.slices) && j.pieces) {
      let big = null;
      for (const [x, y, w, h] of j.pieces) {
        // y = 0 is the bottom row
        const px = ox + x * L.cellW, py = oy + (L.rows - y - h) * L.cellH;
        ctx.fillRect(px, py, w * L.cellW, h * L.cellH);
        rects++;
        ctx.strokeRect(px + 0.5, py + 0.5, w * L.cellW - 1, h * L.cellH - 1);
        if (!big || w * h > big[2] * big[3]) big = [px, py, w * L.cellW, h * L.cellH];
      }
      if (big) labels.push([String(j.id), big]);
    } else if (j.ranges) {
      for (const [lo, hi] of j.ranges) {
        for (let n = lo; n <= hi;) {
          // a run of nodes within one row
          const row = Math.floor(n / L.cols);
          const end = Math.min(hi, (row + 1) * L.cols - 1);
          const [px, py] = cellOf(n);
          const w = (end - n + 1) * L.cellW;
          ctx.fillRect(px, py, w, L.cellH);
          rects++;
          ctx.strokeRect(px + 0.5, py + 0.5, Math.max(w - 1, 0.5), L.cellH - 1);
          n = end + 1;
        }
      }
    } else if (L.kind === 'flat') {
      // no placement: stacked after the placed jobs, hatched
      const n = Math.max(1, Math.round(j.alloc || j.procs));
      for (let k = stackAt; k < Math.min(stackAt + n, L.cols * L.rows);) {
        const row = Math.floor(k / L.cols);
        const end = Math.min(stackAt + n, (row + 1) * L.cols);
        const [px, py] = cellOf(k);
        ctx.fillRect(px, py, (end - k) * L.cellW, L.cellH);
        rects++;
        ctx.strokeStyle = 'rgba(0,0,0,0.3)';
        ctx.strokeRect(px + 0.5, py + 0.5, (end - k) * L.cellW - 1, L.cellH - 1);
        k = end;
      }
      stackAt += n;
    }
  }
  ctx.fillStyle = '#111';
  for (const [text, [x, y, w, h]] of labels) {
    if (w >= 8 * text.length && h >= 12) ctx.fillText(text, x + w / 2, y + h / 2);
  }
  if (L.kind === 'cube' && rp.machine.dim <= 8 && L.cell >= 8 * rp.machine.dim) {
    ctx.fillStyle = '#333'; ctx.font = '10px monospace';
    for (let n = 0; n < (1 << rp.machine.dim); n++) {
      const [px, py] = cellOf(n);
      ctx.fillText(n.toString(2).padStart(rp.machine.dim, '0'), px + L.cellW / 2, py + L.cellH / 2);
    }
  }
  // axes labels
  ctx.fillStyle = '#555'; ctx.font = '11px sans-serif';
  ctx.textAlign = 'left'; ctx.textBaseline = 'bottom';
  if (L.kind === 'mesh') {
    ctx.fillText('(0, 0)', ox, oy + gh + 14);
    ctx.textAlign = 'right';
    ctx.fillText(`(${L.cols - 1}, ${L.rows - 1})`, ox + gw, oy - 2);
  } else {
    ctx.fillText(L.kind === 'cube' ? 'node 0' : 'processor 0', ox, oy - 2);
  }
  return { running, busy, rects };
}

// the value of a step series at t
function stepAt(s, t) {
  let v = 0;
  for (const p of s) { if (p.x > t) break; v = p.y; }
  return v;
}

function drawSide(t) {
  const rp = state.replay;
  const sc = rp.scale;
  const mk = (s) => s.map((p) => ({ x: p.x, y: p.y }));
  const xdiv = sc.div;
  chart($('queue-chart'), { series: [{ label: 'queue', color: '#c05621', hv: true, points: mk(rp.queueS) }], xmin: rp.w0, xmax: rp.w1, ymin: 0, xlabel: `time (${sc.name})`, ylabel: 'jobs waiting', cursor: t, legend: false, xdiv });
  chart($('busy-chart'), { series: [{ label: 'busy', color: '#2b6cb0', hv: true, points: mk(rp.busyS) }], xmin: rp.w0, xmax: rp.w1, ymin: 0, ymax: rp.machine.procs, fixedy: true, xlabel: `time (${sc.name})`, ylabel: 'processors busy', cursor: t, legend: false, xdiv });
}

function drawOverview() {
  const rp = state.replay;
  const pts = rp.overview.map(([t, q]) => ({ x: val(t), y: val(q) }));
  const span = [val(rp.span[0]), val(rp.span[1])];
  const sc = timeScale(span[1] - span[0]);
  const svg = $('overview');
  const scales = chart(svg, { series: [{ label: 'queue (max per bin)', color: '#c05621', hv: true, points: pts, width: 1.2 }], xmin: span[0], xmax: span[1], ymin: 0, xlabel: `time (${sc.name})`, ylabel: 'waiting', band: [rp.w0, rp.w1], legend: false, xdiv: sc.div });
  svg.onclick = (ev) => {
    const r = svg.getBoundingClientRect();
    const x = (ev.clientX - r.left) * (svg.viewBox.baseVal.width / r.width);
    const t = scales.xmin + (x - scales.m.l) / scales.pw * (scales.xmax - scales.xmin);
    if (t >= span[0] && t < span[1]) loadReplay(t);
  };
}

function seek(t) {
  const rp = state.replay;
  if (!rp) return;
  state.t = Math.min(Math.max(t, rp.w0), rp.w1);
  const st = drawMachine(state.t);
  drawSide(state.t);
  state.frame++;
  const out = $('replay-time');
  const q = stepAt(rp.queueS, state.t);
  out.textContent = `t = ${fmtT(state.t, rp.scale)} ${rp.scale.name} · frame ${state.frame}`;
  out.setAttribute('data-t', String(state.t));
  out.setAttribute('data-frame', String(state.frame));
  out.setAttribute('data-running', String(st.running));
  out.setAttribute('data-rects', String(st.rects));
  out.setAttribute('data-queue', String(q));
  const span = rp.w1 - rp.w0;
  $('seek').value = span > 0 ? Math.round((state.t - rp.w0) / span * 1000) : 0;
  const dl = $('replay-stats');
  clear(dl);
  const procs = rp.machine.procs;
  for (const [k, v] of [['time', `${fmtT(state.t, rp.scale)} ${rp.scale.name}`], ['jobs running', st.running], ['jobs waiting', q],
    ['processors busy', `${fmt(st.busy)} of ${procs} (${fmt(100 * st.busy / procs)}%)`]]) {
    dl.append(el('dt', {}, k), el('dd', {}, String(v)));
  }
}

function advance() {
  const rp = state.replay;
  if (!rp) return;
  const span = rp.w1 - rp.w0;
  const secs = +$('speed').value;
  const t = state.t + span / (secs * 25);
  if (t >= rp.w1) {
    if (rp.w1 < val(rp.span[1])) { loadReplay(rp.w1, undefined, true); return; }
    seek(rp.w1);
    pause();
    return;
  }
  seek(t);
}

function play() {
  if (!state.replay || state.playing) return;
  if (state.t >= state.replay.w1 && state.replay.w1 >= val(state.replay.span[1])) seek(state.replay.w0);
  state.playing = true;
  state.timer = setInterval(advance, 40);
  $('play').textContent = 'Pause';
  $('replay-time').setAttribute('data-playing', 'true');
}

function pause() {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
  state.playing = false;
  $('play').textContent = 'Play';
  $('replay-time').setAttribute('data-playing', 'false');
}

function bindReplay() {
  $('play').onclick = () => (state.playing ? pause() : play());
  $('seek').oninput = () => {
    const rp = state.replay;
    if (rp) seek(rp.w0 + ($('seek').value / 1000) * (rp.w1 - rp.w0));
  };
  $('next-window').onclick = () => { if (state.replay) loadReplay(state.replay.w1); };
  $('prev-window').onclick = () => { if (state.replay) loadReplay(undefined, state.replay.w0); };
}

// ---- start ---------------------------------------------------------------

async function loadExperiment() {
  setStatus('loading…');
  buildPairs();
  buildCurveMetric();
  buildCDFPoints();
  buildRuns();
  try {
    await loadSummary();
    await drawCurves();
    await drawCDF();
    await loadReplay();
    setStatus(`${state.info.runs.length} runs · ${state.info.experiments.length} experiment(s)`);
    document.body.setAttribute('data-ready', 'true');
  } catch (err) {
    setStatus(err.message, true);
  }
}

async function main() {
  try {
    state.info = await getJSON('/api/info');
  } catch (err) {
    setStatus(err.message, true);
    return;
  }
  $('dir').textContent = state.info.dir + (state.info.version ? ` (schedlab ${state.info.version})` : '');
  const focus = params.get('focus');
  if (focus) for (const s of document.querySelectorAll('main > section')) if (s.id !== focus + '-section') s.classList.add('hidden');
  const e = +params.get('exp');
  state.exp = Number.isInteger(e) && e >= 0 && e < state.info.experiments.length ? e : 0;
  buildExpSelect();
  bindReplay();
  await loadExperiment();
}

main();
