/* test_config.c — the configuration module and `tessera config`: defaults
 * equal spec §6, files and -s overrides, every key's valid and invalid
 * values and their messages, the latency syntax, round trips through
 * cfg_format, the presets in config/, and docs/CONFIG.md being up to date. */
#include <dirent.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/cfg.h"
#include "events/base/err.h"
#include "model/gpu.h"
#include "model/gpu_keys.h"
#include "model/simt/simt.h"
#include "model/simt/sched.h"
#include "model/xenum.h"
#include "tests/testutil.h"

/* --- helpers -------------------------------------------------------------- */

static cfg_t defaults(void)
{
    cfg_t c;
    cfg_default(&c);
    return c;
}

static int same(const cfg_t *a, const cfg_t *b) { return memcmp(a, b, sizeof *a) == 0; }

/* The canonical text of `key` in c (static rotating buffer). */
static const char *val(const cfg_t *c, const char *key)
{
    static char bufs[4][256];
    static unsigned next;
    char *b = bufs[next++ % 4];
    CU_ASSERT_EQUAL(cfg_get(c, key, b, 256), TESS_OK);
    return b;
}

/* Writes `text` to a scratch file and returns its path. */
static const char *scratch(const char *name, const char *text)
{
    const char *path = test_tmp_path(name);
    CU_ASSERT_EQUAL_FATAL(test_write_file(path, text, strlen(text)), 0);
    return path;
}

/* Asserts that the message in d is `expect` (printed when not). */
/* In an expected message, ARBITERS stands for the built-in arbiters as the
 * messages list them ("fixed, rr, fifo, random", from GPU_ARBITERS), so
 * that adding one (docs/ARCHITECTURE.md, "Adding an arbiter";
 * scripts/check-recipe.sh follows it) leaves these tests true. */
#define ARBITERS "{arbiters}"

/* `expect` with ARBITERS replaced, in buf. */
static const char *expand(const char *expect, char *buf, size_t size)
{
    const char *at = strstr(expect, ARBITERS);
    if (!at)
        return expect;
    snprintf(buf, size, "%.*s%s%s", (int)(at - expect), expect, XENUM_JOIN(GPU_ARBITERS),
             at + strlen(ARBITERS));
    return buf;
}

static void msg_is(const diag_t *d, const char *expect)
{
    char buf[1400];
    expect = expand(expect, buf, sizeof buf);
    if (strcmp(d->msg, expect))
        fprintf(stderr, "\n  message:  %s\n  expected: %s\n", d->msg, expect);
    CU_ASSERT_STRING_EQUAL(d->msg, expect);
}

/* One non-default, valid value for every key (the tests check the list is
 * complete): used to prove that a file sets every key, and round trips. */
static const char *const non_defaults[] = {
    "clock.period_ps=500",     "ts.decode=uniform:0..3",     "ts.xfer=geometric:2.5",
    "ts.ready=choice:0,1,1,9", "ts.policy=lookahead",        "ts.window=17",
    "core.alu=2",              "core.mul=uniform:2..5",      "core.div=geometric:12.125",
    "core.branch=choice:1,2",  "core.ready=3",               "core.budget=0x1000",
    "core.timing=stepped",     "core.model=simt",            "simt.scheduler=gto",
    "simt.issue_width=16",     "simt.scoreboard=on",         "simt.broadcast=yes",
    "simt.ibuffer=2",          "simt.fetch_width=1",         "simt.fetch_latency=3",
    "simt.collectors=4",       "simt.rf_banks=8",            "simt.sp_width=4",
    "simt.sfu_width=1",        "simt.lsu_width=8",        "simt.reconvergence=barrier",
    "simt.rf_arbiter=rr",
    "sm.req=0",                "sm.bank=geometric:1.000001",
    "sm.resp=uniform:0..1000000", "sm.arbiter=random",       "sm.bank_map=interleaved",
    "sm.banks=32",
    "sm.atomics=on",           "sim.seed=0xfedcba9876543210", "sim.time_limit=123456",
    "sim.wall_limit=2.5",      "sim.pace=0.1",               "sim.progress=off",
    "record.level=events",     "record.from_ps=1000",        "record.to_ps=99999",
    "record.interval=250",     "record.max_mb=64",
    NULL,
};

/* Every key set to its non-default value. */
static cfg_t scrambled(void)
{
    cfg_t c = defaults();
    diag_t d = {0};
    for (const char *const *a = non_defaults; *a; a++)
        CU_ASSERT_EQUAL(cfg_set(&c, *a, &d), TESS_OK);
    CU_ASSERT_EQUAL(d.code, TESS_OK);
    return c;
}

/* True when some assignment in the NULL-terminated list sets `key`. */
static int list_sets(const char *const *list, size_t stride, const char *key)
{
    size_t len = strlen(key);
    for (const char *const *a = list; *a; a += stride)
        if (!strncmp(*a, key, len) && (*a)[len] == '=')
            return 1;
    return 0;
}

/* --- defaults and the key table --------------------------------------------- */

static void check_fixed(const lat_t *l, uint32_t cycles, const char *key)
{
    if (!lat_is_fixed(l) || l->lo != cycles)
        fprintf(stderr, "\n  %s is not fixed %u\n", key, cycles);
    CU_ASSERT_TRUE(lat_is_fixed(l));
    CU_ASSERT_EQUAL(l->lo, cycles);
    CU_ASSERT_EQUAL(l->hi, cycles);
}

static void test_defaults_equal_spec_section_6(void)
{
    cfg_t c = defaults();
    const gpu_desc_t *g = &c.gpu;
    CU_ASSERT_EQUAL(g->period_ps, 1000);
    check_fixed(&g->ts_decode, 1, "ts.decode");     /* T1 */
    check_fixed(&g->ts_xfer, 4, "ts.xfer");         /* T4 */
    check_fixed(&g->ts_ready, 1, "ts.ready");       /* T5 */
    check_fixed(&g->core_alu, 1, "core.alu");       /* T6 */
    check_fixed(&g->core_mul, 2, "core.mul");
    check_fixed(&g->core_div, 8, "core.div");
    check_fixed(&g->core_branch, 1, "core.branch");
    check_fixed(&g->core_ready, 1, "core.ready");
    check_fixed(&g->sm_req, 1, "sm.req");           /* T7 */
    check_fixed(&g->sm_bank, 1, "sm.bank");
    check_fixed(&g->sm_resp, 1, "sm.resp");
    CU_ASSERT_EQUAL(g->policy, GPU_POLICY_INORDER); /* D5 */
    CU_ASSERT_EQUAL(g->window, 8);
    CU_ASSERT_EQUAL(g->budget, 67108864);           /* D12: 2^26 */
    CU_ASSERT_EQUAL(g->timing, GPU_TIMING_DECOUPLED);
    CU_ASSERT_EQUAL(g->arbiter, GPU_ARB_FIXED);     /* T8 */
    CU_ASSERT_EQUAL(g->bank_map, GPU_MAP_HIGH);     /* D13 */
    CU_ASSERT_FALSE(g->atomics);                    /* D16 */
    CU_ASSERT_EQUAL(g->seed, 1);
    CU_ASSERT_EQUAL(c.record.level, REC_MEM);
    CU_ASSERT_EQUAL(c.record.from_ps, 0);
    CU_ASSERT_EQUAL(c.record.to_ps, 0);
    CU_ASSERT_EQUAL(c.sim.time_limit, 0);
    CU_ASSERT_EQUAL(c.sim.wall_limit_s, 0.0);
    CU_ASSERT_EQUAL(c.sim.pace, 0.0);
    CU_ASSERT_EQUAL(c.sim.progress, CFG_PROGRESS_AUTO);
}

/* Writes `v` into a field of `size` bytes (a gpu_desc_t number). */
static void set_field(void *field, size_t size, uint64_t v)
{
    if (size == 1)
        *(uint8_t *)field = (uint8_t)v;
    else if (size == 8)
        *(uint64_t *)field = v;
    else
        CU_FAIL("a field size set_field does not know");
}

/* A number or latency key of the model at its bounds lo..hi (from the
 * table): the configuration accepts both and the model too; one past either
 * (when there is such a value) is refused by both — the configuration by its
 * key table, the model by gpu_desc_check, each naming the key. */
static void check_bounds(const char *key, uint64_t lo, uint64_t hi, uint64_t type_max,
                         void (*set)(gpu_desc_t *d, uint64_t v))
{
    diag_t d = {0};
    uint64_t ends[2] = {lo, hi};
    for (int i = 0; i < 2; i++) {
        char arg[96];
        cfg_t c = defaults();
        snprintf(arg, sizeof arg, "%s=%llu", key, (unsigned long long)ends[i]);
        CU_ASSERT_EQUAL(cfg_set(&c, arg, &d), TESS_OK);
        CU_ASSERT_EQUAL(gpu_desc_check(&c.gpu, &d), TESS_OK);
        gpu_desc_t m;
        gpu_desc_default(&m);
        set(&m, ends[i]);
        CU_ASSERT_EQUAL(gpu_desc_check(&m, &d), TESS_OK);
        bool past = i == 0 ? lo > 0 : hi < type_max;
        if (!past)
            continue;
        uint64_t v = i == 0 ? lo - 1 : hi + 1;
        c = defaults();
        snprintf(arg, sizeof arg, "%s=%llu", key, (unsigned long long)v);
        CU_ASSERT_EQUAL(cfg_set(&c, arg, &d), TESS_EINPUT);
        CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, key));
        gpu_desc_default(&m);
        set(&m, v);
        d = (diag_t){0};
        CU_ASSERT_EQUAL(gpu_desc_check(&m, &d), TESS_EINPUT);
        CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, key));
        if (!strstr(d.msg, key))
            fprintf(stderr, "\n  %s: the model says '%s'\n", arg, d.msg);
    }
}

/* The model's settings, their defaults and bounds, have one home: the table
 * of model/gpu_keys.h, from which gpu_desc_default, gpu_desc_check and the
 * configuration's key table are derived. What can still differ is the
 * derivation: the configuration's default is the table's text parsed (it
 * must give gpu_desc_default's value), and each bound must mean the same to
 * both (check_bounds, over every number and latency of the table). */
#define SETTER_NUMBER(f, sec, nm, dv, lo, hi)                                                \
    static void set_##f(gpu_desc_t *d, uint64_t v) { set_field(&d->f, sizeof d->f, v); }
#define SETTER_LATENCY(f, sec, nm, dv, lo)                                                   \
    static void set_##f(gpu_desc_t *d, uint64_t v) { d->f = lat_fixed((uint32_t)v); }
#define NO_ENUM(f, sec, nm, names, dv)
#define NO_BOOL(f, sec, nm, dv)
GPU_KEYS(SETTER_NUMBER, SETTER_LATENCY, NO_ENUM, NO_BOOL)

static void test_model_keys_from_one_table(void)
{
    cfg_t c = defaults(), m = defaults();
    gpu_desc_default(&m.gpu);
    char *a = cfg_format(&c), *b = cfg_format(&m);
    CU_ASSERT_STRING_EQUAL(a, b);
    free(a);
    free(b);
    diag_t d = {0};
    CU_ASSERT_EQUAL(gpu_desc_check(&c.gpu, &d), TESS_OK);
    c = scrambled(); /* every key off its default: barrier with an I-buffer, which S14
                        refuses as a combination (naming both keys) */
    CU_ASSERT_EQUAL(gpu_desc_check(&c.gpu, &d), TESS_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "simt.reconvergence"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "simt.ibuffer"));
    c.gpu.simt_reconvergence = GPU_RECONV_STACK;
    CU_ASSERT_EQUAL(gpu_desc_check(&c.gpu, &d), TESS_OK);
    unsigned n = 0;
#define BOUNDS_NUMBER(f, sec, nm, dv, lo, hi)                                                \
    check_bounds(sec "." nm, lo, hi, sizeof m.gpu.f == 1 ? UINT8_MAX : UINT64_MAX, set_##f);  \
    n++;
#define BOUNDS_LATENCY(f, sec, nm, dv, lo)                                                   \
    check_bounds(sec "." nm, lo, LAT_MAX_CYCLES, LAT_MAX_CYCLES, set_##f);                    \
    n++;
    GPU_KEYS(BOUNDS_NUMBER, BOUNDS_LATENCY, NO_ENUM, NO_BOOL)
    CU_ASSERT_EQUAL(n, 25); /* 14 numbers, 11 latencies */
}

static void test_key_table_is_consistent(void)
{
    cfg_t c = defaults();
    char seen_sections[16][16];
    size_t nsec = 0;
    CU_ASSERT_EQUAL(cfg_key_count(), 45);
    for (size_t i = 0; i < cfg_key_count(); i++) {
        const cfg_key_info_t *k = cfg_key_info(i);
        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        CU_ASSERT_STRING_EQUAL(val(&c, k->key), k->def); /* the default text is canonical */
        CU_ASSERT_TRUE(k->doc[0] && k->values[0] && k->unit != NULL);
        for (size_t j = 0; j < i; j++)
            CU_ASSERT_STRING_NOT_EQUAL(cfg_key_info(j)->key, k->key);
        char sec[16];
        snprintf(sec, sizeof sec, "%.*s", (int)strcspn(k->key, "."), k->key);
        CU_ASSERT_TRUE(cfg_section_doc(sec)[0] != 0);
        if (nsec == 0 || strcmp(seen_sections[nsec - 1], sec)) { /* sections contiguous */
            for (size_t j = 0; j < nsec; j++)
                CU_ASSERT_STRING_NOT_EQUAL(seen_sections[j], sec);
            snprintf(seen_sections[nsec++], 16, "%s", sec);
        }
    }
    CU_ASSERT_EQUAL(nsec, 7);
    CU_ASSERT_PTR_NULL(cfg_key_info(cfg_key_count()));
    CU_ASSERT_STRING_EQUAL(cfg_section_doc("nope"), "");
}

static void collect(void *user, const char *key, const char *value)
{
    char *out = user;
    size_t len = strlen(out);
    snprintf(out + len, 4096 - len, "%s=%s\n", key, value);
}

static void test_foreach_visits_every_key_in_table_order(void)
{
    cfg_t c = scrambled();
    char got[4096] = "", expect[4096] = "";
    cfg_foreach(&c, collect, got);
    for (size_t i = 0; i < cfg_key_count(); i++) {
        const char *key = cfg_key_info(i)->key;
        size_t len = strlen(expect);
        snprintf(expect + len, sizeof expect - len, "%s=%s\n", key, val(&c, key));
    }
    CU_ASSERT_STRING_EQUAL(got, expect);
    char b[8];
    CU_ASSERT_EQUAL(cfg_get(&c, "sm.nope", b, sizeof b), TESS_EINPUT);
}

/* --- files and overrides ---------------------------------------------------- */

static void test_file_sets_keys(void)
{
    const char *path = scratch("sets.ini", "; a comment\n"
                                           "# another\n"
                                           "core.div = 9\n"
                                           "[ts]\n"
                                           "policy = lookahead ; inline comment\n"
                                           "   window = 12\n"
                                           "[sm]\r\n"
                                           "bank=4\r\n"
                                           "arbiter = FIFO\n");
    cfg_t c = defaults(), expect = defaults();
    diag_t d = {0};
    CU_ASSERT_EQUAL(cfg_load_file(&c, path, &d), TESS_OK);
    CU_ASSERT_STRING_EQUAL(d.msg, "");
    CU_ASSERT_EQUAL(c.gpu.core_div.lo, 9);
    CU_ASSERT_EQUAL(c.gpu.policy, GPU_POLICY_LOOKAHEAD);
    CU_ASSERT_EQUAL(c.gpu.window, 12);
    CU_ASSERT_EQUAL(c.gpu.sm_bank.lo, 4);
    CU_ASSERT_EQUAL(c.gpu.arbiter, GPU_ARB_FIFO);
    CU_ASSERT_STRING_EQUAL(val(&c, "sm.arbiter"), "fifo");
    /* everything else kept its value */
    c.gpu.core_div = expect.gpu.core_div;
    c.gpu.policy = expect.gpu.policy;
    c.gpu.window = expect.gpu.window;
    c.gpu.sm_bank = expect.gpu.sm_bank;
    c.gpu.arbiter = expect.gpu.arbiter;
    CU_ASSERT_TRUE(same(&c, &expect));
}

static void test_load_string_names_the_source(void)
{
    cfg_t c = defaults();
    diag_t d = {0};
    CU_ASSERT_EQUAL(cfg_load_string(&c, "[sm]\nreq = 3\n", "runs.configuration", &d), TESS_OK);
    CU_ASSERT_EQUAL(c.gpu.sm_req.lo, 3);
    CU_ASSERT_EQUAL(cfg_load_string(&c, "[sm]\nreq = x\n", "runs.configuration", &d),
                    TESS_EINPUT);
    CU_ASSERT_EQUAL(strncmp(d.msg, "runs.configuration:2: sm.req: 'x' is not valid", 46), 0);
    CU_ASSERT_EQUAL(c.gpu.sm_req.lo, 3);
}

static void test_set_overrides_file_in_order(void)
{
    const char *path = scratch("over.ini", "[sm]\nbank = 4\nreq = 2\n");
    char *sets[] = {"sm.bank=2", "sm.bank = 3 ", "ts.xfer=6"};
    cfg_t c = defaults();
    diag_t d = {0};
    CU_ASSERT_EQUAL(cfg_apply_cli(&c, path, sets, 3, &d), TESS_OK);
    CU_ASSERT_EQUAL(c.gpu.sm_bank.lo, 3); /* the last -s wins over the file */
    CU_ASSERT_EQUAL(c.gpu.sm_req.lo, 2);  /* the file's other keys stay */
    CU_ASSERT_EQUAL(c.gpu.ts_xfer.lo, 6);
}

static void test_apply_cli_does_not_reset_defaults(void)
{
    cfg_t c = defaults();
    diag_t d = {0};
    char *sets[] = {"sm.req=2"};
    c.gpu.seed = 7;
    CU_ASSERT_EQUAL(cfg_apply_cli(&c, NULL, sets, 1, &d), TESS_OK);
    CU_ASSERT_EQUAL(c.gpu.seed, 7);
    CU_ASSERT_EQUAL(c.gpu.sm_req.lo, 2);
    CU_ASSERT_EQUAL(cfg_apply_cli(&c, NULL, NULL, 0, &d), TESS_OK);
}

static void test_failure_leaves_cfg_unchanged(void)
{
    const char *good = scratch("good.ini", "[sm]\nbank = 4\n");
    const char *bad = scratch("bad-last.ini", "[sm]\nbank = 4\nreq = 9\nresp = x\n");
    char *sets[] = {"sm.bank=2", "sm.bank=0"};
    cfg_t c = scrambled(), before = scrambled();
    diag_t d = {0};
    CU_ASSERT_EQUAL(cfg_apply_cli(&c, good, sets, 2, &d), TESS_EINPUT);
    CU_ASSERT_TRUE(same(&c, &before));
    diag_reset(&d);
    CU_ASSERT_EQUAL(cfg_load_file(&c, bad, &d), TESS_EINPUT);
    CU_ASSERT_TRUE(same(&c, &before));
    diag_reset(&d);
    CU_ASSERT_EQUAL(cfg_set(&c, "ts.xfer=uniform:1..x", &d), TESS_EINPUT);
    CU_ASSERT_TRUE(same(&c, &before));
}

static void test_duplicate_keys_last_wins(void)
{
    const char *path = scratch("dup.ini", "[sm]\nbank = 4\nbank = 5\n[ts]\n[sm]\nbank = 6\n");
    cfg_t c = defaults();
    diag_t d = {0};
    CU_ASSERT_EQUAL(cfg_load_file(&c, path, &d), TESS_OK);
    CU_ASSERT_EQUAL(c.gpu.sm_bank.lo, 6);
}

static void test_missing_file_is_an_io_error(void)
{
    char expect[1200];
    const char *path = test_tmp_path("does-not-exist.ini");
    cfg_t c = defaults();
    diag_t d = {0};
    CU_ASSERT_EQUAL(cfg_load_file(&c, path, &d), TESS_EIO);
    snprintf(expect, sizeof expect, "cannot read '%s': No such file or directory", path);
    msg_is(&d, expect);
    diag_reset(&d);
    CU_ASSERT_EQUAL(cfg_load_file(&c, test_tmp_dir(), &d), TESS_EIO);
    snprintf(expect, sizeof expect, "cannot read '%s': Is a directory", test_tmp_dir());
    msg_is(&d, expect);
}

/* Loads `text` as a file and checks the message, "PATH:" + expect. */
static void file_error(const char *text, int code, const char *expect)
{
    char full[1200];
    const char *path = scratch("err.ini", text);
    cfg_t c = defaults();
    diag_t d = {0};
    CU_ASSERT_EQUAL(cfg_load_file(&c, path, &d), code);
    snprintf(full, sizeof full, "%s:%s", path, expect);
    msg_is(&d, full);
}

/* Nothing a user wrote is dropped without an error or a warning naming the
 * line (issue 10, class 4). */
static void test_nothing_is_silently_dropped(void)
{
    file_error("[sm] bank = 4\n", TESS_EINPUT,
               "1: 'bank = 4' after [sm] would be ignored: put it on a line of its own");
    file_error("[ts]\n[sm]decode=3\n", TESS_EINPUT,
               "2: 'decode=3' after [sm] would be ignored: put it on a line of its own");
    file_error("[sim]\nwall_limit = 1e-400\n", TESS_EINPUT,
               "2: sim.wall_limit: 1e-400 is too small for a double: it would read as 0 (the "
               "smallest positive value is about 4.9e-324)");
    file_error("[sm]\rbank = 4\rreq = x\r", TESS_EINPUT, /* CR-only: three lines */
               "3: sm.req: 'x' is not valid (expected a latency in cycles: N, uniform:A..B, "
               "geometric:M or choice:A,B,...)");
    static const char *const ok[] = {
        "[sm]\rbank = 4\r", "[sm]\r\nbank = 4\r\n", "[sm] ; the memory\nbank = 4\n",
        "[sm]  # the memory\nbank = 4\n", "[sm]\n; %0300d\nbank = 4\n",
        "[sm]\n   # %0300d\nbank = 4",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char text[400];
        snprintf(text, sizeof text, ok[i], 0);
        cfg_t c = defaults();
        diag_t d = {0};
        CU_ASSERT_EQUAL(cfg_load_file(&c, scratch("ok.ini", text), &d), TESS_OK);
        CU_ASSERT_EQUAL(c.gpu.sm_bank.lo, 4);
    }
    cfg_t c = defaults();
    diag_t d = {0};
    CU_ASSERT_EQUAL(cfg_load_file(&c, scratch("dup2.ini", "[sm]\nbank = 4\n\nsm.bank = 2\n"), &d),
                    TESS_EINPUT); /* section.key inside a section is not that key */
    diag_reset(&d);
    c = defaults();
    const char *dup = scratch("dup3.ini", "[sm]\nbank = 4\n[ts]\n[sm]\nbank = 6\n");
    CU_ASSERT_EQUAL(cfg_load_file(&c, dup, &d), TESS_OK);
    CU_ASSERT_EQUAL(d.warnings, 1);
    char want[600];
    snprintf(want, sizeof want, "%s:5: sm.bank is set again: this value replaces the one of "
             "line 2", dup);
    CU_ASSERT_STRING_EQUAL(d.last_warning, want);
}

static void test_file_errors_name_file_and_line(void)
{
    file_error("[clock]\nperiod_ps = 1000\n\n; comment\n[sm]\nbank = 1\narbiter = lifo\n",
               TESS_EINPUT,
               "7: sm.arbiter: 'lifo' is not valid (expected " ARBITERS " or plugin:PATH)");
    file_error("[foo]\nx = 1\n", TESS_EINPUT,
               "1: unknown section 'foo' (expected clock, ts, core, sm, simt, sim or record)");
    file_error("[sm]\nbank = 2\n[Sm]\n", TESS_EINPUT,
               "3: unknown section 'Sm' (expected clock, ts, core, sm, simt, sim or record)");
    file_error("sm.bank = 2\nfoo.x = 1\n", TESS_EINPUT,
               "2: foo.x: unknown section 'foo' (expected clock, ts, core, sm, simt, sim or record)");
    file_error("[sm]\nbnak = 1\n", TESS_EINPUT,
               "2: sm.bnak: unknown key (sm has req, bank, resp, arbiter, bank_map, banks, atomics)");
    file_error("bank = 1\n", TESS_EINPUT,
               "1: bank: key outside a section (put it under [section] or write section.key)");
    file_error("[sm]\nbank = 4x\n", TESS_EINPUT,
               "2: sm.bank: '4x' is not valid (expected a latency in cycles: N, uniform:A..B, "
               "geometric:M or choice:A,B,...)");
}

static void test_syntax_errors_name_the_line(void)
{
    file_error("[sm]\nbank 4\n", TESS_EINPUT,
               "2: 'bank 4' is not [section], key = value or a comment");
    file_error("[sm\nbank = 4\n", TESS_EINPUT, "1: '[sm' is not [section], key = value or a comment");
    /* the first error in the file is the one reported, whatever its kind */
    file_error("[sm]\nbank 4\nreq = x\n", TESS_EINPUT,
               "2: 'bank 4' is not [section], key = value or a comment");
    file_error("[sm]\nreq = 0x\nbank 4\n", TESS_EINPUT,
               "2: sm.req: '0x' is not valid (expected a latency in cycles: N, uniform:A..B, "
               "geometric:M or choice:A,B,...)");
    char long_line[400];
    /* a comment has no length limit (issue 10): the error is the next line's */
    snprintf(long_line, sizeof long_line, "[sm]\n# %0300d\nbank = x\n", 0);
    file_error(long_line, TESS_EINPUT, "3: sm.bank: 'x' is not valid (expected a latency in "
               "cycles: N, uniform:A..B, geometric:M or choice:A,B,...)");
    snprintf(long_line, sizeof long_line, "[sm]\nbank = 4 ; %0300d\n", 0);
    file_error(long_line, TESS_EINPUT, "2: line too long (at most 197 characters after the "
               "indentation; comment lines have no limit)");
}

/* --- every key's values -------------------------------------------------------- */

/* assignment, key, canonical text of the value */
static const char *const valid[] = {
    "clock.period_ps=1", "clock.period_ps", "1",
    "clock.period_ps=1000000000", "clock.period_ps", "1000000000",
    "clock.period_ps=0x3e8", "clock.period_ps", "1000",
    "ts.decode=0", "ts.decode", "0",
    "ts.xfer=uniform:0..9", "ts.xfer", "uniform:0..9",
    "ts.ready=geometric:3", "ts.ready", "geometric:3",
    "ts.policy=lookahead", "ts.policy", "lookahead",
    "ts.policy=InOrder", "ts.policy", "inorder",
    "ts.window=1", "ts.window", "1",
    "ts.window=64", "ts.window", "64",
    "core.alu=1", "core.alu", "1",
    "core.mul=choice:2,3", "core.mul", "choice:2,3",
    "core.div=1000000", "core.div", "1000000",
    "core.branch=uniform:1..2", "core.branch", "uniform:1..2",
    "core.ready=geometric:1", "core.ready", "geometric:1",
    "core.budget=1", "core.budget", "1",
    "core.budget=1099511627776", "core.budget", "1099511627776",
    "core.timing=stepped", "core.timing", "stepped",
    "core.timing=decoupled", "core.timing", "decoupled",
    "core.model=simt", "core.model", "simt",
    "core.model=mimd", "core.model", "mimd",
    "simt.scheduler=oldest", "simt.scheduler", "oldest",
    "simt.scheduler=gto", "simt.scheduler", "gto",
    "simt.issue_width=1", "simt.issue_width", "1",
    "simt.issue_width=0x10", "simt.issue_width", "16",
    "simt.scoreboard=on", "simt.scoreboard", "on",
    "simt.broadcast=1", "simt.broadcast", "on",
    "simt.ibuffer=8", "simt.ibuffer", "8",
    "simt.fetch_width=4", "simt.fetch_width", "4",
    "simt.fetch_latency=0x2", "simt.fetch_latency", "2",
    "simt.collectors=16", "simt.collectors", "16",
    "simt.rf_banks=1", "simt.rf_banks", "1",
    "simt.rf_arbiter=rr", "simt.rf_arbiter", "rr",
    "simt.rf_arbiter=oldest", "simt.rf_arbiter", "oldest",
    "simt.sp_width=4", "simt.sp_width", "4",
    "simt.sfu_width=1", "simt.sfu_width", "1",
    "simt.lsu_width=16", "simt.lsu_width", "16",
    "simt.reconvergence=stack", "simt.reconvergence", "stack",
    "simt.reconvergence=barrier", "simt.reconvergence", "barrier",
    "sm.req=0", "sm.req", "0",
    "sm.bank=1", "sm.bank", "1",
    "sm.resp=choice:0,0,5", "sm.resp", "choice:0,0,5",
    "sm.arbiter=rr", "sm.arbiter", "rr",
    "sm.arbiter=fifo", "sm.arbiter", "fifo",
    "sm.arbiter=random", "sm.arbiter", "random",
    "sm.arbiter=fixed", "sm.arbiter", "fixed",
    "sm.bank_map=interleaved", "sm.bank_map", "interleaved",
    "sm.bank_map=high", "sm.bank_map", "high",
    "sm.bank_map=xor", "sm.bank_map", "xor",
    "sm.banks=1", "sm.banks", "1",
    "sm.banks=8", "sm.banks", "8",
    "sm.banks=64", "sm.banks", "64",
    "sm.atomics=on", "sm.atomics", "on",
    "sm.atomics=true", "sm.atomics", "on",
    "sm.atomics=YES", "sm.atomics", "on",
    "sm.atomics=1", "sm.atomics", "on",
    "sm.atomics=off", "sm.atomics", "off",
    "sm.atomics=false", "sm.atomics", "off",
    "sm.atomics=no", "sm.atomics", "off",
    "sm.atomics=0", "sm.atomics", "off",
    "sim.seed=0", "sim.seed", "0",
    "sim.seed=18446744073709551615", "sim.seed", "18446744073709551615",
    "sim.seed=0xFFFFFFFFFFFFFFFF", "sim.seed", "18446744073709551615",
    "sim.time_limit=5000", "sim.time_limit", "5000",
    "sim.wall_limit=0.25", "sim.wall_limit", "0.25",
    "sim.wall_limit=1e3", "sim.wall_limit", "1000",
    "sim.wall_limit=1000000000", "sim.wall_limit", "1000000000",
    "sim.pace=0.1", "sim.pace", "0.1",
    "sim.pace=1e9", "sim.pace", "1000000000",
    "sim.pace=-0", "sim.pace", "0",
    "sim.progress=on", "sim.progress", "on",
    "sim.progress=off", "sim.progress", "off",
    "sim.progress=auto", "sim.progress", "auto",
    "record.level=summary", "record.level", "summary",
    "record.level=tasks", "record.level", "tasks",
    "record.level=mem", "record.level", "mem",
    "record.level=events", "record.level", "events",
    "record.from_ps=0", "record.from_ps", "0",
    "record.to_ps=1", "record.to_ps", "1",
    "record.interval=1000", "record.interval", "1000",
    "record.max_mb=0", "record.max_mb", "0",
    "record.max_mb=1048576", "record.max_mb", "1048576",
    NULL,
};

static void test_every_key_accepts_its_valid_values(void)
{
    for (const char *const *v = valid; *v; v += 3) {
        cfg_t c = defaults();
        diag_t d = {0};
        int rc = cfg_set(&c, v[0], &d);
        if (rc != TESS_OK || strcmp(val(&c, v[1]), v[2]))
            fprintf(stderr, "\n  %s: rc %d '%s' -> '%s'\n", v[0], rc, d.msg, val(&c, v[1]));
        CU_ASSERT_EQUAL(rc, TESS_OK);
        CU_ASSERT_STRING_EQUAL(val(&c, v[1]), v[2]);
    }
    for (size_t i = 0; i < cfg_key_count(); i++)
        CU_ASSERT_TRUE(list_sets(valid, 3, cfg_key_info(i)->key));
}

/* the -s argument, then the whole message */
static const char *const invalid[] = {
    "clock.period_ps=0", "-s 'clock.period_ps=0': clock.period_ps: 0 is below the minimum 1 ps",
    "clock.period_ps=1000000001",
    "-s 'clock.period_ps=1000000001': clock.period_ps: 1000000001 is above the maximum "
    "1000000000 ps",
    "clock.period_ps=4x",
    "-s 'clock.period_ps=4x': clock.period_ps: '4x' is not valid (expected an integer "
    "1..1000000000 ps, decimal or 0x hex)",
    "clock.period_ps=-1",
    "-s 'clock.period_ps=-1': clock.period_ps: '-1' is not valid (expected an integer "
    "1..1000000000 ps, decimal or 0x hex)",
    "ts.decode=-1",
    "-s 'ts.decode=-1': ts.decode: '-1' is not valid (expected a latency in cycles: N, "
    "uniform:A..B, geometric:M or choice:A,B,...)",
    "ts.xfer=1000001", "-s 'ts.xfer=1000001': ts.xfer: 1000001 is above the maximum 1000000 cycles",
    "ts.ready=", "-s 'ts.ready=': ts.ready: '' is not valid (expected a latency in cycles: N, "
    "uniform:A..B, geometric:M or choice:A,B,...)",
    "ts.policy=fast",
    "-s 'ts.policy=fast': ts.policy: 'fast' is not valid (expected inorder or lookahead)",
    "ts.window=0", "-s 'ts.window=0': ts.window: 0 is below the minimum 1 frame",
    "ts.window=65", "-s 'ts.window=65': ts.window: 65 is above the maximum 64 frames",
    "core.alu=0", "-s 'core.alu=0': core.alu: 0 is below the minimum 1 cycle",
    "core.mul=uniform:0..2",
    "-s 'core.mul=uniform:0..2': core.mul: 'uniform:0..2' can take 0, below the minimum 1 cycle",
    "core.div=choice:8,0",
    "-s 'core.div=choice:8,0': core.div: 'choice:8,0' can take 0, below the minimum 1 cycle",
    "core.branch=0", "-s 'core.branch=0': core.branch: 0 is below the minimum 1 cycle",
    "core.ready=0", "-s 'core.ready=0': core.ready: 0 is below the minimum 1 cycle",
    "core.budget=0", "-s 'core.budget=0': core.budget: 0 is below the minimum 1 instruction",
    "core.budget=1099511627777",
    "-s 'core.budget=1099511627777': core.budget: 1099511627777 is above the maximum "
    "1099511627776 instructions",
    "core.timing=lockstep",
    "-s 'core.timing=lockstep': core.timing: 'lockstep' is not valid (expected decoupled or "
    "stepped)",
    "core.model=simd",
    "-s 'core.model=simd': core.model: 'simd' is not valid (expected mimd or simt)",
    "simt.scheduler=lrr",
    "-s 'simt.scheduler=lrr': simt.scheduler: 'lrr' is not valid (expected rr, gto, oldest or plugin:PATH)",
    "simt.issue_width=0",
    "-s 'simt.issue_width=0': simt.issue_width: 0 is below the minimum 1 warp",
    "simt.issue_width=17",
    "-s 'simt.issue_width=17': simt.issue_width: 17 is above the maximum 16 warps",
    "simt.scoreboard=2",
    "-s 'simt.scoreboard=2': simt.scoreboard: '2' is not valid (expected on or off; also "
    "true/false, yes/no, 1/0)",
    "simt.broadcast=maybe",
    "-s 'simt.broadcast=maybe': simt.broadcast: 'maybe' is not valid (expected on or off; also "
    "true/false, yes/no, 1/0)",
    "sm.req=1x",
    "-s 'sm.req=1x': sm.req: '1x' is not valid (expected a latency in cycles: N, uniform:A..B, "
    "geometric:M or choice:A,B,...)",
    "sm.bank=0", "-s 'sm.bank=0': sm.bank: 0 is below the minimum 1 cycle",
    "sm.resp=uniform:1..2000000",
    "-s 'sm.resp=uniform:1..2000000': sm.resp: 'uniform:1..2000000' can take 2000000, above "
    "the maximum 1000000 cycles",
    "sm.arbiter=lifo",
    "-s 'sm.arbiter=lifo': sm.arbiter: 'lifo' is not valid (expected " ARBITERS " or plugin:PATH)",
    "sm.bank_map=low",
    "-s 'sm.bank_map=low': sm.bank_map: 'low' is not valid (expected high, interleaved, xor or plugin:PATH)",
    "sm.banks=12",
    "-s 'sm.banks=12': sm.banks: '12' is not valid (expected 1, 2, 4, 8, 16, 32 or 64)",
    "sm.banks=128",
    "-s 'sm.banks=128': sm.banks: '128' is not valid (expected 1, 2, 4, 8, 16, 32 or 64)",
    "sm.atomics=maybe",
    "-s 'sm.atomics=maybe': sm.atomics: 'maybe' is not valid (expected on or off; also "
    "true/false, yes/no, 1/0)",
    "sim.seed=18446744073709551616",
    "-s 'sim.seed=18446744073709551616': sim.seed: 18446744073709551616 is above the maximum "
    "18446744073709551615",
    "sim.seed=0x", "-s 'sim.seed=0x': sim.seed: '0x' is not valid (expected an integer "
    "0..18446744073709551615, decimal or 0x hex)",
    "sim.seed=1 2", "-s 'sim.seed=1 2': sim.seed: '1 2' is not valid (expected an integer "
    "0..18446744073709551615, decimal or 0x hex)",
    "sim.time_limit=1e3",
    "-s 'sim.time_limit=1e3': sim.time_limit: '1e3' is not valid (expected an integer "
    "0..18446744073709551615 cycles, decimal or 0x hex)",
    "sim.wall_limit=-1", "-s 'sim.wall_limit=-1': sim.wall_limit: -1 is below the minimum 0 "
    "seconds",
    "sim.wall_limit=inf", "-s 'sim.wall_limit=inf': sim.wall_limit: 'inf' is not valid (expected "
    "a number 0..1000000000 seconds)",
    "sim.wall_limit=1e999", "-s 'sim.wall_limit=1e999': sim.wall_limit: 1e999 is above the "
    "maximum 1000000000 seconds",
    "sim.pace=0x10", "-s 'sim.pace=0x10': sim.pace: '0x10' is not valid (expected a number "
    "0..1000000000000 wall s per simulated s)",
    "sim.pace=1.5s", "-s 'sim.pace=1.5s': sim.pace: '1.5s' is not valid (expected a number "
    "0..1000000000000 wall s per simulated s)",
    "sim.progress=yes",
    "-s 'sim.progress=yes': sim.progress: 'yes' is not valid (expected auto, on or off)",
    "record.level=all",
    "-s 'record.level=all': record.level: 'all' is not valid (expected summary, tasks, mem or "
    "events)",
    "record.from_ps=-5", "-s 'record.from_ps=-5': record.from_ps: '-5' is not valid (expected "
    "an integer 0..18446744073709551615 ps, decimal or 0x hex)",
    "record.to_ps=+5", "-s 'record.to_ps=+5': record.to_ps: '+5' is not valid (expected an "
    "integer 0..18446744073709551615 ps, decimal or 0x hex)",
    "record.interval=x", "-s 'record.interval=x': record.interval: 'x' is not valid (expected "
    "an integer 0..18446744073709551615 cycles, decimal or 0x hex)",
    "record.max_mb=1048577", "-s 'record.max_mb=1048577': record.max_mb: 1048577 is above the "
    "maximum 1048576 MiB",
    "simt.ibuffer=9", "-s 'simt.ibuffer=9': simt.ibuffer: 9 is above the maximum 8 entries",
    "simt.fetch_width=0",
    "-s 'simt.fetch_width=0': simt.fetch_width: 0 is below the minimum 1 slot",
    "simt.fetch_latency=9",
    "-s 'simt.fetch_latency=9': simt.fetch_latency: 9 is above the maximum 8 cycles",
    "simt.collectors=17",
    "-s 'simt.collectors=17': simt.collectors: 17 is above the maximum 16 units",
    "simt.rf_banks=0", "-s 'simt.rf_banks=0': simt.rf_banks: 0 is below the minimum 1 bank",
    "simt.rf_arbiter=fifo",
    "-s 'simt.rf_arbiter=fifo': simt.rf_arbiter: 'fifo' is not valid (expected oldest or rr)",
    "simt.sp_width=0", "-s 'simt.sp_width=0': simt.sp_width: 0 is below the minimum 1 lane",
    "simt.sfu_width=17",
    "-s 'simt.sfu_width=17': simt.sfu_width: 17 is above the maximum 16 lanes",
    "simt.lsu_width=x", "-s 'simt.lsu_width=x': simt.lsu_width: 'x' is not valid (expected an "
    "integer 1..16 lanes, decimal or 0x hex)",
    "simt.reconvergence=tree",
    "-s 'simt.reconvergence=tree': simt.reconvergence: 'tree' is not valid (expected stack or "
    "barrier)",
    "sm.bank", "-s 'sm.bank': expected section.key=value",
    "bank=4", "-s 'bank=4': expected section.key=value",
    "=4", "-s '=4': expected section.key=value",
    "sm.=4", "-s 'sm.=4': sm.: unknown key (sm has req, bank, resp, arbiter, bank_map, banks, atomics)",
    "sm.bnak=4",
    "-s 'sm.bnak=4': sm.bnak: unknown key (sm has req, bank, resp, arbiter, bank_map, banks, atomics)",
    "foo.bar=1",
    "-s 'foo.bar=1': foo.bar: unknown section 'foo' (expected clock, ts, core, sm, simt, sim or "
    "record)",
    NULL,
};

static void test_every_key_rejects_invalid_values(void)
{
    cfg_t before = scrambled();
    for (const char *const *v = invalid; *v; v += 2) {
        cfg_t c = scrambled();
        diag_t d = {0};
        CU_ASSERT_EQUAL(cfg_set(&c, v[0], &d), TESS_EINPUT);
        CU_ASSERT_EQUAL(d.code, TESS_EINPUT);
        msg_is(&d, v[1]);
        CU_ASSERT_TRUE(same(&c, &before));
    }
    for (size_t i = 0; i < cfg_key_count(); i++)
        CU_ASSERT_TRUE(list_sets(invalid, 2, cfg_key_info(i)->key));
}

/* --- latencies ------------------------------------------------------------------ */

static lat_t lat_of(const char *value, int expect_rc)
{
    char a[256];
    cfg_t c = defaults();
    diag_t d = {0};
    snprintf(a, sizeof a, "ts.xfer=%s", value);
    int rc = cfg_set(&c, a, &d);
    if (rc != expect_rc)
        fprintf(stderr, "\n  %s: rc %d (%s)\n", a, rc, d.msg);
    CU_ASSERT_EQUAL(rc, expect_rc);
    return c.gpu.ts_xfer;
}

/* Every choice of every enumeration list (model/gpu.h, model/simt/simt.h,
 * config/cfg.h) is accepted by its key, lands on its own value and prints
 * back as its name: a value added to a list is configurable without editing
 * the key table. */
static void check_choices(const char *key, const char *const *names, unsigned count, size_t off)
{
    for (unsigned v = 0; v < count; v++) {
        cfg_t c;
        diag_t d = {0};
        char a[96], out[64];
        cfg_default(&c);
        CU_ASSERT_PTR_NOT_NULL_FATAL(names[v]);
        snprintf(a, sizeof a, "%s=%s", key, names[v]);
        CU_ASSERT_EQUAL_FATAL(cfg_set(&c, a, &d), TESS_OK);
        CU_ASSERT_EQUAL(((const uint8_t *)&c)[off], v); /* a one-byte field */
        CU_ASSERT_EQUAL(cfg_get(&c, key, out, sizeof out), TESS_OK);
        CU_ASSERT_STRING_EQUAL(out, names[v]);
    }
    CU_ASSERT_PTR_NULL(names[count]);
}

static void test_every_listed_choice_is_configurable(void)
{
#define CHOICES(key, names, count, f)                                                       \
    do {                                                                                    \
        _Static_assert(sizeof(((cfg_t *)0)->f) == 1, "a one-byte field");                   \
        check_choices(key, names, count, offsetof(cfg_t, f));                               \
    } while (0)
    CHOICES("ts.policy", gpu_policy_names, GPU_POLICY_COUNT, gpu.policy);
    CHOICES("sm.arbiter", gpu_arbiter_names, GPU_ARB_COUNT, gpu.arbiter);
    CHOICES("sm.bank_map", gpu_bank_map_names, GPU_MAP_COUNT, gpu.bank_map);
    CHOICES("core.timing", gpu_timing_names, GPU_TIMING_COUNT, gpu.timing);
    CHOICES("core.model", gpu_model_names, GPU_MODEL_COUNT, gpu.model);
    CHOICES("simt.scheduler", simt_sched_names, SIMT_SCHED_COUNT, gpu.simt_scheduler);
    CHOICES("simt.reconvergence", gpu_reconv_names, GPU_RECONV_COUNT, gpu.simt_reconvergence);
    CHOICES("record.level", cfg_rec_level_names, REC_LEVEL_COUNT, record.level);
#undef CHOICES
}

static void test_latency_fixed_and_uniform(void)
{
    lat_t l = lat_of("7", TESS_OK);
    CU_ASSERT_EQUAL(l.kind, LAT_FIXED);
    CU_ASSERT_EQUAL(l.lo, 7);
    CU_ASSERT_EQUAL(l.hi, 7);
    l = lat_of("uniform:1..4", TESS_OK);
    CU_ASSERT_EQUAL(l.kind, LAT_UNIFORM);
    CU_ASSERT_EQUAL(l.lo, 1);
    CU_ASSERT_EQUAL(l.hi, 4);
    CU_ASSERT_EQUAL(lat_min(&l), 1);
    l = lat_of("uniform: 2 .. 5", TESS_OK);
    CU_ASSERT_EQUAL(l.lo, 2);
    CU_ASSERT_EQUAL(l.hi, 5);
    l = lat_of("uniform:3..3", TESS_OK);
    CU_ASSERT_EQUAL(l.kind, LAT_UNIFORM);
    l = lat_of("1000000", TESS_OK);
    CU_ASSERT_EQUAL(l.lo, LAT_MAX_CYCLES);
    lat_of("uniform:5..2", TESS_EINPUT);
    lat_of("uniform:1-4", TESS_EINPUT);
    lat_of("uniform:1..", TESS_EINPUT);
    lat_of("uniform:..4", TESS_EINPUT);
    lat_of("uniform:1..4x", TESS_EINPUT);
    lat_of("uniform:1..1000001", TESS_EINPUT);
    lat_of("fixed:4", TESS_EINPUT);
    lat_of("4 4", TESS_EINPUT);
}

static void test_latency_geometric_is_an_exact_fraction(void)
{
    lat_t l = lat_of("geometric:2.5", TESS_OK);
    CU_ASSERT_EQUAL(l.kind, LAT_GEOMETRIC);
    CU_ASSERT_EQUAL(l.mean_num, 5);
    CU_ASSERT_EQUAL(l.mean_den, 2);
    CU_ASSERT_EQUAL(l.p_threshold, 7378697629483820646ULL); /* floor(2^64 * 2 / 5) */
    CU_ASSERT_EQUAL(lat_min(&l), 1);
    l = lat_of("geometric:1.5", TESS_OK);
    CU_ASSERT_EQUAL(l.mean_num, 3);
    CU_ASSERT_EQUAL(l.mean_den, 2);
    CU_ASSERT_EQUAL(l.p_threshold, 12297829382473034410ULL); /* floor(2^65 / 3) */
    l = lat_of("geometric:1", TESS_OK);
    CU_ASSERT_EQUAL(l.mean_num, 1);
    CU_ASSERT_EQUAL(l.mean_den, 1);
    CU_ASSERT_EQUAL(l.p_threshold, UINT64_MAX);
    l = lat_of("geometric:1.000", TESS_OK);
    CU_ASSERT_EQUAL(l.p_threshold, UINT64_MAX);
    l = lat_of("geometric:1000", TESS_OK);
    CU_ASSERT_EQUAL(l.p_threshold, 18446744073709551ULL); /* floor(2^64 / 1000) */
    l = lat_of("geometric:12.125", TESS_OK);
    CU_ASSERT_EQUAL(l.mean_num, 97);
    CU_ASSERT_EQUAL(l.mean_den, 8);
    l = lat_of("geometric:1.000001", TESS_OK);
    CU_ASSERT_EQUAL(l.mean_num, 1000001);
    CU_ASSERT_EQUAL(l.mean_den, 1000000);
    l = lat_of("geometric:2.50000000", TESS_OK); /* trailing zeros do not count */
    CU_ASSERT_EQUAL(l.mean_num, 5);
    CU_ASSERT_EQUAL(l.mean_den, 2);
    lat_of("geometric:1000.5", TESS_EINPUT);
    lat_of("geometric:1001", TESS_EINPUT);
    lat_of("geometric:0.999", TESS_EINPUT);
    lat_of("geometric:0", TESS_EINPUT);
    lat_of("geometric:1.1234567", TESS_EINPUT);
    lat_of("geometric:2.", TESS_EINPUT);
    lat_of("geometric:.5", TESS_EINPUT);
    lat_of("geometric:2.5x", TESS_EINPUT);
    lat_of("geometric:", TESS_EINPUT);
    cfg_t c = defaults();
    diag_t d = {0};
    CU_ASSERT_EQUAL(cfg_set(&c, "core.alu=geometric:2", &d), TESS_OK); /* never below 1 */
    CU_ASSERT_EQUAL(cfg_set(&c, "ts.xfer=geometric:2.50", &d), TESS_OK);
    CU_ASSERT_STRING_EQUAL(val(&c, "ts.xfer"), "geometric:2.5");
    CU_ASSERT_EQUAL(cfg_set(&c, "ts.xfer=geometric:0.5", &d), TESS_EINPUT);
    msg_is(&d, "-s 'ts.xfer=geometric:0.5': ts.xfer: 'geometric:0.5' is not valid "
               "(geometric:M needs 1 <= M <= 1000)");
    diag_reset(&d);
    CU_ASSERT_EQUAL(cfg_set(&c, "ts.xfer=geometric:1.1234567", &d), TESS_EINPUT);
    msg_is(&d, "-s 'ts.xfer=geometric:1.1234567': ts.xfer: 'geometric:1.1234567' is not valid "
               "(geometric:M takes at most 6 decimals)");
}

static void test_latency_choice(void)
{
    lat_t l = lat_of("choice:1,1,8", TESS_OK);
    CU_ASSERT_EQUAL(l.kind, LAT_CHOICE);
    CU_ASSERT_EQUAL(l.n, 3);
    CU_ASSERT_EQUAL(l.choices[0], 1);
    CU_ASSERT_EQUAL(l.choices[1], 1);
    CU_ASSERT_EQUAL(l.choices[2], 8);
    CU_ASSERT_EQUAL(lat_min(&l), 1);
    l = lat_of("choice:9, 3 ,7", TESS_OK);
    CU_ASSERT_EQUAL(l.n, 3);
    CU_ASSERT_EQUAL(lat_min(&l), 3);
    l = lat_of("choice:5", TESS_OK);
    CU_ASSERT_EQUAL(l.n, 1);
    l = lat_of("choice:1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", TESS_OK);
    CU_ASSERT_EQUAL(l.n, 16);
    CU_ASSERT_EQUAL(l.choices[15], 16);
    lat_of("choice:1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", TESS_EINPUT);
    lat_of("choice:", TESS_EINPUT);
    lat_of("choice:1,,2", TESS_EINPUT);
    lat_of("choice:1,2,", TESS_EINPUT);
    lat_of("choice:1;2", TESS_EINPUT);
    lat_of("choice:1,1000001", TESS_EINPUT);
    cfg_t c = defaults();
    diag_t d = {0};
    CU_ASSERT_EQUAL(cfg_set(&c, "ts.xfer=choice: 1, 1 , 8", &d), TESS_OK);
    CU_ASSERT_STRING_EQUAL(val(&c, "ts.xfer"), "choice:1,1,8");
    CU_ASSERT_EQUAL(cfg_set(&c, "ts.xfer=choice:1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", &d),
                    TESS_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "(choice takes 1 to 16 values)"));
}

/* --- round trips, the baseline and the presets ------------------------------------ */

/* format(c) → file → load onto `onto` must give back c exactly. */
static void round_trip(const cfg_t *c, cfg_t onto)
{
    char *text = cfg_format(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    const char *path = scratch("round.ini", text);
    diag_t d = {0};
    CU_ASSERT_EQUAL(cfg_load_file(&onto, path, &d), TESS_OK);
    CU_ASSERT_TRUE(same(&onto, c));
    char *again = cfg_format(&onto);
    CU_ASSERT_STRING_EQUAL(again, text);
    free(again);
    free(text);
}

static void test_format_round_trip(void)
{
    cfg_t def = defaults(), scr = scrambled();
    round_trip(&def, scr);
    round_trip(&scr, def);
    for (size_t i = 0; i < cfg_key_count(); i++) /* the list is complete */
        CU_ASSERT_TRUE(list_sets(non_defaults, 1, cfg_key_info(i)->key));
    char *text = cfg_format(&def);
    CU_ASSERT_EQUAL(strncmp(text, "[clock]\nperiod_ps = 1000\n\n[ts]\ndecode = 1\n", 41), 0);
    free(text);
}

static void test_format_round_trip_random(void)
{
    static const char *const lat_keys[] = {"ts.decode", "ts.xfer", "sm.req", "sm.resp"};
    uint64_t state = 42;
    for (int n = 0; n < 200; n++) {
        cfg_t c = defaults();
        diag_t d = {0};
        char a[256];
        const char *key = lat_keys[test_rand(&state) % 4];
        unsigned x = (unsigned)(test_rand(&state) % 1000), y = x + (unsigned)(test_rand(&state) % 50);
        unsigned frac = (unsigned)(test_rand(&state) % 1000000);
        switch (n % 3) {
        case 0: snprintf(a, sizeof a, "%s=uniform:%u..%u", key, x, y); break;
        case 1: snprintf(a, sizeof a, "%s=geometric:%u.%06u", key, x % 999 + 1, frac); break;
        default: snprintf(a, sizeof a, "%s=choice:%u,%u,%u", key, x, y, frac); break;
        }
        CU_ASSERT_EQUAL(cfg_set(&c, a, &d), TESS_OK);
        snprintf(a, sizeof a, "sim.pace=%u.%u", x, frac);
        CU_ASSERT_EQUAL(cfg_set(&c, a, &d), TESS_OK);
        round_trip(&c, defaults());
    }
}

static void test_baseline_ini_is_exactly_the_defaults(void)
{
    cfg_t c = scrambled(), def = defaults();
    diag_t d = {0};
    /* loaded over a configuration where every key differs: it sets them all */
    CU_ASSERT_EQUAL(cfg_load_file(&c, test_src_path("config/baseline.ini"), &d), TESS_OK);
    CU_ASSERT_STRING_EQUAL(d.msg, "");
    CU_ASSERT_TRUE(same(&c, &def));
}

static void test_every_preset_loads(void)
{
    DIR *dir = opendir(test_src_path("config"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    struct dirent *e;
    int presets = 0;
    cfg_t def = defaults();
    while ((e = readdir(dir)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".ini"))
            continue;
        char rel[300];
        snprintf(rel, sizeof rel, "config/%s", e->d_name);
        cfg_t c = defaults();
        diag_t d = {0};
        int rc = cfg_apply_cli(&c, test_src_path(rel), NULL, 0, &d);
        if (rc != TESS_OK)
            fprintf(stderr, "\n  %s: %s\n", rel, d.msg);
        CU_ASSERT_EQUAL(rc, TESS_OK);
        if (strcmp(e->d_name, "baseline.ini"))
            CU_ASSERT_FALSE(same(&c, &def)); /* a preset changes something */
        presets++;
    }
    closedir(dir);
    CU_ASSERT_TRUE(presets >= 4);
}

static void test_cross_key_checks(void)
{
    cfg_t c = defaults();
    diag_t d = {0};
    char *ok1[] = {"record.to_ps=500", "record.from_ps=100"}; /* order does not matter */
    CU_ASSERT_EQUAL(cfg_apply_cli(&c, NULL, ok1, 2, &d), TESS_OK);
    char *bad[] = {"record.from_ps=600"};
    CU_ASSERT_EQUAL(cfg_apply_cli(&c, NULL, bad, 1, &d), TESS_EINPUT);
    msg_is(&d, "record.to_ps: 500 is not above record.from_ps = 600 (0 records until the end)");
    CU_ASSERT_EQUAL(c.record.from_ps, 100);
    diag_reset(&d);
    char *equal[] = {"record.from_ps=500"};
    CU_ASSERT_EQUAL(cfg_apply_cli(&c, NULL, equal, 1, &d), TESS_EINPUT);
    diag_reset(&d);
    char *to_end[] = {"record.from_ps=600", "record.to_ps=0"};
    CU_ASSERT_EQUAL(cfg_apply_cli(&c, NULL, to_end, 2, &d), TESS_OK);
    char *fits[] = {"sim.time_limit=18446744073709551"};
    CU_ASSERT_EQUAL(cfg_apply_cli(&c, NULL, fits, 1, &d), TESS_OK);
    char *overflow[] = {"sim.time_limit=18446744073709552"};
    CU_ASSERT_EQUAL(cfg_apply_cli(&c, NULL, overflow, 1, &d), TESS_EINPUT);
    msg_is(&d, "sim.time_limit: 18446744073709552 cycles of 1000 ps do not fit in 64-bit "
               "picoseconds (at most 18446744073709551 cycles)");
    diag_reset(&d);
    CU_ASSERT_EQUAL(cfg_check(&c, &d), TESS_OK);
}

/* --- the command ---------------------------------------------------------------- */

/* Runs `tessera ARGS`, checks the exit code, returns the output (caller frees). */
static char *run(const char *args, int expect_rc)
{
    char *out = NULL;
    int rc = test_run_tessera(args, &out);
    if (rc != expect_rc)
        fprintf(stderr, "\n  tessera %s: exit %d, expected %d\n%s", args, rc, expect_rc,
                out ? out : "");
    CU_ASSERT_EQUAL(rc, expect_rc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    return out;
}

static void test_command_prints_the_effective_configuration(void)
{
    cfg_t c = defaults();
    char *expect = cfg_format(&c), *out = run("config", 0), args[1200];
    CU_ASSERT_STRING_EQUAL(out, expect);
    free(out);
    snprintf(args, sizeof args, "config --config '%s'", test_src_path("config/baseline.ini"));
    out = run(args, 0);
    CU_ASSERT_STRING_EQUAL(out, expect);
    free(out);
    free(expect);

    char *sets[] = {"sm.bank=5", "ts.xfer=choice:1,1,8"};
    diag_t d = {0};
    CU_ASSERT_EQUAL(cfg_apply_cli(&c, test_src_path("config/slow-memory.ini"), sets, 2, &d), 0);
    expect = cfg_format(&c);
    snprintf(args, sizeof args, "config --config='%s' -s sm.bank=5 -s'ts.xfer=choice:1,1,8'",
             test_src_path("config/slow-memory.ini"));
    out = run(args, 0);
    CU_ASSERT_STRING_EQUAL(out, expect);
    /* what it prints reads back to the same configuration */
    scratch("printed.ini", out);
    snprintf(args, sizeof args, "config --config '%s'", test_tmp_path("printed.ini"));
    char *again = run(args, 0);
    CU_ASSERT_STRING_EQUAL(again, expect);
    free(again);
    free(out);
    free(expect);
}

static void test_command_rejected_input_exits_2(void)
{
    char *out = run("config -s sm.bank=0", 2);
    CU_ASSERT_STRING_EQUAL(out, "tessera: -s 'sm.bank=0': sm.bank: 0 is below the minimum 1 "
                                "cycle\n");
    free(out);
    const char *path = scratch("cmd-bad.ini", "[sm]\n\narbiter = lifo\n");
    char args[1200], expect[1200];
    snprintf(args, sizeof args, "config --config '%s'", path);
    out = run(args, 2);
    snprintf(expect, sizeof expect,
             "tessera: %s:3: sm.arbiter: 'lifo' is not valid (expected %s or plugin:PATH)\n",
             path, XENUM_JOIN(GPU_ARBITERS));
    CU_ASSERT_STRING_EQUAL(out, expect);
    free(out);
    out = run("config -s record.from_ps=9 -s record.to_ps=9", 2);
    CU_ASSERT_EQUAL(strncmp(out, "tessera: record.to_ps: 9 is not above", 37), 0);
    free(out);
}

static void test_command_unreadable_file_exits_5(void)
{
    char args[1200], expect[1200];
    const char *path = test_tmp_path("missing.ini");
    snprintf(args, sizeof args, "config --config '%s'", path);
    char *out = run(args, 5);
    snprintf(expect, sizeof expect, "tessera: cannot read '%s': No such file or directory\n",
             path);
    CU_ASSERT_STRING_EQUAL(out, expect);
    free(out);
}

static void test_command_bad_usage_exits_1(void)
{
    static const char *const bad[] = {
        "config --bogus", "config extra", "config --config", "config -s",
        "config --markdown", "config --keys -s sm.bank=2", "config --config a --config b",
        "config --counters -s sm.bank=2", "config --keys --counters", NULL,
    };
    for (const char *const *a = bad; *a; a++) {
        char *out = run(*a, 1);
        CU_ASSERT_EQUAL(strncmp(out, "tessera: config: ", 17), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, "usage: tessera config"));
        free(out);
    }
}

static void test_command_help_and_keys(void)
{
    char *out = run("config --help", 0);
    CU_ASSERT_EQUAL(strncmp(out, "usage: tessera config", 21), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "--keys"));
    free(out);
    out = run("config --keys", 0);
    for (size_t i = 0; i < cfg_key_count(); i++) {
        const cfg_key_info_t *k = cfg_key_info(i);
        char line[256];
        snprintf(line, sizeof line, "\n  %s = %s\n", k->key, k->def);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, line));
    }
    free(out);
}

static void test_docs_config_md_is_generated(void)
{
    char *out = run("config --keys --markdown", 0);
    char *doc = (char *)test_read_file(test_src_path("docs/CONFIG.md"), NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    if (strcmp(out, doc))
        fprintf(stderr, "\n  docs/CONFIG.md is out of date; regenerate it with\n"
                        "  tessera config --keys --markdown > docs/CONFIG.md\n");
    CU_ASSERT_STRING_EQUAL(out, doc);
    for (size_t i = 0; i < cfg_key_count(); i++) {
        char cell[128];
        snprintf(cell, sizeof cell, "| `%s` | `%s` |", cfg_key_info(i)->key,
                 cfg_key_info(i)->def);
        CU_ASSERT_PTR_NOT_NULL(strstr(doc, cell));
    }
    free(doc);
    free(out);
}

/* `tessera config --counters --markdown`, the counters table of
 * docs/SCHEMA.md, documents every counter runs record: each (component,
 * name) of a MIMD run, a SIMT run and one under barrier reconvergence has
 * its row — a numbered component as `core<N>`, a per-reason name as its
 * `stall_<reason>_…` pattern — and nothing else is listed. */
static void test_counters_list_every_recorded_counter(void)
{
    char *doc = run("config --counters --markdown", 0);
    static const char head[] = "| component | name | meaning |\n";
    CU_ASSERT_EQUAL_FATAL(strncmp(doc, head, strlen(head)), 0);
    char db[512];
    test_fresh_path("counters.db", db, sizeof db);
    static const char *const opts[] = {
        "", "-s core.model=simt", "-s core.model=simt -s simt.reconvergence=barrier"};
    for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++)
        CU_ASSERT_EQUAL_FATAL(test_record(db, test_src_path("examples/simt_paths.s"), opts[k]), 0);
    sqlite3 *h = test_db_open(db);
    sqlite3_stmt *st = test_db_prepare(h, "SELECT DISTINCT component, name FROM counters");
    unsigned listed = 0, rows = 0;
    bool *seen = calloc(strlen(doc), 1); /* a row's first byte, once matched */
    CU_ASSERT_PTR_NOT_NULL_FATAL(seen);
    while (sqlite3_step(st) == SQLITE_ROW) {
        char unit[64], row[160];
        const char *comp = (const char *)sqlite3_column_text(st, 0);
        const char *name = (const char *)sqlite3_column_text(st, 1);
        size_t letters = strcspn(comp, "0123456789");
        snprintf(unit, sizeof unit, "%.*s%s", (int)letters, comp, comp[letters] ? "<N>" : "");
        snprintf(row, sizeof row, "| `%s` | `%s` |", unit, name);
        const char *at = strstr(doc, row);
        for (const char *p = doc; !at && (p = strstr(p, "<reason>")); p++) {
            /* a per-reason row: "| `unit` | `prefix<reason>suffix` |" */
            const char *start = p;
            while (start > doc && start[-1] != '\n')
                start--;
            char prefix[160], suffix[64];
            int n = snprintf(prefix, sizeof prefix, "| `%s` | `", unit);
            size_t pre = (size_t)(p - start) - (size_t)n;
            sscanf(p + 8, "%63[^`]", suffix);
            size_t len = strlen(name), suf = strlen(suffix);
            if (!strncmp(start, prefix, (size_t)n) && len > pre + suf &&
                !strncmp(name, start + n, pre) && !strcmp(name + len - suf, suffix))
                at = start;
        }
        rows++;
        CU_ASSERT_PTR_NOT_NULL(at);
        if (!at)
            fprintf(stderr, "\n  counter %s.%s is not in `tessera config --counters`\n", comp,
                    name);
        else if (!seen[at - doc])
            seen[at - doc] = true, listed++;
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    unsigned doc_rows = 0;
    for (const char *p = doc; (p = strstr(p, "\n| `")); p++)
        doc_rows++;
    CU_ASSERT(rows > 50);
    CU_ASSERT_EQUAL(listed, doc_rows); /* every row listed is recorded by one of the runs */
    free(seen);
    free(doc);
}

static const test_case_t cases[] = {
    TEST(test_defaults_equal_spec_section_6),
    TEST(test_model_keys_from_one_table),
    TEST(test_counters_list_every_recorded_counter),
    TEST(test_key_table_is_consistent),
    TEST(test_foreach_visits_every_key_in_table_order),
    TEST(test_file_sets_keys),
    TEST(test_load_string_names_the_source),
    TEST(test_set_overrides_file_in_order),
    TEST(test_apply_cli_does_not_reset_defaults),
    TEST(test_failure_leaves_cfg_unchanged),
    TEST(test_duplicate_keys_last_wins),
    TEST(test_nothing_is_silently_dropped),
    TEST(test_missing_file_is_an_io_error),
    TEST(test_file_errors_name_file_and_line),
    TEST(test_syntax_errors_name_the_line),
    TEST(test_every_key_accepts_its_valid_values),
    TEST(test_every_key_rejects_invalid_values),
    TEST(test_every_listed_choice_is_configurable),
    TEST(test_latency_fixed_and_uniform),
    TEST(test_latency_geometric_is_an_exact_fraction),
    TEST(test_latency_choice),
    TEST(test_format_round_trip),
    TEST(test_format_round_trip_random),
    TEST(test_baseline_ini_is_exactly_the_defaults),
    TEST(test_every_preset_loads),
    TEST(test_cross_key_checks),
    TEST(test_command_prints_the_effective_configuration),
    TEST(test_command_rejected_input_exits_2),
    TEST(test_command_unreadable_file_exits_5),
    TEST(test_command_bad_usage_exits_1),
    TEST(test_command_help_and_keys),
    TEST(test_docs_config_md_is_generated),
    TEST_END,
};

static const test_suite_t suites[] = {{"config", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}
