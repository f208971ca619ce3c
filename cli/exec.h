/*
 * exec.h -- gpusim exec: run an unmodified CUDA program (compiled with nvcc -cudart shared)
 * on the model, through the CUDA runtime library build/cuda/libcudart.so.13 (cuda/,
 * docs/cuda.md). The pieces are separate so that other commands can run a program more than
 * once (under two configurations, say) with its output captured.
 */
#ifndef CLI_EXEC_H
#define CLI_EXEC_H
#include <stddef.h>

#define EXEC_MAX_SETS 64

/* What gpusim exec's options say; NULL / 0: not given (the environment's value stays). */
struct exec_opts {
    const char *config, *json, *launches, *summary, *ptx;
    const char *sets[EXEC_MAX_SETS];
    int nsets;
    int check;                             /* --check (exec_check.c) */
    const char *ignore[EXEC_MAX_SETS];     /* --ignore REGEX, for --check */
    int nignore;
    const char *apps, *app;                /* --apps FILE --app NAME (exec_app.c) */
};

/* An application of an applications file as gpusim exec runs it (exec_app.c). */
struct exec_app {
    struct apps *as;
    const struct app *a;
    char *argv[64 + 1];                    /* its command line, argv[0] resolved */
    char *keep[5];                         /* the option paths made absolute */
};
/* Load o->apps, find o->app, make o's paths absolute, add the application's ignore lines to
   o's, and enter its directory: 0, or -1 with the message in err (exec_app_free either way). */
int exec_app_prepare(struct exec_opts *o, struct exec_app *x, char *err, size_t errlen);
void exec_app_free(struct exec_app *x);

/* Parse gpusim exec's options from argv[*i] on, up to and past "--" (or up to the first
   argument that is not an option): 0 with *i at the program, or -1 with the message in err. */
int exec_parse(int argc, char **argv, int *i, struct exec_opts *o, char *err, size_t errlen);
/* Check the configuration the options give (the file and every --set, as gpusim run does):
   0, or -1 with the model's message in err. */
int exec_check(const struct exec_opts *o, char *err, size_t errlen);
/* The directory of the library: build/cuda beside the running gpusim (/proc/self/exe is
   build/gpusim). 0 with it in dir, or -1 with the message in err when the library is not
   there. */
int exec_libdir(char *dir, size_t n, char *err, size_t errlen);
/* Set this process's environment for the program: GPUSIM_CONFIG, GPUSIM_SET (the settings
   joined by newlines), GPUSIM_JSON, GPUSIM_LAUNCHES, GPUSIM_SUMMARY, GPUSIM_PTX as given, and
   libdir first on LD_LIBRARY_PATH. 0, or -1 when the environment cannot be set. */
int exec_env(const struct exec_opts *o, const char *libdir);
/* Run argv[0] (searched on PATH) with argv, its stdout to out_fd and stderr to err_fd (-1:
   this process's), and wait for it: its exit status, 128 + N when signal N ended it, 127
   when it could not be started (the reason on err_fd). */
int exec_program(char *const argv[], int out_fd, int err_fd);
/* The same with its stdin from in_fd too (-1: this process's). */
int exec_program_io(char *const argv[], int in_fd, int out_fd, int err_fd);
/* gpusim exec --check: run argv under the functional and under the timing model (o's
   configuration otherwise; libdir the library's directory) and compare their stdout, stderr
   and exit status, the lines matching an --ignore regex dropped: 0 the same (a one-line
   verdict on stdout), 1 a difference (which stream, the first differing line of each, on
   stdout), 2 a bad regex or a run that could not be set up, 127 a program that could not
   be started (the message on stderr). */
int exec_check_program(const struct exec_opts *o, const char *libdir, char *const argv[]);

/* gpusim exec [options] -- PROGRAM [ARGS...]: argv[1] is "exec". The program's exit status,
   or 2 for a usage or configuration error. */
int cmd_exec(int argc, char **argv);

#endif
