/*
 * test_cache.c -- the result cache (cli/cache.c, cli/cache_entry.c) exercised directly: what
 * the key covers (the binary's part is the test binary's own bytes here), an entry read back
 * only when it is exactly what was written for its key, and every corruption the issue-37
 * probe tried -- changed numbers, entries swapped between keys, invalid result words,
 * truncation, a directory, a FIFO, /dev/zero, no permission -- a miss with a one-line warning,
 * never a result. At the level the page gets its results (mech_run, cli/mech.h), a corrupted
 * entry's numbers are never returned: the run is made again. docs/page.md "The cache".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "cache.h"

#define DIR_ BUILD_DIR "/tests/cache"
#define BENCH_ BUILD_DIR "/tests/cache-bench"

static void sh(const char *cmd)
{
    assert_int_equal(system(cmd), 0);
}

static struct opts opts(void)
{
    struct opts o;
    memset(&o, 0, sizeof o);
    o.size = BENCH_TEST;
    o.bench_dir = "bench";
    return o;
}

/* A result as a run makes one. */
static struct result fake(int rc, uint64_t cycles)
{
    struct result r;
    memset(&r, 0, sizeof r);
    r.rc = rc;
    r.msg = strdup(rc == 0 ? "results correct" : rc == 1 ? "out[3] = 7, expected 8" :
                   "not redirected: shared memory");
    r.st.cycles = cycles;
    r.st.warp_insns = 3 * cycles;
    snprintf(r.regs, sizeof r.regs, "12 registers per thread (recorded)");
    snprintf(r.cfg_name, sizeof r.cfg_name, "gtx480");
    snprintf(r.lat, sizeof r.lat, "lat_alu=4");
    return r;
}

static void key_of(const char *text, struct cache_key *k)
{
    cache_key_start(k);
    cache_key_add(k, "test", text);
    assert_int_equal(cache_key_end(k), 0);
}

static char *path_of(const struct cache_key *k)
{
    static char p[256];
    snprintf(p, sizeof p, DIR_ "/%s", k->hex);
    return p;
}

static char *slurp(const char *path, size_t *len)
{
    char *b = tu_read_file(path, len);
    assert_non_null(b);
    return b;
}

static void spit(const char *path, const char *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* The entry's checksum made right again, so that the check after it is what is tested. */
static void resum(char *b, size_t len)
{
    char sum[CACHE_KEY_LEN];
    cache_hash(b + CACHE_BODY_AT, len - CACHE_BODY_AT, sum);
    memcpy(b + CACHE_SUM_AT, sum, 32);
}

/* stderr into a file from capture_start until capture_end returns it. */
static int saved_fd = -1;

static void capture_start(void)
{
    int fd = open(BUILD_DIR "/tests/cache-stderr", O_WRONLY | O_CREAT | O_TRUNC, 0666);
    assert_true(fd >= 0);
    fflush(stderr);
    saved_fd = dup(2);
    dup2(fd, 2);
    close(fd);
}

static char *capture_end(void)
{
    fflush(stderr);
    dup2(saved_fd, 2);
    close(saved_fd);
    return slurp(BUILD_DIR "/tests/cache-stderr", NULL);
}

static unsigned lines(const char *s)
{
    unsigned n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* DIR's entry for k is a miss whose reason holds `why`; r is left alone. */
static void assert_miss(const struct cache_key *k, const char *why)
{
    struct result r;
    char msg[2048] = "", *err;
    memset(&r, 0x5a, sizeof r);
    assert_int_equal(cache_check(DIR_, k, &r, msg, sizeof msg), -1);
    tu_assert_contains(msg, why);
    assert_null(strchr(msg, '\n'));
    assert_int_equal(r.rc, 0x5a5a5a5a);
    capture_start();
    assert_int_equal(cache_get(DIR_, k, &r), 0);
    err = capture_end();
    tu_assert_contains(err, why);
    tu_assert_contains(err, "; running it again\n");
    assert_int_equal(lines(err), 1);
    free(err);
}

static void assert_hit(const struct cache_key *k, const struct result *want)
{
    struct result r;
    char msg[2048] = "";
    assert_int_equal(cache_check(DIR_, k, &r, msg, sizeof msg), 1);
    assert_int_equal(r.rc, want->rc);
    assert_string_equal(r.msg, want->msg);
    assert_memory_equal(&r.st, &want->st, sizeof r.st);
    assert_string_equal(r.regs, want->regs);
    assert_string_equal(r.cfg_name, want->cfg_name);
    assert_string_equal(r.lat, want->lat);
    result_free(&r);
}

static int setup(void **state)
{
    (void)state;
    return system("rm -rf " DIR_ " && mkdir -p " DIR_);
}

/* ------------------------------------------------------------------ the key */

static void key_lines(const struct opts *o, const char *mech, struct cache_key *k)
{
    assert_int_equal(cache_key(o, mech_find(mech), bench_find("vecadd"), k), 0);
    assert_int_equal(strlen(k->hex), 32);
}

/* Every component changes the key: size, mechanism, --set, the PTX, each register record,
   the register source; the full configuration and the record's bytes are in the text; a run
   with a hook has no key. */
static void test_key_covers_every_input(void **state)
{
    struct opts o = opts();
    struct cache_key base, k;
    const char *sets[] = {"num_sms=4"}, *est[] = {"regs_source=estimate"};
    (void)state;
    sh("rm -rf " BENCH_ " && mkdir -p " BENCH_ " && cp -r bench/vecadd " BENCH_ "/");
    o.bench_dir = BENCH_;
    key_lines(&o, "base", &base);
    tu_assert_contains(base.text, "\nconfig name = gtx480\n");
    tu_assert_contains(base.text, "\nconfig regs_source = auto\n");
    tu_assert_contains(base.text, "\nkernel vecadd\n");
    tu_assert_contains(base.text, "\nregisters recorded\n");
    key_lines(&o, "base", &k);                            /* the same inputs, the same key */
    assert_string_equal(k.hex, base.hex);
    assert_string_equal(k.text, base.text);
    cache_key_free(&k);
#define DIFFERS(what) do { key_lines(&o, what, &k); assert_string_not_equal(k.hex, base.hex); \
                           cache_key_free(&k); } while (0)
    DIFFERS("vtw");
    DIFFERS("rg_gmax");
    o.size = BENCH_DEFAULT;
    DIFFERS("base");
    o.size = BENCH_TEST;
    o.sets[0] = sets[0], o.nsets = 1;
    DIFFERS("base");
    o.sets[0] = est[0];
    key_lines(&o, "base", &k);
    tu_assert_contains(k.text, "\nregisters estimate (regs_source = estimate)\n");
    cache_key_free(&k);
    o.nsets = 0;
    sh("echo '# edited' >> " BENCH_ "/vecadd/kernel.vtw.res");
    DIFFERS("base");
    sh("cp bench/vecadd/kernel.vtw.res " BENCH_ "/vecadd/ && sed -i 's/vecadd 12/vecadd 13/' "
       BENCH_ "/vecadd/kernel.res");
    DIFFERS("base");
    sh("rm " BENCH_ "/vecadd/kernel.res");
    key_lines(&o, "base", &k);
    tu_assert_contains(k.text, "\nrecord none\n");
    tu_assert_contains(k.text, "\nregisters ptxas at load or the estimate; ptxas: ");
    cache_key_free(&k);
    sh("cp bench/vecadd/kernel.res " BENCH_ "/vecadd/ && echo '// edited' >> " BENCH_
       "/vecadd/kernel.ptx");                            /* the record is now stale */
    key_lines(&o, "base", &k);
    assert_string_not_equal(k.hex, base.hex);
    tu_assert_contains(k.text, "\nregisters ptxas at load or the estimate; ptxas: ");
    cache_key_free(&k);
    sh("rm " BENCH_ "/vecadd/kernel.ptx && mkfifo " BENCH_ "/vecadd/kernel.ptx");
    assert_int_equal(cache_key(&o, mech_find("base"), bench_find("vecadd"), &k), -1);
    o.bench_dir = "bench";
    o.record = "ws=" BUILD_DIR "/tests/cache-record";
    assert_int_equal(cache_key(&o, mech_find("base"), bench_find("vecadd"), &k), -1);
    cache_key_free(&base);
}

/* An application's key is built from the same parts; a value is one line whatever it holds. */
static void test_key_hook(void **state)
{
    struct opts o = opts();
    struct cache_key a, b;
    (void)state;
    cache_key_start(&a);
    cache_key_common(&a, &o, mech_find("base"), NULL);
    cache_key_file(&a, "app-binary", "bench/vecadd/kernel.cu", 0);
    cache_key_add(&a, "arg", "-n\n4\\");
    cache_key_file(&a, "input data", BUILD_DIR "/tests/cache-no-such-input", 1);
    assert_int_equal(cache_key_end(&a), 0);
    tu_assert_contains(a.text, "\narg -n\\n4\\\\\ninput data none\n");
    cache_key_start(&b);
    cache_key_common(&b, &o, mech_find("base"), NULL);
    cache_key_file(&b, "app-binary", BUILD_DIR "/tests/cache-no-such-binary", 0);
    assert_int_equal(cache_key_end(&b), -1);              /* a required file is missing */
    assert_null(b.text);
    cache_key_free(&a);
}

/* ------------------------------------------------------------------ entries */

static void test_round_trip(void **state)
{
    struct cache_key k;
    struct result r[3] = {fake(0, 1234), fake(1, 99), fake(MECH_NA, 0)}, e = fake(2, 5);
    char name[16];
    (void)state;
    for (unsigned i = 0; i < 3; i++) {
        snprintf(name, sizeof name, "rt%u", i);
        key_of(name, &k);
        assert_int_equal(cache_check(DIR_, &k, &r[i], name, sizeof name), 0);   /* none yet */
        assert_int_equal(cache_put(DIR_, &k, &r[i]), 0);
        assert_hit(&k, &r[i]);
        cache_key_free(&k);
        result_free(&r[i]);
    }
    key_of("error", &k);
    assert_int_equal(cache_put(DIR_, &k, &e), 0);         /* an error is not stored */
    assert_int_equal(access(path_of(&k), F_OK), -1);
    cache_key_free(&k);
    result_free(&e);
    sh("! ls " DIR_ " | grep -q tmp");                    /* no temporary file left */
}

/* Every single changed byte and every truncation of an entry is refused (in memory: the
   parser the file read goes through), and so are bytes added after its end. */
static void test_every_byte_and_length(void **state)
{
    struct cache_key k;
    struct result r = fake(0, 4242), x;
    size_t len;
    char *e, why[512];
    (void)state;
    key_of("bytes", &k);
    e = cache_entry_make(&k, &r, &len);
    assert_non_null(e);
    assert_int_equal(cache_entry_parse(e, len, &k, &x, why, sizeof why), 0);
    result_free(&x);
    for (size_t i = 0; i < len; i++) {
        e[i] ^= 0x10;
        if (!cache_entry_parse(e, len, &k, &x, why, sizeof why))
            fail_msg("byte %zu changed, the entry was still read", i);
        e[i] ^= 0x10;
    }
    for (size_t n = 0; n < len; n++)
        if (!cache_entry_parse(e, n, &k, &x, why, sizeof why))
            fail_msg("truncated to %zu of %zu bytes, the entry was still read", n, len);
    assert_int_equal(cache_entry_parse(e, len - 9, &k, &x, why, sizeof why), -1);
    tu_assert_contains(why, "truncated");
    e = realloc(e, len + 1);
    e[len] = '\n';
    assert_int_equal(cache_entry_parse(e, len + 1, &k, &x, why, sizeof why), -1);
    tu_assert_contains(why, "bytes after the end");
    free(e);
    cache_key_free(&k);
    result_free(&r);
}

/* A changed copy of e: n bytes at `at` replaced by the m bytes of s, checksum made right when
   resummed. */
static char *edit(const char *e, size_t len, const char *find, const char *s, int resummed,
                  size_t *out)
{
    const char *at = memmem(e, len, find, strlen(find));
    size_t n = strlen(find), m = strlen(s), pre;
    char *w;
    assert_non_null(at);
    pre = (size_t)(at - e);
    w = malloc(len - n + m);
    assert_non_null(w);
    memcpy(w, e, pre);
    memcpy(w + pre, s, m);
    memcpy(w + pre + m, at + n, len - pre - n);
    *out = len - n + m;
    if (resummed)
        resum(w, *out);
    return w;
}

/* k's entry replaced by e edited as edit() does; a miss for `why`. */
static void edited_miss(const struct cache_key *k, const char *e, size_t len, const char *find,
                        const char *s, int resummed, const char *why)
{
    size_t n;
    char *w = edit(e, len, find, s, resummed, &n);
    spit(path_of(k), w, n);
    free(w);
    assert_miss(k, why);
}

/* Corruptions on disk, each a miss with its reason; the entry rewritten is read again. */
static void test_corrupted_entries(void **state)
{
    struct cache_key k, k2;
    struct result r = fake(0, 777), r2 = fake(1, 888);
    char *e, *e2, *p, *at;
    size_t len, len2;
    (void)state;
    key_of("one", &k);
    key_of("two", &k2);
    assert_int_equal(cache_put(DIR_, &k, &r), 0);
    assert_int_equal(cache_put(DIR_, &k2, &r2), 0);
    e = slurp(path_of(&k), &len);
    e2 = slurp(path_of(&k2), &len2);
    p = strdup(path_of(&k));
    /* changed numbers: the cycles in the statistics, a number in the message */
    at = (char *)memmem(e, len, "stats ", 6);
    assert_non_null(at);
    at = strchr(at, '\n') + 1 + offsetof(struct gs_stats, cycles);
    (*at)++;
    spit(p, e, len);
    assert_miss(&k, "checksum mismatch");
    (*at)--;
    edited_miss(&k2, e2, len2, "expected 8", "expected 9", 0, "checksum mismatch");
    /* invalid result words, as written and with the checksum made right */
    edited_miss(&k, e, len, "result ok\n", "result ERROR\n", 0, "an invalid result word 'ERROR'");
    edited_miss(&k, e, len, "result ok\n", "result ERROR\n", 1, "an invalid result word 'ERROR'");
    edited_miss(&k, e, len, "result ok\n", "result WRONG\n", 1,
                "the result word 'WRONG' does not match its message");   /* "results correct" */
    edited_miss(&k2, e2, len2, "result WRONG\n", "result ok\n", 1,
                "the result word 'ok' does not match its message");
    /* truncated, empty, malformed */
    spit(p, e, len / 2);
    assert_miss(&k, "truncated");
    spit(p, e, 0);
    assert_miss(&k, "truncated");
    edited_miss(&k, e, len, "\nmsg 15\n", "\nmsg 015\n", 1, "malformed: no count for msg");
    edited_miss(&k, e, len, "gpusim-result-cache 3", "gpusim-result-cache 2", 0,
                "malformed: expected the format line");
    /* entries swapped between keys: each carries the other's key */
    spit(p, e2, len2);
    spit(path_of(&k2), e, len);
    assert_miss(&k, "made for another key");
    assert_miss(&k2, "an entry copied from another key's file?");
    /* the right digest over another key text (a forged name, checksum right) */
    memcpy(e2 + CACHE_BODY_AT + 4, k.hex, 32);           /* after "key " */
    resum(e2, len2);
    spit(p, e2, len2);
    assert_miss(&k, "the same digest, another key text");
    /* something else in the entry's place: never read, never waited on */
    assert_int_equal(unlink(p), 0);
    assert_int_equal(mkdir(p, 0777), 0);
    assert_miss(&k, "a directory, not a regular file");
    assert_int_equal(rmdir(p), 0);
    assert_int_equal(mkfifo(p, 0666), 0);
    assert_miss(&k, "a FIFO, not a regular file");
    assert_int_equal(unlink(p), 0);
    assert_int_equal(symlink("/dev/zero", p), 0);
    assert_miss(&k, "a character device, not a regular file");
    assert_int_equal(unlink(p), 0);
    /* no permission: root reads anything, so an entry that cannot be opened stands in */
    spit(p, e, len);
    if (geteuid() != 0) {
        assert_int_equal(chmod(p, 0), 0);
        assert_miss(&k, "Permission denied");
    } else
        print_message("chmod 000 skipped: running as root, which reads any file; an entry that "
                      "cannot be opened (a symlink loop) stands in\n");
    assert_int_equal(unlink(p), 0);
    assert_int_equal(symlink(k.hex, p), 0);                /* itself */
    assert_miss(&k, "Too many levels of symbolic links");
    assert_int_equal(unlink(p), 0);
    /* the run's result replaces a corrupted entry */
    spit(p, e, len - 1);
    assert_int_equal(cache_put(DIR_, &k, &r), 0);
    assert_hit(&k, &r);
    free(p);
    free(e);
    free(e2);
    cache_key_free(&k);
    cache_key_free(&k2);
    result_free(&r);
    result_free(&r2);
}

/* Writers racing on one key (reports sharing a cache, --jobs): a reader sees no entry or a
   whole one, never a torn one; no temporary file is left. */
static void test_concurrent_writers(void **state)
{
    struct cache_key k;
    struct result r;
    char why[512];
    pid_t pid[4];
    int st;
    (void)state;
    key_of("race", &k);
    for (unsigned c = 0; c < 4; c++) {
        if ((pid[c] = fork()) == 0) {
            struct result x = fake(c & 1, 1000 + c);
            int bad = 0;
            for (unsigned i = 0; i < 100; i++)
                bad |= cache_put(DIR_, &k, &x);
            _exit(bad);
        }
        assert_true(pid[c] > 0);
    }
    for (unsigned i = 0; i < 300; i++) {
        int rc = cache_check(DIR_, &k, &r, why, sizeof why);
        if (rc < 0)
            fail_msg("a reader saw a torn entry: %s", why);
        if (rc == 1) {
            assert_true(r.st.cycles >= 1000 && r.st.cycles < 1004);
            result_free(&r);
        }
    }
    for (unsigned c = 0; c < 4; c++) {
        assert_int_equal(waitpid(pid[c], &st, 0), pid[c]);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    assert_int_equal(cache_check(DIR_, &k, &r, why, sizeof why), 1);
    result_free(&r);
    sh("! ls " DIR_ " | grep -q tmp");
    cache_key_free(&k);
}

/* ------------------------------------------------------------------ what the page gets */

/* mech_run, as the page's runs call it, for vecadd at the test size under mech; its stderr
   into *err when err is not NULL. */
static void page_run(const struct opts *o, const char *mech, struct result *r, char **err)
{
    if (err)
        capture_start();
    mech_run(o, mech_find(mech), bench_find("vecadd"), r);
    if (err)
        *err = capture_end();
    assert_int_equal(r->rc, 0);
}

/* The run's numbers, host time aside, are the reference run's. */
static void assert_same_run(const struct result *r, const struct result *want)
{
    assert_int_equal(r->st.cycles, want->st.cycles);
    assert_int_equal(r->st.warp_insns, want->st.warp_insns);
    assert_memory_equal(r->st.t.sched_cycles, want->st.t.sched_cycles,
                        sizeof r->st.t.sched_cycles);
    assert_string_equal(r->msg, want->msg);
}

/* The entry of mech's run, as a path. */
static const char *entry_of(const struct opts *o, const char *mech)
{
    static char path[2][256];
    static unsigned i;
    struct cache_key k;
    assert_int_equal(cache_key(o, mech_find(mech), bench_find("vecadd"), &k), 0);
    i ^= 1;
    snprintf(path[i], sizeof path[i], "%s/%s", o->cache, k.hex);
    cache_key_free(&k);
    return path[i];
}

/* One corrupted entry through mech_run: a miss with one warning line holding `why`, the
   reference run's numbers (run again, not read), and the entry rewritten so that the next
   run is read from it. */
static void rerun_is_right(const struct opts *o, const char *mech, const struct result *want,
                           const char *why, unsigned nlines)
{
    struct result r;
    char *err;
    page_run(o, mech, &r, &err);
    assert_int_equal(r.cached, 0);
    assert_same_run(&r, want);
    tu_assert_contains(err, why);
    tu_assert_contains(err, "; running it again\n");
    assert_int_equal(lines(err), nlines);
    free(err);
    result_free(&r);
    page_run(o, mech, &r, NULL);
    assert_int_equal(r.cached, 1);
    assert_same_run(&r, want);
    result_free(&r);
}

/* --cache none means no cache to every command: the reports that hand o->cache to mech_run
   (report vt, vtw) made a directory named "none" in the working directory and cached there. */
static void test_cache_none(void **state)
{
    struct opts o = opts();
    struct result r;
    (void)state;
    assert_true(access("none", F_OK) != 0);
    o.cache = "none";
    page_run(&o, "base", &r, NULL);
    assert_int_equal(r.cached, 0);
    result_free(&r);
    assert_true(access("none", F_OK) != 0);
}

static void test_page_never_shows_a_corrupted_number(void **state)
{
    struct opts o = opts();
    struct result base, vtw, r;
    char *e, *e2;
    size_t len, len2;
    (void)state;
    o.cache = DIR_ "/page";
    page_run(&o, "base", &base, NULL);
    page_run(&o, "vtw", &vtw, NULL);
    assert_int_equal(base.cached | vtw.cached, 0);
    assert_int_not_equal(base.st.cycles, vtw.st.cycles);   /* a swap would show */
    page_run(&o, "base", &r, NULL);
    assert_int_equal(r.cached, 1);
    assert_same_run(&r, &base);
    result_free(&r);
    e = slurp(entry_of(&o, "base"), &len);
    e2 = slurp(entry_of(&o, "vtw"), &len2);
    /* the cycles changed */
    {
        char *w = malloc(len), *at;
        uint64_t cyc;
        memcpy(w, e, len);
        at = strchr((char *)memmem(w, len, "\nstats ", 7) + 1, '\n') + 1 +
             offsetof(struct gs_stats, cycles);
        memcpy(&cyc, at, sizeof cyc);
        assert_int_equal(cyc, base.st.cycles);
        cyc += 1000;
        memcpy(at, &cyc, sizeof cyc);
        spit(entry_of(&o, "base"), w, len);
        free(w);
    }
    rerun_is_right(&o, "base", &base, "checksum mismatch", 1);
    /* swapped entries */
    spit(entry_of(&o, "base"), e2, len2);
    spit(entry_of(&o, "vtw"), e, len);
    rerun_is_right(&o, "base", &base, "made for another key", 1);
    rerun_is_right(&o, "vtw", &vtw, "made for another key", 1);
    /* an invalid result word, checksum made right */
    {
        size_t n;
        char *w = edit(e, len, "result ok\n", "result WRONG\n", 1, &n);
        spit(entry_of(&o, "base"), w, n);
        free(w);
    }
    rerun_is_right(&o, "base", &base, "does not match its message", 1);
    /* truncated */
    spit(entry_of(&o, "base"), e, len - 100);
    rerun_is_right(&o, "base", &base, "truncated", 1);
    /* a FIFO (replaced by the run's entry), a directory (which stays: two lines) */
    assert_int_equal(unlink(entry_of(&o, "base")), 0);
    assert_int_equal(mkfifo(entry_of(&o, "base"), 0666), 0);
    rerun_is_right(&o, "base", &base, "a FIFO, not a regular file", 1);
    assert_int_equal(unlink(entry_of(&o, "base")), 0);
    assert_int_equal(mkdir(entry_of(&o, "base"), 0777), 0);
    free(e);
    free(e2);
    page_run(&o, "base", &r, &e);
    assert_int_equal(r.cached, 0);
    assert_same_run(&r, &base);
    tu_assert_contains(e, "a directory, not a regular file; running it again\n");
    tu_assert_contains(e, "gpusim: could not write the result cache entry ");
    assert_int_equal(lines(e), 2);
    free(e);
    result_free(&r);
    result_free(&base);
    result_free(&vtw);
}

/* A register record changed after a run (make ptx-res with another ptxas): the page's next
   run is made again, with the new record's numbers, not the old ones from the cache. */
static void test_page_sees_a_changed_record(void **state)
{
    struct opts o = opts();
    struct result r, fresh;
    (void)state;
    sh("rm -rf " BENCH_ " && mkdir -p " BENCH_ " && cp -r bench/vecadd " BENCH_ "/");
    o.bench_dir = BENCH_;
    o.cache = DIR_ "/page";
    page_run(&o, "base", &r, NULL);
    result_free(&r);
    sh("sed -i 's/vecadd 12/vecadd 60/' " BENCH_ "/vecadd/kernel.res");
    page_run(&o, "base", &r, NULL);
    assert_int_equal(r.cached, 0);
    o.cache = NULL;
    page_run(&o, "base", &fresh, NULL);
    assert_same_run(&r, &fresh);
    tu_assert_contains(r.regs, "60");
    result_free(&r);
    result_free(&fresh);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_key_covers_every_input, setup),
        cmocka_unit_test_setup(test_key_hook, setup),
        cmocka_unit_test_setup(test_round_trip, setup),
        cmocka_unit_test_setup(test_every_byte_and_length, setup),
        cmocka_unit_test_setup(test_corrupted_entries, setup),
        cmocka_unit_test_setup(test_concurrent_writers, setup),
        cmocka_unit_test_setup(test_cache_none, setup),
        cmocka_unit_test_setup(test_page_never_shows_a_corrupted_number, setup),
        cmocka_unit_test_setup(test_page_sees_a_changed_record, setup),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
