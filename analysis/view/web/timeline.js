// timeline.js — one run's timeline on a canvas: CF markers, the TS's code bus,
// the SIMT issue port and warp states, a row per core (task bars, the SM wait
// strip under them), a lane per bank, a time axis in cycles. Zoom with the
// wheel or the buttons, pan by dragging; the window is in whole cycles. The
// task bars come from /api/run/N; the lanes of the window from
// /api/run/N/timeline, one column per pixel (accesses one by one when few).
'use strict';

TS.Timeline = class {
  // run: the /api/run/N answer; opts: {onWindow(from, to), onTask(task), title}
  constructor(parent, run, opts) {
    this.run = run;
    this.info = run.run;
    this.opts = opts || {};
    this.period = this.info.period_ps;
    this.endC = Math.max(1, Math.ceil(this.info.end_ps / this.period));
    this.ownEnd = this.endC;   // the axis may go further (Compare: the longer run's end)
    this.lanes = null;         // the last /timeline answer
    this.timer = null;
    this.abort = null;
    this.hits = [];            // [{x, y, w, h, lines, task}] hover and click targets
    this.canvas = TS.el('canvas', { class: 'timeline' });
    this.drawn = { run_id: this.info.run_id };
    parent.append(this.canvas);
    this.layout();
    this.listen();
  }

  layout() {
    const i = this.info, rows = [];
    let y = 4;
    const add = (kind, h, extra) => { rows.push({ kind, y, h, ...extra }); y += h; };
    if (this.opts.title) add('title', 16);
    add('cf', 14);
    add('bus', 16);
    for (let s = 0; s < i.issue_slots; s++) add('issue', 11, { slot: s });
    if (i.simt) add('warps', 54);
    y += 4;
    for (let c = 0; c < i.cores; c++) add('core', 18, { core: c });
    y += 6;
    const bh = i.banks <= 16 ? 10 : i.banks <= 32 ? 6 : 4;
    for (let b = 0; b < i.banks; b++) add('bank', bh, { bank: b });
    add('axis', 24);
    this.rows = rows;
    this.height = y + 2;
    this.x0 = 64;
    const w = Math.max(480, (this.canvas.parentElement.clientWidth || 1200) - 4);
    this.width = w;
    this.cols = w - this.x0 - 10;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = w * dpr;
    this.canvas.height = this.height * dpr;
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${this.height}px`;
    this.ctx = this.canvas.getContext('2d');
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  }

  // --- the window -------------------------------------------------------------------

  clamp(from, to) {
    from = Math.round(from);
    to = Math.round(to);
    if (to - from < 1) to = from + 1;
    if (to - from > this.endC) { from = 0; to = this.endC; }
    if (from < 0) { to -= from; from = 0; }
    if (to > this.endC) { from -= to - this.endC; to = this.endC; }
    return [Math.max(0, from), to];
  }

  setWindow(from, to, quiet) {
    [this.from, this.to] = this.clamp(from, to);
    this.draw();
    if (!quiet && this.opts.onWindow) this.opts.onWindow(this.from, this.to);
    clearTimeout(this.timer);
    this.drawn.loading = true;
    window.__drawn.pending++;
    this.timer = setTimeout(() => { window.__drawn.pending--; this.fetchLanes(); }, 40);
  }

  zoom(factor, atC) {
    const at = atC === undefined ? (this.from + this.to) / 2 : atC;
    const span = Math.max(1, (this.to - this.from) * factor);
    const f = at - (at - this.from) * factor;
    this.setWindow(f, f + span);
  }

  async fetchLanes() {
    if (this.abort) this.abort.abort();
    this.abort = new AbortController();
    const want = [this.from, this.to], to = Math.min(this.to, this.ownEnd);
    if (this.from >= to) { // past this run's end: nothing to fetch
      this.lanes = null;
      this.drawn.loading = false;
      return this.draw();
    }
    const cols = Math.max(1, Math.round(this.cols * (to - this.from) / (this.to - this.from)));
    const q = `from=${this.from}&to=${to}&cols=${cols}`;
    try {
      const t0 = performance.now();
      const l = await TS.api(`/api/run/${this.info.run_id}/timeline?${q}`, this.abort.signal);
      if (want[0] !== this.from || want[1] !== this.to) return;
      this.lanes = l;
      this.drawn.fetch_ms = performance.now() - t0;
      this.drawn.loading = false;
      this.draw();
    } catch (e) {
      if (e.name !== 'AbortError') {
        this.drawn.loading = false;
        TS.showError(this.canvas.parentElement, e);
      }
    }
  }

  X(ps) { return this.x0 + (ps / this.period - this.from) / (this.to - this.from) * this.cols; }
  C(x) { return this.from + (x - this.x0) / this.cols * (this.to - this.from); }

  // --- drawing ----------------------------------------------------------------------

  draw() {
    const g = this.ctx;
    g.clearRect(0, 0, this.width, this.height);
    g.font = '11px system-ui, sans-serif';
    this.hits = [];
    this.drawn.from = this.from;
    this.drawn.to = this.to;
    this.drawn.cols = this.cols;
    this.drawn.issues = null;
    this.drawn.firstIssue = this.drawn.divergedIssue = null;
    const fresh = this.lanes && this.lanes.from_ps === this.from * this.period &&
                  this.lanes.to_ps === Math.min(this.to, this.ownEnd) * this.period;
    for (const r of this.rows) this.drawRow(g, r, fresh ? this.lanes : null);
    this.drawCFs(g);
    this.drawn.lanes = fresh ? {
      source: this.lanes.source, accesses: this.lanes.accesses ?? null,
      detail: this.lanes.detail ? this.lanes.detail.length : null,
    } : null;
  }

  label(g, r, text) {
    g.fillStyle = '#333';
    g.textAlign = 'right';
    g.fillText(text, this.x0 - 6, r.y + r.h / 2 + 4);
    g.textAlign = 'left';
  }

  drawRow(g, r, l) {
    if (r.kind === 'title') {
      g.fillStyle = '#222';
      g.fillText(this.opts.title, this.x0, r.y + 12);
    } else if (r.kind === 'cf') this.label(g, r, 'CF');
    else if (r.kind === 'bus') this.drawBus(g, r);
    else if (r.kind === 'issue') this.drawIssue(g, r, l);
    else if (r.kind === 'warps') this.drawWarps(g, r, l);
    else if (r.kind === 'core') this.drawCore(g, r, l);
    else if (r.kind === 'bank') this.drawBank(g, r, l);
    else if (r.kind === 'axis') this.drawAxis(g, r);
  }

  frameColour(frame) {
    const f = this.run.frames.find(x => x.frame === frame);
    const n = f && f.ordinal ? Number(f.ordinal.slice(2)) : frame;
    return TS.palette[n % TS.palette.length];
  }

  box(g, a, b, y, h, colour, minW) {
    const xa = Math.max(this.x0, this.X(a)), xb = Math.min(this.x0 + this.cols, this.X(b));
    if (xb < this.x0 || xa > this.x0 + this.cols) return null;
    const w = Math.max(minW || 0.5, xb - xa);
    g.fillStyle = colour;
    g.fillRect(xa, y, w, h);
    return { x: xa, y, w, h };
  }

  inView(a, b) { return b > this.from * this.period && a < this.to * this.period; }

  drawBus(g, r) {
    this.label(g, r, 'TS bus');
    g.fillStyle = '#f0f0f0';
    g.fillRect(this.x0, r.y + 2, this.cols, r.h - 4);
    for (const f of this.run.frames) {
      if (f.kind !== 'IF' || f.issue_ps < 0 || f.start_ps < 0 || !this.inView(f.issue_ps, f.start_ps))
        continue;
      const hit = this.box(g, f.issue_ps, f.start_ps, r.y + 2, r.h - 4, this.frameColour(f.frame), 1);
      if (hit) this.hits.push({ ...hit, lines: [`code transfer of ${f.label}${f.ordinal ? ` (${f.ordinal})` : ''}`,
        `issue   ${this.cyc(f.issue_ps)}`, `start   ${this.cyc(f.start_ps)}`,
        `mask    0x${f.mask.toString(16).padStart(4, '0')}`] });
    }
  }

  drawCFs(g) {
    const top = this.rows.find(r => r.kind === 'cf'), bottom = this.rows.find(r => r.kind === 'axis');
    g.save();
    g.setLineDash([3, 3]);
    let free = 0; // labels that would overlap the previous one are left out (the tooltip stays)
    for (const f of this.run.frames) {
      if (f.kind !== 'CF' || f.issue_ps < 0 || !this.inView(f.issue_ps, f.issue_ps + 1)) continue;
      const x = this.X(f.issue_ps);
      g.strokeStyle = '#6a3d9a';
      g.beginPath();
      g.moveTo(x, top.y + 12);
      g.lineTo(x, bottom.y);
      g.stroke();
      g.fillStyle = '#6a3d9a';
      const text = `${f.label} (${f.fence})`;
      if (x + 2 >= free) {
        g.fillText(text, x + 2, top.y + 10);
        free = x + 6 + g.measureText(text).width;
      }
      this.hits.push({ x: x - 3, y: top.y, w: 6, h: bottom.y - top.y, lines: [
        `control frame ${f.label}${f.ordinal ? ` (${f.ordinal})` : ''}`, `fence   ${f.fence}`,
        `effect  ${this.cyc(f.issue_ps)}`] });
    }
    g.restore();
  }

  cyc(ps) { return ps < 0 || ps === null ? '—' : `cycle ${TS.fmt(ps / this.period)}`; }

  taskEnd(t) {
    return t[3] >= 0 ? t[3] : t[4] >= 0 ? t[4] : this.info.end_ps;
  }

  drawCore(g, r, l) {
    this.label(g, r, `core ${r.core}`);
    const barH = 12, stripY = r.y + barH + 1;
    if (r.core === 0) this.drawn.tasks = [];
    for (const [k, t] of this.run.tasks.entries()) {
      if (t[1] !== r.core || t[2] < 0) continue;
      const end = this.taskEnd(t);
      if (!this.inView(t[2], end)) continue;
      const hit = this.box(g, t[2], end, r.y, barH, this.frameColour(t[0]), 1);
      if (!hit) continue;
      this.drawn.tasks.push({ frame: t[0], core: t[1], start_ps: t[2], end_ps: end,
                              x: hit.x, y: hit.y, w: hit.w, h: hit.h });
      const label = `F${t[0]}`;
      if (hit.w > g.measureText(label).width + 4) {
        g.fillStyle = '#222';
        g.fillText(label, hit.x + 2, r.y + 10);
      }
      // the slot profile's hottest instruction of the frame on this core (a SIMT run: of its
      // warp), over every task of the frame, as tessera timeline's task tooltips name it
      const h = this.run.hot && this.run.hot[k];
      this.hits.push({ ...hit, task: t, lines: [`task F${t[0]} on core ${t[1]}`,
        `start        ${this.cyc(t[2])}`, `READY sent   ${this.cyc(t[3])}`,
        `READY at TS  ${this.cyc(t[4])}`, `instructions ${TS.fmt(t[5])}`,
        `SM accesses  ${TS.fmt(t[6])}`, `SM wait      ${TS.fmt(t[7] / this.period)} cycles`,
        `conflicts    ${TS.fmt(t[8] / this.period)} cycles`].concat(h ? [
        `hottest      slot ${h[0]} ${h[1]}: ${TS.fmt(h[2])} of ${TS.fmt(h[3])} cycles`,
        `             (every task of F${t[0]} ${h[4] ? 'on the SIMT unit' : 'on this core'})`] : [],
        ['(click: its accesses and slot profile)']) });
    }
    this.drawBarrierWaits(g, r, l, barH);
    if (!l || !l.waits) return;
    if (l.detail) {
      for (const a of l.detail) {
        if (a[1] !== r.core || a[8] === null) continue;
        const hit = this.box(g, a[8], a[11] === null ? this.to * this.period : a[11], stripY, 3,
                             '#c0392b', 1);
        if (hit) this.hits.push({ ...hit, y: hit.y - 1, h: 5, lines: this.accessLines(a) });
      }
    } else this.shade(g, l, l.waits[r.core], stripY, 3, '192,57,43');
  }

  // A barrier run's waits of thread groups at convergence barriers (simt_waits, S14) on this
  // row's lane: a band inside its task bar in the barrier stall's colour — one by one (hover
  // names the wait) when the window has few, else each column's share as an alpha.
  drawBarrierWaits(g, r, l, barH) {
    const b = l && l.barrier;
    if (r.core === 0) this.drawn.barrier = b ? { detail: b.detail !== null, waits: 0 } : null;
    if (!b) return;
    const y = r.y + 3, h = barH - 6, colour = TS.stallStyle('barrier', 0)[1];
    if (!b.detail) {
      const rgb = [1, 3, 5].map(k => parseInt(colour.slice(k, k + 2), 16)).join(',');
      this.shade(g, { lanes: b }, b.shares[r.core], y, h, rgb);
      return;
    }
    for (const w of b.detail) {
      if (!(w[2] >> r.core & 1)) continue;
      this.drawn.barrier.waits++;
      const open = w[4] === null, to = open ? this.to * this.period : w[4];
      const hit = this.box(g, w[3], to, y, h, colour, 1);
      if (hit && !this.drawn.barrier.first && hit.w >= 2)
        this.drawn.barrier.first = { lane: r.core, frame: w[0], slot: w[1], from_ps: w[3], ...hit };
      if (hit) this.hits.push({ ...hit, lines: [`lane ${r.core} waits at a barrier`,
        `frame    F${w[0]}, slot ${w[1]}`, `group    0x${w[2].toString(16).padStart(4, '0')}`,
        `from     ${this.cyc(w[3])}`, `to       ${open ? 'the end of the run' : this.cyc(w[4])}`,
        `waited   ${open ? '—' : TS.fmt((w[4] - w[3]) / this.period)} cycles`] });
    }
  }

  accessLines(a) {
    return [`SM access: F${a[0]} core ${a[1]} #${a[2]}`, `op       ${a[4]}${a[3] ? '_sync' : ''}`,
      `addr     ${a[5]} (bank ${a[6]})`, `value    ${a[7]}`, `request  ${this.cyc(a[8])}`,
      `arrive   ${this.cyc(a[9])}`, `grant    ${this.cyc(a[10])}`, `done     ${this.cyc(a[11])}`,
      `wait     ${a[10] !== null && a[9] !== null ? TS.fmt((a[10] - a[9]) / this.period) : '—'} cycles`];
  }

  // One lane's share per column as an alpha of `rgb`.
  shade(g, l, shares, y, h, rgb) {
    for (let c = 0; c < shares.length; c++) {
      if (shares[c] <= 0) continue;
      const [x, w] = this.colX(l.lanes, c);
      g.fillStyle = `rgba(${rgb},${Math.min(1, 0.15 + 0.85 * shares[c])})`;
      g.fillRect(x, y, w, h);
    }
  }

  // Where column c of an answer's geometry g ({c0_ps, col_ps}) lies: its x
  // and width (at least a pixel), clipped to the plot.
  colX(g, c) {
    const x = Math.max(this.x0, this.X(g.c0_ps + c * g.col_ps));
    return [x, Math.max(1, Math.min(this.x0 + this.cols, this.X(g.c0_ps + (c + 1) * g.col_ps)) - x)];
  }

  drawBank(g, r, l) {
    if (r.h >= 10 || r.bank % 4 === 0) {
      g.font = '9px system-ui, sans-serif';
      this.label(g, r, `bank ${r.bank}`);
      g.font = '11px system-ui, sans-serif';
    }
    g.fillStyle = r.bank % 2 ? '#f7f7f7' : '#fdfdfd';
    g.fillRect(this.x0, r.y, this.cols, r.h - 1);
    if (!l || !l.banks) return;
    if (l.detail) {
      for (const a of l.detail) {
        if (a[6] !== r.bank || a[10] === null) continue;
        const hit = this.box(g, a[10], a[12] === null ? a[10] + this.period : a[12], r.y,
                             r.h - 1, '#1f4e79', 1);
        if (hit) this.hits.push({ ...hit, lines: this.accessLines(a) });
      }
    } else this.shade(g, l, l.banks[r.bank], r.y, r.h - 1, '31,78,121');
  }

  drawIssue(g, r, l) {
    if (r.slot === 0) this.label(g, r, 'issue');
    g.fillStyle = '#f4f4f4';
    g.fillRect(this.x0, r.y, this.cols, r.h - 1);
    if (!l || !l.issue) return;
    this.drawn.issues = this.drawn.issues || 0;
    if (l.issue.detail) {
      for (const s of l.issue.detail) {
        if (s[4] !== r.slot) continue;
        const hit = this.box(g, s[0], s[0] + this.period, r.y, r.h - 1, this.issueColour(s), 1);
        if (!hit) continue;
        if (s[5] !== s[6]) { // diverged: underlined, as in tessera timeline's SVG
          g.fillStyle = '#333';
          g.fillRect(hit.x, r.y + r.h - 3, hit.w, 2);
        }
        this.drawn.issues++;
        this.hits.push({ ...hit, lines: this.issueLines(s) });
        // where one is, and one of a diverged warp, for the browser test's hover
        const at = { x: hit.x, y: hit.y, w: hit.w, h: hit.h, time_ps: s[0], frame: s[1], slot: s[2] };
        if (!this.drawn.firstIssue) this.drawn.firstIssue = at;
        if (!this.drawn.divergedIssue && s[5] !== s[6]) this.drawn.divergedIssue = at;
      }
      return;
    }
    // columns of the answer's geometry (the summary's: whole buckets)
    const count = l.issue.count[r.slot], frame = l.issue.frame[r.slot];
    const perCol = l.issue.col_ps / this.period;
    for (let c = 0; c < count.length; c++) {
      if (!count[c]) continue;
      this.drawn.issues += count[c];
      g.globalAlpha = Math.min(1, 0.25 + count[c] / Math.max(1, perCol));
      g.fillStyle = this.frameColour(frame[c]);
      const [x, w] = this.colX(l.issue, c);
      g.fillRect(x, r.y, w, r.h - 1);
    }
    g.globalAlpha = 1;
  }

  // An issue's colour: its frame's; under simt.reconvergence = barrier a diverged thread group
  // (fewer lanes than the warp's) has a colour of its own, by its lanes, so that a warp's groups
  // interleaving on the issue port can be told apart (SIMT-SPEC S14).
  issueColour(s) {
    const barrier = TS.isBarrierRun(this.run.params);
    if (!barrier || s[5] === s[6]) return this.frameColour(s[1]);
    let h = s[5] >>> 0;
    h = ((h ^ (h >>> 7)) * 2654435761) >>> 0;
    return TS.palette[(s[1] + 1 + (h >>> 16)) % TS.palette.length];
  }

  // An issue's tooltip: its cycle (and issue port when several), the warp, the instruction slot
  // and its text (the slot profile's, in files that have one), the lanes; under
  // simt.reconvergence = barrier the lanes are the thread group that issued and the last
  // figure the warp's groups (SIMT-SPEC S14), else the SIMT stack's depth.
  issueLines(s) {
    const hex = v => `0x${v.toString(16).padStart(4, '0')}`;
    const barrier = TS.isBarrierRun(this.run.params);
    return [`issue: ${this.cyc(s[0])}` + (this.info.issue_slots > 1 ? ` (issue ${s[4]})` : ''),
      `warp     F${s[1]}`, `slot     ${s[2]}: ${s[3]}`,
      `${barrier ? 'group ' : 'active'}   ${hex(s[5])} of ${hex(s[6])}` +
        (s[5] !== s[6] ? ' (diverged)' : ''),
      `eligible ${s[7]} warps`, barrier ? `groups   ${s[8]}` : `depth    ${s[8]}`];
  }

  drawWarps(g, r, l) {
    this.label(g, r, 'warps');
    g.fillStyle = '#f4f4f4';
    g.fillRect(this.x0, r.y, this.cols, r.h - 3);
    if (!l || !l.warps) return;
    // by the state's name (TS.warpColour): below level events the answer has only 'memory' and
    // 'other' (no issue record: resident warps with or without a ld/st outstanding)
    const cols = l.warps.cols, n = cols[0].length;
    let max = 1;
    for (let c = 0; c < n; c++) max = Math.max(max, cols.reduce((s, st) => s + st[c], 0));
    const scale = (r.h - 3) / max;
    // what is drawn, for the browser test: each state's warp-cycles in all
    const cycles = cols.map(st => st.reduce((a, v) => a + v, 0) * l.warps.col_ps / this.period);
    this.drawn.warps = { states: l.warps.states, max, source: l.warps.source, cycles,
                         colours: l.warps.states.map(st => (st ? TS.warpColour(st) : null)) };
    for (let c = 0; c < n; c++) {
      let y = r.y + r.h - 3;
      const [x, w] = this.colX(l.warps, c);
      for (let s = 0; s < cols.length; s++) {
        const h = cols[s][c] * scale;
        if (h <= 0) continue;
        g.fillStyle = TS.warpColour(l.warps.states[s]);
        g.fillRect(x, y - h, w, h);
        y -= h;
      }
    }
    this.hits.push({ x: this.x0, y: r.y, w: this.cols, h: r.h, warpRow: true });
  }

  drawAxis(g, r) {
    const span = this.to - this.from, step = Math.max(1, TS.niceStep(span, this.cols / 90));
    g.strokeStyle = '#999';
    g.fillStyle = '#333';
    g.textAlign = 'center';
    g.beginPath();
    g.moveTo(this.x0, r.y + 2);
    g.lineTo(this.x0 + this.cols, r.y + 2);
    for (let c = Math.ceil(this.from / step) * step; c <= this.to; c += step) {
      const x = this.x0 + (c - this.from) / span * this.cols;
      g.moveTo(x, r.y + 2);
      g.lineTo(x, r.y + 6);
      g.fillText(TS.cycles(c), x, r.y + 17);
    }
    g.stroke();
    g.textAlign = 'left';
    g.fillText('cycles', 4, r.y + 17);
  }

  // --- the mouse --------------------------------------------------------------------

  hitAt(x, y) {
    for (let k = this.hits.length - 1; k >= 0; k--) {
      const h = this.hits[k];
      if (x >= h.x - 1 && x <= h.x + h.w + 1 && y >= h.y && y <= h.y + h.h) return h;
    }
    return null;
  }

  warpLines(x) {
    const l = this.lanes;
    const c = l && l.warps ? Math.floor((this.C(x) * this.period - l.warps.c0_ps) / l.warps.col_ps) : -1;
    if (!l || !l.warps || c < 0 || c >= l.warps.cols[0].length) return null;
    return [`warps at cycles ${TS.fmt(Math.floor(this.C(x)))}…`,
      ...l.warps.states.map((s, k) => `${s.padEnd(8)} ${l.warps.cols[k][c].toFixed(2)}`)];
  }

  listen() {
    const cv = this.canvas;
    let drag = null;
    cv.addEventListener('wheel', ev => {
      ev.preventDefault();
      const x = ev.offsetX;
      if (x < this.x0) return;
      this.zoom(ev.deltaY > 0 ? 1.25 : 0.8, this.C(x));
    }, { passive: false });
    cv.addEventListener('mousedown', ev => {
      drag = { x: ev.offsetX, from: this.from, to: this.to, moved: false };
    });
    window.addEventListener('mouseup', ev => {
      if (drag && !drag.moved && ev.target === cv) this.click(ev);
      drag = null;
    });
    cv.addEventListener('mousemove', ev => {
      if (drag && Math.abs(ev.offsetX - drag.x) > 2) {
        drag.moved = true;
        const dc = (ev.offsetX - drag.x) / this.cols * (drag.to - drag.from);
        this.setWindow(drag.from - dc, drag.to - dc);
        TS.tip.hide();
        return;
      }
      const h = this.hitAt(ev.offsetX, ev.offsetY);
      const lines = h && h.warpRow ? this.warpLines(ev.offsetX) : h && h.lines;
      if (lines) {
        TS.tip.show(ev, lines);
        this.drawn.hover = lines;
        cv.style.cursor = h.task ? 'pointer' : 'default';
      } else {
        TS.tip.hide();
        cv.style.cursor = 'default';
      }
    });
    cv.addEventListener('mouseleave', () => TS.tip.hide());
  }

  click(ev) {
    const h = this.hitAt(ev.offsetX, ev.offsetY);
    if (h && h.task && this.opts.onTask) this.opts.onTask(h.task);
  }
};
