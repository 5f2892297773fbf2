// view-check.js — `tessera view` in headless Debian chromium driven by
// playwright-core (scripts/realtools.sh view installs both and starts the
// servers): every page is opened, the run timeline zoomed, panned, hovered
// and a task clicked, and what the page drew (window.__drawn) is checked
// against SQL on the same database (the sqlite3 shell). Any console error or
// warning, page error, failed request or HTTP error fails it.
//   node view-check.js STUDY_URL STUDY.db BENCH_URL BENCH.db SIMT_URL SIMT.db [SHOTS_DIR]
// STUDY.db: scripts/realtools.sh's study (a sweep of matmul.s over sm.arbiter
// and sm.bank, a SIMT run at level events, a run at level summary, a SIMT run
// under simt.reconvergence = barrier at level events); BENCH.db:
// examples/bench.s (12.6 M accesses); SIMT.db: bench.s on the SIMT unit
// (core.model=simt, 786 k warp ld/st). Screenshots go to SHOTS_DIR if given.
// Environment: CHROMIUM (default /usr/bin/chromium), PLAYWRIGHT_CORE.
'use strict';
const { execFileSync } = require('child_process');
const path = require('path');
const { chromium } = require(process.env.PLAYWRIGHT_CORE || 'playwright-core');

const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-proxy-server'];
const [studyUrl, studyDb, benchUrl, benchDb, simtUrl, simtDb, shots] = process.argv.slice(2);
let failures = 0;
const log = (...a) => console.log(...a);

function check(ok, what, detail) {
  if (ok) { log(`ok   ${what}`); return; }
  failures++;
  log(`FAIL ${what}${detail === undefined ? '' : `: ${JSON.stringify(detail).slice(0, 600)}`}`);
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function sql(db, q) {
  const out = execFileSync('sqlite3', ['-readonly', '-json', db, q], { encoding: 'utf8' });
  return out.trim() ? JSON.parse(out) : [];
}

// The page's problems: console errors and warnings, page errors, failed or 4xx/5xx requests.
function watch(page, problems) {
  page.on('console', m => {
    if ((m.type() === 'error' || m.type() === 'warning') && !/GL Driver Message/.test(m.text()))
      problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', e => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', r => {
    if (!/ERR_ABORTED/.test(r.failure() && r.failure().errorText)) // superseded zoom steps
      problems.push(`request failed: ${r.url()} ${r.failure() && r.failure().errorText}`);
  });
  page.on('response', r => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
}

const settled = page => page.waitForFunction(
  () => window.__drawn.ready && window.__drawn.pending === 0 &&
        !(window.__drawn.timeline && window.__drawn.timeline.loading) &&
        !(window.__drawn.timelines && window.__drawn.timelines.some(t => t.loading)),
  null, { timeout: 60000 });
const drawn = page => page.evaluate(() => JSON.parse(JSON.stringify(window.__drawn)));

async function open(page, url) {
  const t0 = Date.now();
  await page.goto(url);
  await settled(page);
  return Date.now() - t0;
}

async function shot(page, name) {
  if (shots) await page.screenshot({ path: path.join(shots, name), fullPage: true });
}

// The core tasks of `run` that overlap the window [from, to) cycles, as the page draws them.
function sqlTasks(db, run, from, to) {
  return sql(db, `SELECT frame, core FROM core_tasks AS t JOIN runs USING (run_id)
    WHERE run_id = ${run} AND start_ps IS NOT NULL AND start_ps < ${to} * period_ps
    AND coalesce(finish_ps, ready_ps, runs.end_ps, stop_ps) > ${from} * period_ps
    ORDER BY core, frame`).map(r => [r.frame, r.core]);
}
const pageTasks = d => d.timeline.tasks.map(t => [t.frame, t.core])
  .sort((a, b) => a[1] - b[1] || a[0] - b[0]);

function sqlAccessCount(db, run, from, to) {
  return sql(db, `SELECT count(*) AS n FROM sm_accesses JOIN runs USING (run_id)
    WHERE run_id = ${run} AND request_ps < ${to} * period_ps
    AND coalesce(done_ps, ${to} * period_ps + 1) > ${from} * period_ps`)[0].n;
}

// --- the Runs page ------------------------------------------------------------------

async function runsPage(page) {
  await open(page, `${studyUrl}/`);
  let d = await drawn(page);
  const ids = sql(studyDb, 'SELECT run_id FROM runs ORDER BY run_id').map(r => r.run_id);
  check(d.page === 'runs' && same(d.runs.rows, ids), 'runs: every run, in run_id order', d.runs);
  await page.click('#runs th:text-is("end_cycles")');
  d = await drawn(page);
  const byEnd = sql(studyDb, 'SELECT run_id FROM run_summary ORDER BY end_cycles IS NULL, end_cycles, run_id')
    .map(r => r.run_id);
  check(same(d.runs.rows, byEnd) && /sort=end_cycles/.test(page.url()), 'runs: sorted by end_cycles', d.runs.rows);
  await page.fill('#filter', 'sm.bank=4');
  d = await drawn(page);
  const bank4 = sql(studyDb, `SELECT r.run_id FROM run_summary AS r JOIN params AS p USING (run_id)
    WHERE p.key = 'sm.bank' AND p.value = 4 ORDER BY r.end_cycles, r.run_id`).map(r => r.run_id);
  check(bank4.length > 0 && same(d.runs.rows, bank4), 'runs: filter sm.bank=4', d.runs.rows);
  await page.fill('#filter', '');
  await page.click('details summary:text-is("Columns")');
  await page.uncheck('input[data-col="conflicts"]');
  const heads = await page.$$eval('#runs th', ths => ths.map(t => t.textContent));
  check(!heads.includes('conflicts') && /cols=/.test(page.url()), 'runs: a column hidden', heads);
  await page.selectOption('#plot-x', 'sm.bank');
  await page.selectOption('#plot-y', 'end_cycles');
  await page.selectOption('#plot-by', 'sm.arbiter');
  d = await drawn(page);
  const pts = sql(studyDb, `SELECT a.value AS arb, b.value AS bank, s.end_cycles AS y, s.run_id AS id,
    replace(s.program, rtrim(s.program, replace(s.program, '/', '')), '') AS prog
    FROM run_summary AS s JOIN params AS a ON a.run_id = s.run_id AND a.key = 'sm.arbiter'
    JOIN params AS b ON b.run_id = s.run_id AND b.key = 'sm.bank' ORDER BY arb, bank, id`);
  const want = {};
  for (const p of pts) {
    const k = `sm.arbiter = ${p.arb} · ${p.prog}`;
    (want[k] = want[k] || []).push([p.bank, p.y, p.id]);
  }
  const got = {};
  for (const s of d.plot.series) got[s.group] = s.points.slice().sort((a, b) => a[0] - b[0] || a[2] - b[2]);
  check(same(Object.keys(got).sort(), Object.keys(want).sort()) &&
        Object.keys(want).every(k => same(got[k], want[k])),
        'runs: sweep plot end_cycles by sm.bank, a line per sm.arbiter and program', { got, want });
  await shot(page, 'view-runs.png');
  const two = sql(studyDb, `SELECT run_id FROM run_summary WHERE core_model = 'mimd' AND level = 'mem'
    ORDER BY end_cycles LIMIT 2`).map(r => r.run_id);
  for (const id of two) await page.check(`input[data-run="${id}"]`);
  await Promise.all([page.waitForURL(/\/compare\//), page.click('#compare')]);
  await settled(page);
  check(new RegExp(`/compare/${two[0]}/${two[1]}$`).test(page.url()), 'runs: two picked open the Compare page', page.url());
  return two;
}

// --- the Compare page -------------------------------------------------------------------

async function comparePage(page, two) {
  const d = await drawn(page);
  const ends = two.map(id => sql(studyDb, `SELECT end_cycles FROM run_summary WHERE run_id = ${id}`)[0].end_cycles);
  check(d.page === 'compare' && same(d.compare.end_cycles, ends), 'compare: both end times', d.compare);
  const cells = await page.$$eval('#compare-table tr', trs => trs.map(tr => [...tr.children].map(c => c.textContent)));
  const endRow = cells.find(r => r[0] === 'end_cycles');
  check(endRow && Number(endRow[1].replace(/,/g, '')) === ends[0] && Number(endRow[2].replace(/,/g, '')) === ends[1],
        'compare: the table shows both end_cycles', endRow);
  const full = Math.max(...ends);
  check(d.timelines.length === 2 && d.timelines.every((t, k) => t.from === 0 && t.to === full &&
        same(t.tasks.map(x => [x.frame, x.core]).sort((a, b) => a[1] - b[1] || a[0] - b[0]),
             sqlTasks(studyDb, two[k], 0, full))),
        'compare: both timelines on one axis with their core_tasks', d.timelines.map(t => [t.from, t.to]));
  await shot(page, 'view-compare.png');
}

// --- a Run page -----------------------------------------------------------------------------

async function checkWindow(page, db, run, what) {
  const d = await drawn(page);
  const t = d.timeline;
  const url = new URL(page.url());
  check(Number(url.searchParams.get('from')) === t.from && Number(url.searchParams.get('to')) === t.to,
        `${what}: the window is in the URL`, [page.url(), t.from, t.to]);
  check(same(pageTasks(d), sqlTasks(db, run, t.from, t.to)),
        `${what}: task bars = core_tasks in cycles ${t.from}-${t.to}`, pageTasks(d));
  if (t.lanes && t.lanes.accesses !== null)
    check(t.lanes.accesses === sqlAccessCount(db, run, t.from, t.to),
          `${what}: accesses in the window = sm_accesses there (${t.lanes.accesses})`, t.lanes);
  return d;
}

// Moves the mouse onto a drawn task's bar, checks the tooltip, clicks it.
async function hoverAndClick(page, db, run, what) {
  let d = await drawn(page);
  const task = d.timeline.tasks.filter(t => t.w >= 4).sort((a, b) => b.w - a.w)[0];
  const box = await page.locator('canvas.timeline').first().boundingBox();
  await page.mouse.move(box.x + task.x + task.w / 2, box.y + task.y + task.h / 2);
  const tip = await page.$eval('#tip', e => [getComputedStyle(e).display, e.textContent]);
  check(tip[0] === 'block' && tip[1].includes(`task F${task.frame} on core ${task.core}`),
        `${what}: hovering a bar shows its task`, tip);
  if (sql(db, "SELECT count(*) AS n FROM sqlite_master WHERE name = 'slot_profile'")[0].n > 0) {
    // it names the hottest instruction of the frame on this core (or of the warp): a slot
    // with the most cycles, and its text
    const rows = sql(db, `SELECT slot, text, cycles FROM slot_profile WHERE run_id = ${run}
      AND frame = ${task.frame} AND (core = ${task.core} OR core IS NULL)`);
    const m = /hottest +slot (\d+) (.*): ([\d,.]+) of/.exec(tip[1]);
    const max = Math.max(...rows.map(r => r.cycles));
    const row = m && rows.find(r => r.slot === Number(m[1]));
    check(row && row.text === m[2] && row.cycles === max,
          `${what}: the bar names the hottest instruction (${max} cycles)`, [tip[1], rows]);
  }
  await page.mouse.down();
  await page.mouse.up();
  await settled(page);
  d = await drawn(page);
  const n = sql(db, `SELECT count(*) AS n FROM sm_accesses JOIN runs USING (run_id) WHERE run_id = ${run}
    AND frame = ${task.frame} AND core = ${task.core} AND request_ps < ${d.timeline.to} * period_ps
    AND coalesce(done_ps, ${d.timeline.to} * period_ps + 1) > ${d.timeline.from} * period_ps`)[0].n;
  check(d.task && d.task.frame === task.frame && d.task.core === task.core &&
        d.task.accesses_total === n && new URL(page.url()).searchParams.get('task') === `${task.frame}.${task.core}`,
        `${what}: clicking it shows its ${n} SM accesses in the window`, d.task);
  const hasProfile = sql(db, "SELECT count(*) AS n FROM sqlite_master WHERE name = 'slot_profile'")[0].n > 0;
  const prof = await page.$eval('#slot-profile', e => e.textContent);
  check(hasProfile ? d.task.slot_profile !== null : /no slot_profile view/.test(prof),
        `${what}: the slot profile ${hasProfile ? 'shown' : 'said to be missing'}`, prof.slice(0, 200));
  if (hasProfile && d.task.slot_profile) {
    // the listing drawn = the view's rows of the frame on this core (a SIMT run: its warp's,
    // core NULL), and each bar's parts add up to the row's cycles
    const p = d.task.slot_profile;
    const want = sql(db, `SELECT slot, text, instructions, cycles FROM slot_profile WHERE run_id = ${run}
      AND frame = ${task.frame} AND (core = ${task.core} OR core IS NULL) ORDER BY slot`)
      .map(r => [r.slot, r.text, r.instructions, r.cycles]);
    check(want.length > 0 && same(p.rows.map(r => r.slice(0, 4)), want),
          `${what}: the slot profile lists the view's ${want.length} rows of F${task.frame}`, p.rows);
    const bad = p.rows.filter(r => Math.abs(r[4].reduce((a, v) => a + v, 0) - r[3]) > 1e-6 * (1 + r[3]));
    check(bad.length === 0, `${what}: each slot's bar (${p.parts.join(', ')}) adds up to its cycles`, bad);
  }
  return task;
}

async function runPage(page, two) {
  const run = two[1];
  await open(page, `${studyUrl}/run/${run}`);
  await checkWindow(page, studyDb, run, `run ${run} whole`);
  await page.click('#zoom-in');
  await settled(page);
  let d = await checkWindow(page, studyDb, run, `run ${run} zoomed in`);
  const span = d.timeline.to - d.timeline.from;
  await page.click('#pan-right');
  await settled(page);
  d = await checkWindow(page, studyDb, run, `run ${run} panned`);
  check(d.timeline.to - d.timeline.from === span, 'panning keeps the span', d.timeline);
  const box = await page.locator('canvas.timeline').boundingBox();
  await page.mouse.move(box.x + 64 + 300, box.y + 100);
  await page.mouse.wheel(0, -300);
  await settled(page);
  d = await checkWindow(page, studyDb, run, `run ${run} wheel zoom`);
  check(d.timeline.to - d.timeline.from < span, 'the wheel zooms in', d.timeline);
  await page.click('#whole');
  await settled(page);
  const task = await hoverAndClick(page, studyDb, run, `run ${run}`);
  await shot(page, 'view-run.png');
  // the URL is the state: reload it
  const url = page.url();
  await open(page, url);
  d = await drawn(page);
  check(d.task && d.task.frame === task.frame && d.timeline.from === 0, 'reloading the URL restores the window and task', d.task);
  // down to single cycles: the accesses one by one
  const t = sql(studyDb, `SELECT request_ps / period_ps AS c FROM sm_accesses JOIN runs USING (run_id)
    WHERE run_id = ${run} ORDER BY request_ps LIMIT 1`)[0].c;
  await open(page, `${studyUrl}/run/${run}?from=${t}&to=${t + 3}`);
  d = await checkWindow(page, studyDb, run, `run ${run} cycles ${t}-${t + 3}`);
  check(d.timeline.lanes && d.timeline.lanes.detail === d.timeline.lanes.accesses && d.timeline.lanes.detail > 0,
        'three cycles: every access drawn one by one', d.timeline.lanes);
}

async function simtPage(page) {
  const run = sql(studyDb, "SELECT run_id FROM runs WHERE level = 'events'")[0].run_id;
  await open(page, `${studyUrl}/run/${run}`);
  const d = await checkWindow(page, studyDb, run, `SIMT run ${run}`);
  check(d.timeline.warps && same(d.timeline.warps.states, ['issued', 'issue', 'memory', 'execute']),
        'SIMT: warp states stacked', d.timeline.warps);
  const swatches = await page.$$eval('.legend .swatch', s => s.map(e => getComputedStyle(e).backgroundColor));
  const rgb = h => `rgb(${[1, 3, 5].map(k => parseInt(h.slice(k, k + 2), 16)).join(', ')})`;
  check(d.timeline.warps && d.timeline.warps.colours.every(c => c && swatches.includes(rgb(c))),
        'SIMT: each warp state drawn in a colour of the legend', [d.timeline.warps, swatches]);
  const n = sql(studyDb, `SELECT count(*) AS n FROM simt_issue WHERE run_id = ${run}`)[0].n;
  const got = await page.evaluate(() => window.__drawn.timeline.issues);
  check(got === n, `SIMT: the issue port draws its ${n} issues`, got);
  // hovering an issue names its slot and instruction: the slot profile's text where the file
  // has one (the assembly of the slot), else the mnemonic
  const first = await page.evaluate(() => window.__drawn.timeline.firstIssue);
  const hasProfile = sql(studyDb, "SELECT count(*) AS n FROM sqlite_master WHERE name = 'slot_profile'")[0].n > 0;
  const text = sql(studyDb, hasProfile
    ? `SELECT text AS t FROM slot_profile WHERE run_id = ${run} AND frame = ${first.frame}
       AND slot = ${first.slot} AND core IS NULL`
    : `SELECT op AS t FROM simt_issue WHERE run_id = ${run} AND time_ps = ${first.time_ps}
       AND frame = ${first.frame}`)[0].t;
  const cbox = await page.locator('canvas.timeline').first().boundingBox();
  await page.mouse.move(cbox.x + first.x + first.w / 2, cbox.y + first.y + first.h / 2);
  const itip = await page.$eval('#tip', e => e.textContent);
  check(itip.includes(`warp     F${first.frame}`) && itip.includes(`slot     ${first.slot}: ${text}`),
        `SIMT: hovering an issue names slot ${first.slot}: ${text}`, itip);
  const task = await hoverAndClick(page, studyDb, run, `SIMT run ${run}`);
  const slots = await page.evaluate(() => window.__drawn.task.warp_slots);
  const want = sql(studyDb, `SELECT slot, count(*) AS n FROM simt_issue WHERE run_id = ${run}
    AND frame = ${task.frame} GROUP BY slot ORDER BY slot`).map(r => [r.slot, r.n]);
  check(same(slots, want), 'SIMT: the task panel shows the warp\'s issues per slot', slots);
  await warpPanel(page, studyDb, run, task.frame, `SIMT run ${run}`);
  await shot(page, 'view-simt.png');
  const summary = sql(studyDb, "SELECT run_id FROM runs WHERE level = 'summary'")[0].run_id;
  await open(page, `${studyUrl}/run/${summary}`);
  const note = await page.$eval('main', e => e.textContent);
  check(/recorded at level summary/.test(note), 'a run at level summary says there is nothing to draw', note.slice(0, 200));
}

// The run under simt.reconvergence = barrier (SIMT-SPEC S14): an issue names the thread group
// that issued (its lanes) and the warp's groups (simt_issue.depth); a warp's task panel shows
// its thread-group figures and barrier stalls as simt_warps has them.
async function barrierPage(page) {
  const run = sql(studyDb, `SELECT run_id FROM params WHERE key = 'simt.reconvergence'
    AND value = 'barrier'`)[0].run_id;
  await open(page, `${studyUrl}/run/${run}`);
  await checkWindow(page, studyDb, run, `barrier run ${run}`);
  const wait = await barrierWaits(page, studyDb, run, `barrier run ${run}`);
  const first = await page.evaluate(() => window.__drawn.timeline.divergedIssue);
  const is = sql(studyDb, `SELECT active, mask, depth FROM simt_issue WHERE run_id = ${run}
    AND time_ps = ${first.time_ps} AND frame = ${first.frame}`)[0];
  const box = await page.locator('canvas.timeline').first().boundingBox();
  await page.mouse.move(box.x + first.x + first.w / 2, box.y + first.y + first.h / 2);
  const tip = await page.$eval('#tip', e => e.textContent);
  const hex = v => `0x${v.toString(16).padStart(4, '0')}`;
  check(is.active !== is.mask && tip.includes(`group    ${hex(is.active)} of ${hex(is.mask)} (diverged)`) &&
        tip.includes(`groups   ${is.depth}`),
        `barrier run: hovering a diverged issue names its thread group ${hex(is.active)} and the` +
        ` warp's ${is.depth} groups`, tip);
  const task = await hoverAndClick(page, studyDb, run, `barrier run ${run}`);
  const d = await drawn(page);
  const w = sql(studyDb, `SELECT max_groups, barriers, stall_barrier_cycles FROM simt_warps
    WHERE run_id = ${run} AND frame = ${task.frame}`)[0];
  const row = d.task.warp_row || {};
  check(w.max_groups !== null && ['max_groups', 'barriers', 'stall_barrier_cycles'].every(k => row[k] === w[k]),
        `barrier run: the warp's panel shows max_groups ${w.max_groups}, barriers ${w.barriers},` +
        ` stall_barrier_cycles ${w.stall_barrier_cycles}`, row);
  await warpPanel(page, studyDb, run, task.frame, `barrier run ${run}`);
  if (wait) { // the picture shows a lane's wait at the barrier, hovered
    const box = await page.locator('canvas.timeline').first().boundingBox();
    await page.mouse.move(box.x + wait.x + wait.w / 2, box.y + wait.y + wait.h / 2);
  }
  await shot(page, 'view-barrier.png');
}

// The lanes' waits at convergence barriers drawn in the window: one band per lane of each
// simt_waits row overlapping it (the page has them one by one below 5000), and hovering one
// names its lane, frame, slot and start.
async function barrierWaits(page, db, run, what) {
  const t = (await drawn(page)).timeline;
  const rows = sql(db, `SELECT w.lanes FROM simt_waits AS w JOIN runs AS r USING (run_id)
    WHERE w.run_id = ${run} AND w.from_ps < ${t.to} * r.period_ps
    AND (w.to_ps IS NULL OR w.to_ps > ${t.from} * r.period_ps)`);
  const bands = rows.reduce((n, r) => n + [...r.lanes.toString(2)].filter(b => b === '1').length, 0);
  check(t.barrier && t.barrier.detail && bands > 0 && t.barrier.waits === bands,
        `${what}: barrier-wait bands = simt_waits' lanes in cycles ${t.from}-${t.to} (${bands})`, t.barrier);
  const w = t.barrier && t.barrier.first;
  if (!w) return check(false, `${what}: a barrier wait wide enough to hover`, t.barrier);
  const box = await page.locator('canvas.timeline').first().boundingBox();
  await page.mouse.move(box.x + w.x + w.w / 2, box.y + w.y + w.h / 2);
  const tip = await page.$eval('#tip', e => e.textContent);
  check(tip.includes(`lane ${w.lane} waits at a barrier`) && tip.includes(`F${w.frame}, slot ${w.slot}`),
        `${what}: hovering a barrier wait names lane ${w.lane}, F${w.frame} and slot ${w.slot}`, tip);
  return w;
}

// A warp's task panel against SQL and the model's names: the stall reasons the page has
// (TS.NAMES, names.js, generated by the build) are the slot_profile view's stall columns in
// their order, each with a label and colour of its own (TS.STALL_STYLE); the slot profile's
// parts follow that order; the warp's row shows every stall column simt_warps has for it in that
// order right after issued_cycles, and each figure it shows as SQL has it.
async function warpPanel(page, db, run, frame, what) {
  const names = await page.evaluate(() => ({ columns: TS.NAMES.stalls.map(s => s.column),
    unstyled: TS.NAMES.stalls.filter(s => !TS.STALL_STYLE[s.name]).map(s => s.name) }));
  const cols = sql(db, `SELECT name FROM pragma_table_info('slot_profile')
    WHERE name GLOB 'stall_*_cycles' ORDER BY cid`).map(r => r.name);
  check(cols.length > 0 && same(names.columns, cols) && names.unstyled.length === 0,
        `${what}: the page's stall reasons are slot_profile's columns (${cols.join(', ')}), each ` +
        'with a label and colour', [names, cols]);
  const d = await drawn(page);
  const order = ['issued_cycles', ...cols];
  const parts = d.task.slot_profile ? d.task.slot_profile.parts : [];
  check(same(order.filter(c => parts.includes(c)), parts),
        `${what}: the slot profile's parts (${parts.join(', ')}) in the model's order`, parts);
  const w = sql(db, `SELECT * FROM simt_warps WHERE run_id = ${run} AND frame = ${frame}`)[0];
  const row = d.task.warp_row || {}, keys = Object.keys(row), at = keys.indexOf('issued_cycles');
  const stalls = cols.filter(c => w[c] !== null && w[c] !== undefined);
  check(at >= 0 && same(keys.slice(at + 1, at + 1 + stalls.length), stalls) &&
        keys.every(k => row[k] === w[k]),
        `${what}: the warp's row shows its ${stalls.length} stall columns after issued_cycles, ` +
        `every figure as simt_warps has it`, [keys, w]);
}

// Zooms in n times, each step once the page has settled; the steps' times in ms.
async function zoomSteps(page, n) {
  const steps = [];
  for (let k = 0; k < n; k++) {
    const t0 = Date.now();
    await page.click('#zoom-in');
    await settled(page);
    steps.push(Date.now() - t0);
  }
  return steps;
}

// --- bench.s: the large run -------------------------------------------------------------------

async function benchPage(page) {
  const ms = await open(page, `${benchUrl}/run/1`);
  let d = await checkWindow(page, benchDb, 1, 'bench.s whole run');
  check(d.timeline.lanes.source === 'summary', 'bench.s: the whole run from the summary', d.timeline.lanes);
  const steps = await zoomSteps(page, 8);
  d = await checkWindow(page, benchDb, 1, 'bench.s after 8 zoom steps');
  await hoverAndClick(page, benchDb, 1, 'bench.s');
  await shot(page, 'view-bench.png');
  log(`info bench.s: run page ${ms} ms, zoom steps ${steps.join(' ')} ms (load ${require('os').loadavg()[0].toFixed(1)})`);
}

// bench.s on the SIMT unit: the warps' states from the run's summary (the packs
// decoded in C), their warp-cycles equal to the warps' resident cycles; zoomed in,
// from the window's packs; a warp's ld/st per slot equal simt_mem's.
async function simtBenchPage(page) {
  const ms = await open(page, `${simtUrl}/run/1`);
  const resident = sql(simtDb, 'SELECT sum(resident_cycles) AS n FROM simt_warps WHERE run_id = 1')[0].n;
  let d = await drawn(page);
  const w = d.timeline.warps;
  const total = w ? w.cycles.reduce((a, v) => a + v, 0) : 0;
  check(w && w.source === 'summary' && Math.abs(total - resident) <= 1e-3 * resident,
        `bench.s SIMT whole run: from the summary, ${resident} warp-cycles drawn`, w);
  // level mem: no issue record, so the states are 'memory' and 'other', drawn in the colours
  // the legend gives them (not those of 'issued' and 'issue')
  const legend = await page.$$eval('.legend span', s => s.map(e => e.textContent));
  check(w && same(w.states.slice(0, 2), ['memory', 'other']) &&
        same(w.colours.slice(0, 2), ['#c62828', '#90a4ae']) &&
        legend.some(t => /ld\/st outstanding/.test(t)) && !legend.some(t => /eligible, not chosen/.test(t)),
        'bench.s SIMT (level mem): warp states memory and other, in their legend\'s colours', [w, legend]);
  const steps = await zoomSteps(page, 8);
  d = await drawn(page);
  const [from, to] = [d.timeline.from, d.timeline.to];
  const inView = sql(simtDb, `SELECT sum(min(coalesce(end_ps, ${to} * 1000), ${to} * 1000)
    - max(start_ps, ${from} * 1000)) / 1000.0 AS n FROM simt_warps WHERE run_id = 1
    AND start_ps < ${to} * 1000 AND coalesce(end_ps, ${to} * 1000) > ${from} * 1000`)[0].n;
  const got = d.timeline.warps ? d.timeline.warps.cycles.reduce((a, v) => a + v, 0) : 0;
  check(d.timeline.warps && d.timeline.warps.source === 'packs' && Math.abs(got - inView) <= 1e-3 * inView + 1,
        `bench.s SIMT after 8 zoom steps: from the window's packs, ${inView} warp-cycles drawn`, d.timeline.warps);
  const task = await hoverAndClick(page, simtDb, 1, 'bench.s SIMT');
  d = await drawn(page);
  const want = sql(simtDb, `SELECT slot, count(*) AS n FROM simt_mem WHERE run_id = 1
    AND frame = ${task.frame} GROUP BY slot ORDER BY slot`).map(r => [r.slot, r.n]);
  check(d.task.warp_mem && same(d.task.warp_mem.filter(r => r[1] !== null), want),
        `bench.s SIMT: the task panel shows warp F${task.frame}'s ${want.length} ld/st slots`, d.task.warp_mem);
  await warpPanel(page, simtDb, 1, task.frame, 'bench.s SIMT');
  await shot(page, 'view-simt-bench.png');
  log(`info bench.s SIMT: run page ${ms} ms, zoom steps ${steps.join(' ')} ms`);
}

async function main() {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true, args: FLAGS });
  const page = await browser.newPage({ viewport: { width: 1360, height: 1000 } });
  const problems = [];
  watch(page, problems);
  try {
    const two = await runsPage(page);
    await comparePage(page, two);
    await runPage(page, two);
    await simtPage(page);
    await barrierPage(page);
    if (benchUrl) await benchPage(page);
    if (simtUrl) await simtBenchPage(page);
  } catch (e) {
    check(false, 'the checks ran to the end', e.stack || String(e));
  } finally {
    await browser.close();
  }
  check(problems.length === 0, 'no console error, page error or failed request', problems.slice(0, 10));
  log(failures ? `view-check: ${failures} failure(s)` : 'view-check: every check passed');
  process.exit(failures ? 1 : 0);
}

main();
