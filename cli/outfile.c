/* outfile.c — output files that never destroy anything (see outfile.h).
 * The only process-wide state is the table of live temporary files, which a
 * signal handler removes before the process dies of the signal. */
#include "cli/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "events/base/alloc.h"
#include "events/base/err.h"

/* --- temporary files removed on a fatal signal ----------------------------------- */

#define MAX_TEMPS 8
/* The live temporary files' paths: process-wide mutable state, because the
 * handler of a fatal signal (remove_temps), which has no context to be
 * given, must find them to remove them before the process dies. */
static char *volatile temps[MAX_TEMPS];

static void remove_temps(int sig)
{
    for (int i = 0; i < MAX_TEMPS; i++)
        if (temps[i])
            unlink(temps[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Installs remove_temps for the signals that would kill the process, unless
 * the command handles them itself. */
static void guard_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL ||
            (old.sa_flags & SA_SIGINFO))
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_temps;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

static int temp_register(char *path)
{
    guard_signals();
    for (int i = 0; i < MAX_TEMPS; i++)
        if (!temps[i]) {
            temps[i] = path;
            return i;
        }
    return -1;                /* more than 8 at once: not removed on a signal */
}

void outfile_init(void) { signal(SIGXFSZ, SIG_IGN); }

/* --- paths ------------------------------------------------------------------------ */

static char *join(const char *dir, size_t dlen, const char *name)
{
    size_t n = dlen + strlen(name) + 2;
    char *p = tess_malloc(n);
    if (p)
        snprintf(p, n, "%.*s/%s", (int)dlen, dir, name);
    else
        errno = ENOMEM;
    return p;
}

/* The file `path` names once symbolic links are followed (it may not exist
 * yet: a dangling link names its target). NULL with errno on failure. */
static char *follow_links(const char *path)
{
    char *cur = tess_strdup(path), link[PATH_MAX];
    for (int depth = 0; cur && depth < 40; depth++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            return cur;
        link[n] = 0;
        const char *slash = strrchr(cur, '/');
        char *next = link[0] == '/' || !slash ? tess_strdup(link)
                                              : join(cur, (size_t)(slash - cur), link);
        tess_free(cur);
        cur = next;
    }
    errno = cur ? ELOOP : ENOMEM;
    tess_free(cur);
    return NULL;
}

/* The directory part of `path` ("." when none). */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path) {
        char *d = tess_strdup(slash ? "/" : ".");
        errno = d ? errno : ENOMEM;
        return d;
    }
    size_t n = (size_t)(slash - path);
    char *d = tess_malloc(n + 1);
    if (d)
        memcpy(d, path, n), d[n] = 0;
    else
        errno = ENOMEM;
    return d;
}

static int fail_io(diag_t *d, const char *name, int err)
{
    if (err == ENOMEM)
        return diag_fail(d, TESS_ENOMEM, "%s: out of memory", name);
    return diag_fail(d, TESS_EIO, "%s: cannot write: %s", name, strerror(err));
}

/* --- checks before anything runs ----------------------------------------------- */

/* What a path names: the file (device and inode) when it exists, and its
 * resolved path either way. */
typedef struct ident {
    bool exists;
    struct stat st;
    char *canon;              /* resolved path (tess_malloc'd) */
} ident_t;

static char *canonical(const char *path)
{
    char *r = realpath(path, NULL), *c = r ? tess_strdup(r) : NULL;
    int err = errno;
    free(r);
    errno = r && !c ? ENOMEM : err;
    return c;
}

/* Fills id for `path`; TESS_EIO when its directory does not exist. */
static int ident_of(const char *path, const char *what, ident_t *id, diag_t *d)
{
    memset(id, 0, sizeof *id);
    id->exists = stat(path, &id->st) == 0;
    if (id->exists) {
        id->canon = canonical(path);
        if (id->canon)
            return TESS_OK;
        if (errno != ENOENT)
            return fail_io(d, path, errno);
        /* It was removed between the two calls: another writer's SQLite
         * journal comes and goes while that writer creates the database. */
        memset(id, 0, sizeof *id);
    }
    char *target = follow_links(path), *dir = target ? dir_of(target) : NULL;
    char *rdir = dir ? canonical(dir) : NULL;
    int err = errno, rc = TESS_OK;
    if (rdir) {
        const char *slash = strrchr(target, '/');
        id->canon = join(rdir, strlen(rdir), slash ? slash + 1 : target);
        rc = id->canon ? TESS_OK : fail_io(d, path, ENOMEM);
    } else if (!target || !dir || err == ENOMEM) {
        rc = fail_io(d, path, target && dir ? err : ENOMEM);
    } else {
        rc = diag_fail(d, TESS_EIO, "%s (%s): cannot write: directory '%s': %s", path, what,
                       dir, strerror(err));
    }
    tess_free(target), tess_free(dir), tess_free(rdir);
    return rc;
}

static bool same_file(const ident_t *a, const ident_t *b)
{
    if (a->exists && b->exists)
        return a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino &&
               !S_ISCHR(a->st.st_mode); /* /dev/null twice is fine */
    return !a->exists && !b->exists && !strcmp(a->canon, b->canon);
}

/* An output must be writable: its directory for a file written through a
 * temporary file, the node itself for a device or FIFO. */
static int check_writable(const outfile_role_t *r, const ident_t *id, diag_t *d)
{
    if (id->exists && S_ISDIR(id->st.st_mode))
        return diag_fail(d, TESS_EIO, "%s (%s): cannot write: it is a directory", r->path,
                         r->what);
    bool direct = id->exists && !S_ISREG(id->st.st_mode);
    char *dir = direct ? NULL : dir_of(id->canon);
    if (!direct && !dir)
        return fail_io(d, r->path, ENOMEM);
    int ok = access(direct ? id->canon : dir, W_OK | (direct ? 0 : X_OK)), err = errno;
    tess_free(dir);
    if (ok != 0)
        return diag_fail(d, TESS_EIO, "%s (%s): cannot write: %s", r->path, r->what,
                         strerror(err));
    return TESS_OK;
}

/* One file to compare: a role's path, or its database's -wal / -journal. */
typedef struct entry {
    const outfile_role_t *role;
    bool output, side;        /* side: a -wal / -journal file */
    ident_t id;
    char name[96];            /* for messages: "x.db-wal (the database's WAL)" */
} entry_t;

static void entry_name(entry_t *x, const char *suffix)
{
    if (suffix)
        snprintf(x->name, sizeof x->name, "%s%s (%s: its %s)", x->role->path, suffix,
                 x->role->what, suffix + 1);
    else
        snprintf(x->name, sizeof x->name, "%s (%s)", x->role->path, x->role->what);
}

static int add_entry(entry_t *e, size_t *n, const outfile_role_t *r, bool output,
                     const char *suffix, diag_t *d)
{
    char *p = suffix ? join(r->path, strlen(r->path), suffix) : NULL;
    if (suffix && !p)
        return fail_io(d, r->path, ENOMEM);
    if (p) /* join put a '/' between: make it "DB-wal" */
        memmove(p + strlen(r->path), p + strlen(r->path) + 1, strlen(suffix) + 1);
    entry_t *x = &e[*n];
    *x = (entry_t){r, output, suffix != NULL, {0}, ""};
    entry_name(x, suffix);
    struct stat st;
    if (!output && !suffix && stat(r->path, &st) != 0) { /* reading it will say why */
        tess_free(p);
        return TESS_OK;
    }
    int rc = ident_of(p ? p : r->path, r->what, &x->id, d);
    tess_free(p);
    if (rc == TESS_OK)
        ++*n;
    if (rc == TESS_OK && output && !suffix && !r->database) /* the store says what a */
        rc = check_writable(r, &x->id, d);                /* database path is not */
    return rc;
}

static int add_role(entry_t *e, size_t *n, const outfile_role_t *r, bool output, diag_t *d)
{
    if (!r->path || !strcmp(r->path, "-"))
        return TESS_OK;
    int rc = add_entry(e, n, r, output, NULL, d);
    if (rc == TESS_OK && r->database)
        rc = add_entry(e, n, r, output, "-wal", d);
    if (rc == TESS_OK && r->database)
        rc = add_entry(e, n, r, output, "-journal", d);
    return rc;
}

static int compare(const entry_t *e, size_t n, diag_t *d)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            const entry_t *a = &e[i], *b = &e[j];
            if (a->role == b->role || (a->side && b->side) || (!a->output && !b->output) ||
                !same_file(&a->id, &b->id))
                continue;
            if (a->output && b->output)
                return diag_fail(d, TESS_EUSAGE, "%s and %s are the same file: each output "
                                 "needs a file of its own", a->name, b->name);
            const entry_t *out = a->output ? a : b, *in = a->output ? b : a;
            return diag_fail(d, TESS_EUSAGE, "%s is the same file as %s: an input is never "
                             "overwritten", out->name, in->name);
        }
    return TESS_OK;
}

int outfile_check(const outfile_role_t *outs, size_t n_out, const outfile_role_t *ins,
                  size_t n_in, diag_t *d)
{
    size_t files = 0, n = 0;
    for (size_t i = 0; i < n_out; i++)
        files += outs[i].path != NULL;
    if (files == 0)
        return TESS_OK;
    entry_t *e = tess_calloc(3 * (n_out + n_in) + 1, sizeof *e);
    if (!e)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    int rc = TESS_OK;
    const outfile_role_t *std = NULL;
    for (size_t i = 0; i < n_out && rc == TESS_OK; i++) {
        bool dash = outs[i].path && !strcmp(outs[i].path, "-");
        if (dash && std)
            rc = diag_fail(d, TESS_EUSAGE, "%s and %s both write to standard output ('-'): "
                           "each output needs a file of its own", std->what, outs[i].what);
        std = dash ? &outs[i] : std;
        if (rc == TESS_OK)
            rc = add_role(e, &n, &outs[i], true, d);
    }
    for (size_t i = 0; i < n_in && rc == TESS_OK; i++)
        rc = add_role(e, &n, &ins[i], false, d);
    if (rc == TESS_OK)
        rc = compare(e, n, d);
    for (size_t i = 0; i < n; i++)
        tess_free(e[i].id.canon);
    tess_free(e);
    return rc;
}

/* --- writing ---------------------------------------------------------------------- */

/* Opens a device, FIFO or socket to write into it directly. */
static int open_direct(outfile_t *o, diag_t *d)
{
    int fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    o->f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (o->f)
        return TESS_OK;
    int err = errno;
    if (fd >= 0)
        close(fd);
    return fail_io(d, o->name, err);
}

/* Creates the temporary file beside o->path with the mode the file has (or
 * would get from fopen). */
static int open_temp(outfile_t *o, const struct stat *old, diag_t *d)
{
    size_t n = strlen(o->path) + 16;
    o->tmp = tess_malloc(n);
    if (!o->tmp)
        return fail_io(d, o->name, ENOMEM);
    snprintf(o->tmp, n, "%s.tmpXXXXXX", o->path);
    int fd = mkstemp(o->tmp);
    if (fd < 0)
        return fail_io(d, o->name, errno);
    o->slot = temp_register(o->tmp);
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, old ? old->st_mode & 07777 : 0666 & ~mask);
    o->f = fdopen(fd, "wb");
    if (o->f)
        return TESS_OK;
    int err = errno;
    close(fd);
    unlink(o->tmp);
    return fail_io(d, o->name, err);
}

static void release(outfile_t *o)
{
    if (o->slot >= 0)
        temps[o->slot] = NULL;
    tess_free(o->path);
    tess_free(o->tmp);
    memset(o, 0, sizeof *o);
    o->slot = -1;
}

int outfile_open(outfile_t *o, const char *path, diag_t *d)
{
    memset(o, 0, sizeof *o);
    o->slot = -1;
    o->name = path;
    if (!strcmp(path, "-")) {
        o->f = stdout;
        return TESS_OK;
    }
    o->path = follow_links(path);
    if (!o->path)
        return fail_io(d, path, errno);
    struct stat st;
    bool exists = stat(o->path, &st) == 0;
    int rc;
    if (exists && S_ISDIR(st.st_mode))
        rc = diag_fail(d, TESS_EIO, "%s: cannot write: it is a directory", path);
    else if (exists && !S_ISREG(st.st_mode))
        rc = open_direct(o, d);
    else
        rc = open_temp(o, exists ? &st : NULL, d);
    if (rc != TESS_OK)
        release(o);
    return rc;
}

int outfile_close(outfile_t *o, bool commit, diag_t *d)
{
    int rc = TESS_OK;
    if (o->f == stdout) {
        if (fflush(stdout) != 0 || ferror(stdout))
            rc = diag_fail(d, TESS_EIO, "standard output: %s", strerror(errno));
        release(o);
        return rc;
    }
    if (!o->f) {
        release(o);
        return TESS_OK;
    }
    errno = 0;
    bool ok = fflush(o->f) == 0 && !ferror(o->f);
    int err = errno ? errno : EIO;
    ok = fclose(o->f) == 0 && ok;
    err = ok ? 0 : errno ? errno : err;
    if (commit && ok && o->tmp && rename(o->tmp, o->path) != 0)
        ok = false, err = errno;
    if (commit && !ok)
        rc = fail_io(d, o->name, err);
    if (o->tmp && (!commit || !ok))
        unlink(o->tmp);
    release(o);
    return rc;
}

int outfile_fail(outfile_t *o, int err, diag_t *d)
{
    const char *name = o->name;
    outfile_close(o, false, NULL);
    return fail_io(d, name, err ? err : EIO);
}

int outfile_write(const char *path, const void *data, size_t len, diag_t *d)
{
    outfile_t o;
    int rc = outfile_open(&o, path, d);
    if (rc != TESS_OK)
        return rc;
    errno = 0;
    if (fwrite(data, 1, len, o.f) == len)
        return outfile_close(&o, true, d);
    int err = errno ? errno : EIO;
    outfile_close(&o, false, d);
    return fail_io(d, path, err);
}

int outfile_close_stdout(diag_t *d)
{
    errno = 0;
    bool ok = fflush(stdout) == 0 && !ferror(stdout);
    int err = errno;
    ok = fclose(stdout) == 0 && ok;
    if (ok)
        return TESS_OK;
    err = err ? err : errno ? errno : EIO;
    return diag_fail(d, TESS_EIO, "standard output: %s", strerror(err));
}
