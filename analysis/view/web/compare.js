// compare.js — the Compare page, /compare/A/B?from=&to=: the two runs'
// parameters that differ and figures side by side, and their timelines on
// one time axis (zoom or pan one, the other follows).
'use strict';

TS.comparePage = async function (app, a, b) {
  const [cmp, ra, rb] = await Promise.all([TS.api(`/api/compare/${a}/${b}`),
    TS.api(`/api/run/${a}`), TS.api(`/api/run/${b}`)]);
  document.title = `Tessera — runs ${a} and ${b}`;
  document.getElementById('where').textContent = `run ${a} and run ${b} compared`;
  window.__drawn.page = 'compare';
  const byId = id => cmp.runs.find(r => r.run_id === id) || cmp.runs[0];
  const A = byId(Number(a)), B = byId(Number(b));
  const t = TS.el('table', { id: 'compare-table' });
  t.append(TS.el('tr', {}, TS.el('th', { class: 'text', text: '' }),
    TS.el('th', {}, TS.el('a', { href: `/run/${a}`, text: `run ${a}` })),
    TS.el('th', {}, TS.el('a', { href: `/run/${b}`, text: `run ${b}` })), TS.el('th', { text: 'B − A' })));
  for (const k of ['status', ...(('program' in A) ? ['program'] : []), ...cmp.params, ...cmp.figures]) {
    const va = A[k], vb = B[k];
    const diff = typeof va === 'number' && typeof vb === 'number' ? vb - va : '';
    t.append(TS.el('tr', {}, TS.el('td', { class: 'text', text: k }),
      TS.el('td', { text: TS.fmt(va) }), TS.el('td', { text: TS.fmt(vb) }), TS.el('td', { text: TS.fmt(diff) })));
  }
  app.replaceChildren(TS.el('h2', { text: 'Parameters that differ, then the figures' }), t);
  const endC = r => Math.ceil(r.run.end_ps / r.run.period_ps);
  const both = Math.max(endC(ra), endC(rb));
  window.__drawn.compare = { runs: [Number(a), Number(b)], end_cycles: [A.end_cycles, B.end_cycles] };
  if (!ra.tasks.length || !rb.tasks.length) {
    app.append(TS.el('p', { class: 'note', text: 'One of the runs has no tasks recorded (level summary): no timelines.' }));
    return;
  }
  if (ra.run.period_ps !== rb.run.period_ps)
    app.append(TS.el('p', { class: 'note', text: 'The runs have different clock periods: the axis is in each run\'s cycles.' }));
  const q = TS.query();
  const bar = TS.el('div', { class: 'controls' });
  app.append(TS.el('h2', { text: 'Timelines on one time axis' }), bar);
  const lines = [];
  const follow = src => (f, to) => {
    for (const l of lines) if (l !== src) l.setWindow(f, to, true);
    TS.setQuery({ from: f, to });
  };
  for (const r of [ra, rb]) {
    const holder = TS.el('div', { style: 'margin-bottom:8px' });
    app.append(holder);
    const tl = new TS.Timeline(holder, r, { title: `run ${r.run.run_id}: ends at cycle ${TS.fmt(endC(r))}` });
    tl.endC = both; // one axis: the longer run's end
    lines.push(tl);
  }
  lines.forEach(l => { l.opts.onWindow = follow(l); });
  bar.append(TS.el('button', { id: 'zoom-in', text: 'Zoom in', onclick: () => lines[0].zoom(0.5) }),
    TS.el('button', { id: 'zoom-out', text: 'Zoom out', onclick: () => lines[0].zoom(2) }),
    TS.el('button', { id: 'whole', text: 'Whole runs', onclick: () => lines[0].setWindow(0, both) }));
  window.__drawn.timelines = lines.map(l => l.drawn);
  const from = Number(q.get('from') || 0), to = Number(q.get('to') || both);
  lines.forEach(l => l.setWindow(from, to, true));
};
