/*
 * ptx_res_cache.c -- ptxas's answers kept between runs, and register records found by the
 * hash of the PTX they belong to (see ptx_res.h; docs/ptx.md "Register counts").
 *
 * Not a hardware block. A PTX given as text (a CUDA program's fatbinary: cuda/) has no record
 * beside it, so each load would run ptxas. Its answer is kept in the user's cache directory
 * as a record file named by the FNV-1a of the PTX text and of the ptxas version line, so the
 * next load with the same ptxas reads it instead; where ptxas is absent, a directory of
 * records is searched for one carrying the text's hash.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ptx_res.h"

int ptx_res_cache_dir(char *buf, size_t n)
{
    const char *env = getenv("GPUSIM_PTXAS_CACHE"), *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int k;
    if (env && env[0])
        k = strcmp(env, "off") ? snprintf(buf, n, "%s", env) : -1;
    else if (xdg && xdg[0])
        k = snprintf(buf, n, "%s/gpusim/ptxas", xdg);
    else if (home && home[0])
        k = snprintf(buf, n, "%s/.cache/gpusim/ptxas", home);
    else
        k = -1;
    if (k < 0 || (size_t)k >= n) {
        if (n)
            buf[0] = 0;
        return -1;
    }
    return 0;
}

/* The entry's path: DIR/PTXHASH-VERSIONHASH.res. */
static int entry_path(uint64_t ptx_hash, const char *version, char *path, size_t n)
{
    char dir[768];
    int k;
    if (ptx_res_cache_dir(dir, sizeof dir))
        return -1;
    k = snprintf(path, n, "%s/%016llx-%016llx.res", dir, (unsigned long long)ptx_hash,
                 (unsigned long long)ptx_res_hash(version, strlen(version)));
    return k < 0 || (size_t)k >= n ? -1 : 0;
}

int ptx_res_cache_get(uint64_t ptx_hash, const char *version, struct ptx_res *r, char *path,
                      size_t n)
{
    char err[256];
    if (entry_path(ptx_hash, version, path, n))
        return 1;
    if (ptx_res_read(path, r, err, sizeof err) != 0 || r->ptx_hash != ptx_hash ||
        strcmp(r->tool, version))
        return 1;                        /* absent, unreadable or not this text's: ptxas runs */
    return 0;
}

/* mkdir -p of path's directory part. */
static int make_dirs(const char *path)
{
    char d[1024];
    size_t i, n = strlen(path);
    if (n >= sizeof d)
        return -1;
    memcpy(d, path, n + 1);
    for (i = 1; i < n; i++) {
        if (d[i] != '/')
            continue;
        d[i] = 0;
        if (mkdir(d, 0777) && errno != EEXIST)
            return -1;
        d[i] = '/';
    }
    return 0;
}

int ptx_res_cache_put(const struct ptx_res *r, const char *version, char *path, size_t n)
{
    char tmp[1100];
    FILE *f;
    int ok;
    if (entry_path(r->ptx_hash, version, path, n) || make_dirs(path))
        return -1;
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    if (!(f = fopen(tmp, "w")))
        return -1;
    ptx_res_write(r, "a PTX text (gpusim's ptxas cache)", f);
    ok = !ferror(f);
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path)) {      /* a reader sees the whole entry or none */
        unlink(tmp);
        return -1;
    }
    return 0;
}

static int is_res_name(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && !strcmp(name + n - 4, ".res") && !(n > 8 && !strcmp(name + n - 8, ".vtw.res"));
}

int ptx_res_find_record(const char *dir, uint64_t ptx_hash, struct ptx_res *r, char *path,
                        size_t n)
{
    DIR *d = dir && dir[0] ? opendir(dir) : NULL;
    struct dirent *de;
    char best[1024] = "", err[256], p[1024];
    if (!d)
        return 1;
    while ((de = readdir(d)) != NULL) {   /* the first name in byte order wins: deterministic */
        if (!is_res_name(de->d_name) || (best[0] && strcmp(de->d_name, best) >= 0))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        if (ptx_res_read(p, r, err, sizeof err) == 0 && r->ptx_hash == ptx_hash)
            snprintf(best, sizeof best, "%s", de->d_name);
    }
    closedir(d);
    if (!best[0])
        return 1;
    snprintf(path, n, "%s/%s", dir, best);
    return ptx_res_read(path, r, err, sizeof err) == 0 ? 0 : 1;
}
