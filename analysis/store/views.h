/* views.h — the analysis views shipped in every statistics database
 * (schema version 2, docs/SCHEMA.md "Analysis views"): task latency and its
 * parts, core and bank utilisation, bank conflicts, why frames waited,
 * parallelism over time, one summary row per run and latency percentiles.
 * Invariant: the views only read the recorded relations; every number they
 * give is a function of what one run recorded, selected by run_id. */
#ifndef TESSERA_REC_VIEWS_H
#define TESSERA_REC_VIEWS_H

#include <sqlite3.h>

/* "CREATE VIEW IF NOT EXISTS …;" for every view, in dependency order: the
 * schema migration to version 2 runs it (schema.c). */
extern const char rec_views_sql[];

/* The same views as TEMP views (CREATE TEMP VIEW IF NOT EXISTS …), for a
 * read-only connection to a version-1 file, which has none: they live in
 * the connection and never touch the file. */
extern const char rec_views_temp_sql[];

/* The names of the views, NULL-terminated, in the order they are created. */
extern const char *const rec_view_names[];

#endif
