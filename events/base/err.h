/* err.h — the one list of result codes used across Tessera.
 * Functions that can fail return one of these (TESS_OK is 0); the message
 * explaining a failure is kept on the context that failed (diag_t, sim_t, …).
 * The command's exit codes are these values: its help (cli/cli_opt.c), the
 * names below and the Python binding's exceptions (python/tessera/errors.py,
 * through the module _codes.py generated from this list at build time) all
 * come from TESS_ERRORS. */
#ifndef TESSERA_ERR_H
#define TESSERA_ERR_H

/* X(ID, value, "name", "word", "meaning"): name is tess_err_name's; word
 * the command's one-line list of a command's exit codes; meaning the
 * sentence of `tessera --help`. Values are an ABI (exit codes, the run API):
 * never renumber, only append. */
#define TESS_ERRORS(X)                                                                      \
    X(OK, 0, "ok", "ok", "ok")                                                              \
    X(EUSAGE, 1, "usage error", "usage", "usage error (bad command line)")                  \
    X(EINPUT, 2, "rejected input", "rejected input",                                         \
      "rejected input (malformed program, image or configuration; nothing simulated)")     \
    X(EWATCHDOG, 3, "watchdog", "watchdog",                                                 \
      "watchdog: a task exceeded its instruction budget (D12)")                            \
    X(EINTERRUPTED, 4, "interrupted", "interrupted",                                        \
      "interrupted (SIGINT/SIGTERM) or a wall-clock limit; what was recorded is kept")     \
    X(EIO, 5, "I/O error", "I/O", "I/O error (a file could not be read or written)")        \
    X(EDB, 6, "database error", "database", "database error")                               \
    X(ENOMEM, 7, "out of memory", "out of memory", "out of memory")                         \
    X(EDEADLOCK, 8, "deadlock", "deadlock",                                                 \
      "the model stopped with work left (deadlock, e.g. a lock never released)")           \
    X(ECRASH, 9, "crashed", "crashed", "a sweep point crashed (killed by SIGSEGV, SIGABRT, ...)")

#define TESS_ERR_ENUM(id, value, name, word, meaning) TESS_##id = value,
typedef enum tess_err { TESS_ERRORS(TESS_ERR_ENUM) } tess_err_t;
#undef TESS_ERR_ENUM

/* A short name for a code ("rejected input"); never NULL. */
const char *tess_err_name(int code);

#endif
