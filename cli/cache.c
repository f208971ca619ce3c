/*
 * cache.c -- the result cache (cache.h): keys from the model's binary, the resolved
 * configuration, the kernel's PTX, the size and the mechanism; one file per result.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cache.h"

#define CACHE_MAGIC "gpusim-result-cache 1\n"

/* Two 64-bit FNV-1a hashes with different bases: 128 bits of key. Not cryptographic; the
   cache trusts its own directory. */
struct h128 { uint64_t a, b; };

static void h_bytes(struct h128 *h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        h->a = (h->a ^ c[i]) * 0x100000001b3ULL;
        h->b = (h->b ^ c[i]) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
    }
}

static void h_str(struct h128 *h, const char *s)
{
    h_bytes(h, s, strlen(s) + 1);
}

/* A file's bytes into h; -1 if it cannot be read. */
static int h_file(struct h128 *h, const char *path)
{
    unsigned char buf[65536];
    size_t n;
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        h_bytes(h, buf, n);
    n = ferror(f);
    fclose(f);
    return n ? -1 : 0;
}

/* The executable's hash, once per process. */
static int exe_hash(struct h128 *out)
{
    static struct h128 h;
    static int done;               /* 1 hashed, -1 unreadable */
    if (!done) {
        h = (struct h128){0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL};
        done = h_file(&h, "/proc/self/exe") ? -1 : 1;
    }
    *out = h;
    return done > 0 ? 0 : -1;
}

/* The configuration o resolves to, as `gpusim config` writes it, into h. */
static int h_config(struct h128 *h, const struct opts *o)
{
    struct gs_gpu *g;
    char err[256], *text = NULL;
    size_t len = 0;
    FILE *f;
    if (gs_init(&g, o->config, o->sets, o->nsets, err, sizeof err))
        return -1;
    f = open_memstream(&text, &len);
    if (f) {
        conf_write(gs_config(g), f);
        fclose(f);
        h_bytes(h, text, len);
    }
    free(text);
    gs_destroy(g);
    return f ? 0 : -1;
}

int cache_key(const struct opts *o, const struct mech *m, const struct bench *b, char *key)
{
    struct h128 h;
    struct opts mo;
    char path[1024], num[32];
    if (o->record || o->bbv_out || o->inputs || o->setup || o->layout || exe_hash(&h) ||
        mech_opts(m, o, &mo) || h_config(&h, &mo))
        return -1;
    bench_ptx_path(b, o->bench_dir, path, sizeof path);
    h_str(&h, b->name);
    if (h_file(&h, o->ptx ? o->ptx : path))
        return -1;
    snprintf(num, sizeof num, "size %d regroup %d", (int)o->size, m->regroup);
    h_str(&h, num);
    h_str(&h, m->name);
    snprintf(key, CACHE_KEY_LEN, "%016llx%016llx", (unsigned long long)h.a,
             (unsigned long long)h.b);
    return 0;
}

static void entry_path(const char *dir, const char *key, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", dir, key);
}

/* Fixed part of an entry, then the message's length and bytes. */
struct entry {
    char magic[sizeof CACHE_MAGIC];
    uint32_t stats_bytes;          /* sizeof(struct gs_stats) when written */
    int32_t rc;
    struct gs_stats st;
    char regs[2048], cfg_name[64], lat[512];
    uint32_t msg_len;
};

int cache_get(const char *dir, const char *key, struct result *r)
{
    char path[1200];
    struct entry *e = malloc(sizeof *e);
    FILE *f;
    int hit = 0;
    entry_path(dir, key, path, sizeof path);
    f = e ? fopen(path, "rb") : NULL;
    if (f && fread(e, sizeof *e, 1, f) == 1 && !memcmp(e->magic, CACHE_MAGIC, sizeof e->magic)
        && e->stats_bytes == sizeof e->st && e->msg_len < (1u << 24)) {
        memset(r, 0, sizeof *r);
        r->msg = calloc(1, e->msg_len + 1);
        if (r->msg && fread(r->msg, 1, e->msg_len, f) == e->msg_len) {
            r->rc = e->rc;
            r->st = e->st;
            memcpy(r->regs, e->regs, sizeof r->regs);
            memcpy(r->cfg_name, e->cfg_name, sizeof r->cfg_name);
            memcpy(r->lat, e->lat, sizeof r->lat);
            hit = 1;
        } else
            result_free(r);
    }
    if (f)
        fclose(f);
    free(e);
    return hit;
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

int cache_put(const char *dir, const char *key, const struct result *r)
{
    char path[1200], tmp[1300];
    const char *msg = result_msg(r);
    struct entry *e;
    FILE *f;
    int ok;
    if (r->rc == 2 || mkdir_p(dir) || !(e = calloc(1, sizeof *e)))
        return -1;
    memcpy(e->magic, CACHE_MAGIC, sizeof e->magic);
    e->stats_bytes = sizeof e->st;
    e->rc = r->rc;
    e->st = r->st;
    memcpy(e->regs, r->regs, sizeof e->regs);
    memcpy(e->cfg_name, r->cfg_name, sizeof e->cfg_name);
    memcpy(e->lat, r->lat, sizeof e->lat);
    e->msg_len = (uint32_t)strlen(msg);
    entry_path(dir, key, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    f = fopen(tmp, "wb");
    ok = f && fwrite(e, sizeof *e, 1, f) == 1 && fwrite(msg, 1, e->msg_len, f) == e->msg_len;
    ok = f && !fclose(f) && ok && !rename(tmp, path);
    if (!ok)
        unlink(tmp);
    free(e);
    return ok ? 0 : -1;
}
