/* slots.h — a run's slot profile (view slot_profile, docs/SCHEMA.md) as the
 * pictures need it: each frame's instruction texts by slot, and for each
 * frame on each core (or on the SIMT unit) its hottest slot — so that a
 * tooltip can name the instruction an issue or a task bar is about. Loaded
 * once per picture; a run without a profile (recorded below level tasks,
 * or by an older Tessera) loads empty. */
#ifndef TESSERA_TL_SLOTS_H
#define TESSERA_TL_SLOTS_H

#include <stdbool.h>

#include "analysis/present/run.h"

#define TL_SLOTS 16
#define TL_SLOT_TEXT 40
#define TL_SLOT_SIMT TL_CORES /* the unit index of the SIMT unit's rows */

typedef struct tl_hot {
    int slot;                 /* -1: nothing charged */
    double cycles, total;     /* the slot's cycles, and all slots' of the frame on the unit */
} tl_hot_t;

typedef struct tl_slots {
    bool any;                 /* the run has a profile */
    char text[TL_MAX_FRAMES][TL_SLOTS][TL_SLOT_TEXT]; /* "" when unknown */
    tl_hot_t hot[TL_MAX_FRAMES][TL_CORES + 1];        /* by core, then the SIMT unit */
} tl_slots_t;

/* Loads the run's profile into a new tl_slots_t (free with tess_free);
 * NULL with TESS_EDB or TESS_ENOMEM in diag. */
tl_slots_t *tl_slots_load(tl_run_t *run, diag_t *diag);

/* The text of (frame, slot), or NULL when the profile has none. */
const char *tl_slot_text(const tl_slots_t *s, unsigned frame, unsigned slot);

/* The hottest slot of `frame` on `unit` (a core, or TL_SLOT_SIMT), or NULL. */
const tl_hot_t *tl_slot_hot(const tl_slots_t *s, unsigned frame, unsigned unit);

#endif
