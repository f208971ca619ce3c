/*
 * select.c -- `--kernels a,b,c`: the bench kernels a command runs (gpusim suite, every report).
 * One parser for all of them (and list_next for every comma-separated value, report page's
 * --mechs too), so that every command refuses the same lists the same way: an unknown name, a
 * name given twice, or an empty element (a leading, trailing or doubled comma, an empty list)
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

int list_next(const char *list, const char **p, char *name, size_t n, char *err,
              size_t errlen)
{
    size_t len = strcspn(*p, ",");
    if (!**p && *p != list)
        return 0;                     /* past the last name (not an empty list) */
    if (!len || ((*p)[len] == ',' && !(*p)[len + 1])) {
        snprintf(err, errlen, "an empty name in '%.200s' (names are separated by single "
                 "commas, without one at either end)", list);
        return -1;
    }
    if (len >= n) {
        snprintf(err, errlen, "a name of %zu characters in '%.100s' (no name is longer than "
                 "%zu)", len, list, n - 1);
        return -1;
    }
    memcpy(name, *p, len);
    name[len] = 0;
    *p += len + ((*p)[len] == ',');
    return 1;
}

/* The kernel `name` as s[*k]; -1 with the message when it is not one. */
static int add_one(const char *name, int extra, const struct bench **s, unsigned *k, char *err,
                   size_t errlen)
{
    const struct bench *b;
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
        char name[64], why[512];
        int rc = list_next(list, &p, name, sizeof name, why, sizeof why);
        if (!rc)
            break;
        if (rc < 0)
            snprintf(err, errlen, "--kernels: %s", why);
        if (rc < 0 || add_one(name, extra, s, &k, err, errlen)) {
            free(s);
            return -1;
        }
    }
    *sel = s;
    *n = k;
    return 0;
}
