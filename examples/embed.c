/* embed.c — Tessera embedded in a C program through the run API (api/tessera.h):
 * a kernel assembled from a string runs twice, under two SM arbiters on a slow
 * bank, and both runs are recorded into the database embed.db (or argv[1]),
 * ready for `tessera report embed.db --compare` or SQL. Build (from the
 * repository, after building the library):
 *
 *   cc -std=c11 examples/embed.c $(pkg-config --cflags --libs build/tessera.pc) -o embed
 *
 * CMake builds it as the target `embed_example`, and a test runs it. */
#include <stdio.h>

#include "api/tessera.h"

/* Four cores add 1 to their own byte of bank 0, 100 times, then stop. */
static const char kernel[] =
    ".group cores=0x000f\n"
    "  set_const r1, id        ; r1 = core id = the byte this core owns\n"
    "  set_const r8, 0         ; r8 = bank 0\n"
    "  set_const r9, 100       ; r9 = iterations\n"
    "  set_const r10, 1\n"
    "loop:\n"
    "  ld [r1, r8], r2\n"
    "  add r2, r10, r2\n"
    "  st [r1, r8], r2\n"
    "  sub r9, r10, r9\n"
    "  bnz loop, r9\n"
    "  ready\n";

/* Runs the kernel with `arbiter` (sm.arbiter) into `db`; returns the exit code. */
static int run_once(const char *db, const char *arbiter)
{
    char set[64];
    snprintf(set, sizeof set, "sm.arbiter=%s", arbiter);
    tessera_t *t = tessera_new();
    int rc = t ? tessera_set(t, "sm.bank=4") : 7; /* a slow bank, so that a queue forms */
    if (rc == 0 && (rc = tessera_set(t, set)) == 0 &&
        (rc = tessera_load_source(t, kernel, "kernel.s")) == 0 &&
        (rc = tessera_record(t, db)) == 0)
        rc = tessera_run(t, 0);
    tessera_counters_t c;
    arch_state_t s;
    if (rc == 0 && tessera_counters(t, &c) == 0 && tessera_state(t, &s) == 0)
        printf("%-6s %s: end %llu ps, %llu instructions, %llu SM accesses, %llu waited; "
               "SM[0..3] = %u %u %u %u; run %lld of %s\n",
               arbiter, tessera_status(t), (unsigned long long)c.end_ps,
               (unsigned long long)c.instructions, (unsigned long long)c.sm_accesses,
               (unsigned long long)c.sm_conflicts, s.sm[0], s.sm[1], s.sm[2], s.sm[3],
               (long long)c.run_id, db);
    else if (t)
        fprintf(stderr, "%s: %s%s\n", arbiter, tessera_errmsg(t), tessera_outcome_msg(t));
    tessera_free(t);
    return rc;
}

int main(int argc, char **argv)
{
    const char *db = argc > 1 ? argv[1] : "embed.db";
    return run_once(db, "fixed") || run_once(db, "rr");
}
