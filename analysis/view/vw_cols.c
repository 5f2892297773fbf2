/* vw_cols.c — busy time per pixel column (vw_cols.h). */
#include "analysis/view/vw_cols.h"

#include <math.h>

#include "analysis/present/timeline.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

static int init(cols_t *c, unsigned lanes, unsigned n, int64_t t0, int64_t t1, size_t stride)
{
    c->n = n, c->lanes = lanes, c->t0 = t0, c->t1 = t1, c->unit = 0, c->unit_inv = 0;
    c->col_ps = (double)(t1 - t0) / n;
    c->c0 = (double)t0;
    c->stride = stride;
    c->busy = tess_calloc(stride * lanes, sizeof *c->busy);
    return c->busy ? TESS_OK : TESS_ENOMEM;
}

int cols_init(cols_t *c, unsigned lanes, unsigned n, int64_t t0, int64_t t1)
{
    return init(c, lanes, n, t0, t1, n);
}

int cols_init_units(cols_t *c, unsigned lanes, unsigned n, int64_t t0, int64_t t1, int64_t unit)
{
    int rc = init(c, lanes, n, t0, t1, (size_t)n + 8);
    c->unit = unit, c->col_ps = (double)unit, c->unit_inv = 1.0 / (double)unit;
    return rc;
}

/* x / c->unit for 0 <= x: from the reciprocal, corrected to the exact
 * quotient (the double is off by at most a few units past 2^53). */
static inline int64_t unit_of(const cols_t *c, int64_t x)
{
    int64_t k = (int64_t)((double)x * c->unit_inv);
    while (k > 0 && k * c->unit > x)
        k--;
    while ((k + 1) * c->unit <= x)
        k++;
    return k;
}

/* [x, y) ps from t0 (0 <= x < y) into columns of c->unit ps: integer
 * arithmetic without a division (the hot loop of a summary's pass: two of
 * these per access, most within one column). */
static void units_add(const cols_t *c, double *row, int64_t x, int64_t y, double w)
{
    int64_t u = c->unit, k = unit_of(c, x);
    if (y <= (k + 1) * u) {
        row[k] += w * (double)(y - x);
        return;
    }
    int64_t e = unit_of(c, y - 1);
    if (e >= (int64_t)c->n)
        e = c->n - 1, y = e * u + u;
    if (k == e) {
        row[k] += w * (double)(y - x);
        return;
    }
    row[k] += w * (double)((k + 1) * u - x);
    for (int64_t j = k + 1; j < e; j++)
        row[j] += w * (double)u;
    row[e] += w * (double)(y - e * u);
}

void cols_add_w(cols_t *c, unsigned lane, int64_t a, int64_t b, double w)
{
    a = a < c->t0 ? c->t0 : a;
    b = b > c->t1 ? c->t1 : b;
    if (b <= a || lane >= c->lanes)
        return;
    double *row = cols_row(c, lane);
    if (c->unit > 0)
        return units_add(c, row, a - c->t0, b - c->t0, w);
    tl_spread(row, c->n, c->col_ps, (double)(a - c->t0) / c->col_ps,
              (double)(b - c->t0) / c->col_ps, w);
}

json_t *cols_json(const cols_t *c, unsigned first, unsigned n)
{
    json_t *all = json_array();
    for (unsigned l = first; all && l < first + n; l++) {
        json_t *row = json_array();
        for (unsigned k = 0; row && k < c->n; k++) {
            double s = cols_row(c, l)[k] / c->col_ps;
            json_array_append_new(row, json_real(s < 0 ? 0 : s > 1 ? 1 : s));
        }
        json_array_append_new(all, row);
    }
    return all;
}

json_t *ps_json(double ps)
{
    return ps == floor(ps) && fabs(ps) < 9007199254740992.0 ? json_integer((json_int_t)ps)
                                                            : json_real(ps);
}
