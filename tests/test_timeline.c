/* test_timeline.c — `tessera timeline` end to end: databases recorded by
 * running programs through the built binary, then the SVG checked as XML
 * (xmllint) and by its structure: 16 core rows, 16 bank lanes, the frame labels
 * of example 1, a marker per CF, a time axis in cycles, per-pixel shading for
 * many accesses, windows, levels, and the error cases with their exit codes. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events/base/err.h"
#include "tests/simt_programs.h"
#include "tests/testutil.h"

/* A program whose 16 cores make 8192 accesses, each core in its own bank:
 * too many intervals to draw one by one at a small width. */
static const char loop_prog[] =
    ".group cores=0xffff fence=no\n"
    "  set_const r7, id\n  set_const r10, 1\n  set_const r9, 0\n"
    "loop:\n  ld [r9, r7], r1\n  add r1, r10, r1\n  st [r9, r7], r1\n"
    "  sub r9, r10, r9\n  bnz loop, r9\n";

/* Records a program into database `name` once (test_record_once), exit 0. */
static const char *record(const char *name, const char *prog, const char *text,
                          const char *opts)
{
    return test_record_once(name, prog, text, opts, 0);
}

static const char *example1(void) { return record("ex1.db", "examples/example1.s", NULL, NULL); }

/* Runs `tessera timeline DB ARGS -o OUT`; returns the exit code, the SVG in *svg. */
static int timeline(const char *db, const char *args, const char *out_name, char **svg,
                    char **msg)
{
    char cmd[4096];
    const char *out = test_tmp_path(out_name);
    unlink(out);
    snprintf(cmd, sizeof cmd, "timeline '%s' -o '%s' %s", db, out, args);
    int rc = test_run_tessera(cmd, msg);
    if (svg)
        *svg = (char *)test_read_file(out, NULL);
    return rc;
}

static unsigned count(const char *hay, const char *needle)
{
    unsigned n = 0;
    for (const char *p = hay; p && (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static int xmllint(const char *name)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "xmllint --noout '%s'", test_tmp_path(name));
    char *out = NULL;
    int rc = test_run_shell(cmd, &out);
    if (rc != 0)
        fprintf(stderr, "%s → %d\n%s\n", cmd, rc, out ? out : "");
    free(out);
    return rc;
}

/* --- the picture ------------------------------------------------------------------ */

static void test_example1_is_valid_xml(void)
{
    char *svg = NULL;
    CU_ASSERT_EQUAL(timeline(example1(), "", "ex1.svg", &svg, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT_EQUAL(xmllint("ex1.svg"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "</svg>\n"));
    free(svg);
}

static void test_example1_rows_and_lanes(void)
{
    char *svg = NULL;
    CU_ASSERT_EQUAL(timeline(example1(), "", "ex1.svg", &svg, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT_EQUAL(count(svg, "class=\"core-row\""), 16);
    CU_ASSERT_EQUAL(count(svg, "class=\"bank-lane\""), 16);
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">core 15<"));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">bank 15<"));
    CU_ASSERT_EQUAL(count(svg, "class=\"task\""), 48); /* 6 tasks × 8 cores */
    free(svg);
}

/* SIMT-SPEC E1 at level events: the issue port row holds the warp's 8
 * issues, cycles 6-9 (all lanes), 10 and 11 (even lanes, 0x0005) and 12
 * (odd lanes, 0x000a) inside the divergence, 14 (ready, reconverged); cycle
 * 13 is empty (the mul's second cycle). Each tooltip names the slot and its
 * instruction (the slot profile's text). A MIMD run has no such row. The
 * task bars name the frame's hottest instruction: under SIMT the ready
 * (slot 7: its issue and the cycle 13 it waits for the mul, 2 of the
 * warp's 9 cycles), under MIMD the mul (slot 6: 2 cycles on an odd core). */
static void test_simt_issue_port(void)
{
    const char *db = record("simt-e1.db", NULL, SIMT_E1,
                            "-s core.model=simt -s record.level=events");
    char *svg = NULL;
    CU_ASSERT_EQUAL(timeline(db, "", "simt-e1.svg", &svg, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT_EQUAL(count(svg, ">issue port<"), 1);
    CU_ASSERT_EQUAL(count(svg, "<title>cycle "), 8);
    CU_ASSERT_EQUAL(count(svg, "(diverged)"), 3);
    CU_ASSERT_EQUAL(count(svg, "<title>cycle 10: F1 slot 4 add r8, r8, r9, lanes 0x0005 of"
                               " 0x000f (diverged)"), 1);
    CU_ASSERT_EQUAL(count(svg, "<title>cycle 12: F1 slot 6 mul r1, r1, r10, lanes 0x000a of"
                               " 0x000f (diverged)"), 1);
    CU_ASSERT_EQUAL(count(svg, "<title>cycle 14: F1 slot 7 ready, lanes 0x000f of 0x000f<"), 1);
    CU_ASSERT_EQUAL(count(svg, "; hottest instruction (slot profile, every task of the frame on"
                               " the SIMT unit): slot 7 ready, 2 of 9 cycles</title>"), 4);
    CU_ASSERT_EQUAL(count(svg, "<title>cycle 13:"), 0);
    free(svg);
    CU_ASSERT_EQUAL(timeline(example1(), "", "ex1-noissue.svg", &svg, NULL), 0);
    CU_ASSERT_EQUAL(count(svg, "issue port"), 0);
    free(svg);
    db = record("mimd-e1.db", NULL, SIMT_E1, "");
    CU_ASSERT_EQUAL(timeline(db, "", "mimd-e1.svg", &svg, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT_EQUAL(count(svg, "; hottest instruction (slot profile, every task of the frame on"
                               " this core): slot 6 mul r1, r1, r10, 2 of 7 cycles</title>"), 2);
    free(svg);
}

/* Dual issue (simt.issue_width = 2): two warps of six set_const and a ready
 * each, F1 on lanes 0-1, F3 on lanes 2-3 (group 2, after the CF F2). F1
 * starts at cycle 6 and issues alone at 6-9; F3's code follows F1's on the
 * bus (T4), so it starts at 10. From 10 both warps issue in every cycle: rr
 * (S6) starts after the last warp issued (F1), so F3 takes slot 0 and F1
 * slot 1 at 10, 11 and 12 (F1's ready); F3 then issues alone at 13-16
 * (ready at 16, READY at 18 = the run's end). The issue port has two
 * strips and shows all 14 issues; with one slot the same warps alternate
 * from cycle 10 and the run ends at 21. */
static void test_simt_dual_issue_port(void)
{
    const char *db = record("simt-dual.db", NULL, SIMT_DUAL,
                            "-s core.model=simt -s record.level=events -s simt.issue_width=2");
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT end_ps FROM runs"), 18000);
    char *svg = NULL;
    CU_ASSERT_EQUAL(timeline(db, "", "simt-dual.svg", &svg, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT_EQUAL(count(svg, ">issue port<"), 1);
    CU_ASSERT_EQUAL(count(svg, "<title>cycle "), 14);
    CU_ASSERT_EQUAL(count(svg, " (issue 1): F1 "), 3);
    CU_ASSERT_EQUAL(count(svg, " (issue 0): F3 "), 7);
    CU_ASSERT_EQUAL(count(svg, "<title>cycle 10 (issue 0): F3 slot 0 set_const r8, 0x01, lanes"
                               " 0x000c of 0x000c<"), 1);
    CU_ASSERT_EQUAL(count(svg, "<title>cycle 12 (issue 1): F1 slot 6 ready, lanes 0x0003 of"
                               " 0x0003<"), 1);
    CU_ASSERT_EQUAL(count(svg, "<title>cycle 13 (issue 1):"), 0);
    free(svg);
    db = record("simt-single.db", NULL, SIMT_DUAL, "-s core.model=simt -s record.level=events");
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT end_ps FROM runs"), 21000);
    CU_ASSERT_EQUAL(timeline(db, "", "simt-single.svg", &svg, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT_EQUAL(count(svg, "<title>cycle "), 14);
    CU_ASSERT_EQUAL(count(svg, " (issue "), 0);
    CU_ASSERT_EQUAL(count(svg, "<title>cycle 10: F3 slot 0 set_const r8, 0x01,"), 1);
    CU_ASSERT_EQUAL(count(svg, "<title>cycle 11: F1 slot 4 set_const r12, 0x05,"), 1);
    free(svg);
}

/* The spec's figure 2: IF0–IF3 on cores 0-3, 8-11; IF4, IF5 on the others. */
static void test_example1_labels(void)
{
    char *svg = NULL;
    CU_ASSERT_EQUAL(timeline(example1(), "", "ex1.svg", &svg, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    static const char *const labels[] = {">F1<", ">F2<", ">F3<", ">F4<", ">F6<", ">F7<"};
    for (unsigned i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(count(svg, labels[i]), 8 + 1); /* 8 bars + the code bus */
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "frame 1 (IF0) on core 0: cycles 6\xe2\x80\x93" "26"));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "frame 6 (IF4) on core 4"));
    CU_ASSERT_PTR_NULL(strstr(svg, "frame 6 (IF4) on core 0"));
    free(svg);
}

static void test_example1_cf_markers(void)
{
    char *svg = NULL;
    CU_ASSERT_EQUAL(timeline(example1(), "", "ex1.svg", &svg, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT_EQUAL(count(svg, "<g class=\"cf\""), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">F0 (acq)<"));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">F5 (acq)<"));
    /* CF1 took effect when IF3 completed: cycle 118 */
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "frame 5 (CF1), fence acq, cores 0xf0f0 took effect at"
                                       " cycle 118"));
    free(svg);
    CU_ASSERT_EQUAL(timeline(record("ex2.db", "examples/example2.s", NULL, NULL), "", "ex2.svg",
                             &svg, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">F0 (no)<"));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">F5 (acq)<"));
    free(svg);
}

static void test_axis_in_cycles(void)
{
    char *svg = NULL;
    CU_ASSERT_EQUAL(timeline(example1(), "", "ex1.svg", &svg, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "data-unit=\"cycles\" data-step=\"20\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "time in cycles (1 cycle = 1000 ps)"));
    for (unsigned c = 0; c <= 160; c += 20) {
        char tick[32];
        snprintf(tick, sizeof tick, "class=\"tick\" x=");
        CU_ASSERT_PTR_NOT_NULL(strstr(svg, tick));
        snprintf(tick, sizeof tick, ">%u</text>", c);
        CU_ASSERT_PTR_NOT_NULL(strstr(svg, tick));
    }
    CU_ASSERT_EQUAL(count(svg, "class=\"tick\""), 9);
    free(svg);
}

/* Few accesses: one rect per merged busy interval, with its cycles. */
static void test_exact_bank_intervals(void)
{
    char *svg = NULL;
    CU_ASSERT_EQUAL(timeline(example1(), "", "ex1.svg", &svg, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    /* core 0's first ld is granted at cycle 9: bank 0 busy 9–17 (8 accesses, back to back) */
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "<title>bank 0: cycles 9\xe2\x80\x93" "17 (8)</title>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "<title>core 0: cycles 8\xe2\x80\x93" "11 (1)</title>"));
    CU_ASSERT_PTR_NULL(strstr(svg, "<title>bank 1:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "96 SM accesses"));
    free(svg);
}

/* Many accesses: shading per pixel column, the file stays small. */
static void test_many_accesses_are_aggregated(void)
{
    const char *db = record("loop.db", NULL, loop_prog, NULL);
    char *svg = NULL;
    size_t len = 0;
    CU_ASSERT_EQUAL(timeline(db, "--width 480", "loop.svg", NULL, NULL), 0);
    svg = (char *)test_read_file(test_tmp_path("loop.svg"), &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT_EQUAL(xmllint("loop.svg"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "8,192 SM accesses"));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "fill-opacity="));
    CU_ASSERT_PTR_NULL(strstr(svg, "<title>bank 3:"));
    CU_ASSERT(count(svg, "<rect") < 2 * 32 * 400);
    CU_ASSERT(len < 600000);
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "width=\"480\""));
    free(svg);
}

static void test_window(void)
{
    char *svg = NULL;
    CU_ASSERT_EQUAL(timeline(example1(), "--from-ps 100000 --to-ps 173000", "win.svg", &svg,
                             NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT_EQUAL(xmllint("win.svg"), 0);
    CU_ASSERT_PTR_NULL(strstr(svg, ">F1<"));
    CU_ASSERT_PTR_NULL(strstr(svg, ">F0 (acq)<"));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">F4<"));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">F7<"));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">F5 (acq)<"));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "cycles 100\xe2\x80\x93" "173 of 173"));
    free(svg);
}

/* A run recorded with a window: drawn over that window; the frames before it
 * are missing, so labels name the frame index all the same (F7), with no IF/CF
 * ordinal in the tooltips. */
static void test_recording_window(void)
{
    const char *db = record("recwin.db", "examples/example1.s", NULL, "-s record.from_ps=100000");
    char *svg = NULL;
    CU_ASSERT_EQUAL(timeline(db, "", "recwin.svg", &svg, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT_EQUAL(xmllint("recwin.svg"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "cycles 100\xe2\x80\x93" "173 of 173"));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">F7<"));   /* IF5 */
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">F5 (acq)<"));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "frame 7 on core"));
    CU_ASSERT_PTR_NULL(strstr(svg, "(IF5)"));
    free(svg);
}

/* Level tasks: no accesses; the SM wait is shown as a share of each task. */
static void test_level_tasks(void)
{
    const char *db = record("tasks.db", "examples/example1.s", NULL, "-s record.level=tasks");
    char *svg = NULL;
    CU_ASSERT_EQUAL(timeline(db, "", "tasks.svg", &svg, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT_EQUAL(xmllint("tasks.svg"), 0);
    CU_ASSERT_EQUAL(count(svg, "class=\"wait-share\""), 48);
    CU_ASSERT_EQUAL(count(svg, "class=\"bank-lane\""), 16);
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "accesses not recorded at this level"));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">F7<"));
    free(svg);
}

/* A stopped run is drawn to the last time it recorded: core 1 exceeds its
 * budget of 8 instructions at cycle 14 (the watchdog: stop_ps 14000), while
 * core 0's ld is still in flight — requested at cycle 10 (three set_const,
 * a bnz not taken, then the ld at 10: one cycle each), granted when it
 * reaches bank 0 at 11, answered 40 + 40 cycles later at 91 (sm.bank 40,
 * sm.resp 40). Neither task finished, so only the access says 91. */
static void test_stopped_run_ends_at_its_last_access(void)
{
    static const char src[] = ".group cores=0x0003 fence=no\n set_const r7, id\n"
                              " set_const r9, 0\n set_const r11, 1\n bnz far, r7\n"
                              " ld [r9, r9], r10\nloop0:\n bnz loop0, r11\nfar:\nloop:\n"
                              " bnz loop, r11\n ready\n";
    char db[1024], prog[1100], args[3072];
    snprintf(db, sizeof db, "%s", test_tmp_path("stopped.db"));
    snprintf(prog, sizeof prog, "%s.s", db);
    unlink(db);
    CU_ASSERT_EQUAL_FATAL(test_write_file(prog, src, strlen(src)), 0);
    snprintf(args, sizeof args, "run '%s' --quiet --db '%s' -s core.budget=8 -s sm.bank=40"
             " -s sm.resp=40", prog, db);
    CU_ASSERT_EQUAL_FATAL(test_run_tessera(args, NULL), TESS_EWATCHDOG);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT stop_ps FROM runs"), 14000);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM core_tasks WHERE finish_ps IS NULL"), 2);
    char *svg = NULL;
    CU_ASSERT_EQUAL(timeline(db, "", "stopped.svg", &svg, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "run 1 · watchdog · level mem · cycles 0–91 of 91"));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "core 0: cycles 10–91 (1)"));
    free(svg);
}

static void test_stdout_and_program_name_escaped(void)
{
    const char *db = record("a&b.db", NULL, ".group cores=1\n  set_const r8, 1\n", NULL);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "timeline '%s' -o - | xmllint --noout -", db);
    char *out = NULL;
    CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), 0);
    free(out);
    CU_ASSERT_EQUAL(timeline(db, "--run 1 --width 800", "one.svg", &out, NULL), 0);
    CU_ASSERT(out && strstr(out, ">F1<"));
    free(out);
}

/* --- geometry: every shape inside the picture --------------------------------------- */

/* The value of attribute `name` in the tag starting at `tag` (up to its '>'),
 * as a number; `pct` (the picture's size) scales a percentage. False if absent. */
static bool attr_num(const char *tag, const char *name, double pct, double *v)
{
    char key[32];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *end = strchr(tag, '>'), *p = strstr(tag, key);
    if (!p || !end || p > end)
        return false;
    char *rest;
    *v = strtod(p + strlen(key), &rest);
    if (*rest == '%')
        *v = *v * pct / 100;
    return true;
}

typedef struct box {
    double w, h;          /* the picture */
    unsigned shapes, bad; /* checked, outside */
} box_t;

static void box_point(box_t *b, const char *what, const char *tag, double x, double y)
{
    const double eps = 0.01;
    if (x >= -eps && x <= b->w + eps && y >= -eps && y <= b->h + eps && isfinite(x) &&
        isfinite(y))
        return;
    if (b->bad++ < 5)
        fprintf(stderr, "%s point (%g, %g) outside %gx%g: %.120s\n", what, x, y, b->w, b->h, tag);
}

/* A path's d: the absolute and relative M, L, H, V and Z that SVG allows
 * (numbers separated by blanks or commas); every point reached is checked. */
static void box_path(box_t *b, const char *tag)
{
    const char *d = strstr(tag, " d=\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    double x = 0, y = 0, sx = 0, sy = 0;
    char cmd = 0;
    for (const char *p = d + 4; *p && *p != '"';) {
        if (strchr(" ,\n", *p)) {
            p++;
            continue;
        }
        if (strchr("MmLlHhVvZz", *p)) {
            cmd = *p++;
            if (cmd == 'Z' || cmd == 'z')
                x = sx, y = sy;
            continue;
        }
        char *q;
        double a = strtod(p, &q), c = 0;
        CU_ASSERT_FATAL(q != p && cmd && !strchr("Zz", cmd)); /* a number after a command */
        p = q;
        if (strchr("MmLl", cmd)) {
            while (*p == ' ' || *p == ',')
                p++;
            c = strtod(p, &q);
            CU_ASSERT_FATAL(q != p);
            p = q;
        }
        switch (cmd) {
        case 'M': x = a, y = c, sx = x, sy = y, cmd = 'L'; break;
        case 'm': x += a, y += c, sx = x, sy = y, cmd = 'l'; break;
        case 'L': x = a, y = c; break;
        case 'l': x += a, y += c; break;
        case 'H': x = a; break;
        case 'h': x += a; break;
        case 'V': y = a; break;
        case 'v': y += a; break;
        }
        box_point(b, "path", tag, x, y);
    }
    b->shapes++;
}

/* Checks every rect, path, line and text anchor of `svg` against its width
 * and height (rects outside <defs> only); returns how many lie outside. */
static unsigned shapes_outside(const char *svg, unsigned *shapes)
{
    box_t b = {0};
    const char *root = strstr(svg, "<svg ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    CU_ASSERT_FATAL(attr_num(root, "width", 0, &b.w) && attr_num(root, "height", 0, &b.h));
    const char *defs_end = strstr(svg, "</defs>");
    for (const char *t = root + 1; (t = strchr(t, '<')) != NULL; t++) {
        double x = 0, y = 0, w = 0, h = 0, x2 = 0, y2 = 0;
        if (!strncmp(t, "<rect ", 6) && (!defs_end || t > defs_end)) {
            attr_num(t, "x", b.w, &x), attr_num(t, "y", b.h, &y);
            CU_ASSERT_FATAL(attr_num(t, "width", b.w, &w) && attr_num(t, "height", b.h, &h));
            if (w < 0 || h < 0)
                box_point(&b, "rect (negative size)", t, -1, -1);
            box_point(&b, "rect", t, x, y), box_point(&b, "rect", t, x + w, y + h);
            b.shapes++;
        } else if (!strncmp(t, "<path ", 6)) {
            box_path(&b, t);
        } else if (!strncmp(t, "<line ", 6)) {
            CU_ASSERT_FATAL(attr_num(t, "x1", b.w, &x) && attr_num(t, "y1", b.h, &y) &&
                            attr_num(t, "x2", b.w, &x2) && attr_num(t, "y2", b.h, &y2));
            box_point(&b, "line", t, x, y), box_point(&b, "line", t, x2, y2);
            b.shapes++;
        } else if (!strncmp(t, "<text ", 6)) {
            CU_ASSERT_FATAL(attr_num(t, "x", b.w, &x) && attr_num(t, "y", b.h, &y));
            box_point(&b, "text", t, x, y);
            b.shapes++;
        }
    }
    *shapes = b.shapes;
    return b.bad;
}

/* examples/bench.s: so many accesses that every lane is shaded per pixel
 * column. A relative move once went negative in unsigned arithmetic
 * ("h4294967295.0") and ran every strip and lane to the right edge. */
static void test_bench_shapes_inside(void)
{
    const char *db = record("bench.db", "examples/bench.s", NULL, NULL);
    static const char *const widths[] = {"", "--width 480", "--width 3001"};
    for (unsigned i = 0; i < 3; i++) {
        char *svg = NULL;
        unsigned shapes = 0;
        CU_ASSERT_EQUAL(timeline(db, widths[i], "bench.svg", &svg, NULL), 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
        CU_ASSERT_EQUAL(xmllint("bench.svg"), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(svg, "fill-opacity=")); /* the shaded mode */
        CU_ASSERT_PTR_NULL(strstr(svg, "<title>bank 3:"));
        CU_ASSERT_EQUAL(shapes_outside(svg, &shapes), 0);
        CU_ASSERT(count(svg, "<path ") >= 32); /* a path per shade used, per lane */
        CU_ASSERT(shapes >= count(svg, "<rect ") + count(svg, "<path ") - 1);
        free(svg);
    }
}

/* The other pictures of this file too: exact intervals, windows, level tasks. */
static void test_shapes_inside(void)
{
    struct { const char *db, *args; } cases[] = {
        {example1(), ""}, {example1(), "--width 480 --from-ps 100000 --to-ps 120000"},
        {record("loop.db", NULL, loop_prog, NULL), "--width 480"},
        {record("loop.db", NULL, loop_prog, NULL), "--width 100000"},
        {record("tasks.db", "examples/example1.s", NULL, "-s record.level=tasks"), ""},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *svg = NULL;
        unsigned shapes = 0;
        CU_ASSERT_EQUAL(timeline(cases[i].db, cases[i].args, "shapes.svg", &svg, NULL), 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
        CU_ASSERT_EQUAL(shapes_outside(svg, &shapes), 0);
        CU_ASSERT(shapes > 100);
        free(svg);
    }
}

/* --- errors ----------------------------------------------------------------------- */

static void test_errors(void)
{
    char *msg = NULL;
    CU_ASSERT_EQUAL(timeline(test_tmp_path("missing.db"), "", "x.svg", NULL, &msg), 5);
    CU_ASSERT(msg && strstr(msg, "missing.db"));
    free(msg);
    const char *text = test_tmp_path("text.db");
    test_write_file(text, "hello, not a database\n", 22);
    CU_ASSERT_EQUAL(timeline(text, "", "x.svg", NULL, NULL), 6);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "sqlite3 '%s' 'CREATE TABLE t(x)'", test_tmp_path("foreign.db"));
    CU_ASSERT_EQUAL(test_run_shell(cmd, NULL), 0);
    CU_ASSERT_EQUAL(timeline(test_tmp_path("foreign.db"), "", "x.svg", NULL, &msg), 6);
    CU_ASSERT(msg && strstr(msg, "not a Tessera database"));
    free(msg);
    CU_ASSERT_EQUAL(timeline(example1(), "--run 99", "x.svg", NULL, &msg), 2);
    CU_ASSERT(msg && strstr(msg, "no run 99"));
    free(msg);
    CU_ASSERT_EQUAL(timeline(example1(), "--from-ps 500000", "x.svg", NULL, NULL), 2);
    CU_ASSERT_EQUAL(access(test_tmp_path("x.svg"), F_OK), -1); /* nothing left behind */
}

static void test_level_summary_is_refused(void)
{
    const char *db = record("summary.db", "examples/example1.s", NULL, "-s record.level=summary");
    char *msg = NULL;
    CU_ASSERT_EQUAL(timeline(db, "", "x.svg", NULL, &msg), 2);
    CU_ASSERT(msg && strstr(msg, "level summary"));
    CU_ASSERT(msg && strstr(msg, "record.level=tasks"));
    free(msg);
}

static void test_usage_errors(void)
{
    char cmd[2048];
    CU_ASSERT_EQUAL(test_run_tessera("timeline", NULL), 1);
    snprintf(cmd, sizeof cmd, "timeline '%s'", example1()); /* no -o */
    CU_ASSERT_EQUAL(test_run_tessera(cmd, NULL), 1);
    CU_ASSERT_EQUAL(timeline(example1(), "--width 10", "x.svg", NULL, NULL), 1);
    CU_ASSERT_EQUAL(timeline(example1(), "--run x", "x.svg", NULL, NULL), 1);
    CU_ASSERT_EQUAL(timeline(example1(), "--bogus", "x.svg", NULL, NULL), 1);
    char *out = NULL;
    CU_ASSERT_EQUAL(test_run_tessera("timeline --help", &out), 0);
    CU_ASSERT(out && strstr(out, "Exit codes"));
    free(out);
    snprintf(cmd, sizeof cmd, "timeline '%s' -o /nonexistent-dir/x.svg", example1());
    CU_ASSERT_EQUAL(test_run_tessera(cmd, NULL), 5);
}

int main(void)
{
    static const test_case_t picture[] = {
        TEST(test_example1_is_valid_xml), TEST(test_example1_rows_and_lanes),
        TEST(test_simt_issue_port),
        TEST(test_simt_dual_issue_port),
        TEST(test_example1_labels),       TEST(test_example1_cf_markers),
        TEST(test_axis_in_cycles),        TEST(test_exact_bank_intervals),
        TEST(test_many_accesses_are_aggregated), TEST(test_window), TEST(test_recording_window),
        TEST(test_level_tasks),           TEST(test_stopped_run_ends_at_its_last_access),
        TEST(test_stdout_and_program_name_escaped),
        TEST(test_bench_shapes_inside),   TEST(test_shapes_inside),
        TEST_END};
    static const test_case_t errors[] = {
        TEST(test_errors), TEST(test_level_summary_is_refused), TEST(test_usage_errors),
        TEST_END};
    static const test_suite_t suites[] = {{"timeline", picture}, {"timeline errors", errors},
                                          {NULL, NULL}};
    return test_run_suites(suites);
}
