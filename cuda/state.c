/*
 * state.c -- the runtime library's state: the one GPU of the process, made from the
 * environment at the first call that needs it; the last and the sticky error; the messages
 * printed once; the simulated time (rt.h).
 *
 * Environment (docs/cuda.md "Environment"): GPUSIM_CONFIG (a configuration file; unset: the
 * built-in gtx480 values), GPUSIM_SET (KEY=VALUE settings separated by newlines or ';'),
 * GPUSIM_RES_DIR (register records for the program's PTX; unset: the program's directory),
 * and those of stats.c, printf.c and register.c. A configuration that does not load is
 * reported once and every call that needs the GPU returns cudaErrorInitializationError.
 */
#define _GNU_SOURCE                   /* PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"

#define RT_MAX_SETS 64

static struct {
    struct gs_gpu *gpu;
    int init_failed;             /* the GPU could not be made: every call says so */
    int hooked;                  /* the exit hook is registered */
    cudaError_t last, sticky;
    uint64_t cycles;             /* simulated cycles of every launch so far */
    char **once;                 /* the keys rt_once has printed */
    unsigned nonce;
} rt;

static pthread_mutex_t rt_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

void rt_lock(void)
{
    pthread_mutex_lock(&rt_mutex);
}

void rt_unlock(void)
{
    pthread_mutex_unlock(&rt_mutex);
}

cudaError_t rt_done(cudaError_t e)
{
    if (e != cudaSuccess)
        rt.last = e;
    rt_unlock();
    return e;
}

cudaError_t rt_last_error(int reset)
{
    cudaError_t e = rt.sticky ? rt.sticky : rt.last;
    if (reset)
        rt.last = cudaSuccess;
    return e;
}

void rt_set_sticky(cudaError_t e)
{
    rt.sticky = e;
}

static int seen(const char *key)
{
    char **grown;
    for (unsigned i = 0; i < rt.nonce; i++)
        if (!strcmp(rt.once[i], key))
            return 1;
    if ((grown = realloc(rt.once, (rt.nonce + 1) * sizeof *grown)) != NULL) {
        rt.once = grown;
        if ((rt.once[rt.nonce] = strdup(key)) != NULL)
            rt.nonce++;
    }
    return 0;
}

void rt_once(const char *key, const char *fmt, ...)
{
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (seen(key ? key : msg))
        return;
    fprintf(stderr, "gpusim: %s\n", msg);
    fflush(stderr);
}

uint64_t rt_cycles(void)
{
    return rt.cycles;
}

void rt_add_cycles(uint64_t c)
{
    rt.cycles += c;
}

/* GPUSIM_SET's settings, split at newlines and ';' (blanks around each trimmed) into buf. */
static int split_sets(char *buf, const char **sets, int max)
{
    int n = 0;
    for (char *p = strtok(buf, ";\n"); p; p = strtok(NULL, ";\n")) {
        char *e;
        p += strspn(p, " \t\r");
        e = p + strlen(p);
        while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            *--e = 0;
        if (*p && n < max)
            sets[n++] = p;
        else if (*p)
            return -1;
    }
    return n;
}

/* The directory register records are looked for in: GPUSIM_RES_DIR, else the program's. */
static void res_dir(char *dir, size_t n)
{
    const char *env = getenv("GPUSIM_RES_DIR");
    ssize_t k;
    char *slash;
    if (env) {
        snprintf(dir, n, "%s", env);
        return;
    }
    k = readlink("/proc/self/exe", dir, n - 1);
    dir[k > 0 ? k : 0] = 0;
    if ((slash = strrchr(dir, '/')) != NULL)
        *slash = 0;
}

static void at_exit(void)
{
    rt_lock();
    rt_stats_close();
    rt_printf_close();
    rt_unlock();
}

/* gs_init from the environment: the GPU, or NULL with the message in err. */
static struct gs_gpu *make_gpu(char *err, size_t errlen)
{
    const char *cfg = getenv("GPUSIM_CONFIG"), *env = getenv("GPUSIM_SET"), *sets[RT_MAX_SETS];
    char *buf = strdup(env ? env : ""), dir[1024];
    struct gs_gpu *g = NULL;
    int n = buf ? split_sets(buf, sets, RT_MAX_SETS) : -1;
    if (n < 0)
        snprintf(err, errlen, "GPUSIM_SET: %s", buf ? "more than 64 settings" : "out of memory");
    else if (gs_init(&g, cfg && cfg[0] ? cfg : NULL, sets, n, err, errlen) == GS_OK) {
        res_dir(dir, sizeof dir);
        if (gs_set_res_dir(g, dir) || rt_stats_open(g, err, errlen) ||
            rt_printf_attach(g, err, errlen)) {
            if (!err[0])
                snprintf(err, errlen, "%s", gs_last_error(g));
            gs_destroy(g);
            g = NULL;
        }
    }
    free(buf);
    return g;
}

struct gs_gpu *rt_gpu(cudaError_t *e)
{
    char err[2048] = "";
    if (rt.sticky) {
        *e = rt.sticky;
        return NULL;
    }
    if (rt.gpu || rt.init_failed) {
        *e = rt.gpu ? cudaSuccess : cudaErrorInitializationError;
        return rt.gpu;
    }
    if (!(rt.gpu = make_gpu(err, sizeof err))) {
        rt.init_failed = 1;
        rt_once("init", "cannot start the model: %s", err);
        *e = cudaErrorInitializationError;
        return NULL;
    }
    if (!rt.hooked) {
        atexit(at_exit);
        rt.hooked = 1;
    }
    rt_load_modules(rt.gpu);
    *e = cudaSuccess;
    return rt.gpu;
}

struct gs_gpu *rt_gpu_if_made(void)
{
    return rt.gpu;
}

const struct gpu_config *rt_config(void)
{
    return rt.gpu ? gs_config(rt.gpu) : NULL;
}

void rt_reset(void)
{
    rt_unload_modules();
    gs_destroy(rt.gpu);
    rt.gpu = NULL;
    rt.sticky = rt.last = cudaSuccess;
}
