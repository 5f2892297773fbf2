/* err.c — names of the result codes of err.h (TESS_ERRORS). */
#include "events/base/err.h"

const char *tess_err_name(int code)
{
#define NAME(id, value, name, word, meaning)                                                   \
    if (code == TESS_##id)                                                                  \
        return name;
    TESS_ERRORS(NAME)
#undef NAME
    return "unknown error";
}
