/* cfg_keys.c — the table of configuration keys: for each key its field in
 * cfg_t, its type and bounds, its default and its documentation. The single
 * source for defaults, parsing, printing and docs/CONFIG.md; the model's keys
 * take their defaults and bounds from the model's table (model/gpu_keys.h).
 * Invariant: sections are contiguous, every default parses, and its
 * canonical text is the default as written (tests/test_config.c checks
 * both, and that the model and this table mean the same by each bound). */
#include <stdio.h>
#include <string.h>

#include "config/cfg_int.h"
#include "model/gpu_keys.h"
#include "model/simt/simt.h"
#include "events/base/err.h"

#define FIELD_SIZE(f) ((uint8_t)sizeof(((cfg_t *)0)->f))
#define KEY(sec, nm) .section = sec, .name = nm, .info.key = sec "." nm

#define UINT(f, lo, hi) .type = CFG_T_UINT, .off = offsetof(cfg_t, f), .size = FIELD_SIZE(f), \
                        .min = (lo), .max = (hi)
#define REAL(f, lo, hi) .type = CFG_T_REAL, .off = offsetof(cfg_t, f), .rmin = (lo), .rmax = (hi)
#define LAT(f, lo) .type = CFG_T_LAT, .off = offsetof(cfg_t, f), .min = (lo), .max = LAT_MAX_CYCLES
#define ENUM(f, nm, vl) .type = CFG_T_ENUM, .off = offsetof(cfg_t, f), .size = FIELD_SIZE(f), \
                        .names = (nm), .vals = (vl)
#define BOOL(f) .type = CFG_T_BOOL, .off = offsetof(cfg_t, f), .size = FIELD_SIZE(f)
#define DOC(d, u, v, text) .info.def = d, .info.unit = u, .info.values = v, .info.doc = text

/* The keys of the model's settings take their default and bounds from its
 * table (model/gpu_keys.h): MODEL(GPU_KEY_X) gives the key, its field, type,
 * bounds, default and, for numbers and latencies, the values documented;
 * the entry adds the unit and documentation (UNIT_DOC), or the values too
 * (VALUES_DOC) for the enumerations and the keys shown otherwise. Numbers are
 * shown as the table writes them (its macros expanded first: M_*). */
#define MODEL(ROW) ROW(M_NUMBER, M_LATENCY, M_ENUM, M_BOOL)
#define M_NUMBER(f, sec, nm, dv, lo, hi) M_NUMBER_(f, sec, nm, dv, lo, hi)
#define M_NUMBER_(f, sec, nm, dv, lo, hi)                                                  \
    KEY(sec, nm), UINT(gpu.f, lo, hi), .info.def = #dv, .info.values = #lo ".." #hi
#define M_LATENCY(f, sec, nm, dv, lo) M_LATENCY_(f, sec, nm, dv, lo)
#define M_LATENCY_(f, sec, nm, dv, lo)                                                     \
    KEY(sec, nm), LAT(gpu.f, lo), .info.def = #dv, .info.values = "latency >= " #lo
#define M_ENUM(f, sec, nm, nms, dv) KEY(sec, nm), ENUM(gpu.f, nms, NULL), .info.def = #dv
#define M_BOOL(f, sec, nm, dv)                                                             \
    KEY(sec, nm), BOOL(gpu.f), .info.def = #dv, .info.values = BOOL_VALUES
/* a policy point (sm.arbiter, sm.bank_map, simt.scheduler): an enumeration or a plugin */
#define MODEL_POLICY(ROW, pt) ROW(M_NUMBER, M_LATENCY, M_POLICY, M_BOOL), .point = (pt)
#define M_POLICY(f, sec, nm, nms, dv)                                                      \
    KEY(sec, nm), .type = CFG_T_POLICY, .off = offsetof(cfg_t, gpu.f),                       \
        .size = FIELD_SIZE(gpu.f), .names = (nms), .info.def = #dv
/* a number shown as its own list of values (sm.banks) or text (sim.seed) */
#define MODEL_SHOWN(ROW, AS) ROW(AS, M_LATENCY, M_ENUM, M_BOOL)
#define M_BANKS(f, sec, nm, dv, lo, hi) M_BANKS_(f, sec, nm, dv)
#define M_BANKS_(f, sec, nm, dv) KEY(sec, nm), ENUM(gpu.f, bank_names, bank_vals), .info.def = #dv
#define M_UINT(f, sec, nm, dv, lo, hi) M_UINT_(f, sec, nm, dv, lo, hi)
#define M_UINT_(f, sec, nm, dv, lo, hi) KEY(sec, nm), UINT(gpu.f, lo, hi), .info.def = #dv
#define UNIT_DOC(u, text) .info.unit = u, .info.doc = text
#define VALUES_DOC(u, v, text) .info.unit = u, .info.values = v, .info.doc = text
#define BOOL_VALUES "on, off (also true/false, yes/no, 1/0)"
/* Where a key applies (cfg.h, "keys that apply"): the machines (default: mimd
 * and simt), what else it needs, and whether runs differing in it alone may
 * be averaged. */
#define ONLY_SIMT .on = CFG_ON_SIMT
#define ALSO_ISS .on = CFG_ON_MIMD | CFG_ON_SIMT | CFG_ON_ISS
#define NEEDS(n) .needs = CFG_NEED_##n
#define REPLICATE .replicate = true

/* Enumerated keys take their choices, and the documentation of each, from
 * the enumeration's one list (model/gpu.h, model/simt/simt.h, config/cfg.h;
 * xenum.h). */
const char *const cfg_rec_level_names[] = {REC_LEVELS(XENUM_NAME)[REC_LEVEL_COUNT] = NULL};

#define PROGRESS_NAME(P, id, name, value) name,
#define PROGRESS_VALUE(P, id, name, value) P##id,
static const char *const progress_names[] = {CFG_PROGRESSES(PROGRESS_NAME) NULL};
static const int progress_vals[] = {CFG_PROGRESSES(PROGRESS_VALUE)};
static const char *const bank_names[] = {"1", "2", "4", "8", "16", "32", "64", NULL};
static const int bank_vals[] = {1, 2, 4, 8, 16, 32, 64};
_Static_assert(SM_BANKS_MAX == 64, "bank_names lists the powers of two up to SM_BANKS_MAX");

#define PLUGIN_DOC                                                                           \
    " plugin:PATH: a policy of your own, a shared object built against "                     \
    "api/tessera_policy.h (docs/STUDY-POLICIES.md); its parameters are plugin.NAME.KEY."

static const cfg_key_t keys[] = {
    {MODEL(GPU_KEY_PERIOD_PS),
     UNIT_DOC("ps",
         "Length of one GPU clock cycle; every latency is a number of these cycles "
         "(1000 ps = 1 GHz).")},

    {MODEL(GPU_KEY_TS_DECODE),
     UNIT_DOC("cycles", "T1: time the TS takes to decode one frame (CF or IF).")},
    {MODEL(GPU_KEY_TS_XFER),
     UNIT_DOC("cycles",
         "T4: time the shared code bus is busy broadcasting one IF to the cores of its group "
         "(32 bytes over an 8-byte bus).")},
    {MODEL(GPU_KEY_TS_READY),
     UNIT_DOC("cycles", "T5: time a core's READY takes to reach the TS.")},
    {MODEL(GPU_KEY_POLICY),
     VALUES_DOC("", XENUM_JOIN(GPU_POLICIES), "D5: issue policy." GPU_POLICIES(XENUM_DOC))},
    {MODEL(GPU_KEY_WINDOW),
     UNIT_DOC("frames",
         "How many frames the lookahead policy considers from the oldest unissued one; "
         "ignored (and not recorded) by inorder."), NEEDS(LOOKAHEAD)},

    {MODEL(GPU_KEY_CORE_ALU),
     UNIT_DOC("cycles",
         "T6: latency of nop, add, sub, cmpge, rshft, lshft, and, or, xor and set_const.")},
    {MODEL(GPU_KEY_CORE_MUL), UNIT_DOC("cycles", "T6: latency of mul.")},
    {MODEL(GPU_KEY_CORE_DIV), UNIT_DOC("cycles", "T6: latency of div.")},
    {MODEL(GPU_KEY_CORE_BRANCH), UNIT_DOC("cycles", "T6: latency of bnz, taken or not.")},
    {MODEL(GPU_KEY_CORE_READY),
     UNIT_DOC("cycles",
         "T6: latency of the ready instruction (before READY leaves the core).")},
    {MODEL(GPU_KEY_BUDGET),
     UNIT_DOC("instructions",
         "D12 watchdog: instructions one core may execute in one task (ready included); "
         "a task that would exceed it stops the run with status watchdog.")},
    {MODEL(GPU_KEY_TIMING),
     VALUES_DOC("", XENUM_JOIN(GPU_TIMINGS),
         "How the cores are simulated." GPU_TIMINGS(XENUM_DOC) " Every mode gives the same "
         "timestamps."), REPLICATE},
    {MODEL(GPU_KEY_MODEL),
     VALUES_DOC("", XENUM_JOIN(GPU_MODELS),
         "What executes the tasks." GPU_MODELS(XENUM_DOC) " The simt.* keys apply only to "
         "simt.")},

    {MODEL(GPU_KEY_SM_REQ),
     UNIT_DOC("cycles", "T7: time a ld/st request takes from the core to its bank.")},
    {MODEL(GPU_KEY_SM_BANK),
     UNIT_DOC("cycles", "T7: time a granted request holds its bank.")},
    {MODEL(GPU_KEY_SM_RESP),
     UNIT_DOC("cycles",
         "T7: time the answer (data for ld, acknowledge for st) takes to reach the core "
         "after the bank is done.")},
    {MODEL_POLICY(GPU_KEY_ARBITER, GPU_POINT_ARBITER),
     VALUES_DOC("", (&(GPU_ARBITERS(XENUM_SEP_NAME) ", plugin:PATH")[2]),
         "T8: which waiting request a free bank grants." GPU_ARBITERS(XENUM_DOC) PLUGIN_DOC)},
    {MODEL_POLICY(GPU_KEY_BANK_MAP, GPU_POINT_BANK_MAP),
     VALUES_DOC("", (&(GPU_BANK_MAPS(XENUM_SEP_NAME) ", plugin:PATH")[2]),
         "How a byte address picks its bank, with k = log2(sm.banks)." GPU_BANK_MAPS(XENUM_DOC)
         PLUGIN_DOC), ALSO_ISS},
    {MODEL_SHOWN(GPU_KEY_BANKS, M_BANKS),
     VALUES_DOC("banks", "1, 2, 4, 8, 16, 32, 64",
         "D13: how many banks the 4096 bytes are split into, each of 4096 / sm.banks bytes "
         "and serving one access at a time (T8)."), ALSO_ISS},
    {MODEL(GPU_KEY_ATOMICS),
     UNIT_DOC("",
         "D16 extension: ld_sync/st_sync (bits [7:6] = 01 of the high-address register) lock "
         "a byte from a core's ld_sync to its st_sync. off: bits [7:4] of the high-address "
         "register are ignored.")},

    {MODEL_POLICY(GPU_KEY_SIMT_SCHEDULER, GPU_POINT_SCHEDULER),
     VALUES_DOC("", (&(SIMT_SCHEDS(XENUM_SEP_NAME) ", plugin:PATH")[2]),
         "S6: which eligible warps issue." SIMT_SCHEDS(XENUM_DOC) PLUGIN_DOC " Only with "
         "core.model = simt: a mimd run ignores it and does not record it."), ONLY_SIMT},
    {MODEL(GPU_KEY_SIMT_ISSUE_WIDTH),
     UNIT_DOC("warps",
         "S5: warp instructions issued per cycle, each from a different warp. Only with "
         "core.model = simt."), ONLY_SIMT},
    {MODEL(GPU_KEY_SIMT_SCOREBOARD),
     UNIT_DOC("",
         "S4: off: a warp issues its next instruction when the previous one has completed; "
         "on: in program order, one per cycle, as soon as its registers have no incomplete "
         "writer (one ld/st in flight per warp). Only with core.model = simt."), ONLY_SIMT},
    {MODEL(GPU_KEY_SIMT_BROADCAST),
     UNIT_DOC("",
         "S8: on: the lanes of one ld that read the same byte share one bank access (st and "
         "ld_sync never merge). Only with core.model = simt."), ONLY_SIMT},
    {MODEL(GPU_KEY_SIMT_IBUFFER),
     UNIT_DOC("entries",
         "S11: I-buffer entries per warp; a warp issues only the instruction at the head of "
         "its I-buffer, filled by one fetch port shared round-robin by the warps. 0: an "
         "ideal front end. Only with core.model = simt."), ONLY_SIMT},
    {MODEL(GPU_KEY_SIMT_FETCH_WIDTH),
     UNIT_DOC("slots",
         "S11: consecutive slots one fetch brings (never past a bnz, a ready or slot 15). "
         "Only with simt.ibuffer >= 1."), ONLY_SIMT, NEEDS(IBUFFER)},
    {MODEL(GPU_KEY_SIMT_FETCH_LATENCY),
     UNIT_DOC("cycles",
         "S11: cycles from a fetch to its slots in the I-buffer. Only with simt.ibuffer >= 1."), ONLY_SIMT, NEEDS(IBUFFER)},
    {MODEL(GPU_KEY_SIMT_COLLECTORS),
     UNIT_DOC("units",
         "S12: operand collector units; an instruction needs a free one to issue and is "
         "dispatched when its source registers have been read from the register-file banks. "
         "0: operands are read at issue at no cost. Only with core.model = simt."), ONLY_SIMT},
    {MODEL(GPU_KEY_SIMT_RF_BANKS),
     UNIT_DOC("banks",
         "S12: register-file banks feeding the collectors, each serving one read per cycle; "
         "register r of a warp whose lowest lane is w lies in bank (r + w) mod rf_banks. "
         "Only with simt.collectors >= 1."), ONLY_SIMT, NEEDS(COLLECTORS)},
    {MODEL(GPU_KEY_SIMT_RF_ARBITER),
     VALUES_DOC("", XENUM_JOIN(SIMT_RF_ARBITERS),
         "S12: which pending read each register-file bank serves in a cycle (an instruction "
         "takes the lowest-numbered free collector at its issue)." SIMT_RF_ARBITERS(XENUM_DOC)
         " Only with simt.collectors >= 1."), ONLY_SIMT, NEEDS(COLLECTORS)},
    {MODEL(GPU_KEY_SIMT_SP_WIDTH),
     UNIT_DOC("lanes",
         "S13: lanes the SP units (every instruction but mul, div, ld, st) serve per cycle: "
         "an instruction of n active lanes takes ceil(n / sp_width) passes. Only with "
         "core.model = simt."), ONLY_SIMT},
    {MODEL(GPU_KEY_SIMT_SFU_WIDTH),
     UNIT_DOC("lanes",
         "S13: lanes the SFU units (mul, div) serve per cycle. Only with core.model = simt."), ONLY_SIMT},
    {MODEL(GPU_KEY_SIMT_LSU_WIDTH),
     UNIT_DOC("lanes",
         "S13: lanes the LSU units (ld, st) serve per cycle; pass j sends the requests of "
         "active lanes j*lsu_width ... in lane order. Only with core.model = simt."), ONLY_SIMT},
    {MODEL(GPU_KEY_SIMT_RECONVERGENCE),
     VALUES_DOC("", XENUM_JOIN(GPU_RECONVS),
         "How a divergent warp reconverges." GPU_RECONVS(XENUM_DOC) " barrier cannot be "
         "combined with simt.ibuffer >= 1 (S14). Only with core.model = simt."), ONLY_SIMT},

    {MODEL_SHOWN(GPU_KEY_SEED, M_UINT),
     VALUES_DOC("", "0..18446744073709551615, decimal or 0x hex",
         "Seed of every random stream (the random arbiter, latency distributions, policy "
         "plugins). The same seed gives the same run on every host. A run with nothing "
         "random does not record it."), NEEDS(RANDOM), REPLICATE},
    {KEY("sim", "time_limit"), UINT(sim.time_limit, 0, UINT64_MAX),
     DOC("0", "cycles", "0..18446744073709551615 (in ps it must fit in 64 bits)",
         "Stop the run at this many simulated cycles (status time_limit, stopped at the "
         "limit); 0 = no limit.")},
    {KEY("sim", "wall_limit"), REAL(sim.wall_limit_s, 0, 1e9),
     DOC("0", "seconds", "0..1e9",
         "Stop the run after this much wall-clock time (status wall_limit); 0 = no limit.")},
    {KEY("sim", "pace"), REAL(sim.pace, 0, 1e12),
     DOC("0", "wall s per simulated s", "0..1e12",
         "Run paced on libev timers, for demonstrations or co-simulation: wall seconds per "
         "simulated second (1e9 with the default clock = one cycle per second); "
         "0 = as fast as possible."), REPLICATE},
    {KEY("sim", "progress"), ENUM(sim.progress, progress_names, progress_vals),
     DOC("auto", "", XENUM_JOIN(CFG_PROGRESSES),
         "Print a progress line on stderr during the run; auto: only when stderr is a "
         "terminal."), REPLICATE},

    {KEY("record", "level"), ENUM(record.level, cfg_rec_level_names, NULL),
     DOC("mem", "", XENUM_JOIN(REC_LEVELS),
         "What the run records in the database." REC_LEVELS(XENUM_DOC)), REPLICATE},
    {KEY("record", "from_ps"), UINT(record.from_ps, 0, UINT64_MAX),
     DOC("0", "ps", "0..18446744073709551615",
         "Record tasks, accesses and events only from this simulated time on."), REPLICATE},
    {KEY("record", "to_ps"), UINT(record.to_ps, 0, UINT64_MAX),
     DOC("0", "ps", "0, or above record.from_ps",
         "Record tasks, accesses and events only until this simulated time; 0 = until the "
         "end. With from_ps or to_ps set, the intervals table also gets the window's "
         "utilisation and conflict figures (kind 'window')."), REPLICATE},
    {KEY("record", "interval"), UINT(record.interval, 0, UINT64_MAX),
     DOC("0", "cycles", "0..18446744073709551615",
         "Split the cores' and banks' counters over intervals of this many cycles (table "
         "intervals, view utilization_over_time; they sum to the whole-run counters); 0 = "
         "none. At most 4096 intervals are kept: a longer run has them merged pairwise "
         "(lengths doubled, with a warning). Cores then run one instruction at a time: "
         "slower, the same results."), REPLICATE},
    {KEY("record", "max_mb"), UINT(record.max_mb, 0, 1048576),
     DOC("2048", "MiB", "0..1048576",
         "Stop the run when what it has added to its database (the file and its "
         "write-ahead log) passes this size: status record_limit, exit code 4, stopped as "
         "sim.wall_limit stops it; what was recorded stays. The progress line shows the "
         "size. 0 = no limit."), REPLICATE},
};

#define NKEYS (sizeof keys / sizeof keys[0])

/* --- what a key needs to have an effect (cfg_key_t.needs) --- */

/* Something draws from sim.seed's streams: the random arbiter, a latency
 * drawn from a distribution, a policy plugin (its host random stream). */
static bool random_used(const cfg_t *c)
{
    if (c->gpu.arbiter == GPU_ARB_RANDOM && !c->gpu.policies.impl[GPU_POINT_ARBITER])
        return true;
    for (unsigned p = 0; p < GPU_POINT_COUNT; p++)
        if (c->gpu.policies.impl[p])
            return true;
    for (size_t i = 0; i < NKEYS; i++)
        if (keys[i].type == CFG_T_LAT &&
            !lat_is_fixed((const lat_t *)(const void *)((const char *)c + keys[i].off)))
            return true;
    return false;
}

static bool lookahead(const cfg_t *c) { return c->gpu.policy == GPU_POLICY_LOOKAHEAD; }
static bool ibuffer(const cfg_t *c) { return c->gpu.simt_ibuffer >= 1; }
static bool collectors(const cfg_t *c) { return c->gpu.simt_collectors >= 1; }

/* Each condition: when it holds (for people), why a key that needs it has no
 * effect without it, and what to add. Indexed by cfg_need_t. */
static const struct {
    bool (*holds)(const cfg_t *c);
    const char *when, *why, *fix;
} needs[CFG_NEED_COUNT] = {
    [CFG_NEED_LOOKAHEAD] = {lookahead, "with ts.policy = lookahead",
                            "ts.policy is inorder: the window is the lookahead policy's",
                            "-s ts.policy=lookahead"},
    [CFG_NEED_RANDOM] = {random_used,
                         "when something is random: sm.arbiter = random, a drawn latency, a "
                         "policy plugin",
                         "nothing in the run is random (no random arbiter, drawn latency or "
                         "policy plugin): every seed gives the same run",
                         "-s sm.arbiter=random or a drawn latency (e.g. -s sm.bank=uniform:1..4)"},
    [CFG_NEED_IBUFFER] = {ibuffer, "with simt.ibuffer >= 1",
                          "simt.ibuffer is 0: an ideal front end fetches nothing",
                          "-s simt.ibuffer=N (N >= 1)"},
    [CFG_NEED_COLLECTORS] = {collectors, "with simt.collectors >= 1",
                             "simt.collectors is 0: operands are read at issue, from no bank",
                             "-s simt.collectors=N (N >= 1)"},
};

const char *cfg_need_unmet(unsigned need, const cfg_t *c, const char **fix)
{
    if (need == CFG_NEED_NONE || need >= CFG_NEED_COUNT || needs[need].holds(c))
        return NULL;
    *fix = needs[need].fix;
    return needs[need].why;
}

const char *cfg_need_text(unsigned need)
{
    return need > CFG_NEED_NONE && need < CFG_NEED_COUNT ? needs[need].when : "";
}

static const struct {
    const char *name, *doc;
} sections[] = {
    {"clock", "The GPU clock."},
    {"ts", "The Task Scheduler: frame decode, the code bus, READY collection, issue policy."},
    {"core", "The 16 cores: instruction latencies and the watchdog."},
    {"sm", "The banked Shared Memory: access latencies, arbitration, bank count and address "
           "mapping."},
    {"simt", "The SIMT unit (core.model = simt): warp scheduler, issue width, scoreboard, "
             "broadcast."},
    {"sim", "The simulation run: randomness, limits, pacing, progress."},
    {"record", "What the run records in the statistics database."},
};

#define NSECTIONS (sizeof sections / sizeof sections[0])

size_t cfg_key_count(void) { return NKEYS; }

const cfg_key_t *cfg_key_at(size_t i) { return i < NKEYS ? &keys[i] : NULL; }

const cfg_key_info_t *cfg_key_info(size_t i) { return i < NKEYS ? &keys[i].info : NULL; }

const char *cfg_section_doc(const char *section)
{
    for (size_t i = 0; i < NSECTIONS; i++)
        if (!strcmp(sections[i].name, section))
            return sections[i].doc;
    return "";
}

/* "a, b, c" of the names of `section`'s keys. */
static void section_keys(const char *section, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; i < NKEYS && at < n; i++) {
        if (strcmp(keys[i].section, section))
            continue;
        int w = snprintf(buf + at, n - at, "%s%s", at ? ", " : "", keys[i].name);
        at += w > 0 ? (size_t)w : 0;
    }
}

/* "clock, ts, ... or record" */
static void section_list(char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; i < NSECTIONS && at < n; i++) {
        const char *sep = i == 0 ? "" : i + 1 == NSECTIONS ? " or " : ", ";
        int w = snprintf(buf + at, n - at, "%s%s", sep, sections[i].name);
        at += w > 0 ? (size_t)w : 0;
    }
}

int cfg_section_check(const char *section, diag_t *d)
{
    char list[CFG_VALUE_MAX];
    if (cfg_section_doc(section)[0] || !strcmp(section, CFG_PLUGIN_SECTION))
        return TESS_OK;
    section_list(list, sizeof list);
    return diag_fail(d, TESS_EINPUT, "unknown section '%s' (expected %s)", section, list);
}

const cfg_key_t *cfg_key_lookup(const char *section, const char *name, diag_t *d)
{
    char list[CFG_VALUE_MAX];
    for (size_t i = 0; i < NKEYS; i++)
        if (!strcmp(keys[i].section, section) && !strcmp(keys[i].name, name))
            return &keys[i];
    if (cfg_section_doc(section)[0] == 0) {
        section_list(list, sizeof list);
        diag_fail(d, TESS_EINPUT, "%s.%s: unknown section '%s' (expected %s)", section, name,
                  section, list);
        return NULL;
    }
    section_keys(section, list, sizeof list);
    diag_fail(d, TESS_EINPUT, "%s.%s: unknown key (%s has %s)", section, name, section, list);
    return NULL;
}
