/* views.h — the views shipped in every statistics database (docs/SCHEMA.md):
 * sm_accesses, events, simt_issue and simt_mem (the packs decoded) and the analysis
 * views (schema version 2, "Analysis views"): task latency and its parts,
 * core and bank utilisation, bank conflicts, why frames waited, parallelism
 * over time, one summary row per run and latency percentiles. Invariant:
 * the views only read the recorded relations; every number they give is a
 * function of what one run recorded, selected by run_id. */
#ifndef TESSERA_VIEWS_H
#define TESSERA_VIEWS_H

typedef struct db_view {
    const char *name;
    const char *select;       /* the view's SELECT */
} db_view_t;

/* Every view, in dependency order (each may use those before it), ending
 * with {NULL, NULL}: the one list schema.c creates them from. */
extern const db_view_t db_views[];

/* The names of the analysis views (db_views but the packed relations' views), NULL-terminated. */
extern const char *const rec_view_names[];

/* The rows of the simt_issue view (its columns) of run ?1 whose time_ps is
 * in [?2, ?3), reading only the packs that hold them: for a window of a
 * long run, where the view would decode every pack. */
extern const char db_simt_issue_window[];

#endif
