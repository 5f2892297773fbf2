/* err.c — names of the result codes of err.h. */
#include "events/base/err.h"

const char *tess_err_name(int code)
{
    switch (code) {
    case TESS_OK: return "ok";
    case TESS_EUSAGE: return "usage error";
    case TESS_EINPUT: return "rejected input";
    case TESS_EWATCHDOG: return "watchdog";
    case TESS_EINTERRUPTED: return "interrupted";
    case TESS_EIO: return "I/O error";
    case TESS_EDB: return "database error";
    case TESS_ENOMEM: return "out of memory";
    case TESS_EDEADLOCK: return "deadlock";
    case TESS_ECRASH: return "crashed";
    default: return "unknown error";
    }
}
