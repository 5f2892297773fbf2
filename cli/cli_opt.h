/* cli_opt.h — the one option parser of `tessera`: every option any command
 * accepts is defined once (CLI_OPTIONS), each command lists the ones it takes
 * (cli_spec_t), getopt_long parses them (`--opt=V`, `--opt V`, `-sV`, `-s V`),
 * and --help is printed from the same lists, so it cannot drift from what is
 * accepted. The exit-code table is here too, printed from one place. */
#ifndef TESSERA_CLI_OPT_H
#define TESSERA_CLI_OPT_H

#include <stdbool.h>
#include <stdio.h>

/* X(ID, long name, short letter or 0, value placeholder or NULL for a flag,
 *   default help line). A command may give its own placeholder and help. */
#define CLI_OPTIONS(X)                                                                        \
    X(HELP, "help", 'h', NULL, "print this text and exit")                                   \
    X(CONFIG, "config", 0, "FILE", "an INI configuration file (presets: config/*.ini)")       \
    X(SET, "set", 's', "KEY=VALUE",                                                           \
      "set one configuration key (section.key) after the file; repeatable, in order, the "    \
      "last wins")                                                                            \
    X(SEED, "seed", 0, "N", "the same as -s sim.seed=N (the random streams' seed)")           \
    X(MEM, "mem", 0, "F.mem", "a 4096-byte SM image loaded before the program's .data lines") \
    X(DB, "db", 0, "FILE", "the statistics database")                                         \
    X(NO_DB, "no-db", 0, NULL, "record nothing (no database is opened)")                      \
    X(DUMP_MEM, "dump-mem", 0, "F", "write the final Shared Memory to F (4096 bytes)")       \
    X(DUMP_REGS, "dump-regs", 0, "F",                                                         \
      "write the final registers to F (256 bytes: core 0's R0..R15, then core 1's, ...)")    \
    X(QUIET, "quiet", 0, NULL, "print no summary")                                            \
    X(TRACE, "trace", 0, "FILE",                                                              \
      "write the instruction trace to FILE ('-': stdout): one line per executed instruction " \
      "(docs/USER-GUIDE.md, \"Instruction trace\")")                                           \
    X(TRACE_FROM, "trace-from", 0, "C", "trace only instructions starting at cycle C or later") \
    X(TRACE_TO, "trace-to", 0, "C", "trace only instructions starting before cycle C")        \
    X(BUDGET, "budget", 0, "N",                                                               \
      "the D12 watchdog: instructions per core per task (default 2^26)")                      \
    X(OUTPUT, "output", 'o', "FILE", "the output file")                                       \
    X(MEM_OUT, "mem-out", 0, "OUT.mem", "also write the 4096-byte SM image of the .data lines") \
    X(KEYS, "keys", 0, NULL, "list every key: default, unit, valid values, meaning")          \
    X(COUNTERS, "counters", 0, NULL,                                                          \
      "list every counter a run records (the counters table): component, name, meaning")     \
    X(MARKDOWN, "markdown", 0, NULL,                                                          \
      "with --keys: print docs/CONFIG.md; with --counters: the table of docs/SCHEMA.md")       \
    X(RUN, "run", 0, "N", "the run id (default: the latest run)")                             \
    X(LAST, "last", 0, NULL, "the latest run (the default)")                                  \
    X(COMPARE, "compare", 0, NULL, "one row per run, with the parameters that differ")        \
    X(FORMAT, "format", 0, "text|csv|json", "the output format (default text)")               \
    X(TABLE, "table", 0, "NAME", "print one table only")                                      \
    X(FROM_PS, "from-ps", 0, "T", "start of the window, in picoseconds")                      \
    X(TO_PS, "to-ps", 0, "T", "end of the window, in picoseconds (0: the end of the run)")   \
    X(WIDTH, "width", 0, "PX", "the picture's width, 480..100000 (default 1200)")             \
    X(PERFETTO, "perfetto", 0, "OUT.json", "write a Chrome/Perfetto trace ('-': stdout)")     \
    X(VCD, "vcd", 0, "OUT.vcd", "write a VCD waveform ('-': stdout)")                         \
    X(MAX_ACCESSES, "max-accesses", 0, "N|all",                                               \
      "SM accesses exported at most (default 1000000; 'all', or 0 for none)")                 \
    X(JOBS, "jobs", 'j', "N", "points run at a time (default: the number of CPUs)")          \
    X(EMIT, "emit", 0, NULL, "print one command per point and run nothing")                   \
    X(FORCE, "force", 0, NULL, "allow more than 10000 points")                                \
    X(RERUN, "rerun", 0, NULL, "run every point, also those OUT.db already holds as ok")      \
    X(ALLOW_INERT, "allow-inert", 0, NULL, "sweep a key even where it has no effect (e.g. "   \
      "simt.* without core.model=simt): those points run the same machine")                  \
    X(ZIP, "zip", 0, "KEY,KEY,...", "these -s axes vary together (their i-th values in one "  \
      "point) instead of in every combination; repeatable")                                   \
    X(SAMPLE, "sample", 0, "N", "run N points drawn from the product without repetition "    \
      "(reproducible: seeded by --sample-seed)")                                              \
    X(SAMPLE_SEED, "sample-seed", 0, "S", "the seed the --sample points are drawn with "      \
      "(default: --seed when it is one number, else 1); sim.seed is not changed")             \
    X(RACES, "races", 0, NULL,                                                                \
      "detect data races: list each pair of accesses to one byte from different cores, one "  \
      "a store, whose tasks the program does not order")                                      \
    X(ATOMICS, "atomics", 0, NULL,                                                            \
      "ld/st whose high-address register has bits [7:6] = 01 are D16 atomic sequences (as "  \
      "sm.atomics=on in the timed model; for --races)")                                       \
    X(X_KEY, "x", 0, "KEY", "the parameter on the x axis (section.key, e.g. sm.bank, or "     \
      "program)")                                                                             \
    X(Y_COLUMN, "y", 0, "COLUMN", "the run_summary column on the y axis (e.g. end_cycles)") \
    X(BY, "by", 0, "KEY", "one line per value of this parameter (e.g. sm.arbiter)")          \
    X(INTERVALS, "intervals", 0, NULL, "draw the run's utilisation over time (record.interval)") \
    X(PROGRAM, "program", 0, "NAME", "only the runs of this program (its file name, with or " \
      "without .s, or the path as run_summary.program holds it)")                  \
    X(WHERE, "where", 0, "COND", "only the runs for which this SQL condition on run_summary's " \
      "columns holds (e.g. \"banks >= 8 AND bank_map <> 'high'\")")                         \
    X(SCRIPT, "script", 0, NULL, "print the gnuplot script instead of running gnuplot")      \
    X(PROGRESS, "progress", 0, NULL, "print the progress line even when stderr is not a terminal") \
    X(LISTING, "listing", 0, NULL, "print the listing: each source line beside the frame:slot " \
      "and word it filled, lines made by macros and repetitions marked '+'")                \
    X(PORT, "port", 0, "N", "the TCP port to listen on (0: any free port)")                   \
    X(BIND, "bind", 0, "ADDR", "listen on this numeric address instead of 127.0.0.1")       \
    X(SLOTS, "slots", 0, NULL, "print the slot profile: each instruction beside how often it "  \
      "ran and the cycles charged to it, the hottest marked")                                \
    X(FRAME, "frame", 0, "F", "only frame F (an IF's frame index)")

typedef enum cli_opt_id {
    CLI_NONE = 0, /* ends a list */
#define X(id, name, short_name, arg, help) CLI_##id,
    CLI_OPTIONS(X)
#undef X
    CLI_OPT_COUNT
} cli_opt_id_t;

/* One option as a command takes it; NULL fields fall back to CLI_OPTIONS. */
typedef struct cli_use {
    cli_opt_id_t opt;
    const char *arg;          /* the value's placeholder in --help */
    const char *help;         /* the line in --help */
} cli_use_t;

/* One exit code as a command can return it; NULL `what` is the table's word. */
typedef struct cli_exit {
    int code;                 /* -1 ends a list */
    const char *what;
} cli_exit_t;

/* Everything `tessera NAME --help` prints and cli_parse accepts. */
typedef struct cli_spec {
    const char *name;         /* "run" */
    const char *usage;        /* after "usage: tessera NAME "; more lines indented */
    const char *about;        /* what the command does (paragraphs) */
    const cli_use_t *opts;    /* ends with {CLI_NONE}; -h/--help is implicit */
    const cli_exit_t *exits;  /* ends with {-1} */
    int min_pos, max_pos;     /* positional arguments (max -1: any number) */
    const char *missing;      /* message when fewer than min_pos are given */
} cli_spec_t;

/* One option on the command line, in order. */
typedef struct cli_item {
    cli_opt_id_t opt;
    const char *value;        /* NULL for a flag */
} cli_item_t;

typedef struct cli_args {
    cli_item_t *items;        /* options in command-line order */
    int n_items;
    char **pos;               /* positional arguments in order */
    int n_pos;
    char **sets;              /* -s and --seed as "section.key=value", in order */
    int n_sets;
    char **owned;             /* strings allocated for sets (--seed) */
    int n_owned;
} cli_args_t;

#define CLI_HELP_PRINTED (-1) /* cli_parse printed --help: exit 0 */

/* Parses argv (argv[0] is the command's name) against `spec` with
 * getopt_long. Returns TESS_OK; CLI_HELP_PRINTED after printing --help on stdout;
 * TESS_EUSAGE after printing "tessera: NAME: WHAT" and the usage on stderr
 * (an unknown option, a missing value, a value given to a flag, too few or
 * too many positional arguments); TESS_ENOMEM (printed). Release `out`
 * with cli_args_free in every case. */
int cli_parse(const cli_spec_t *spec, int argc, char **argv, cli_args_t *out /* OUT */);

void cli_args_free(cli_args_t *a);

/* The value of the last occurrence of `opt` (NULL when absent or a flag). */
const char *cli_value(const cli_args_t *a, cli_opt_id_t opt);

/* How many times `opt` was given. */
int cli_count(const cli_args_t *a, cli_opt_id_t opt);

/* Prints "tessera: NAME: " + message and the usage on stderr; returns TESS_EUSAGE. */
int cli_usage_error(const cli_spec_t *spec, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The whole --help of a command. */
void cli_print_help(const cli_spec_t *spec, FILE *f);

/* Prints `text` from column `col` (already reached), wrapped at 78 columns
 * on blanks, continuation lines indented by `indent`; ends with a newline
 * (nothing at all for an empty text). */
void cli_wrap(FILE *f, const char *text, int col, int indent);

/* The exit-code table, one line per code ("  3  watchdog: ..."), for `tessera --help`. */
void cli_print_exit_table(FILE *f);

/* The long name, short letter and placeholder of an option (for tests and help). */
const char *cli_opt_name(cli_opt_id_t opt);
char cli_opt_short(cli_opt_id_t opt);
bool cli_opt_takes_value(cli_opt_id_t opt);

#endif
