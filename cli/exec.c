/*
 * exec.c -- gpusim exec: an unmodified CUDA program on the model (exec.h, docs/cuda.md).
 *
 *   gpusim exec [--config FILE] [--set KEY=VALUE]... [--json FILE] [--launches CSV]
 *               [--summary FILE] [--ptx FILE] [--check [--ignore REGEX]...]
 *               -- PROGRAM [ARGS...]
 *   gpusim exec [options] --apps FILE --app NAME   (exec_app.c)
 *
 * The configuration is checked first (an unknown key or a bad value is exit 2 with the
 * model's message, as for gpusim run); then the options become the runtime library's
 * environment, build/cuda (the library, beside this gpusim) goes first on LD_LIBRARY_PATH,
 * and the program runs with its own stdin, stdout and stderr. Its exit status is gpusim's.
 * --check runs it twice and compares (exec_check.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "exec.h"
#include "gpu/gpusim.h"

#define LIBNAME "libcudart.so.13"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: gpusim exec [--config FILE] [--set KEY=VALUE]... [--json FILE] [--launches CSV]\n"
        "                   [--summary FILE|stdout|stderr|off] [--ptx FILE[:FILE...]]\n"
        "                   [--check [--ignore REGEX]...] -- PROGRAM [ARGS...]\n"
        "       gpusim exec [options] --apps FILE --app NAME   (an application of an\n"
        "                   applications file, docs/apps.md: its command line, in its directory)\n"
        "Runs a CUDA program compiled with nvcc -cudart shared on the model: its kernels on the\n"
        "configuration (default gtx480) and --set's settings, every mechanism included\n"
        "(--set vt=on, --set dws=revive, --set vtw=hw --set sched_policy=vtw, --set\n"
        "model=functional). Per-launch statistics: --json FILE (a JSON array), --launches FILE\n"
        "(CSV); a line per launch and the total go to --summary (default stderr). --ptx runs\n"
        "these PTX files instead of the program's own. The exit status is the program's (2: a\n"
        "usage or configuration error here). --check runs the program under the functional\n"
        "and the timing model and compares stdout, stderr and exit status (lines matching an\n"
        "--ignore extended regex dropped): exit 0 the same, 1 a difference (a wrong result).\n"
        "docs/cuda.md has the details.\n");
}

static int need(int argc, char **argv, int i, char *err, size_t errlen)
{
    if (i + 1 < argc)
        return 0;
    snprintf(err, errlen, "%s needs a value", argv[i]);
    return -1;
}

/* One option at argv[*i] (moved past its value): 0, 1 when it is not an option, -1 error. */
static int one_opt(int argc, char **argv, int *i, struct exec_opts *o, char *err,
                   size_t errlen)
{
    const char *a = argv[*i];
    const char **slot = !strcmp(a, "--config") ? &o->config : !strcmp(a, "--json") ? &o->json :
                        !strcmp(a, "--launches") ? &o->launches :
                        !strcmp(a, "--summary") ? &o->summary : !strcmp(a, "--ptx") ? &o->ptx :
                        !strcmp(a, "--apps") ? &o->apps : !strcmp(a, "--app") ? &o->app : NULL;
    int ign = !strcmp(a, "--ignore");
    if (!strcmp(a, "--check")) {
        o->check = 1;
        return 0;
    }
    if (slot || ign || !strcmp(a, "--set")) {
        if (need(argc, argv, *i, err, errlen))
            return -1;
        if (slot) {
            *slot = argv[++*i];
            return 0;
        }
        if ((ign ? o->nignore : o->nsets) == EXEC_MAX_SETS) {
            snprintf(err, errlen, "more than %d %s options", EXEC_MAX_SETS, a);
            return -1;
        }
        if (ign)
            o->ignore[o->nignore++] = argv[++*i];
        else
            o->sets[o->nsets++] = argv[++*i];
        return 0;
    }
    if (a[0] == '-') {
        snprintf(err, errlen, "unknown option '%s'", a);
        return -1;
    }
    return 1;
}

int exec_parse(int argc, char **argv, int *i, struct exec_opts *o, char *err, size_t errlen)
{
    int rc;
    memset(o, 0, sizeof *o);
    for (; *i < argc; ++*i) {
        if (!strcmp(argv[*i], "--")) {
            ++*i;
            break;
        }
        if ((rc = one_opt(argc, argv, i, o, err, errlen)) < 0)
            return -1;
        if (rc > 0)
            break;
    }
    if (!o->apps != !o->app) {
        snprintf(err, errlen, "--apps FILE and --app NAME go together");
        return -1;
    }
    if (o->app && *i < argc) {
        snprintf(err, errlen, "give --app NAME or -- PROGRAM, not both");
        return -1;
    }
    if (*i >= argc && !o->app) {
        snprintf(err, errlen, "no program given (gpusim exec [options] -- PROGRAM [ARGS...])");
        return -1;
    }
    return 0;
}

int exec_check(const struct exec_opts *o, char *err, size_t errlen)
{
    struct gs_gpu *g;
    if (gs_init(&g, o->config, o->sets, o->nsets, err, errlen) != GS_OK)
        return -1;
    gs_destroy(g);
    return 0;
}

int exec_libdir(char *dir, size_t n, char *err, size_t errlen)
{
    char exe[1024], path[1200], *slash;
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k <= 0) {
        snprintf(err, errlen, "cannot find this gpusim (/proc/self/exe)");
        return -1;
    }
    exe[k] = 0;
    if ((slash = strrchr(exe, '/')) != NULL)
        *slash = 0;
    snprintf(path, sizeof path, "%s/cuda/" LIBNAME, exe);
    if (access(path, R_OK)) {
        snprintf(err, errlen, "%s is not there: build it with make (mk/cuda.mk)", path);
        return -1;
    }
    snprintf(dir, n, "%s/cuda", exe);
    return 0;
}

/* The --set settings joined by newlines (malloc'd). */
static char *join_sets(const struct exec_opts *o)
{
    size_t len = 1;
    char *s;
    for (int i = 0; i < o->nsets; i++)
        len += strlen(o->sets[i]) + 1;
    if (!(s = malloc(len)))
        return NULL;
    s[0] = 0;
    for (int i = 0; i < o->nsets; i++) {
        strcat(s, o->sets[i]);
        strcat(s, "\n");
    }
    return s;
}

static int set_if(const char *var, const char *value)
{
    return value ? setenv(var, value, 1) : 0;
}

int exec_env(const struct exec_opts *o, const char *libdir)
{
    const char *old = getenv("LD_LIBRARY_PATH");
    char *sets = join_sets(o), *path = malloc(strlen(libdir) + (old ? strlen(old) : 0) + 2);
    int rc = sets && path ? 0 : -1;
    if (!rc) {
        sprintf(path, "%s%s%s", libdir, old && old[0] ? ":" : "", old ? old : "");
        rc = setenv("LD_LIBRARY_PATH", path, 1) | set_if("GPUSIM_CONFIG", o->config) |
             (o->nsets ? setenv("GPUSIM_SET", sets, 1) : 0) | set_if("GPUSIM_JSON", o->json) |
             set_if("GPUSIM_LAUNCHES", o->launches) | set_if("GPUSIM_SUMMARY", o->summary) |
             set_if("GPUSIM_PTX", o->ptx);
    }
    free(sets);
    free(path);
    return rc ? -1 : 0;
}

int exec_program(char *const argv[], int out_fd, int err_fd)
{
    return exec_program_io(argv, -1, out_fd, err_fd);
}

int exec_program_io(char *const argv[], int in_fd, int out_fd, int err_fd)
{
    int status;
    pid_t pid;
    fflush(NULL);
    if ((pid = fork()) < 0)
        return 127;
    if (pid == 0) {
        if (in_fd >= 0)
            dup2(in_fd, 0);
        if (out_fd >= 0)
            dup2(out_fd, 1);
        if (err_fd >= 0)
            dup2(err_fd, 2);
        execvp(argv[0], argv);
        fprintf(stderr, "gpusim exec: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return 127;
    return WIFEXITED(status) ? WEXITSTATUS(status) :
           WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 127;
}

/* The program run: argv's, or the application's (--apps/--app; x freed by the caller). */
static int program(struct exec_opts *o, struct exec_app *x, char **argv, char ***prog)
{
    char err[2048];
    *prog = argv;
    memset(x, 0, sizeof *x);
    if (!o->app)
        return 0;
    if (exec_app_prepare(o, x, err, sizeof err)) {
        fprintf(stderr, "gpusim exec: %s\n", err);
        return -1;
    }
    *prog = x->argv;
    return 0;
}

static int run(struct exec_opts *o, const char *dir, char **prog)
{
    if (o->check)
        return exec_check_program(o, dir, prog);
    if (exec_env(o, dir)) {
        fprintf(stderr, "gpusim exec: cannot set the program's environment\n");
        return 2;
    }
    return exec_program(prog, -1, -1);
}

int cmd_exec(int argc, char **argv)
{
    struct exec_opts o;
    struct exec_app x;
    char err[2048], dir[1100], **prog;
    int i = 2, rc;
    if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
        usage(stdout);
        return 0;
    }
    if (exec_parse(argc, argv, &i, &o, err, sizeof err)) {
        fprintf(stderr, "gpusim exec: %s\n", err);
        usage(stderr);
        return 2;
    }
    if (exec_check(&o, err, sizeof err) || exec_libdir(dir, sizeof dir, err, sizeof err)) {
        fprintf(stderr, "gpusim exec: %s\n", err);
        return 2;
    }
    if (o.nignore && !o.check) {
        fprintf(stderr, "gpusim exec: --ignore is for --check\n");
        return 2;
    }
    if (program(&o, &x, argv + i, &prog)) {
        exec_app_free(&x);
        return 2;
    }
    rc = run(&o, dir, prog);
    exec_app_free(&x);
    return rc;
}
