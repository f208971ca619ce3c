/*
 * select.c -- `--kernels a,b,c`: the bench kernels a command runs (gpusim suite, every report).
 * One parser for all of them, so that every command refuses the same lists the same way: an
 * unknown name, a name given twice, or an empty element (a leading, trailing or doubled comma)
 * is an error naming it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* b is one of the suite's kernels (bench_all), not one outside it (bench_extra). */
static int in_suite(const struct bench *b)
{
    unsigned n;
    const struct bench *const *all = bench_all(&n);
    for (unsigned i = 0; i < n; i++)
        if (all[i] == b)
            return 1;
    return 0;
}

/* The list's element of `len` bytes at p as s[*k]; -1 with the message when it is not one. */
static int add_one(const char *list, const char *p, size_t len, int extra,
                   const struct bench **s, unsigned *k, char *err, size_t errlen)
{
    char name[64];
    const struct bench *b;
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), p);
    if (!len) {
        snprintf(err, errlen, "--kernels: an empty name in '%s' (the form is a,b,c)", list);
        return -1;
    }
    if (!(b = bench_find(name))) {
        snprintf(err, errlen, "--kernels: no kernel '%s' (gpusim list)", name);
        return -1;
    }
    if (!extra && !in_suite(b)) {
        snprintf(err, errlen, "--kernels: '%s' is outside the suite (gpusim list; gpusim "
                 "report regroup runs it)", name);
        return -1;
    }
    for (unsigned i = 0; i < *k; i++)
        if (s[i] == b) {
            snprintf(err, errlen, "--kernels: '%s' twice", name);
            return -1;
        }
    s[(*k)++] = b;
    return 0;
}

int kernels_select(const char *list, int extra, const struct bench ***sel, unsigned *n,
                   char *err, size_t errlen)
{
    const char *p = list;
    const struct bench **s = calloc(strlen(list) / 2 + 2, sizeof *s);
    unsigned k = 0;
    *sel = NULL;
    *n = 0;
    if (!s) {
        snprintf(err, errlen, "--kernels: out of memory");
        return -1;
    }
    for (;;) {
        size_t len = strcspn(p, ",");
        if (add_one(list, p, len, extra, s, &k, err, errlen)) {
            free(s);
            return -1;
        }
        p += len;
        if (!*p++)
            break;
    }
    *sel = s;
    *n = k;
    return 0;
}
