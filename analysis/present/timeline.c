/* timeline.c — the SVG Gantt chart of one recorded run (timeline.h): a row
 * per core, a lane per bank, CF markers, a time axis in cycles. Invariant:
 * accesses are streamed (export.h) and folded into per-pixel-column
 * occupancy, so memory is bounded by the width. */
#include "analysis/present/timeline.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/present/slots.h"
#include "analysis/store/db.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "analysis/present/escape.h"
#include "tessera_names.h" /* the model's units and counters (cmake/gen-names.c) */

#define FOREVER INT64_MAX

/* --- the SVG timeline ------------------------------------------------------------- */

enum {
    W_DEFAULT = 1200, W_MIN = 480, W_MAX = 100000,
    MARGIN_L = 58, MARGIN_R = 44, TITLE_H = 54, CF_ROWS = 4, CF_ROW_H = 12,
    BUS_H = 16, CORE_H = 20, BAR_H = 16, WAIT_H = 4, GAP_H = 26, BANK_H = 11,
    AXIS_H = 38, LEGEND_ROW_H = 17, SPANS_PER_PX = 2, SHADES = 8,
};

static const char *const palette[] = {"#8fb8de", "#f4b183", "#a9d18e", "#f19c99", "#c5b0d5",
                                      "#d9bfae", "#f7b6d2", "#c7c7c7", "#dbdb8d", "#9edae5"};
#define WAIT_COLOUR "#c0392b"
#define BANK_COLOUR "#1f4e79"
#define CF_COLOUR "#6a3d9a"
#define BARRIER_COLOUR "#e08a00"
/* Thread groups (simt.reconvergence = barrier): a group's colour is its
 * lowest lane's, so a warp's groups (disjoint lanes) never share one (no
 * red, no orange: the SM's and the barrier's strips). */
static const char *const group_palette[16] = {
    "#1f77b4", "#9467bd", "#2ca02c", "#8c564b", "#e377c2", "#bcbd22", "#17becf", "#7f7f7f",
    "#393b79", "#637939", "#8c6d31", "#7b4173", "#3182bd", "#31a354", "#756bb1", "#636363"};

/* Busy time of a set of lanes per pixel column, and the exact busy intervals
 * (merged) for as long as there are few enough to draw one by one. */
typedef struct span {
    int64_t from, to;
    uint32_t n;               /* intervals merged into it */
} span_t;

typedef struct lanes {
    unsigned cols;            /* pixel columns */
    int64_t t0, t1;           /* the window */
    double col_ps;            /* ps per column */
    double *busy;             /* [lane * cols + col]: busy ps in that column */
    unsigned nlanes;          /* cores or banks */
    double total[TL_BANKS_MAX]; /* busy ps per lane in the window */
    span_t *spans[TL_BANKS_MAX]; /* exact intervals while `exact` */
    unsigned n[TL_BANKS_MAX], cap[TL_BANKS_MAX], n_all, max_all;
    bool exact;
} lanes_t;

static int lanes_init(lanes_t *l, unsigned nlanes, unsigned cols, int64_t t0, int64_t t1)
{
    memset(l, 0, sizeof *l);
    l->nlanes = nlanes;
    l->cols = cols, l->t0 = t0, l->t1 = t1, l->col_ps = (double)(t1 - t0) / cols;
    l->busy = tess_calloc((size_t)cols * nlanes, sizeof *l->busy);
    l->exact = true, l->max_all = cols * SPANS_PER_PX;
    return l->busy ? TESS_OK : TESS_ENOMEM;
}

static void lanes_free(lanes_t *l)
{
    for (unsigned i = 0; i < l->nlanes; i++)
        tess_free(l->spans[i]), l->spans[i] = NULL;
    tess_free(l->busy), l->busy = NULL;
}

static void lanes_give_up_exact(lanes_t *l)
{
    for (unsigned i = 0; i < l->nlanes; i++)
        tess_free(l->spans[i]), l->spans[i] = NULL, l->n[i] = l->cap[i] = 0;
    l->exact = false;
}

static void lanes_add_span(lanes_t *l, unsigned lane, int64_t a, int64_t b)
{
    span_t *last = l->n[lane] ? &l->spans[lane][l->n[lane] - 1] : NULL;
    if (last && a >= last->from && a <= last->to) {
        last->to = b > last->to ? b : last->to;
        last->n++;
        return;
    }
    if (++l->n_all > l->max_all ||
        !tl_grow((void **)&l->spans[lane], &l->cap[lane], l->n[lane], sizeof(span_t))) {
        lanes_give_up_exact(l); /* too many (or no memory): columns only */
        return;
    }
    l->spans[lane][l->n[lane]++] = (span_t){a, b, 1};
}

void tl_spread(double *row, unsigned cols, double col_ps, double ca, double cb, double w)
{
    unsigned c1 = cb >= cols ? cols - 1 : (unsigned)cb;
    for (unsigned c = (unsigned)ca; c <= c1; c++) {
        double lo = ca > c ? ca : c, hi = cb < c + 1 ? cb : c + 1;
        row[c] += hi > lo ? w * (hi - lo) * col_ps : 0;
    }
}

static void lanes_add(lanes_t *l, unsigned lane, int64_t a, int64_t b)
{
    a = a < l->t0 ? l->t0 : a;
    b = b > l->t1 ? l->t1 : b;
    if (b <= a)
        return;
    l->total[lane] += (double)(b - a);
    double ca = (double)(a - l->t0) / l->col_ps, cb = (double)(b - l->t0) / l->col_ps;
    tl_spread(l->busy + (size_t)lane * l->cols, l->cols, l->col_ps, ca, cb, 1.0);
    if (l->exact)
        lanes_add_span(l, lane, a, b);
}

static int span_cmp(const void *pa, const void *pb)
{
    const span_t *a = pa, *b = pb;
    return (a->from > b->from) - (a->from < b->from);
}

/* Sorts and merges one lane's spans (bank lanes receive them out of order). */
static void lanes_settle(lanes_t *l, unsigned lane)
{
    span_t *s = l->spans[lane];
    unsigned n = l->n[lane], m = 0;
    if (n == 0)
        return;
    qsort(s, n, sizeof *s, span_cmp);
    for (unsigned i = 1; i < n; i++) {
        if (s[i].from <= s[m].to) {
            s[m].to = s[i].to > s[m].to ? s[i].to : s[m].to;
            s[m].n += s[i].n;
        } else {
            s[++m] = s[i];
        }
    }
    l->n[lane] = m + 1;
}

typedef struct svg {
    FILE *out;
    tl_run_t *run;
    const tl_info_t *info;
    int64_t t0, t1;           /* the window, ps */
    double x0, pw;            /* the plot area: left edge and width, px */
    unsigned width, height, legend_rows;
    double y_cf, y_bus, y_issue, y_core, y_bank, y_axis, y_legend;
    bool have_issue;          /* a SIMT run at level events: the issue port row */
    bool have_groups;         /* … under simt.reconvergence = barrier: thread groups' colours
                                 on the port, barrier waits on the cores' rows */
    unsigned issue_slots;     /* its issue slots per cycle (simt.issue_width): one strip each */
    double slot_h;            /* a strip's height, px */
    unsigned banks, bank_h;   /* bank lanes and their height (thinner beyond 16) */
    lanes_t wait, bank;       /* per core: waiting on the SM; per bank: busy */
    lanes_t barrier;          /* per core (lane): waiting at a convergence barrier */
    uint64_t accesses;        /* accesses drawn */
    int8_t cf_row[TL_MAX_FRAMES]; /* per frame of tl_run_frames(): its CF label's row, or -1 */
    unsigned cf_rows;         /* label rows used (at least 1) */
    bool have_acc;            /* the run recorded accesses (level mem) */
    tl_slots_t *slots;        /* the slot profile: the instructions the tooltips name */
} svg_t;

static double X(const svg_t *s, int64_t t)
{
    if (t < s->t0)
        t = s->t0;
    if (t > s->t1)
        t = s->t1;
    return s->x0 + (double)(t - s->t0) * s->pw / (double)(s->t1 - s->t0);
}

static double text_w(const char *t, double font) { return (double)strlen(t) * font * 0.6; }

static double cycles(const svg_t *s, int64_t t) { return (double)t / (double)s->info->period_ps; }

static const char *const legend_items[][2] = {
    {"bar", "task IFk on a core (start \xe2\x86\x92 READY sent)"},
    {"wait", "core waiting on the SM (request \xe2\x86\x92 answer)"},
    {"bank", "bank busy (darker = larger share of the pixel)"},
    {"bus", "code bus: IF transfer to its cores"},
    {"cf", "CFk (fence): a control frame took effect"},
    {"group", "diverged issue's thread group (colour of its lowest lane)"},
    {"barrier", "lane's group waiting at a convergence barrier (S14)"},
};
#define N_LEGEND (sizeof legend_items / sizeof legend_items[0])

static unsigned write_legend(svg_t *s, bool write);
static void place_cfs(svg_t *s);

static void layout(svg_t *s, unsigned width)
{
    s->width = width;
    s->x0 = MARGIN_L;
    s->pw = width - MARGIN_L - MARGIN_R;
    s->y_cf = TITLE_H;
    place_cfs(s);
    s->y_bus = s->y_cf + s->cf_rows * CF_ROW_H + 4;
    s->y_issue = s->y_bus + BUS_H + 4;
    s->slot_h = s->issue_slots <= 2 ? BUS_H - 4 : s->issue_slots <= 4 ? 8 : 5;
    s->y_core = s->y_issue + (s->have_issue ? s->issue_slots * s->slot_h + 8 : 0);
    s->y_bank = s->y_core + TL_CORES * CORE_H + GAP_H;
    s->banks = s->info->banks;
    s->bank_h = s->banks <= 16 ? BANK_H : s->banks <= 32 ? 7 : 5;
    s->y_axis = s->y_bank + s->banks * s->bank_h + 2;
    s->y_legend = s->y_axis + AXIS_H;
    s->legend_rows = write_legend(s, false);
    s->height = (unsigned)(s->y_legend + s->legend_rows * LEGEND_ROW_H + 8);
}

/* Folds the window's waits at convergence barriers into the lanes' barrier
 * rows (a wait still open when the run ended lasts to the window's end). */
static int collect_wait(void *arg, const tl_wait_t *w)
{
    svg_t *s = arg;
    for (unsigned m = w->lanes; m; m &= m - 1)
        lanes_add(&s->barrier, (unsigned)__builtin_ctz(m), w->from,
                  w->to == TL_NONE ? s->t1 : w->to);
    return TESS_OK;
}

static int collect_waits(svg_t *s, diag_t *d)
{
    return tl_run_waits(s->run, s->t0, s->t1, collect_wait, s, d);
}

/* Folds every access of the window into the wait and bank lanes. */
static int collect_accesses(svg_t *s, diag_t *d)
{
    exp_acc_filter_t f = {.from = (uint64_t)s->t0, .to = (uint64_t)s->t1, .frame = -1, .core = -1};
    exp_acc_iter_t *it = exp_acc_begin(s->run, &f, d);
    if (!it)
        return d->code;
    exp_access_t a;
    int got;
    while ((got = exp_acc_next(it, &a, d)) == 1) {
        s->accesses++;
        if (a.request != TL_NONE)
            lanes_add(&s->wait, a.core, a.request, a.done != TL_NONE ? a.done : s->t1);
        int64_t free_at = exp_bank_free(s->run, &a);
        if (free_at != TL_NONE)
            lanes_add(&s->bank, a.bank, a.grant, free_at);
    }
    exp_acc_end(it);
    return got < 0 ? d->code : TESS_OK;
}

static void write_head(svg_t *s)
{
    FILE *f = s->out;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\""
               " viewBox=\"0 0 %u %u\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\""
               " font-size=\"10\">\n",
            s->width, s->height, s->width, s->height);
    fprintf(f, "<defs><pattern id=\"hatch\" width=\"4\" height=\"4\""
               " patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
               "<rect width=\"2\" height=\"4\" fill=\"%s\"/></pattern></defs>\n", WAIT_COLOUR);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
}

/* v with thousands separators ("12,582,912") in buf[32]. */
static const char *grouped(uint64_t v, char *buf)
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v), o = 0;
    for (int i = 0; i < n; i++) {
        buf[o++] = digits[i];
        if ((n - i - 1) % 3 == 0 && i < n - 1)
            buf[o++] = ',';
    }
    buf[o] = 0;
    return buf;
}

/* The program's path, its tail only ("…" first) when it is too long for the width. */
static void put_program(svg_t *s, double font, double room)
{
    const char *p = s->info->program;
    size_t keep = room > 0 ? (size_t)(room / (font * 0.6)) : 8;
    if (strlen(p) <= keep) {
        esc_xml(s->out, p);
        return;
    }
    p += strlen(p) - keep;
    while ((*p & 0xc0) == 0x80) /* not inside a UTF-8 sequence */
        p++;
    fputs("\xe2\x80\xa6", s->out);
    esc_xml(s->out, p);
}

static void write_title(svg_t *s, unsigned n_tasks)
{
    FILE *f = s->out;
    const tl_info_t *i = s->info;
    char a[32], b[32], c[32], n[32];
    fputs("<text class=\"title\" x=\"10\" y=\"17\" font-size=\"13\" font-weight=\"bold\">"
          "Tessera timeline \xe2\x80\x94 ", f);
    put_program(s, 13, s->width - 20 - text_w("Tessera timeline - ", 13));
    fprintf(f, "</text>\n<text x=\"10\" y=\"32\" fill=\"#444\">run %lld \xc2\xb7 ",
            (long long)i->run_id);
    esc_xml(f, i->status);
    fputs(" \xc2\xb7 level ", f);
    esc_xml(f, i->level_name);
    fprintf(f, " \xc2\xb7 cycles %s\xe2\x80\x93%s of %s</text>\n",
            grouped((uint64_t)s->t0 / i->period_ps, a), grouped((uint64_t)s->t1 / i->period_ps, b),
            grouped(i->end_ps / i->period_ps, c));
    fprintf(f, "<text x=\"10\" y=\"45\" fill=\"#444\">%u core tasks", n_tasks);
    if (s->have_acc)
        fprintf(f, " \xc2\xb7 %s SM accesses", grouped(s->accesses, n));
    fprintf(f, " \xc2\xb7 1 cycle = %llu ps</text>\n", (unsigned long long)i->period_ps);
}

/* A tick step of 1, 2 or 5 × 10^k cycles, ticks about 90 px apart. */
static uint64_t tick_step(const svg_t *s)
{
    double span = cycles(s, s->t1) - cycles(s, s->t0), want = span * 90.0 / s->pw;
    uint64_t step = 1;
    while ((double)step < want) {
        uint64_t m = step;
        while (m >= 10)
            m /= 10;
        step = m == 2 ? step / 2 * 5 : step * 2;
    }
    return step;
}

static void fmt_cycles(uint64_t v, uint64_t step, char *b, size_t n)
{
    if (v == 0)
        snprintf(b, n, "0");
    else if (step >= 100000 && v % 100000 == 0)
        snprintf(b, n, "%gM", (double)v / 1e6);
    else if (step >= 100 && v % 100 == 0 && v >= 1000)
        snprintf(b, n, "%gk", (double)v / 1e3);
    else
        snprintf(b, n, "%llu", (unsigned long long)v);
}

/* Row backgrounds, under the grid lines. */
static void write_backgrounds(svg_t *s)
{
    FILE *f = s->out;
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"#f2f2f2\"/>\n",
            s->x0, s->y_bus, s->pw, BUS_H);
    for (unsigned c = 0; c < TL_CORES; c++)
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n",
                s->x0, s->y_core + c * CORE_H, s->pw, CORE_H, c % 2 ? "#f5f5f5" : "#ffffff");
    for (unsigned b = 0; b < s->banks; b++)
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%u\" fill=\"%s\"/>\n",
                s->x0, s->y_bank + b * s->bank_h, s->pw, s->bank_h,
                b % 2 ? "#eef2f6" : "#f7f9fb");
}

static void write_axis(svg_t *s)
{
    FILE *f = s->out;
    uint64_t step = tick_step(s), P = s->info->period_ps;
    uint64_t c = ((uint64_t)s->t0 / P + step - 1) / step * step;
    double top = s->y_bus, bottom = s->y_axis;
    fprintf(f, "<g class=\"axis\" data-unit=\"cycles\" data-step=\"%llu\">\n",
            (unsigned long long)step);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
            s->x0, bottom, s->x0 + s->pw, bottom);
    for (; c * P <= (uint64_t)s->t1; c += step) {
        double x = X(s, (int64_t)(c * P));
        char label[32];
        fmt_cycles(c, step, label, sizeof label);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d0d0d0\""
                   " stroke-width=\"0.6\"/>"
                   "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>"
                   "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                x, top, x, bottom, x, bottom, x, bottom + 4, x, bottom + 15, label);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#444\">"
               "time in cycles (1 cycle = %llu ps)</text>\n</g>\n",
            s->x0 + s->pw / 2, bottom + 30, (unsigned long long)P);
}

static void row_label(svg_t *s, double y, double h, const char *what, unsigned k, double font)
{
    fprintf(s->out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"%g\">%s %u"
                    "</text>\n", s->x0 - 6, y + h / 2 + font * 0.35, font, what, k);
}

static void share_label(svg_t *s, double y, double h, double share, double font)
{
    fprintf(s->out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%g\" fill=\"#444\">%.0f%%</text>\n",
            s->x0 + s->pw + 6, y + h / 2 + font * 0.35, font, 100 * share);
}

/* 0 for an idle column, else 1…SHADES by the busy share (any activity shows). */
static unsigned shade(double share)
{
    return share <= 0 ? 0 : share >= 1 ? SHADES : 1 + (unsigned)(share * (SHADES - 1));
}

/* A column's shade, smoothed with its neighbours (1-2-1): a periodic pattern
 * (a loop's accesses) would otherwise alias into stripes one pixel wide. */
static unsigned column_shade(const lanes_t *l, const double *row, unsigned c)
{
    if (row[c] <= 0)
        return 0;
    double left = c > 0 ? row[c - 1] : row[c], right = c + 1 < l->cols ? row[c + 1] : row[c];
    return shade((left + 2 * row[c] + right) / (4 * l->col_ps));
}

/* The lane's busy intervals: exact rects, or one rect per run of pixel
 * columns of the same shade (opacity = busy share of the column). */
static void write_lane(svg_t *s, lanes_t *l, unsigned lane, double y, double h,
                       const char *colour, const char *what)
{
    FILE *f = s->out;
    if (l->exact) {
        lanes_settle(l, lane);
        for (unsigned i = 0; i < l->n[lane]; i++) {
            const span_t *p = &l->spans[lane][i];
            double xa = X(s, p->from), w = X(s, p->to) - xa;
            fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%g\" fill=\"%s\">"
                       "<title>%s %u: cycles %.10g\xe2\x80\x93%.10g (%u)</title></rect>\n",
                    xa, y, w < 0.5 ? 0.5 : w, h, colour, what, lane, cycles(s, p->from),
                    cycles(s, p->to), p->n);
        }
        return;
    }
    const double *row = l->busy + (size_t)lane * l->cols;
    double px = s->pw / l->cols;
    for (unsigned q = 1; q <= SHADES; q++) { /* one path per shade: compact */
        bool open = false;
        for (unsigned c = 0, e; c < l->cols; c = e) {
            unsigned qc = column_shade(l, row, c);
            for (e = c + 1; e < l->cols && column_shade(l, row, e) == qc; e++)
                ;
            if (qc != q)
                continue;
            if (!open)
                fprintf(f, "<path fill=\"%s\" fill-opacity=\"%.2f\" d=\"", colour,
                        0.2 + 0.8 * q / SHADES);
            open = true;
            /* Absolute x (H) at both ends: no relative move to get wrong (a
             * negative one in unsigned arithmetic ran to the right edge). */
            fprintf(f, "M%.1f %.1fH%.1fv%gH%.1fz", s->x0 + (double)c * px, y,
                    s->x0 + (double)e * px, h, s->x0 + (double)c * px);
        }
        if (open)
            fputs("\"/>\n", f);
    }
}

static bool in_window(const svg_t *s, int64_t a, int64_t b) { return b >= s->t0 && a <= s->t1; }

static int64_t task_end(const svg_t *s, const tl_task_t *t)
{
    return t->finish != TL_NONE ? t->finish : (int64_t)s->info->end_ps;
}

static void write_task_bar(svg_t *s, const tl_task_t *t, double y)
{
    FILE *f = s->out;
    double xa = X(s, t->start), w = X(s, task_end(s, t)) - xa;
    int num = t->f ? t->f->number : (int)t->frame;
    fprintf(f, "<rect class=\"task\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\""
               " fill=\"%s\" stroke=\"#555\" stroke-width=\"0.6\"%s><title>%s on"
               " core %u: cycles %.10g\xe2\x80\x93",
            xa, y, w < 1 ? 1 : w, BAR_H, palette[num % 10],
            t->finish == TL_NONE ? " stroke-dasharray=\"3,2\" fill-opacity=\"0.5\"" : "",
            t->f ? t->f->title : "frame ?", t->core, cycles(s, t->start));
    if (t->finish == TL_NONE)
        fputs("? (unfinished when the run stopped)", f);
    else
        fprintf(f, "%.10g, READY at the TS %.10g", cycles(s, t->finish), cycles(s, t->ready));
    fprintf(f, "; %lld instructions, %lld SM accesses, %.10g cycles waiting on the SM",
            (long long)t->instructions, (long long)t->sm_ops, cycles(s, t->sm_wait_ps));
    /* the slot profile's hottest instruction of the frame on this core (a
       SIMT run: of the warp), over every task of the frame */
    const tl_hot_t *h = tl_slot_hot(s->slots, t->frame, TL_SLOT_SIMT);
    bool warp = h != NULL;
    if (!h)
        h = tl_slot_hot(s->slots, t->frame, t->core);
    const char *text = h ? tl_slot_text(s->slots, t->frame, (unsigned)h->slot) : NULL;
    if (h && text) {
        fprintf(f, "; hottest instruction (slot profile, every task of the frame %s): slot %d ",
                warp ? "on the SIMT unit" : "on this core", h->slot);
        esc_xml(f, text);
        fprintf(f, ", %.10g of %.10g cycles", h->cycles, h->total);
    }
    fputs("</title></rect>\n", f);
    if (s->have_acc || t->sm_wait_ps <= 0 || t->finish == TL_NONE || t->finish <= t->start)
        return;
    /* Level tasks: only the share of the task spent waiting is known. */
    double share = fmin(1.0, (double)t->sm_wait_ps / (double)(t->finish - t->start));
    fprintf(f, "<rect class=\"wait-share\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\""
               " fill=\"url(#hatch)\"/>\n", xa, y + BAR_H - WAIT_H, w * share, WAIT_H);
}

static void write_task_label(svg_t *s, const tl_task_t *t, double y)
{
    const char *label = t->f ? t->f->label : "F?";
    double xa = X(s, t->start), xb = X(s, task_end(s, t));
    if (xb - xa < text_w(label, 10) + 4)
        return;
    fprintf(s->out, "<text class=\"task-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\""
                    " fill=\"#1a1a1a\">%s</text>\n", (xa + xb) / 2, y + 10.5, label);
}

/* One row per core: its tasks, its SM waits, the labels on top, its busy share. */
static unsigned write_cores(svg_t *s)
{
    unsigned n, drawn = 0;
    const tl_task_t *tasks = tl_run_tasks(s->run, &n);
    for (unsigned c = 0, i = 0; c < TL_CORES; c++) {
        double y = s->y_core + c * CORE_H, yb = y + (CORE_H - BAR_H) / 2.0, busy = 0;
        fprintf(s->out, "<g class=\"core-row\" data-core=\"%u\">\n", c);
        row_label(s, y, CORE_H, "core", c, 10);
        unsigned first = i;
        for (; i < n && tasks[i].core == c; i++) {
            if (!in_window(s, tasks[i].start, task_end(s, &tasks[i])))
                continue;
            write_task_bar(s, &tasks[i], yb);
            busy += X(s, task_end(s, &tasks[i])) - X(s, tasks[i].start);
            drawn++;
        }
        if (s->have_acc)
            write_lane(s, &s->wait, c, yb + BAR_H - WAIT_H, WAIT_H, WAIT_COLOUR, "core");
        if (s->have_groups)
            write_lane(s, &s->barrier, c, yb, WAIT_H, BARRIER_COLOUR, "barrier wait, lane");
        for (unsigned j = first; j < i; j++)
            if (in_window(s, tasks[j].start, task_end(s, &tasks[j])))
                write_task_label(s, &tasks[j], yb);
        share_label(s, y, CORE_H, busy / s->pw, 9);
        fputs("</g>\n", s->out);
    }
    return drawn;
}

static void write_bus(svg_t *s)
{
    unsigned n;
    const tl_frame_t *fr = tl_run_frames(s->run, &n);
    FILE *f = s->out;
    fputs("<g class=\"ts-bus\">\n", f);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">TS bus</text>\n", s->x0 - 6,
            s->y_bus + BUS_H / 2.0 + 3.5);
    for (unsigned i = 0; i < n; i++) {
        const tl_frame_t *p = &fr[i];
        if (!p->is_if || p->issue == TL_NONE || p->start == TL_NONE ||
            !in_window(s, p->issue, p->start))
            continue;
        double xa = X(s, p->issue), w = X(s, p->start) - xa;
        fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\""
                   " stroke=\"#555\" stroke-width=\"0.6\"><title>%s: code transfer,"
                   " cycles %.10g\xe2\x80\x93%.10g, to cores 0x%04x</title></rect>\n",
                xa, s->y_bus + 2, w < 1 ? 1 : w, BUS_H - 4, palette[p->number % 10], p->title,
                cycles(s, p->issue), cycles(s, p->start), p->mask);
        if (w >= text_w(p->label, 9) + 4)
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"9\">%s"
                       "</text>\n", xa + w / 2, s->y_bus + BUS_H / 2.0 + 3, p->label);
    }
    fputs("</g>\n", f);
}

/* The SIMT issue port (core.model = simt, level events): which warp issued
 * in each cycle and issue slot (simt.issue_width strips, slot 0 on top), a
 * one-cycle cell in its task's colour; a divergent issue (active lanes fewer
 * than the warp's) is drawn pale with a dark lower edge — under
 * simt.reconvergence = barrier an edge in its thread group's colour (its
 * lowest lane's). Empty: no warp issued in that slot. */
static int write_issue(svg_t *s, diag_t *d)
{
    sqlite3_stmt *st = tl_run_issue_window(s->run,
                                           "time_ps, frame, op, active, mask, ord, slot, depth",
                                           "time_ps, ord", s->t0, s->t1, d);
    if (!st)
        return d && d->code ? d->code : TESS_EDB;
    FILE *f = s->out;
    fputs("<g class=\"simt-issue\">\n", f);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">issue port</text>\n",
            s->x0 - 6, s->y_issue + (s->issue_slots * s->slot_h + 4) / 2.0 + 3.5);
    int step;
    int64_t p = (int64_t)s->info->period_ps;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t t = sqlite3_column_int64(st, 0);
        const tl_frame_t *fr = tl_run_frame(s->run, (unsigned)sqlite3_column_int(st, 1));
        const unsigned char *op = sqlite3_column_text(st, 2);
        unsigned active = (unsigned)sqlite3_column_int(st, 3), mask = (unsigned)sqlite3_column_int(st, 4);
        unsigned ord = (unsigned)sqlite3_column_int(st, 5);
        if (ord >= s->issue_slots)
            ord = s->issue_slots - 1; /* cannot happen: the width bounds the slots */
        bool diverged = active != mask;
        double xa = X(s, t), w = X(s, t + p) - xa, y = s->y_issue + 2 + ord * s->slot_h;
        double h = s->issue_slots > 1 ? s->slot_h - 1 : s->slot_h;
        char port[24] = "", how[48] = " (diverged)";
        if (s->issue_slots > 1)
            snprintf(port, sizeof port, " (issue %u)", ord);
        if (s->have_groups) /* depth: the warp's thread groups */
            snprintf(how, sizeof how, " (thread group, 1 of %d)", sqlite3_column_int(st, 7));
        unsigned pc = (unsigned)sqlite3_column_int(st, 6);
        const char *text = tl_slot_text(s->slots, (unsigned)sqlite3_column_int(st, 1), pc);
        fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.10g\" fill=\"%s\""
                   " fill-opacity=\"%s\"><title>cycle %.10g%s: %s slot %u ",
                xa, y, w < 0.5 ? 0.5 : w, h, palette[(fr ? (unsigned)fr->number : 0) % 10],
                diverged ? "0.45" : "1", cycles(s, t), port, fr ? fr->label : "F?", pc);
        esc_xml(f, text ? text : op ? (const char *)op : "?");
        fprintf(f, ", lanes 0x%04x of 0x%04x%s</title></rect>\n", active, mask,
                diverged ? how : "");
        double edge = s->have_groups && h >= 6 ? 3 : 2;
        if (diverged)
            fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%g\" fill=\"%s\"/>\n",
                    xa, y + h - edge, w < 0.5 ? 0.5 : w, edge,
                    s->have_groups && active ? group_palette[__builtin_ctz(active) & 15] : "#333");
        if (h >= 10 && w >= text_w(fr ? fr->label : "F?", 8) + 2)
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"8\">%s"
                       "</text>\n", xa + w / 2, y + h / 2.0 + 3, fr ? fr->label : "F?");
    }
    fputs("</g>\n", f);
    int rc = step == SQLITE_DONE ? TESS_OK : tl_run_fail(s->run, "reading simt_issue", d);
    sqlite3_finalize(st);
    return rc;
}

/* Is there an issue port to draw, and of how many slots? Of thread groups? */
static int probe_issue(svg_t *s, diag_t *d)
{
    int rc = tl_run_issue_slots(s->run, &s->issue_slots, d);
    s->have_issue = s->issue_slots > 0;
    if (rc == TESS_OK && s->have_issue)
        rc = tl_run_thread_groups(s->run, &s->have_groups, d);
    return rc;
}

static bool cf_drawn(const svg_t *s, const tl_frame_t *p)
{
    return !p->is_if && p->issue != TL_NONE && in_window(s, p->issue, p->issue);
}

/* The CF's label and where it goes: right of its line unless that overflows. */
static double cf_label(const svg_t *s, const tl_frame_t *p, char *label, bool *right)
{
    snprintf(label, 32, "%s (%s)", p->label, p->fence);
    double x = X(s, p->issue), tw = text_w(label, 9);
    *right = x + 3 + tw <= s->width - 2;
    return *right ? x + 3 : x - 3 - tw;
}

/* Gives each CF label the first of CF_ROWS rows where it overlaps no earlier
 * one (-1: no label, the line and its tooltip stay); counts the rows used. */
static void place_cfs(svg_t *s)
{
    unsigned n;
    const tl_frame_t *fr = tl_run_frames(s->run, &n);
    double row_end[CF_ROWS];
    for (int r = 0; r < CF_ROWS; r++)
        row_end[r] = -1e9;
    s->cf_rows = 1;
    for (unsigned i = 0; i < n; i++) {
        char label[32];
        bool right;
        s->cf_row[i] = -1;
        if (!cf_drawn(s, &fr[i]))
            continue;
        double left = cf_label(s, &fr[i], label, &right);
        for (int r = 0; r < CF_ROWS && s->cf_row[i] < 0; r++) {
            if (row_end[r] <= left - 4) {
                s->cf_row[i] = (int8_t)r;
                row_end[r] = left + text_w(label, 9);
            }
        }
        if (s->cf_row[i] + 1 > (int)s->cf_rows)
            s->cf_rows = (unsigned)s->cf_row[i] + 1;
    }
}

/* A CF's marker: a dashed line down the core rows under its label. */
static void write_cf(svg_t *s, const tl_frame_t *p, int row)
{
    FILE *f = s->out;
    char label[32];
    bool right;
    double x = X(s, p->issue), y_text = s->y_cf + (row + 1) * CF_ROW_H - 2;
    cf_label(s, p, label, &right);
    fprintf(f, "<g class=\"cf\" data-frame=\"%u\"><title>%s, fence %s, cores 0x%04x"
               " took effect at cycle %.10g</title>\n", p->frame, p->title, p->fence,
            p->mask, cycles(s, p->issue));
    fprintf(f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"%s\""
               " stroke-width=\"1.2\" stroke-dasharray=\"4,2\"/>\n",
            x, row < 0 ? s->y_bus : y_text - 8, x, s->y_core + TL_CORES * CORE_H, CF_COLOUR);
    if (row >= 0)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" fill=\"%s\"%s>%s</text>\n",
                right ? x + 3 : x - 3, y_text, CF_COLOUR, right ? "" : " text-anchor=\"end\"",
                label);
    fputs("</g>\n", f);
}

static void write_cfs(svg_t *s)
{
    unsigned n;
    const tl_frame_t *fr = tl_run_frames(s->run, &n);
    for (unsigned i = 0; i < n; i++)
        if (cf_drawn(s, &fr[i]))
            write_cf(s, &fr[i], s->cf_row[i]);
}

/* Bank utilisation from the counters (level tasks: no accesses to draw). */
static void counter_shares(svg_t *s, double *share)
{
    sqlite3_stmt *st = tl_run_prepare(s->run,
        "SELECT CAST(substr(component, " GEN_UNIT_BANK_NUMBER_AT ") AS INTEGER), value"
        " FROM counters WHERE run_id = ?1 AND name = '" GEN_CTR_BANK_BUSY_PS "'"
        " AND component GLOB '" GEN_UNIT_BANK_GLOB "'", NULL);
    while (st && sqlite3_step(st) == SQLITE_ROW) {
        int b = sqlite3_column_int(st, 0);
        if (b >= 0 && (unsigned)b < s->banks)
            share[b] = (double)sqlite3_column_int64(st, 1) / (double)s->info->end_ps;
    }
    sqlite3_finalize(st);
}

static void write_banks(svg_t *s)
{
    FILE *f = s->out;
    bool whole = s->t0 == 0 && (uint64_t)s->t1 == s->info->end_ps;
    double share[TL_BANKS_MAX];
    for (unsigned b = 0; b < s->banks; b++)
        share[b] = s->have_acc ? s->bank.total[b] / (double)(s->t1 - s->t0) : -1;
    if (!s->have_acc && whole)
        counter_shares(s, share);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#444\">%s</text>\n", s->x0,
            s->y_bank - 7, s->have_acc ? "Shared Memory banks: busy from grant to grant + sm.bank"
            : "Shared Memory banks: accesses not recorded at this level (record.level=mem"
              " draws them); busy shares from the counters");
    unsigned h = s->bank_h, every = s->banks / 16 ? s->banks / 16 : 1; /* labels: 16 rows */
    double font = h < 8 ? 6 : 8;
    for (unsigned b = 0; b < s->banks; b++) {
        double y = s->y_bank + b * h;
        fprintf(f, "<g class=\"bank-lane\" data-bank=\"%u\">\n", b);
        if (b % every == 0)
            row_label(s, y, h, "bank", b, font);
        if (s->have_acc)
            write_lane(s, &s->bank, b, y + 1, h - 2, BANK_COLOUR, "bank");
        if (share[b] >= 0 && b % every == 0)
            share_label(s, y, h, share[b], font);
        fputs("</g>\n", f);
    }
}

static void legend_swatch(svg_t *s, const char *kind, double x, double y)
{
    FILE *f = s->out;
    if (!strcmp(kind, "bar"))
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"11\" fill=\"%s\""
                   " stroke=\"#555\" stroke-width=\"0.6\"/>", x, y - 9, palette[0]);
    else if (!strcmp(kind, "wait"))
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"%d\" fill=\"%s\"/>", x,
                y - 2 - WAIT_H, WAIT_H, s->have_acc ? WAIT_COLOUR : "url(#hatch)");
    else if (!strcmp(kind, "bank"))
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"9\" fill=\"%s\""
                   " fill-opacity=\"0.7\"/>", x, y - 8, BANK_COLOUR);
    else if (!strcmp(kind, "group"))
        for (unsigned k = 0; k < 4; k++)
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"4\" height=\"4\" fill=\"%s\"/>",
                    x + 4 * k, y - 6, group_palette[k]);
    else if (!strcmp(kind, "barrier"))
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"%d\" fill=\"%s\"/>", x,
                y - 2 - WAIT_H, WAIT_H, BARRIER_COLOUR);
    else if (!strcmp(kind, "bus"))
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"9\" fill=\"%s\""
                   " stroke=\"#555\" stroke-width=\"0.6\"/>", x, y - 8, palette[1]);
    else
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\""
                   " stroke-width=\"1.2\" stroke-dasharray=\"4,2\"/>", x + 8, y - 11, x + 8,
                y + 2, CF_COLOUR);
}

static const char *legend_text(const svg_t *s, unsigned i)
{
    if (!strcmp(legend_items[i][0], "wait") && !s->have_acc)
        return "share of a task spent waiting on the SM (level tasks: not where)";
    return legend_items[i][1];
}

/* Lays the legend out in rows that fit the width (and writes it); the rows. */
static unsigned write_legend(svg_t *s, bool write)
{
    double x = 10, y = s->y_legend + 11;
    unsigned rows = 1;
    if (write)
        fputs("<g class=\"legend\">\n", s->out);
    for (unsigned i = 0; i < N_LEGEND; i++) {
        if (!s->have_groups && (!strcmp(legend_items[i][0], "group") ||
                                !strcmp(legend_items[i][0], "barrier")))
            continue; /* thread groups only */
        const char *text = legend_text(s, i);
        double w = 22 + text_w(text, 10) + 18;
        if (x > 10 && x + w > s->width - 10)
            x = 10, y += LEGEND_ROW_H, rows++;
        if (write) {
            legend_swatch(s, legend_items[i][0], x, y);
            fprintf(s->out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x + 22, y, text);
        }
        x += w;
    }
    if (write)
        fputs("</g>\n", s->out);
    return rows;
}
int tl_svg_write(tl_run_t *run, const tl_svg_opts_t *o, FILE *out, diag_t *d)
{
    svg_t s = {.out = out, .run = run, .info = tl_run_info(run)};
    unsigned width = o->width ? o->width : W_DEFAULT;
    int rc = tl_run_need_tasks(run, d);
    if (rc == TESS_OK && (width < W_MIN || width > W_MAX))
        rc = diag_fail(d, TESS_EINPUT, "width %u px: expected %d to %d", width, W_MIN, W_MAX);
    if (rc == TESS_OK)
        rc = tl_run_window(run, o->from_ps, o->to_ps, &s.t0, &s.t1, d);
    if (rc != TESS_OK)
        return rc;
    s.have_acc = s.info->level >= REC_MEM;
    rc = probe_issue(&s, d);
    if (rc != TESS_OK)
        return rc;
    if (!(s.slots = tl_slots_load(run, d)))
        return d && d->code ? d->code : TESS_EDB;
    layout(&s, width);
    unsigned cols = (unsigned)ceil(s.pw);
    if (lanes_init(&s.wait, TL_CORES, cols, s.t0, s.t1) ||
        lanes_init(&s.bank, s.info->banks, cols, s.t0, s.t1) ||
        lanes_init(&s.barrier, TL_CORES, cols, s.t0, s.t1))
        rc = diag_fail(d, TESS_ENOMEM, "out of memory");
    if (rc == TESS_OK && s.have_acc)
        rc = collect_accesses(&s, d);
    if (rc == TESS_OK && s.have_groups)
        rc = collect_waits(&s, d);
    if (rc == TESS_OK) {
        write_head(&s);
        write_backgrounds(&s);
        write_axis(&s);
        write_bus(&s);
        if (s.have_issue)
            rc = write_issue(&s, d);
        unsigned drawn = write_cores(&s);
        write_banks(&s);
        write_cfs(&s);
        write_title(&s, drawn);
        write_legend(&s, true);
        fputs("</svg>\n", out);
    }
    lanes_free(&s.wait);
    lanes_free(&s.bank);
    tess_free(s.slots);
    lanes_free(&s.barrier);
    if (rc == TESS_OK && ferror(out))
        rc = diag_fail(d, TESS_EIO, "writing the SVG: %s", strerror(errno));
    return rc;
}
