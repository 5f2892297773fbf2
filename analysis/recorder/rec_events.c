/* rec_events.c — packing the kernel's event log, on the writer thread: runs
 * of consecutive events become event_packs rows of at most EVPACK_MAX events,
 * each event one integer of a JSON array that the `events` view expands
 * again (the layout: store/evpack.h). Invariant: the open pack holds events
 * seq0, seq0 + 1, … in order, each at or after base_ps, a whole number of
 * scale_ps after it and fewer than 2^EVPACK_BITS of them, with a name id
 * below 2^EVPACK_BITS; an event that does not fit starts a new pack.
 *
 * Why (measured on examples/bench.s, 4.7 M events; docs/PERFORMANCE-HISTORY.md):
 * one INSERT per event cost ~1 us and 43 bytes of file each, level events
 * 15x the summary level. As with the SM accesses (rec_pack.c) the writer's
 * cost here is per byte and per row: the sequence number is implicit (seq0 +
 * position), the time is an offset in cycles from the pack's first event,
 * the priority a digit of the pack's range and the name an id of the run's
 * dictionary (event_names; the hook interns names, rec_hook.c), so an event
 * is one small integer, ~6 bytes of text. */
#include <string.h>

#include "analysis/recorder/rec_int.h"
#include "analysis/store/evpack.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

enum { FIT_OK = 0, FIT_NEW, FIT_SCALE };

static int fit(const rec_writer_t *w, const rec_evpack_t *p, const rec_ev_t *e, uint64_t *t)
{
    if (e->seq != p->seq0 + p->n || e->time_ps < p->base_ps || e->name >> EVPACK_BITS)
        return FIT_NEW;
    uint64_t dt = e->time_ps - p->base_ps;
    if (p->scale_ps != 1 && !rec_div_exact(&w->period_div, dt, &dt))
        return FIT_SCALE;
    if (dt >> EVPACK_BITS)
        return FIT_NEW;
    *t = dt;
    return FIT_OK;
}

static void open_pack(rec_evpack_t *p, const rec_ev_t *e, uint64_t scale)
{
    p->seq0 = e->seq;
    p->n = 0;
    p->base_ps = e->time_ps;
    p->scale_ps = scale;
    p->prio_min = p->prio_max = e->prio;
    p->name_max = 0;
}

static bool close_pack(rec_writer_t *w, rec_evpack_t *p)
{
    size_t len = rec_encode_events(p, w->text);
    bool ok = rec_writer_put_events(w, p, w->text, len);
    p->n = 0;
    return ok;
}

bool rec_events_put(rec_writer_t *w, const rec_ev_t *e)
{
    rec_evpack_t *p = &w->evp;
    bool ok = true;
    uint64_t t = 0;
    int why = p->n ? fit(w, p, e, &t) : FIT_NEW;
    if (why != FIT_OK) {
        if (p->n)
            ok = close_pack(w, p);
        open_pack(p, e, why == FIT_SCALE ? 1 : w->period_ps);
        t = 0;
    }
    p->raw[p->n++] = (rec_ev_raw_t){(uint32_t)t, e->name, e->prio};
    p->prio_min = e->prio < p->prio_min ? e->prio : p->prio_min;
    p->prio_max = e->prio > p->prio_max ? e->prio : p->prio_max;
    p->name_max = e->name > p->name_max ? e->name : p->name_max;
    if (p->n == EVPACK_MAX || e->name >> EVPACK_BITS) /* a large id: a pack alone */
        ok &= close_pack(w, p);
    return ok;
}

bool rec_events_flush(rec_writer_t *w)
{
    return w->evp.n ? close_pack(w, &w->evp) : true;
}

int rec_events_reset(rec_writer_t *w)
{
    w->evp.n = 0;
    if (!w->evp.raw && !(w->evp.raw = tess_malloc(EVPACK_MAX * sizeof *w->evp.raw)))
        return TESS_ENOMEM;
    return TESS_OK;
}

void rec_events_free(rec_writer_t *w)
{
    tess_free(w->evp.raw);
    w->evp.raw = NULL;
}
