/* cli_util.c — helpers shared by the subcommands (see cli_util.h). */
#include "cli/cli_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

int cli_nomem(void)
{
    cli_error("out of memory");
    return TESS_ENOMEM;
}

int cli_write_file(const char *path, const void *data, size_t len)
{
    size_t n = strlen(path) + 16;
    char *tmp = tess_malloc(n);
    if (!tmp)
        return cli_nomem();
    snprintf(tmp, n, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd >= 0) { /* mkstemp makes 0600: give the file the usual permissions */
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    }
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f) {
        cli_error("cannot write '%s': %s", path, strerror(errno));
        if (fd >= 0)
            close(fd), unlink(tmp);
        tess_free(tmp);
        return TESS_EIO;
    }
    size_t w = fwrite(data, 1, len, f);
    int closed = fclose(f);
    if (w != len || closed != 0 || rename(tmp, path) != 0) {
        cli_error("cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
        tess_free(tmp);
        return TESS_EIO;
    }
    tess_free(tmp);
    return TESS_OK;
}

int cli_check_output(const char *path)
{
    if (!path)
        return TESS_OK;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_error("cannot write '%s': it is a directory", path);
        return TESS_EIO;
    }
    const char *slash = strrchr(path, '/');
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
    if (access(dir, W_OK | X_OK) != 0) {
        cli_error("cannot write '%s': %s", path, strerror(errno));
        return TESS_EIO;
    }
    return TESS_OK;
}

int cli_dump_state(const arch_state_t *s, const char *mem_path, const char *regs_path)
{
    int rc = mem_path ? cli_write_file(mem_path, s->sm, sizeof s->sm) : TESS_OK;
    if (rc == TESS_OK && regs_path)
        rc = cli_write_file(regs_path, s->regs, sizeof s->regs);
    return rc;
}

bool cli_parse_u64(const char *text, uint64_t *out)
{
    if (!text || !*text || *text == '-' || *text == '+')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 0);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

int cli_print_races(race_det_t *r)
{
    size_t n = race_count(r);
    if (n == 0)
        printf("races: none\n");
    else
        printf("races: %zu (accesses to one byte from different cores, one a store, in tasks "
               "the program does not order)\n", n);
    for (size_t i = 0; i < n; i++) {
        char line[128];
        race_format(race_get(r, i), line, sizeof line);
        printf("  %s\n", line);
    }
    if (race_status(r) != TESS_OK) {
        cli_error("races: out of memory; the list may be incomplete");
        return TESS_ENOMEM;
    }
    return TESS_OK;
}
