/* infile.c — bounded, interruptible whole-file reads (see infile.h). The
 * buffer grows as bytes arrive, so a small file costs little whatever the
 * limit. */
#include "events/base/infile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "events/base/alloc.h"
#include "events/base/err.h"

static int fail_errno(diag_t *d, const char *path, int err)
{
    if (err == EINTR)
        return diag_fail(d, TESS_EINTERRUPTED, "%s: interrupted while reading", path);
    if (err == ENOMEM)
        return diag_fail(d, TESS_ENOMEM, "cannot read '%s': out of memory", path);
    return diag_fail(d, TESS_EIO, "cannot read '%s': %s", path, strerror(err));
}

/* Reads up to limit + 1 bytes from fd into a growing *buf. */
static int read_bounded(int fd, size_t limit, char **buf, size_t *len, int *err)
{
    size_t cap = limit + 2 < 4096 ? limit + 2 : 4096, n = 0;
    char *b = tess_malloc(cap);
    while (b) {
        if (n + 1 == cap) {          /* keep one byte for the NUL */
            size_t ncap = cap > (limit + 2) / 2 ? limit + 2 : 2 * cap;
            char *nb = tess_realloc(b, ncap);
            if (!nb)
                break;
            b = nb, cap = ncap;
        }
        ssize_t got = read(fd, b + n, cap - 1 - n);
        if (got < 0) {
            *err = errno;
            tess_free(b);
            return -1;
        }
        n += (size_t)got;
        if (got == 0 || n > limit) {
            b[n] = 0;
            *buf = b, *len = n;
            return 0;
        }
    }
    tess_free(b);
    *err = ENOMEM;
    return -1;
}

int infile_read(const char *path, size_t limit, const char *what, char **buf, size_t *len,
                diag_t *d)
{
    *buf = NULL, *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return fail_errno(d, path, errno);
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        return fail_errno(d, path, EISDIR);
    }
    char *b = NULL;
    size_t n = 0;
    int err = 0, r = read_bounded(fd, limit, &b, &n, &err);
    close(fd);
    if (r != 0)
        return fail_errno(d, path, err);
    if (n > limit) {
        tess_free(b);
        if (S_ISREG(st.st_mode) && (size_t)st.st_size > limit)
            return diag_fail(d, TESS_EINPUT, "%s: %zu bytes: larger than %s (%zu bytes)", path,
                             (size_t)st.st_size, what, limit);
        return diag_fail(d, TESS_EINPUT, "%s: larger than %s (%zu bytes): reading stopped there",
                         path, what, limit);
    }
    *buf = b, *len = n;
    return TESS_OK;
}
