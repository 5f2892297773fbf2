// common.js — helpers shared by the viewer's pages: the JSON API, elements,
// number formats, the tooltip, and window.__drawn (what each page drew, for
// the browser test and for anyone who scripts the page).
'use strict';

const TS = {};
window.__drawn = { page: null, pending: 0, errors: [] };

// GET an API path; rejects with the server's message on a non-200 answer.
TS.api = async function (path, signal) {
  window.__drawn.pending++;
  try {
    const r = await fetch(path, { signal });
    const body = await r.json();
    if (!r.ok) throw new Error(body.error || `${r.status} ${r.statusText}`);
    return body;
  } finally {
    window.__drawn.pending--;
  }
};

// el('div', {class: 'x', onclick: f}, child, 'text', …)
TS.el = function (tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'text') e.textContent = v;
    else if (k === 'style') e.style.cssText = v; // CSSOM: allowed by the page's CSP
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? '' : v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
};

// A number as a table shows it: integers grouped, reals to 4 significant digits.
TS.fmt = function (v) {
  if (v === null || v === undefined) return '';
  if (typeof v !== 'number') return String(v);
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return Math.abs(v) >= 1000 ? v.toFixed(0) : Number(v.toPrecision(4)).toString();
};

TS.showError = function (where, e) {
  if (e && e.name === 'AbortError') return;
  window.__drawn.errors.push(String(e && e.message || e));
  where.append(TS.el('p', { class: 'error', text: String(e && e.message || e) }));
};

// The tooltip: lines of "key value" at the mouse.
TS.tip = {
  show(ev, lines) {
    const t = document.getElementById('tip');
    t.textContent = lines.join('\n');
    t.style.display = 'block';
    const x = Math.min(ev.clientX + 14, window.innerWidth - t.offsetWidth - 4);
    const y = Math.min(ev.clientY + 14, window.innerHeight - t.offsetHeight - 4);
    t.style.left = `${x}px`;
    t.style.top = `${y}px`;
  },
  hide() { document.getElementById('tip').style.display = 'none'; },
};

// The frames' colours, as `tessera timeline` draws them.
TS.palette = ['#8fb8de', '#f4b183', '#a9d18e', '#f19c99', '#c5b0d5', '#d9bfae', '#f7b6d2',
  '#c7c7c7', '#dbdb8d', '#9edae5'];

// The page's URL state: read and replace (no new history entry per zoom step).
TS.query = () => new URLSearchParams(location.search);
TS.setQuery = function (params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== null && v !== undefined && v !== '') q.set(k, v);
  const s = q.toString();
  history.replaceState(null, '', location.pathname + (s ? `?${s}` : ''));
};

// Cycles with a k/M suffix for axis labels.
TS.cycles = function (c) {
  if (Math.abs(c) >= 1e6) return `${Number((c / 1e6).toPrecision(4))}M`;
  if (Math.abs(c) >= 1e4) return `${Number((c / 1e3).toPrecision(4))}k`;
  return String(Number(c.toPrecision(6)));
};

// A step of 1, 2 or 5 × 10^k so that `span` holds about `n` of them.
TS.niceStep = function (span, n) {
  const raw = span / Math.max(1, n), p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
};
