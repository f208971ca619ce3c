/*
 * app.h -- applications as workloads (cli/app.c, docs/apps.md): a user's programs, compiled
 * with nvcc -cudart shared, run through the runtime library (build/cuda, cuda/) under a
 * configuration and a mechanism, their statistics summed over their launches, their result
 * checked by their exit status and by their output (stdout, stderr, exit status) being the
 * baseline's.
 *
 * An applications file, a line per item ('#' starts a comment line; leading blanks are
 * ignored; words are separated by blanks):
 *   app NAME             a new application (letters, digits, '_', '-', '.'; at most 63)
 *   run PROGRAM ARGS...  its command line (required; PROGRAM with a '/' is relative to dir,
 *                        else searched on PATH)
 *   dir DIR              its working directory (default: the file's own; relative to it)
 *   input FILE           a file it reads (relative to dir): its bytes are in the cache key
 *   ignore REGEX         lines (of stdout and stderr) that may differ between runs, such as
 *                        wall times (POSIX extended; the rest of the line)
 */
#ifndef APP_H
#define APP_H
#include <regex.h>
#include "mech.h"

#define APP_MAX_ARGS 64
#define APP_MAX_INPUTS 16
#define APP_MAX_IGNORES 8
#define APP_MAX 64                     /* applications in a file */
#define APP_NAME_MAX 64
#define APP_TOP 3                      /* kernels named per application (most cycles first) */

struct app {
    char name[APP_NAME_MAX];
    char *dir;                         /* absolute */
    char *argv[APP_MAX_ARGS + 1];      /* argv[0] as written; NULL-terminated */
    char *prog;                        /* argv[0] resolved: the file run and hashed */
    char *inputs[APP_MAX_INPUTS];      /* absolute */
    unsigned ninputs;
    char *ignore_src[APP_MAX_IGNORES];
    regex_t ignore[APP_MAX_IGNORES];
    unsigned nignores;
    unsigned line;                     /* where its "app" line is */
};

struct apps {
    struct app a[APP_MAX];
    unsigned n;
};

/* Read an applications file: 0, or -1 with "FILE:LINE: why" in err (nothing to free then). */
int apps_load(const char *path, struct apps *as, char *err, size_t errlen);
void apps_free(struct apps *as);

/* Run application a under mechanism m and o's configuration, its result into r (result_free
   releases it): rc 0 when it exited with status 0, 1 when not (msg: the status and the end of
   its stderr), MECH_NA for a regrouping (bench kernels only), 2 when it could not be run or
   its statistics could not be read. r->app holds "out DIGEST" (stdout, stderr and exit status,
   the ignored lines left out) and a line "kernel CYCLES NAME" for each of the APP_TOP kernels
   with most cycles. Cached in o->cache like a kernel's run (cache.h: the binary, arguments,
   named inputs, ignores and the runtime library are in the key). */
void app_run(const struct opts *o, const struct mech *m, const struct app *a,
             struct result *r);
/* The output digest in r->app ("" if none). */
void app_out_digest(const struct result *r, char *buf, size_t n);

#endif
