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
  app.append(TS.legend(i, run.params), panel);
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

TS.legend = function (info, params) {
  const item = (colour, text) => TS.el('span', {}, TS.el('span', { class: 'swatch', style: `background:${colour}` }), text);
  const l = TS.el('div', { class: 'legend' },
    item(TS.palette[0], 'task (core start to READY sent), colour by frame'),
    item('#c0392b', 'core waiting on the SM (request to answer)'),
    item('#1f4e79', 'bank busy (grant to free); shaded by share per pixel when many'),
    item('#6a3d9a', 'control frame taking effect'));
  const w = TS.warpColour;
  if (info.simt && info.level === 'events')
    l.append(item(w('issued'), 'warps issued'), item(w('issue'), 'eligible, not chosen'),
             item(w('memory'), 'waiting, ld/st outstanding'), item(w('execute'), 'waiting, other'));
  else if (info.simt) // no issue record below level events
    l.append(item(w('memory'), 'warps with a ld/st outstanding'),
             item(w('other'), 'warps resident, none outstanding (issuing or waiting: the issues ' +
               'are recorded at level events)'));
  if (info.simt && info.level === 'events' && TS.isBarrierRun(params))
    l.append(item(TS.stallStyle('barrier', 0)[1], 'lane waiting at a convergence barrier ' +
      '(inside its task bar)'));
  if (info.issue_slots)
    l.append(TS.el('span', { text: 'issue port: a warp\'s issue in its frame\'s colour, ' +
      'underlined when diverged' + (TS.isBarrierRun(params)
        ? ', a diverged thread group in a colour of its own' : '') }));
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
  let profile = null;
  if (d.slot_profile === null) {
    prof.append(TS.el('h3', { text: 'Slot profile' }), TS.el('p', { class: 'note', text:
      'This database has no slot_profile view (recorded by a Tessera without it), so where the ' +
      'task\'s cycles went per instruction is not known; the figures above are its totals' +
      (d.warp ? ', and below the warp\'s stall cycles and what was recorded per slot.' : '.') }));
  } else {
    profile = TS.slotProfile(prof, d.slot_profile, !!d.warp, frame, core);
  }
  panel.append(prof);
  let shown = null; // the warp row's figures shown
  if (d.warp) { // a SIMT task: the warp's row, and what the file recorded per slot
    // its simt_warps row (TS.warpFields): every figure the file has, the stack's depth or the
    // thread groups (NULL: not this reconvergence)
    const w = d.warp.row, wk = TS.el('div', { class: 'kv', id: 'warp-row' });
    for (const k of TS.warpFields(w)) {
      wk.append(TS.el('span', { text: k }), TS.el('span', { text: TS.fmt(w[k]) }));
      (shown = shown || {})[k] = w[k];
    }
    const cols = ['slot', 'op', 'issues', 'mean_lanes', 'mem', 'mean_latency_cycles', 'replays'];
    const slots = TS.table(cols, d.warp.slots.map(r => cols.map(k => r[k])));
    slots.id = 'warp-slots';
    panel.append(TS.el('h3', { text: 'The warp: where its cycles went' }), wk,
      TS.el('h3', { text: 'Per instruction slot (simt_issue at level events, simt_mem at level mem)' }), slots);
  }
  window.__drawn.task = { frame, core, from: tl.from, to: tl.to, accesses: a.rows.length,
    accesses_total: a.total, slot_profile: profile,
    warp_row: shown,
    warp_slots: d.warp ? d.warp.slots.map(r => [r.slot, r.issues]) : null,
    warp_mem: d.warp ? d.warp.slots.map(r => [r.slot, r.mem]) : null };
};

// The warp's figures in the task panel, from its simt_warps row as the file has it (the server
// sends the columns in the table's order; NULL ones are left out): its counters in that order,
// the cycles together — resident, issued, then each stall reason in the slot profile's order
// (TS.NAMES.stalls) — and without what the panel shows above (the frame, the times, complete)
// or what says nothing here (run_id, mask).
TS.warpFields = function (row) {
  const stalls = TS.NAMES.stalls.map(s => s.column);
  const skip = new Set(['run_id', 'frame', 'mask', 'start_ps', 'end_ps', 'complete', ...stalls]);
  const fields = [];
  for (const k of Object.keys(row)) {
    if (skip.has(k)) continue;
    fields.push(k);
    if (k === 'issued_cycles') fields.push(...stalls);
  }
  return fields.filter(k => row[k] !== undefined && row[k] !== null);
};

// How each SIMT stall reason is shown: [label, colour] by the reason's name. Presentation only:
// the reasons, their order and their columns are the model's (TS.NAMES.stalls, names.js,
// generated by the build). A reason without an entry here is still drawn, under its name in a
// colour of TS.palette, and reported as a console error (tests/view/test_view.py and
// scripts/view-check.js fail on it). Kept as JSON so that the tests read it.
TS.STALL_STYLE = {
  "issue": ["not chosen", "#f9a825"],
  "fetch": ["fetch", "#8e24aa"],
  "collector": ["collector", "#00838f"],
  "memory": ["memory", "#c62828"],
  "execute": ["execute", "#90a4ae"],
  "barrier": ["barrier", "#6d4c41"]
};

// The reason's [label, colour]; the k-th reason of the list without a style of its own: its name
// in a colour of the palette.
TS.stallStyle = function (name, k) {
  return TS.STALL_STYLE[name] || [name, TS.palette[k % TS.palette.length]];
};
// The colour of a warp state of the timeline's warps row (vw_simt.c: issued, issue, memory,
// execute; below level events memory and other): issued as the slot profile's issued cycles, a
// state named as a stall reason in that reason's colour, other as execute.
TS.ISSUED_COLOUR = '#2e7d32';
TS.warpColour = state => (state === 'issued' ? TS.ISSUED_COLOUR
  : TS.stallStyle(state === 'other' || !state ? 'execute' : state, 0)[1]);
for (const s of TS.NAMES.stalls)
  if (!TS.STALL_STYLE[s.name])
    console.error(`viewer: the stall reason '${s.name}' has no label and colour in TS.STALL_STYLE ` +
      '(analysis/view/web/run.js): drawn under its name in a colour of the palette');

// What each instruction's cycles went to, in the slot_profile view's columns (docs/SCHEMA.md):
// a core's execute and SM wait; a warp's issued cycles and its stalls by reason, one column per
// reason of the model's list in its order (the pipeline's fetch and collector, the thread groups'
// barrier: present in newer files, NULL when not of this run).
TS.PROFILE_PARTS = {
  mimd: [['execute_cycles', 'execute', '#5b8fc7'], ['sm_wait_cycles', 'SM wait', '#c0392b']],
  simt: [['issued_cycles', 'issued', TS.ISSUED_COLOUR],
    ...TS.NAMES.stalls.map((s, k) => [s.column, ...TS.stallStyle(s.name, k), s.doc])],
};

// The task's slot profile as an annotated listing: per slot its instruction, how often it ran,
// its cycles and their share of the task's (the frame on this core; a SIMT run: the warp's),
// and a bar of its cycles by part, scaled to the hottest slot. Returns what it drew.
TS.slotProfile = function (holder, rows, simt, frame, core) {
  // the parts this run has (NULL: not of its kind), those with cycles (the pipeline's reasons
  // are 0 without it)
  const all = TS.PROFILE_PARTS[simt ? 'simt' : 'mimd']
    .filter(([k]) => rows.some(r => r[k] !== null && r[k] !== undefined));
  const parts = all.filter(([k]) => rows.some(r => r[k] > 0));
  const total = rows.reduce((a, r) => a + r.cycles, 0);
  const max = Math.max(1, ...rows.map(r => r.cycles));
  const hot = rows.reduce((h, r) => (h && h.cycles >= r.cycles ? h : r), null);
  const head = ['slot', 'instruction', simt ? 'issues' : 'executed'].concat(
    simt ? ['lanes'] : [], ['cycles', 'share'], parts.map(p => p[1]), ['']);
  const t = TS.el('table', { id: 'profile-table' });
  t.append(TS.el('tr', {}, ...head.map(h => TS.el('th', { text: h }))));
  const drawn = [];
  for (const r of rows) {
    const bar = TS.el('div', { class: 'pbar' });
    const cells = parts.map(([k]) => r[k] || 0);
    parts.forEach(([k, name, colour], i) => {
      if (cells[i] > 0)
        bar.append(TS.el('span', { title: `${name}: ${TS.fmt(cells[i])} cycles`,
          style: `width:${(240 * cells[i] / max).toFixed(1)}px;background:${colour}` }));
    });
    const share = total ? `${(100 * r.cycles / total).toFixed(1)} %` : '';
    const vals = [r.slot, r.text, r.instructions].concat(simt ? [r.lane_instructions] : [],
      [r.cycles, share], cells);
    const tr = TS.el('tr', { class: r === hot ? 'hot' : null },
      ...vals.map((v, i) => TS.el('td', { class: i === 1 ? 'code' : typeof v === 'string' ? 'text' : null,
        text: TS.fmt(v) })), TS.el('td', {}, bar));
    t.append(tr);
    drawn.push([r.slot, r.text, r.instructions, r.cycles, cells]);
  }
  const legend = TS.el('div', { class: 'legend' }, ...parts.map(([, name, colour, doc]) =>
    TS.el('span', { title: doc }, TS.el('span', { class: 'swatch', style: `background:${colour}` }),
      name)));
  holder.append(TS.el('h3', { text: `Slot profile: where the cycles of F${frame} ` +
      (simt ? 'on the SIMT unit (its warp)' : `on core ${core}`) + ` went, per instruction — ` +
      `${TS.fmt(total)} cycles` + (hot ? `, the most at slot ${hot.slot} (${hot.text})` : '') }),
    rows.length ? legend : TS.el('p', { class: 'note', text:
      'No rows: the run was recorded below level tasks, or nothing was charged to the task.' }),
    TS.el('div', { class: 'tablewrap' }, t));
  return { parts: parts.map(p => p[0]), rows: drawn, total };
};

// A plain table of rows (arrays) under a header.
TS.table = function (head, rows) {
  const t = TS.el('table');
  t.append(TS.el('tr', {}, ...head.map(h => TS.el('th', { text: h }))));
  for (const r of rows)
    t.append(TS.el('tr', {}, ...r.map(v => TS.el('td', { class: typeof v === 'string' ? 'text' : null, text: TS.fmt(v) }))));
  return t;
};
