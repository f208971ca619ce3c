/*
 * exec_app.c -- gpusim exec --apps FILE --app NAME: an application of an applications file
 * (docs/apps.md, cli/app.h) run as gpusim exec runs a program -- its command line, in its
 * directory, its ignore lines added to --check's. The paths the options name (--config,
 * --json, --launches, --summary, --ptx) are made absolute first, so that they mean what they
 * meant where gpusim was started.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "app.h"
#include "exec.h"

/* p made absolute against the working directory (malloc'd into *keep), or p itself when it
   is absolute, a keyword (stdout, stderr, off) or NULL; -1 out of memory. */
static int absolute(const char **p, char **keep, const char *cwd)
{
    if (!*p || (*p)[0] == '/' || !strcmp(*p, "stdout") || !strcmp(*p, "stderr") ||
        !strcmp(*p, "off") || strchr(*p, ':'))
        return 0;
    if (!(*keep = malloc(strlen(cwd) + strlen(*p) + 2)))
        return -1;
    sprintf(*keep, "%s/%s", cwd, *p);
    *p = *keep;
    return 0;
}

int exec_app_prepare(struct exec_opts *o, struct exec_app *x, char *err, size_t errlen)
{
    const char **paths[] = {&o->config, &o->json, &o->launches, &o->summary, &o->ptx};
    char cwd[PATH_MAX];
    memset(x, 0, sizeof *x);
    if (!(x->as = malloc(sizeof *x->as)) || !getcwd(cwd, sizeof cwd)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (apps_load(o->apps, x->as, err, errlen))
        return -1;
    for (unsigned i = 0; i < x->as->n && !x->a; i++)
        if (!strcmp(x->as->a[i].name, o->app))
            x->a = &x->as->a[i];
    if (!x->a) {
        snprintf(err, errlen, "--app: no application '%s' in %s", o->app, o->apps);
        return -1;
    }
    for (unsigned i = 0; i < sizeof paths / sizeof *paths; i++)
        if (absolute(paths[i], &x->keep[i], cwd)) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    for (unsigned i = 0; i < x->a->nignores && o->nignore < EXEC_MAX_SETS; i++)
        o->ignore[o->nignore++] = x->a->ignore_src[i];
    for (unsigned i = 0; x->a->argv[i]; i++)
        x->argv[i] = x->a->argv[i];
    x->argv[0] = x->a->prog;
    if (chdir(x->a->dir)) {
        snprintf(err, errlen, "cannot enter %s", x->a->dir);
        return -1;
    }
    return 0;
}

void exec_app_free(struct exec_app *x)
{
    for (unsigned i = 0; i < sizeof x->keep / sizeof *x->keep; i++)
        free(x->keep[i]);
    if (x->as)
        apps_free(x->as);
    free(x->as);
    memset(x, 0, sizeof *x);
}
