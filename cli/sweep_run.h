/* sweep_run.h — running the points of a sweep as child processes (the pure
 * plan is config/sweep.h): the arguments of `tessera sweep`, the command
 * line of one point, and the runner that launches, reaps and merges. */
#ifndef TESSERA_CLI_SWEEP_RUN_H
#define TESSERA_CLI_SWEEP_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/store/merge.h"
#include "config/sweep.h"

#define SWEEP_MAX_JOBS 1024u

/* The command line of `tessera sweep`, with its plan. */
typedef struct sweep_args {
    const char *prog, *mem, *config, *db;
    char *const *sets;        /* the -s (and --seed) arguments in order */
    size_t n_sets;
    sweep_plan_t plan;        /* the axes of the sets */
    unsigned jobs;            /* 0: the number of CPUs */
    char *const *zips;        /* the --zip arguments */
    size_t n_zips;
    const char *sample;       /* --sample N, or NULL */
    uint64_t sample_seed;     /* with --sample: its seed (--sample-seed, --seed or 1) */
    uint64_t *todo;           /* the points to run, ascending (resume: not yet ok in db) */
    uint64_t n_todo;
    uint64_t n_dups;          /* points dropped: equal to an earlier one after normalisation */
    char prog_sha[65];        /* the program's Task Memory image, hashed once (runs.program_sha256) */
    char data_sha[65];        /* its initial Shared Memory (runs.data_sha256) */
    bool emit, force, rerun, progress;
    bool allow_inert;         /* --allow-inert: sweep keys where they have no effect */
} sweep_args_t;

/* Decimal digits of n, for zero-padded shard numbers that sort in order. */
int sweep_digits(uint64_t n);

/* argv of point k: files[0] run files[1] [--mem files[2]] [--config files[3]]
 * -s k=v ... --db SHARD [--quiet], NULL-terminated; the caller frees the
 * array (not the strings). NULL when out of memory. */
char **sweep_point_argv(const sweep_args_t *a, const char *const files[4], uint64_t k,
                        const char *shard, bool quiet);

/* Runs the points a->todo of the plan's n, --jobs at a time, into shards
 * merged into `m` in point order; prints progress and a summary. Returns
 * the sweep's exit code (see `tessera sweep --help`). */
int sweep_run(const sweep_args_t *a, const char *exe, uint64_t n, merge_t *m);

#endif
