/*
 * cache.c -- the result cache (cache.h): a run's key from everything it depends on, and its
 * entry read back (through model/base/infile.h: a regular file only, bounded) or written
 * (a temporary name, then renamed). The key's text and the entry's bytes are cache_entry.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/infile.h"
#include "ptx/ptx_res.h"
#include "ptx/vtwx.h"
#include "cache.h"

#define KEY_FILE_MAX ((size_t)1 << 30)       /* a file hashed into a key: the binary, a PTX */

/* ------------------------------------------------------------------ key files */

/* "name HASH" of len bytes at p. */
static void key_bytes(struct cache_key *k, const char *name, const char *p, size_t len)
{
    char hex[CACHE_KEY_LEN];
    cache_hash(p, len, hex);
    cache_key_add(k, name, hex);
}

/* The file's bytes (malloc'd), or NULL: *absent set when it does not exist; else the key is
   marked bad (the run will say what is wrong with the file). */
static char *key_read(struct cache_key *k, const char *path, size_t *len, int *absent)
{
    struct stat st;
    char err[512], *buf;
    *absent = stat(path, &st) && errno == ENOENT;
    if (*absent)
        return NULL;
    if (!(buf = infile_read(path, "a file of the result cache's key", KEY_FILE_MAX, len, err,
                            sizeof err)))
        k->bad = 1;
    return buf;
}

/* cache_key_file; 1 when the file exists (and was hashed). */
static int key_file(struct cache_key *k, const char *name, const char *path, int optional)
{
    size_t len;
    int absent;
    char *buf = key_read(k, path, &len, &absent);
    if (buf)
        key_bytes(k, name, buf, len);
    else if (absent && optional)
        cache_key_add(k, name, "none");
    else
        k->bad = 1;
    free(buf);
    return buf != NULL;
}

void cache_key_file(struct cache_key *k, const char *name, const char *path, int optional)
{
    key_file(k, name, path, optional);
}

/* ------------------------------------------------------------------ components */

/* The executable's hash, once per process ("" when it cannot be read). */
static const char *exe_hash(void)
{
    static char hex[CACHE_KEY_LEN];
    static int done;
    if (!done) {
        size_t len;
        char err[512], *buf = infile_read("/proc/self/exe", "the gpusim executable",
                                          KEY_FILE_MAX, &len, err, sizeof err);
        if (buf)
            cache_hash(buf, len, hex);
        free(buf);
        done = 1;
    }
    return hex;
}

/* The configuration o resolves to, a line per key as `gpusim config` writes it, into k and
   into *c (when not NULL). */
static void key_config(struct cache_key *k, const struct opts *o, struct gpu_config *c)
{
    struct gs_gpu *g;
    char err[256], *text = NULL, *p, *line;
    size_t len = 0;
    FILE *f;
    if (gs_init(&g, o->config, o->sets, o->nsets, err, sizeof err)) {
        k->bad = 1;
        return;
    }
    if (c)
        *c = *gs_config(g);
    if ((f = open_memstream(&text, &len)) != NULL) {
        conf_write(gs_config(g), f);
        if (fclose(f))
            k->bad = 1;
    }
    gs_destroy(g);
    if (!f || !text)
        k->bad = 1;
    for (p = text; text && (line = infile_line(&p)) != NULL; )
        cache_key_add(k, "config", line);
    free(text);
}

void cache_key_common(struct cache_key *k, const struct opts *o, const struct mech *m,
                      struct gpu_config *c)
{
    struct opts mo;
    char num[64];
    if (!*exe_hash() || mech_opts(m, o, &mo)) {
        k->bad = 1;
        return;
    }
    cache_key_add(k, "binary", exe_hash());
    key_config(k, &mo, c);
    cache_key_add(k, "size", o->size == BENCH_DEFAULT ? "default" : "test");
    snprintf(num, sizeof num, "%d", m->regroup);
    cache_key_add(k, "mechanism", m->name);
    cache_key_add(k, "regroup", num);
}

/* The version line of the ptxas a load would run, once per process ("none found"). */
static const char *ptxas_version(void)
{
    static char v[128];
    if (!v[0] && ptx_res_ptxas_version(v, sizeof v))
        snprintf(v, sizeof v, "none found");
    return v;
}

/* The record at rec is one the load uses for the PTX of hash h: it reads and is not stale
   (kres.c read_record). */
static int record_used(const char *rec, uint64_t h)
{
    struct ptx_res *r = calloc(1, sizeof *r);
    char err[512];
    int used = r && !ptx_res_read(rec, r, err, sizeof err) && r->ptx_hash == h;
    free(r);
    return used;
}

/* Where the registers per thread come from, as kres_load decides it (kres.h): the
   configuration's override, the estimate by choice, the record (its bytes are in the key),
   ptxas at load (its version) or the estimate for want of either. */
static void key_regs(struct cache_key *k, const struct gpu_config *c, const char *rec,
                     int have_rec, uint64_t ptx_hash)
{
    char v[192];
    if (c->regs_per_thread)
        cache_key_add(k, "registers", "override (regs_per_thread)");
    else if (c->regs_source == REGS_ESTIMATE)
        cache_key_add(k, "registers", "estimate (regs_source = estimate)");
    else if (have_rec && record_used(rec, ptx_hash))
        cache_key_add(k, "registers", "recorded");
    else if (c->regs_source == REGS_RECORDED)
        cache_key_add(k, "registers", "estimate (no record in use, regs_source = recorded)");
    else {
        snprintf(v, sizeof v, "ptxas at load or the estimate; ptxas: %s", ptxas_version());
        cache_key_add(k, "registers", v);
    }
}

/* The kernel's part: its name, PTX bytes, records and register source. */
static void key_kernel(struct cache_key *k, const struct opts *o, const struct bench *b,
                       const struct gpu_config *c)
{
    char path[1024], rec[1100], vrec[1100], *ptx;
    const char *p = o->ptx ? o->ptx : path;
    size_t len = 0;
    int absent, have_rec;
    bench_ptx_path(b, o->bench_dir, path, sizeof path);
    cache_key_add(k, "kernel", b->name);
    if (!(ptx = key_read(k, p, &len, &absent))) {
        k->bad = 1;
        return;
    }
    key_bytes(k, "ptx", ptx, len);
    ptx_res_path(p, rec, sizeof rec);
    vtwx_res_path(p, vrec, sizeof vrec);
    have_rec = key_file(k, "record", rec, 1);
    key_file(k, "vtw-record", vrec, 1);
    key_regs(k, c, rec, have_rec, ptx_res_hash(ptx, len));
    free(ptx);
}

int cache_key(const struct opts *o, const struct mech *m, const struct bench *b,
              struct cache_key *k)
{
    struct gpu_config c;
    memset(k, 0, sizeof *k);
    if (o->record || o->bbv_out || o->inputs || o->setup || o->layout)
        return -1;
    cache_key_start(k);
    cache_key_common(k, o, m, &c);
    if (!k->bad)
        key_kernel(k, o, b, &c);
    return cache_key_end(k);
}

/* ------------------------------------------------------------------ entries */

static void entry_path(const char *dir, const char *hex, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", dir, hex);
}

int cache_check(const char *dir, const struct cache_key *k, struct result *r, char *why,
                size_t n)
{
    char path[1200], err[1400], msg[512], *buf;
    struct stat st;
    size_t len;
    int rc;
    entry_path(dir, k->hex, path, sizeof path);
    if (lstat(path, &st) && errno == ENOENT)
        return 0;
    if (!(buf = infile_read(path, "a result cache entry", CACHE_ENTRY_MAX, &len, err,
                            sizeof err))) {
        snprintf(why, n, "%s", err);
        return -1;
    }
    rc = cache_entry_parse(buf, len, k, r, msg, sizeof msg);
    free(buf);
    if (rc) {
        snprintf(why, n, "%s: a result cache entry that is not valid: %s", path, msg);
        return -1;
    }
    return 1;
}

int cache_get(const char *dir, const struct cache_key *k, struct result *r)
{
    char why[2048];
    int rc = cache_check(dir, k, r, why, sizeof why);
    if (rc >= 0)
        return rc;
    for (char *s = why; *s; s++)              /* one line, whatever the path holds */
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = '?';
    fprintf(stderr, "gpusim: %s; running it again\n", why);
    return 0;
}

/* mkdir -p dir; 0 when it exists afterwards. */
static int mkdir_p(const char *dir)
{
    char buf[1024];
    size_t n = strlen(dir);
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, dir, n + 1);
    for (char *s = buf + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(buf, 0777) && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

const char *cache_default(char *buf, size_t n)
{
    const char *env = getenv("GPUSIM_CACHE"), *xdg = getenv("XDG_CACHE_HOME"),
               *home = getenv("HOME");
    if (env && *env)
        snprintf(buf, n, "%s", env);
    else if (xdg && *xdg)
        snprintf(buf, n, "%s/gpusim", xdg);
    else if (home && *home)
        snprintf(buf, n, "%s/.cache/gpusim", home);
    else
        return NULL;
    return buf;
}

/* A new temporary file next to path (its name into tmp): the fd, or -1. */
static int open_tmp(const char *path, char *tmp, size_t n)
{
    static unsigned seq;
    for (unsigned i = 0; i < 64; i++) {
        int fd;
        snprintf(tmp, n, "%s.%ld.%u.tmp", path, (long)getpid(), seq++);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int cache_put(const char *dir, const struct cache_key *k, const struct result *r)
{
    char path[1200], tmp[1300], *buf;
    size_t len;
    int fd, ok, e;
    if (r->rc == 2)
        return 0;
    if (mkdir_p(dir) || !(buf = cache_entry_make(k, r, &len)))
        return -1;
    entry_path(dir, k->hex, path, sizeof path);
    fd = open_tmp(path, tmp, sizeof tmp);
    ok = fd >= 0 && !write_all(fd, buf, len);
    ok = fd >= 0 && !close(fd) && ok && !rename(tmp, path);
    e = errno;
    if (!ok && fd >= 0)
        unlink(tmp);
    free(buf);
    errno = e;
    return ok ? 0 : -1;
}

int cache_on(const char *dir)
{
    return dir && strcmp(dir, "none") != 0;
}
