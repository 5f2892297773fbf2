/* slots.c — a run's slot profile for the pictures (slots.h). */
#include "analysis/present/slots.h"

#include <sqlite3.h>
#include <stdio.h>

#include "events/base/alloc.h"
#include "events/base/err.h"

tl_slots_t *tl_slots_load(tl_run_t *run, diag_t *d)
{
    tl_slots_t *s = tess_calloc(1, sizeof *s);
    if (!s) {
        diag_fail(d, TESS_ENOMEM, "out of memory");
        return NULL;
    }
    for (unsigned f = 0; f < TL_MAX_FRAMES; f++)
        for (unsigned u = 0; u <= TL_CORES; u++)
            s->hot[f][u].slot = -1;
    sqlite3_stmt *st = tl_run_prepare(run, "SELECT frame, core, slot, text, cycles"
                                           " FROM slot_profile WHERE run_id = ?1", d);
    if (!st) {
        tess_free(s);
        return NULL;
    }
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        int frame = sqlite3_column_int(st, 0), slot = sqlite3_column_int(st, 2);
        bool simt = sqlite3_column_type(st, 1) == SQLITE_NULL;
        int core = simt ? TL_SLOT_SIMT : sqlite3_column_int(st, 1);
        if (frame < 0 || frame >= TL_MAX_FRAMES || slot < 0 || slot >= TL_SLOTS || core < 0 ||
            core > TL_CORES)
            continue;
        const unsigned char *text = sqlite3_column_text(st, 3);
        snprintf(s->text[frame][slot], TL_SLOT_TEXT, "%s", text ? (const char *)text : "");
        double c = sqlite3_column_double(st, 4);
        tl_hot_t *h = &s->hot[frame][core];
        h->total += c;
        if (h->slot < 0 || c > h->cycles)
            h->slot = slot, h->cycles = c;
        s->any = true;
    }
    if (step != SQLITE_DONE) {
        tl_run_fail(run, "reading slot_profile", d);
        sqlite3_finalize(st);
        tess_free(s);
        return NULL;
    }
    sqlite3_finalize(st);
    return s;
}

const char *tl_slot_text(const tl_slots_t *s, unsigned frame, unsigned slot)
{
    if (!s || frame >= TL_MAX_FRAMES || slot >= TL_SLOTS || !s->text[frame][slot][0])
        return NULL;
    return s->text[frame][slot];
}

const tl_hot_t *tl_slot_hot(const tl_slots_t *s, unsigned frame, unsigned unit)
{
    if (!s || frame >= TL_MAX_FRAMES || unit > TL_CORES || s->hot[frame][unit].slot < 0)
        return NULL;
    return &s->hot[frame][unit];
}
