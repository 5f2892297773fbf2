/* vw_cols.h — busy time per pixel column, the unit of the viewer's
 * timeline answers (vw_lanes.c, vw_simt.c). Private to analysis/view/.
 * Invariant: a column's value is the busy picoseconds of its lane that fall
 * in it, summed over intervals clipped to the window [t0, t1); with whole
 * picosecond columns (unit > 0: a summary's buckets) the sums are exact. */
#ifndef TESSERA_VW_COLS_H
#define TESSERA_VW_COLS_H

#include <jansson.h>
#include <stdint.h>

typedef struct cols {
    unsigned n, lanes;        /* columns, lanes */
    int64_t t0, t1;           /* the window */
    double col_ps;            /* ps per column */
    double c0;                /* where column 0 starts: t0, or (summary) a bucket's start */
    int64_t unit;             /* > 0: columns of exactly this many ps from t0 (the summary's
                                 buckets: whole picoseconds, added without rounding) */
    double unit_inv;          /* 1.0 / unit: the column of a time without a division */
    size_t stride;            /* doubles from one lane's row to the next: n, or (columns
                                 of a unit) n + 8, so that the rows of a summary's pass, a
                                 power of two long, do not fall in the same cache sets */
    double *busy;             /* [lane * stride + col]: busy ps in that column */
} cols_t;

/* Lane `lane`'s row of columns. */
static inline double *cols_row(const cols_t *c, unsigned lane)
{
    return c->busy + (size_t)lane * c->stride;
}

/* n columns over [t0, t1) for `lanes` lanes, all zero; TESS_ENOMEM. */
int cols_init(cols_t *c, unsigned lanes, unsigned n, int64_t t0, int64_t t1);
/* n columns of `unit` whole picoseconds from t0, n * unit >= t1 - t0
 * (rows padded: see stride). */
int cols_init_units(cols_t *c, unsigned lanes, unsigned n, int64_t t0, int64_t t1, int64_t unit);

/* Adds `weight` times the interval [a, b) of `lane`, clipped to the window
 * (weight: warps, for the eligible ones of an issue cycle). */
void cols_add_w(cols_t *c, unsigned lane, int64_t a, int64_t b, double weight);

/* cols_add_w of weight 1. Inline for the hot loop of a summary's pass (two
 * per access): an interval inside one column of a unit is added here. */
static inline void cols_add(cols_t *c, unsigned lane, int64_t a, int64_t b)
{
    if (c->unit > 0 && a >= c->t0 && b <= c->t1 && a < b && lane < c->lanes) {
        int64_t x = a - c->t0, k = (int64_t)((double)x * c->unit_inv);
        if (k >= 0 && k * c->unit <= x && b - c->t0 <= (k + 1) * c->unit) {
            cols_row(c, lane)[k] += (double)(b - a);
            return;
        }
    }
    cols_add_w(c, lane, a, b, 1.0);
}

/* A time in ps for the answer: an integer when whole (a summary's column
 * geometry: the API's reals carry 6 digits, too few for it), else a real. */
json_t *ps_json(double ps);

/* Lanes [first, first + n) as an array of arrays of shares (0..1). */
json_t *cols_json(const cols_t *c, unsigned first, unsigned n);

#endif
