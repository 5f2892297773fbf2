// runs.js — the Runs page, /: every run of the database with the parameters
// that vary, its status, end cycles and key figures (`tessera report
// --compare`'s columns); filter, sort, choose columns, pick two to compare;
// and a sweep plot (x, y, group-by). State in the URL: ?q=&sort=&desc=&cols=
// &x=&y=&by=&pick=.
'use strict';

TS.runsPage = async function (app) {
  const d = await TS.api('/api/runs');
  document.title = `Tessera — ${d.db}`;
  document.getElementById('where').textContent = `${d.db}: ${d.runs.length} runs`;
  window.__drawn.page = 'runs';
  const q = TS.query();
  const all = ['run_id', ...(d.runs.some(r => 'program' in r) ? ['program'] : []), 'status',
    ...d.params, ...d.figures];
  const st = {
    q: q.get('q') || '', sort: q.get('sort') || 'run_id', desc: q.get('desc') === '1',
    cols: q.get('cols') ? q.get('cols').split(',').filter(c => all.includes(c)) : all.filter(c => c !== 'wall_s'),
    x: q.get('x') || d.params[0] || '', y: q.get('y') || 'end_cycles', by: q.get('by') || d.params[1] || '',
    pick: (q.get('pick') || '').split(',').filter(Boolean).map(Number),
  };
  const save = () => TS.setQuery({ q: st.q, sort: st.sort === 'run_id' ? '' : st.sort,
    desc: st.desc ? 1 : '', cols: st.cols.join(','), x: st.x, y: st.y, by: st.by, pick: st.pick.join(',') });
  app.replaceChildren();
  if (!d.runs.length) {
    app.append(TS.el('p', { class: 'note', text: 'The database holds no run yet (reload when a sweep has added some).' }));
    window.__drawn.runs = { rows: [] };
    return;
  }
  const filter = TS.el('input', { type: 'text', id: 'filter', value: st.q,
    placeholder: 'filter: text, or key=value, key>3, key<3 …' });
  const cmp = TS.el('button', { id: 'compare', text: 'Compare the two picked' });
  const tableBox = TS.el('div', { class: 'tablewrap' });
  const colpick = TS.el('details', {}, TS.el('summary', { text: 'Columns' }));
  const colbox = TS.el('div', { class: 'colpick' });
  colpick.append(colbox);
  for (const c of all) {
    const box = TS.el('input', { type: 'checkbox', 'data-col': c, checked: st.cols.includes(c) });
    box.addEventListener('change', () => {
      st.cols = all.filter(k => (k === c ? box.checked : st.cols.includes(k)));
      save(); draw();
    });
    colbox.append(TS.el('label', {}, box, c));
  }
  filter.addEventListener('input', () => { st.q = filter.value; save(); draw(); });
  cmp.addEventListener('click', () => {
    if (st.pick.length === 2) location.href = `/compare/${st.pick[0]}/${st.pick[1]}`;
  });
  app.append(TS.el('div', { class: 'controls' }, filter, cmp,
    TS.el('span', { class: 'note', text: 'tick two runs to compare them; click a run id to open it' })),
    colpick, tableBox, TS.el('h2', { text: 'Sweep plot' }));
  const plotBox = TS.el('div');
  app.append(plotBox);

  function matches(r) {
    for (const tok of st.q.trim().split(/\s+/).filter(Boolean)) {
      const m = tok.match(/^([\w.]+)(=|>|<)(.*)$/);
      if (m && m[1] in r) {
        const v = r[m[1]], w = isNaN(Number(m[3])) ? m[3] : Number(m[3]);
        if (m[2] === '=' ? String(v) !== String(w) : m[2] === '>' ? !(v > w) : !(v < w)) return false;
      } else if (!Object.values(r).some(v => String(v).toLowerCase().includes(tok.toLowerCase()))) return false;
    }
    return true;
  }

  function draw() {
    const rows = d.runs.filter(matches).sort((a, b) => {
      const x = a[st.sort], y = b[st.sort];
      const c = x === y ? 0 : x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
      return st.desc ? -c : c;
    });
    const t = TS.el('table', { id: 'runs' });
    t.append(TS.el('tr', {}, TS.el('th', { text: '⇄' }), ...st.cols.map(c => TS.el('th', {
      class: typeof d.runs[0][c] === 'string' ? 'text' : null,
      text: c + (st.sort === c ? (st.desc ? ' ▼' : ' ▲') : ''),
      onclick: () => { st.desc = st.sort === c ? !st.desc : false; st.sort = c; save(); draw(); },
    }))));
    for (const r of rows) {
      const pick = TS.el('input', { type: 'checkbox', 'data-run': r.run_id, checked: st.pick.includes(r.run_id) });
      pick.addEventListener('change', () => {
        st.pick = pick.checked ? [...st.pick, r.run_id].slice(-2) : st.pick.filter(x => x !== r.run_id);
        save(); draw();
      });
      t.append(TS.el('tr', {}, TS.el('td', {}, pick), ...st.cols.map(c => TS.el('td',
        { class: typeof r[c] === 'string' ? 'text' : null },
        c === 'run_id' ? TS.el('a', { href: `/run/${r.run_id}`, text: String(r.run_id) }) : TS.fmt(r[c])))));
    }
    tableBox.replaceChildren(t);
    cmp.disabled = st.pick.length !== 2;
    window.__drawn.runs = { rows: rows.map(r => r.run_id), cols: st.cols.slice(), sort: st.sort,
      desc: st.desc, pick: st.pick.slice() };
    TS.sweepPlot(plotBox, d, rows, st, save);
  }
  draw();
};

// The sweep plot: y against x, a line per value of the group-by parameter
// (and per program); the runs plotted are the table's (its filter applies).
TS.sweepPlot = function (box, d, rows, st, save) {
  const sel = (id, opts, value, blank) => {
    const s = TS.el('select', { id });
    if (blank) s.append(TS.el('option', { value: '', text: '(none)' }));
    for (const o of opts) s.append(TS.el('option', { value: o, text: o, selected: o === value }));
    s.addEventListener('change', () => { st[id.slice(5)] = s.value; save(); TS.sweepPlot(box, d, rows, st, save); });
    return s;
  };
  const keys = [...d.params, 'program', 'run_id'], numeric = d.figures;
  box.replaceChildren(TS.el('div', { class: 'controls' }, 'x ', sel('plot-x', keys, st.x),
    ' y ', sel('plot-y', numeric, st.y), ' group by ', sel('plot-by', d.params, st.by, true)));
  const W = Math.max(560, Math.min(1100, (box.clientWidth || 900) - 4)), H = 360;
  const cv = TS.el('canvas', { id: 'sweep' });
  const dpr = window.devicePixelRatio || 1;
  cv.width = W * dpr; cv.height = H * dpr;
  cv.style.width = `${W}px`; cv.style.height = `${H}px`;
  box.append(cv);
  const g = cv.getContext('2d');
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.font = '11px system-ui, sans-serif';
  const pts = rows.filter(r => r[st.y] !== null && r[st.y] !== undefined && st.x in r);
  const xs = [...new Set(pts.map(r => r[st.x]))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const numX = xs.every(v => typeof v === 'number');
  // a line per value of the group-by parameter, and per program when the runs
  // plotted are of several (their points are not one curve)
  const progs = new Set(pts.map(r => r.program)), base = p => String(p).split('/').pop();
  const groups = new Map();
  for (const r of pts) {
    const k = (st.by ? `${st.by} = ${r[st.by]}` : 'all') + (progs.size > 1 ? ` · ${base(r.program)}` : '');
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(r);
  }
  const L = 70, R = W - 230, T = 14, B = H - 40;
  const ys = pts.map(r => r[st.y]);
  const y0 = Math.min(0, ...ys), top = Math.max(...ys, y0 + 1), y1 = top + (top - y0) * 0.05;
  const x0 = numX ? Math.min(...xs) : 0, x1 = numX ? Math.max(...xs, x0 + 1) : Math.max(1, xs.length - 1);
  const X = v => L + ((numX ? v : xs.indexOf(v)) - x0) / (x1 - x0 || 1) * (R - L);
  const Y = v => B - (v - y0) / (y1 - y0) * (B - T);
  g.strokeStyle = '#999';
  g.strokeRect(L, T, R - L, B - T);
  g.fillStyle = '#333';
  g.textAlign = 'center';
  for (const v of xs) g.fillText(TS.fmt(v), X(v), B + 14);
  g.fillText(st.x, (L + R) / 2, B + 30);
  g.textAlign = 'right';
  const step = TS.niceStep(y1 - y0, 6);
  for (let v = Math.ceil(y0 / step) * step; v <= y1; v += step) g.fillText(TS.fmt(v), L - 4, Y(v) + 4);
  g.save(); g.translate(14, (T + B) / 2); g.rotate(-Math.PI / 2); g.textAlign = 'center';
  g.fillText(st.y, 0, 0); g.restore();
  g.textAlign = 'left';
  const drawn = { x: st.x, y: st.y, by: st.by, series: [] }, hits = [];
  let k = 0;
  for (const [name, rs] of groups) {
    const colour = TS.palette[k % TS.palette.length].replace(/^#/, '#'), dark = `hsl(${(k * 67) % 360},60%,40%)`;
    rs.sort((a, b) => (numX ? a[st.x] - b[st.x] : xs.indexOf(a[st.x]) - xs.indexOf(b[st.x])));
    g.strokeStyle = dark; g.fillStyle = dark;
    g.beginPath();
    rs.forEach((r, n) => (n ? g.lineTo(X(r[st.x]), Y(r[st.y])) : g.moveTo(X(r[st.x]), Y(r[st.y]))));
    g.stroke();
    for (const r of rs) {
      g.beginPath(); g.arc(X(r[st.x]), Y(r[st.y]), 3.5, 0, 7); g.fill();
      hits.push({ x: X(r[st.x]), y: Y(r[st.y]), r });
    }
    g.fillText(name, R + 10, T + 14 + 16 * k);
    drawn.series.push({ group: name, colour, points: rs.map(r => [r[st.x], r[st.y], r.run_id]) });
    k++;
  }
  window.__drawn.plot = drawn;
  cv.addEventListener('mousemove', ev => {
    const h = hits.find(p => Math.hypot(p.x - ev.offsetX, p.y - ev.offsetY) < 6);
    if (h) TS.tip.show(ev, [`run ${h.r.run_id}`, `${st.x} = ${h.r[st.x]}`, `${st.y} = ${TS.fmt(h.r[st.y])}`,
      ...(st.by ? [`${st.by} = ${h.r[st.by]}`] : []), '(click: open the run)']);
    else TS.tip.hide();
    cv.style.cursor = h ? 'pointer' : 'default';
  });
  cv.addEventListener('mouseleave', () => TS.tip.hide());
  cv.addEventListener('click', ev => {
    const h = hits.find(p => Math.hypot(p.x - ev.offsetX, p.y - ev.offsetY) < 6);
    if (h) location.href = `/run/${h.r.run_id}`;
  });
};
