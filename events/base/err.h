/* err.h — the one enum of result codes used across Tessera.
 * Functions that can fail return one of these (TESS_OK is 0); the message
 * explaining a failure is kept on the context that failed (diag_t, sim_t, …).
 * The command's exit codes are these values (documented in `tessera --help`). */
#ifndef TESSERA_ERR_H
#define TESSERA_ERR_H

typedef enum tess_err {
    TESS_OK = 0,
    TESS_EUSAGE = 1,       /* bad command line */
    TESS_EINPUT = 2,       /* rejected input: program, image, configuration */
    TESS_EWATCHDOG = 3,    /* a task exceeded its instruction budget (D12) */
    TESS_EINTERRUPTED = 4, /* stopped by SIGINT/SIGTERM or a wall-clock limit */
    TESS_EIO = 5,          /* a file could not be read or written */
    TESS_EDB = 6,          /* the statistics database failed */
    TESS_ENOMEM = 7,       /* out of memory */
    TESS_EDEADLOCK = 8,    /* the model stopped with work left (e.g. a lock never released) */
    TESS_ECRASH = 9,       /* a child process (a sweep point) died of a signal such as SIGSEGV */
} tess_err_t;

/* A short name for a code ("rejected input"); never NULL. */
const char *tess_err_name(int code);

#endif
