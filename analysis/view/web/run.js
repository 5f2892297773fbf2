// run.js — the Run page, /run/N?from=&to=&task=F.C: the run's figures, its
// timeline (timeline.js) over the window in the URL, and the task panel: the
// clicked task's SM accesses in the window and its slot profile.
'use strict';

TS.runPage = async function (app, id) {
  const run = await TS.api(`/api/run/${id}`);
  const i = run.run, endC = Math.ceil(i.end_ps / i.period_ps);
  document.title = `Tessera — run ${id}`;
  document.getElementById('where').textContent =
    `run ${id}: ${i.program} — ${i.status}, level ${i.level}, ${TS.fmt(endC)} cycles`;
  window.__drawn.page = 'run';
  window.__drawn.run = { run_id: i.run_id, end_cycles: endC, tasks_total: run.tasks.length };
  app.replaceChildren();
  app.append(TS.figuresLine(run.figures));
  if (run.tasks.length === 0) {
    app.append(TS.el('p', { class: 'note', text: `Run ${id} was recorded at level ${i.level}: ` +
      'no frames or core tasks were recorded, so there is no timeline to draw.' }));
    return;
  }
  const q = TS.query();
  const from = Number(q.get('from') || 0), to = Number(q.get('to') || endC);
  let task = q.get('task');
  const bar = TS.el('div', { class: 'controls' });
  const where = TS.el('span', { class: 'note' });
  const panel = TS.el('div', { class: 'panel', id: 'task-panel', style: 'display:none' });
  const setUrl = () => TS.setQuery({ from: tl.from, to: tl.to, task });
  const tl = new TS.Timeline(TS.el('div'), run, {
    onWindow: (f, t) => {
      where.textContent = `cycles ${TS.fmt(f)} to ${TS.fmt(t)} of ${TS.fmt(endC)}`;
      setUrl();
      if (task) TS.taskPanel(panel, run, tl, task);
    },
    onTask: t => { task = `${t[0]}.${t[1]}`; setUrl(); TS.taskPanel(panel, run, tl, task); },
  });
  bar.append(
    TS.el('button', { id: 'zoom-in', text: 'Zoom in', onclick: () => tl.zoom(0.5) }),
    TS.el('button', { id: 'zoom-out', text: 'Zoom out', onclick: () => tl.zoom(2) }),
    TS.el('button', { id: 'pan-left', text: '◀', onclick: () => tl.setWindow(tl.from - (tl.to - tl.from) / 4, tl.to - (tl.to - tl.from) / 4) }),
    TS.el('button', { id: 'pan-right', text: '▶', onclick: () => tl.setWindow(tl.from + (tl.to - tl.from) / 4, tl.to + (tl.to - tl.from) / 4) }),
    TS.el('button', { id: 'whole', text: 'Whole run', onclick: () => tl.setWindow(0, endC) }),
    where,
    TS.el('span', { class: 'note', text: 'wheel: zoom · drag: pan · hover: details · click a task: its accesses' }));
  app.append(bar);
  const holder = TS.el('div');
  app.append(holder);
  holder.append(tl.canvas);
  tl.layout();
  app.append(TS.legend(i), panel);
  window.__drawn.timeline = tl.drawn;
  tl.setWindow(from, to);
  if (task) TS.taskPanel(panel, run, tl, task);
};

TS.figuresLine = function (figures) {
  const skip = new Set(['run_id', 'status', 'program']);
  const parts = Object.entries(figures || {}).filter(([k, v]) => !skip.has(k) && v !== null)
    .map(([k, v]) => TS.el('span', {}, TS.el('b', { text: `${k} ` }), TS.fmt(v)));
  const p = TS.el('div', { class: 'legend', id: 'figures' });
  p.append(...parts);
  return p;
};

TS.legend = function (info) {
  const item = (colour, text) => TS.el('span', {}, TS.el('span', { class: 'swatch', style: `background:${colour}` }), text);
  const l = TS.el('div', { class: 'legend' },
    item(TS.palette[0], 'task (core start to READY sent), colour by frame'),
    item('#c0392b', 'core waiting on the SM (request to answer)'),
    item('#1f4e79', 'bank busy (grant to free); shaded by share per pixel when many'),
    item('#6a3d9a', 'control frame taking effect'));
  if (info.simt)
    l.append(item('#2e7d32', 'warps issued'), item('#f9a825', 'eligible, not chosen'),
             item('#c62828', 'waiting, ld/st outstanding'), item('#90a4ae', 'waiting, other'));
  return l;
};

// The task panel: fields, accesses in the window, slot profile.
TS.taskPanel = async function (panel, run, tl, key) {
  const [frame, core] = key.split('.').map(Number);
  panel.style.display = 'block';
  const seq = (TS.taskPanel.seq = (TS.taskPanel.seq || 0) + 1);
  let d;
  try {
    d = await TS.api(`/api/run/${run.run.run_id}/task/${frame}/${core}?from=${tl.from}&to=${tl.to}`);
  } catch (e) {
    panel.replaceChildren();
    TS.showError(panel, e);
    return;
  }
  if (seq !== TS.taskPanel.seq) return;
  const t = d.task, p = run.run.period_ps, c = v => (v < 0 ? '—' : TS.fmt(v / p));
  const kv = TS.el('div', { class: 'kv' });
  const pairs = [['start (cycle)', c(t[2])], ['READY sent', c(t[3])], ['READY at TS', c(t[4])],
    ['instructions', TS.fmt(t[5])], ['SM accesses', TS.fmt(t[6])], ['SM wait (cycles)', c(t[7])],
    ['conflicts (cycles)', c(t[8])], ['complete', t[9] ? 'yes' : 'no']];
  for (const [k, v] of pairs) kv.append(TS.el('span', { text: k }), TS.el('span', { text: v }));
  const a = d.accesses;
  const rows = a.rows.map(r => r.map((v, k) => (k >= 6 && v !== null ? v / p : v)));
  const accTable = TS.table(['idx', 'sync', 'op', 'addr', 'bank', 'value', 'request', 'arrive',
    'grant', 'done'], rows);
  accTable.id = 'task-accesses';
  panel.replaceChildren(TS.el('h3', { text: `Task F${frame} on core ${core}` }), kv,
    TS.el('h3', { text: `Its SM accesses in cycles ${TS.fmt(tl.from)}–${TS.fmt(tl.to)}: ${TS.fmt(a.total)}` +
      (a.total > a.limit ? ` (the first ${a.limit} shown)` : '') + ' (times in cycles)' }),
    TS.el('div', { class: 'tablewrap' }, accTable));
  const prof = TS.el('div', { id: 'slot-profile' });
  if (d.slot_profile === null) {
    prof.append(TS.el('h3', { text: 'Slot profile' }), TS.el('p', { class: 'note', text:
      'This database has no slot_profile view (recorded by a Tessera without it), so where the ' +
      'task\'s cycles went per instruction is not known; the figures above are its totals' +
      (d.warp ? ', and below the warp\'s stall cycles and what was recorded per slot.' : '.') }));
  } else {
    const cols = d.slot_profile.length ? Object.keys(d.slot_profile[0]) : [];
    prof.append(TS.el('h3', { text: 'Slot profile: where its cycles went, per instruction' }),
      TS.table(cols, d.slot_profile.map(r => cols.map(k => r[k]))));
  }
  panel.append(prof);
  if (d.warp) { // a SIMT task: the warp's row, and what the file recorded per slot
    const w = d.warp.row, wk = TS.el('div', { class: 'kv', id: 'warp-row' });
    for (const k of ['lanes', 'resident_cycles', 'issued_cycles', 'stall_memory_cycles',
      'stall_execute_cycles', 'stall_issue_cycles', 'warp_instructions', 'divergent_branches',
      'mem_instructions', 'replays'])
      wk.append(TS.el('span', { text: k }), TS.el('span', { text: TS.fmt(w[k]) }));
    const cols = ['slot', 'op', 'issues', 'mean_lanes', 'mem', 'mean_latency_cycles', 'replays'];
    const slots = TS.table(cols, d.warp.slots.map(r => cols.map(k => r[k])));
    slots.id = 'warp-slots';
    panel.append(TS.el('h3', { text: 'The warp: where its cycles went' }), wk,
      TS.el('h3', { text: 'Per instruction slot (simt_issue at level events, simt_mem at level mem)' }), slots);
  }
  window.__drawn.task = { frame, core, from: tl.from, to: tl.to, accesses: a.rows.length,
    accesses_total: a.total, slot_profile: d.slot_profile ? d.slot_profile.length : null,
    warp_slots: d.warp ? d.warp.slots.map(r => [r.slot, r.issues]) : null,
    warp_mem: d.warp ? d.warp.slots.map(r => [r.slot, r.mem]) : null };
};

// A plain table of rows (arrays) under a header.
TS.table = function (head, rows) {
  const t = TS.el('table');
  t.append(TS.el('tr', {}, ...head.map(h => TS.el('th', { text: h }))));
  for (const r of rows)
    t.append(TS.el('tr', {}, ...r.map(v => TS.el('td', { class: typeof v === 'string' ? 'text' : null, text: TS.fmt(v) }))));
  return t;
};
