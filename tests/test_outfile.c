/* test_outfile.c — the output side: presentation's one escaper (escape.h)
 * checked exhaustively against the Unicode definition of well-formed UTF-8
 * and against glibc's iconv on random bytes, and the one output-file writer
 * (outfile.h): replacing, modes, symlinks, refusals, a file-size limit. */
#include <errno.h>
#include <iconv.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "events/base/err.h"
#include "analysis/present/escape.h"
#include "cli/outfile.h"
#include "tests/testutil.h"

/* ---- the escaper --------------------------------------------------------- */

/* What a writer made of s, in a malloc'd buffer. */
static char *escaped(void (*fn)(FILE *, const char *), const char *s, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    fn(f, s);
    fclose(f);
    if (len)
        *len = n;
    return buf;
}

static void check_json(const char *in, const char *want)
{
    char *got = escaped(esc_json, in, NULL);
    CU_ASSERT_STRING_EQUAL(got, want);
    if (strcmp(got, want))
        fprintf(stderr, "\njson: got %s, want %s\n", got, want);
    free(got);
}

static void check_xml(const char *in, const char *want)
{
    char *got = escaped(esc_xml, in, NULL);
    CU_ASSERT_STRING_EQUAL(got, want);
    free(got);
}

#define FFFD "\xEF\xBF\xBD"

static void test_json_escapes(void)
{
    check_json("", "\"\"");
    check_json(NULL, "\"\"");
    check_json("plain/path.s", "\"plain/path.s\"");
    check_json("a\"b\\c", "\"a\\\"b\\\\c\"");
    check_json("\b\t\n\v\f\r", "\"\\b\\t\\n\\u000b\\f\\r\"");
    check_json("\x01\x1f\x7f", "\"\\u0001\\u001f\x7f\"");
    check_json("caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e\"");
    check_json("caf\xe9.s", "\"caf" FFFD ".s\"");            /* Latin-1 é */
    check_json("\xef\xbf\xbf", "\"\xef\xbf\xbf\"");           /* U+FFFF is fine in JSON */
}

/* The buffer form cuts at a character boundary and always closes the quote. */
static void test_json_into_a_buffer(void)
{
    char b[16];
    CU_ASSERT_STRING_EQUAL(esc_json_buf(b, sizeof b, "a\"b"), "\"a\\\"b\"");
    CU_ASSERT_STRING_EQUAL(esc_json_buf(b, 8, "\xe2\x82\xac\xe2\x82\xac"), "\"\xe2\x82\xac\"");
    CU_ASSERT_STRING_EQUAL(esc_json_buf(b, 9, "ab\x01"), "\"ab\"");   /* \u0001 does not fit */
    CU_ASSERT_STRING_EQUAL(esc_json_buf(b, 3, "xyz"), "\"\"");
    CU_ASSERT_STRING_EQUAL(esc_json_buf(b, sizeof b, "\xe9t\xe9"), "\"" FFFD "t" FFFD "\"");
    CU_ASSERT_STRING_EQUAL(esc_json_buf(b, sizeof b, NULL), "\"\"");
}

static void test_xml_and_vcd_escapes(void)
{
    check_xml("a<b>&\"'", "a&lt;b&gt;&amp;&quot;&apos;");
    check_xml("tab\tnl\ncr\r", "tab\tnl\ncr\r");
    check_xml("\x01x\x1f", FFFD "x" FFFD);                   /* not XML 1.0 characters */
    check_xml("\xef\xbf\xbe\xef\xbf\xbf", FFFD FFFD);         /* U+FFFE, U+FFFF */
    check_xml("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf");        /* U+10FFFF */
    check_xml("na\xefve", "na" FFFD "ve");
    char *v = escaped(esc_vcd_comment, "run $end of\tx\xff", NULL);
    CU_ASSERT_STRING_EQUAL(v, "run _end of x" FFFD);
    free(v);
}

/* Each byte of a malformed sequence is one U+FFFD (the documented choice). */
static void test_malformed_sequences(void)
{
    static const struct { const char *in; unsigned fffd; } cases[] = {
        {"\xc0\x80", 2},         {"\xc1\xbf", 2},          /* overlong 2-byte */
        {"\xe0\x80\x80", 3},     {"\xe0\x9f\xbf", 3},      /* overlong 3-byte */
        {"\xed\xa0\x80", 3},     {"\xed\xbf\xbf", 3},      /* surrogates */
        {"\xf0\x80\x80\x80", 4}, {"\xf0\x8f\xbf\xbf", 4},  /* overlong 4-byte */
        {"\xf4\x90\x80\x80", 4}, {"\xf5\x80\x80\x80", 4},  /* above U+10FFFF */
        {"\xf8\x88\x80\x80\x80", 5}, {"\xfe\xff", 2},
        {"\x80", 1},             {"\xbf\x80", 2},          /* lone continuations */
        {"\xe2\x82", 2},         {"\xf0\x9d\x84", 3},      /* truncated at the end */
        {"\xe2\x28\xa1", 2},     {"\xc3", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = escaped(esc_json, cases[i].in, NULL);
        char want[64] = "\"";
        for (unsigned k = 0; k < cases[i].fffd; k++)
            strcat(want, FFFD);
        if (!strcmp(cases[i].in, "\xe2\x28\xa1"))
            strcpy(want, "\"" FFFD "(" FFFD);
        strcat(want, "\"");
        CU_ASSERT_STRING_EQUAL(got, want);
        free(got);
    }
}

/* The canonical encoding of c (Unicode table 3-6). */
static size_t encode(uint32_t c, unsigned char *b)
{
    if (c < 0x80)
        return b[0] = (unsigned char)c, 1;
    if (c < 0x800)
        return b[0] = (unsigned char)(0xC0 | c >> 6), b[1] = (unsigned char)(0x80 | (c & 0x3F)), 2;
    if (c < 0x10000) {
        b[0] = (unsigned char)(0xE0 | c >> 12), b[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        b[2] = (unsigned char)(0x80 | (c & 0x3F));
        return 3;
    }
    b[0] = (unsigned char)(0xF0 | c >> 18), b[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
    b[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3F)), b[3] = (unsigned char)(0x80 | (c & 0x3F));
    return 4;
}

/* Every scalar value decodes from its canonical encoding, and every 1-, 2-
 * and 3-byte sequence is accepted exactly when it is one (all 16.8 million);
 * 4-byte ones for every lead and second byte with edge continuation bytes. */
static void test_decoder_against_the_definition(void)
{
    unsigned bad = 0;
    for (uint32_t c = 0; c <= 0x10FFFF; c++) {
        if (c >= 0xD800 && c <= 0xDFFF)
            continue;
        unsigned char b[4];
        uint32_t got;
        size_t n = encode(c, b);
        bad += esc_utf8_decode(b, n, &got) != n || got != c;
    }
    CU_ASSERT_EQUAL(bad, 0);
    for (uint32_t x = 0; x < (1u << 24); x++) {
        unsigned char b[3] = {(unsigned char)(x >> 16), (unsigned char)(x >> 8), (unsigned char)x};
        uint32_t cp, re;
        size_t n = esc_utf8_decode(b, 3, &cp);
        unsigned char e[4];
        bool canonical = n > 0 && encode(cp, e) == n && !memcmp(e, b, n) &&
                         !(cp >= 0xD800 && cp <= 0xDFFF) && cp <= 0x10FFFF;
        bad += n > 0 && !canonical;
        /* a canonical 3-byte encoding must be accepted */
        bool is3 = b[0] >= 0xE0 && b[0] <= 0xEF && b[1] >= 0x80 && b[1] <= 0xBF && b[2] >= 0x80 &&
                   b[2] <= 0xBF;
        re = ((b[0] & 0x0Fu) << 12) | ((b[1] & 0x3Fu) << 6) | (b[2] & 0x3Fu);
        bad += is3 && re >= 0x800 && !(re >= 0xD800 && re <= 0xDFFF) && n != 3;
    }
    CU_ASSERT_EQUAL(bad, 0);
    static const unsigned char tails[] = {0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xFF};
    for (unsigned b0 = 0xF0; b0 <= 0xFF; b0++)
        for (unsigned b1 = 0; b1 < 256; b1++)
            for (unsigned i = 0; i < sizeof tails; i++)
                for (unsigned j = 0; j < sizeof tails; j++) {
                    unsigned char b[4] = {(unsigned char)b0, (unsigned char)b1, tails[i], tails[j]};
                    uint32_t cp;
                    size_t n = esc_utf8_decode(b, 4, &cp);
                    unsigned char e[4];
                    bool ok4 = b0 <= 0xF4 && b1 >= 0x80 && b1 <= 0xBF && tails[i] >= 0x80 &&
                               tails[i] <= 0xBF && tails[j] >= 0x80 && tails[j] <= 0xBF;
                    uint32_t want = ((b0 & 7u) << 18) | ((b1 & 0x3Fu) << 12) |
                                    ((tails[i] & 0x3Fu) << 6) | (tails[j] & 0x3Fu);
                    ok4 = ok4 && want >= 0x10000 && want <= 0x10FFFF;
                    bad += (n == 4) != ok4 || (n == 4 && (cp != want || encode(cp, e) != 4));
                }
    CU_ASSERT_EQUAL(bad, 0);
}

/* glibc's decoder, independent of ours: true when b[0..n) is valid UTF-8.
 * (It is lenient — it takes the obsolete 5-byte forms — so it checks that our
 * output is valid; strictness is checked against the definition above.) */
static bool iconv_valid(iconv_t cd, const char *b, size_t n)
{
    char out[8192], *ip = (char *)b, *op = out;
    size_t il = n, ol = sizeof out;
    iconv(cd, NULL, NULL, NULL, NULL);
    return iconv(cd, &ip, &il, &op, &ol) != (size_t)-1 && il == 0;
}

/* Random byte strings (biased towards UTF-8 lead and continuation bytes):
 * every writer's output is valid UTF-8 for glibc; and a valid string with no
 * special characters comes out of esc_json unchanged. */
static void test_random_bytes_always_give_valid_utf8(void)
{
    iconv_t cd = iconv_open("UTF-8", "UTF-8");
    CU_ASSERT_FATAL(cd != (iconv_t)-1);
    uint64_t seed = 42;
    unsigned invalid = 0, changed = 0, valid_inputs = 0;
    for (int iter = 0; iter < 20000; iter++) {
        char in[64];
        size_t n = 1 + test_rand(&seed) % 40;
        for (size_t i = 0; i < n; i++) {
            uint64_t r = test_rand(&seed);
            in[i] = (char)(r % 4 == 0 ? 0x80 + (r >> 8) % 64 : r % 4 == 1 ? 0xC0 + (r >> 8) % 64
                           : r % 4 == 2 ? 0x20 + (r >> 8) % 95 : 1 + (r >> 8) % 255);
        }
        in[n] = 0;
        void (*fns[3])(FILE *, const char *) = {esc_json, esc_xml, esc_vcd_comment};
        for (int k = 0; k < 3; k++) {
            size_t len;
            char *out = escaped(fns[k], in, &len);
            invalid += !iconv_valid(cd, out, len);
            free(out);
        }
        /* a valid string of random scalar values with no special character */
        unsigned char v[160];
        size_t vn = 0;
        for (int k = 0; k < 30; k++) {
            uint32_t c = (uint32_t)(test_rand(&seed) % 0x10FFFF);
            if (c < 0x20 || c == 0x7F || (c >= 0xD800 && c <= 0xDFFF) || strchr("\"\\<>&'$", (int)c))
                c = 'x';
            vn += encode(c, v + vn);
        }
        v[vn] = 0;
        valid_inputs += iconv_valid(cd, (const char *)v, vn);
        size_t len;
        char *out = escaped(esc_json, (const char *)v, &len);
        changed += len != vn + 2 || memcmp(out + 1, v, vn);
        free(out);
    }
    iconv_close(cd);
    CU_ASSERT_EQUAL(invalid, 0);
    CU_ASSERT_EQUAL(changed, 0);
    CU_ASSERT_EQUAL(valid_inputs, 20000); /* glibc agrees they are valid */
}

/* ---- output files -------------------------------------------------------- */

static char *slurp(const char *path)
{
    size_t n;
    return (char *)test_read_file(path, &n);
}

/* No "NAME.tmp*" is left in the scratch directory. */
static bool no_temps(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -q '\\.tmp'", test_tmp_dir());
    return test_run_shell(cmd, NULL) != 0;
}

static void test_replace_keeps_mode_and_follows_links(void)
{
    const char *p = test_tmp_path("o.txt");
    char path[512], link[512];
    snprintf(path, sizeof path, "%s", p);
    snprintf(link, sizeof link, "%s", test_tmp_path("o.link"));
    test_write_file(path, "old", 3);
    chmod(path, 0640);
    diag_t d = {0};
    CU_ASSERT_EQUAL(outfile_write(path, "new", 3, &d), TESS_OK);
    struct stat st;
    stat(path, &st);
    CU_ASSERT_EQUAL(st.st_mode & 0777, 0640);
    char *s = slurp(path);
    CU_ASSERT_STRING_EQUAL(s, "new");
    free(s);
    CU_ASSERT_EQUAL(symlink("o.txt", link), 0);
    CU_ASSERT_EQUAL(outfile_write(link, "via link", 8, &d), TESS_OK);
    CU_ASSERT_EQUAL(lstat(link, &st), 0);
    CU_ASSERT_TRUE(S_ISLNK(st.st_mode));
    s = slurp(path);
    CU_ASSERT_STRING_EQUAL(s, "via link");
    free(s);
    /* an aborted output leaves the old file and no temporary */
    outfile_t o;
    CU_ASSERT_EQUAL(outfile_open(&o, path, &d), TESS_OK);
    fputs("partial", o.f);
    CU_ASSERT_EQUAL(outfile_close(&o, false, &d), TESS_OK);
    s = slurp(path);
    CU_ASSERT_STRING_EQUAL(s, "via link");
    free(s);
    CU_ASSERT_TRUE(no_temps());
    CU_ASSERT_EQUAL(d.code, TESS_OK);
}

static void test_devices_are_written_not_replaced(void)
{
    diag_t d = {0};
    CU_ASSERT_EQUAL(outfile_write("/dev/null", "x", 1, &d), TESS_OK);
    struct stat st;
    CU_ASSERT_EQUAL(stat("/dev/null", &st), 0);
    CU_ASSERT_TRUE(S_ISCHR(st.st_mode));
    CU_ASSERT_EQUAL(outfile_write("/dev/full", "x", 1, &d), TESS_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "/dev/full"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, strerror(ENOSPC)));
    CU_ASSERT_EQUAL(stat("/dev/full", &st), 0);
    CU_ASSERT_TRUE(S_ISCHR(st.st_mode));
}

static int check(const outfile_role_t *o, size_t no, const outfile_role_t *i, size_t ni,
                 diag_t *d)
{
    diag_reset(d);
    return outfile_check(o, no, i, ni, d);
}

static void test_check_refuses_inputs_and_clashes(void)
{
    char in[512], hard[512], dang[512], db[512];
    snprintf(in, sizeof in, "%s", test_tmp_path("in.s"));
    snprintf(hard, sizeof hard, "%s", test_tmp_path("hard.s"));
    snprintf(dang, sizeof dang, "%s", test_tmp_path("dangling"));
    snprintf(db, sizeof db, "%s", test_tmp_path("r.db"));
    test_write_file(in, "x", 1);
    test_write_file(db, "x", 1);
    link(in, hard);
    symlink("new.out", dang);
    diag_t d = {0};
    outfile_role_t src = {in, "the source", false}, dbr = {db, "the database", true};
    outfile_role_t o1 = {hard, "-o", false};
    CU_ASSERT_EQUAL(check(&o1, 1, &src, 1, &d), TESS_EUSAGE);  /* a hard link to the input */
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "an input is never overwritten"));
    outfile_role_t two[2] = {{dang, "--dump-mem", false}, {test_tmp_path("new.out"), "--dump-regs", false}};
    CU_ASSERT_EQUAL(check(two, 2, NULL, 0, &d), TESS_EUSAGE); /* a dangling link and its target */
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "same file"));
    char wal[600];
    snprintf(wal, sizeof wal, "%s-wal", db);
    outfile_role_t ow = {wal, "--vcd", false};
    CU_ASSERT_EQUAL(check(&ow, 1, &dbr, 1, &d), TESS_EUSAGE); /* the database's WAL, not there yet */
    outfile_role_t nul[2] = {{"/dev/null", "a", false}, {"/dev/null", "b", false}};
    CU_ASSERT_EQUAL(check(nul, 2, NULL, 0, &d), TESS_OK);     /* a device twice is fine */
    outfile_role_t dash[2] = {{"-", "a", false}, {"-", "b", false}};
    CU_ASSERT_EQUAL(check(dash, 2, NULL, 0, &d), TESS_EUSAGE);
    outfile_role_t dir = {test_tmp_dir(), "-o", false};
    CU_ASSERT_EQUAL(check(&dir, 1, NULL, 0, &d), TESS_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "directory"));
    outfile_role_t nodir = {test_tmp_path("no/such/dir/x"), "-o", false};
    CU_ASSERT_EQUAL(check(&nodir, 1, NULL, 0, &d), TESS_EIO);
    outfile_role_t fine = {test_tmp_path("fine.out"), "-o", false};
    CU_ASSERT_EQUAL(check(&fine, 1, &src, 1, &d), TESS_OK);
}

/* A database's journal that comes and goes while the check runs (another
 * writer creating the same database, test_dbhostile's eight writers) is
 * never an error: the check sees it there or not there. */
static void test_check_while_a_journal_comes_and_goes(void)
{
    char db[512], journal[600];
    snprintf(db, sizeof db, "%s", test_tmp_path("racing.db"));
    snprintf(journal, sizeof journal, "%s-journal", db);
    test_write_file(db, "x", 1);
    pid_t pid = fork();
    if (pid == 0) {
        for (;;) {
            test_write_file(journal, "j", 1);
            unlink(journal);
        }
    }
    outfile_role_t dbr = {db, "the database", true};
    diag_t d = {0};
    int failures = 0;
    for (int i = 0; i < 100000 && failures == 0; i++)
        if (check(&dbr, 1, NULL, 0, &d) != TESS_OK)
            failures++, fprintf(stderr, "\ncheck %d: %s\n", i, d.msg);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    unlink(journal);
    CU_ASSERT_EQUAL(failures, 0);
}

/* With a file-size limit the write fails with EFBIG (SIGXFSZ ignored), the
 * old file stays whole and no temporary file is left. */
static void test_file_size_limit(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s", test_tmp_path("big.out"));
    test_write_file(path, "old", 3);
    pid_t pid = fork();
    if (pid == 0) {
        outfile_init();
        struct rlimit rl = {4096, 4096};
        setrlimit(RLIMIT_FSIZE, &rl);
        static char data[65536];
        diag_t d = {0};
        int rc = outfile_write(path, data, sizeof data, &d);
        _exit(rc == TESS_EIO && strstr(d.msg, strerror(EFBIG)) ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char *s = slurp(path);
    CU_ASSERT_STRING_EQUAL(s, "old");
    free(s);
    CU_ASSERT_TRUE(no_temps());
}

static const test_case_t cases[] = {
    TEST(test_json_escapes),
    TEST(test_json_into_a_buffer),
    TEST(test_xml_and_vcd_escapes),
    TEST(test_malformed_sequences),
    TEST(test_decoder_against_the_definition),
    TEST(test_random_bytes_always_give_valid_utf8),
    TEST(test_replace_keeps_mode_and_follows_links),
    TEST(test_devices_are_written_not_replaced),
    TEST(test_check_refuses_inputs_and_clashes),
    TEST(test_check_while_a_journal_comes_and_goes),
    TEST(test_file_size_limit),
    TEST_END
};

static const test_suite_t suites[] = {{"outfile", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}
