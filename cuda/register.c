/*
 * register.c -- the entry points nvcc's generated code calls before main (__cudaRegister*),
 * and the tables they fill: modules (one per fatbinary, so one per .cu file), kernels by host
 * stub address, variables by host shadow address (rt.h).
 *
 * Each module is loaded on the GPU when the GPU is made (state.c): the newest PTX of its
 * fatbinary whose virtual architecture the model reads (fatbin.c), tried newest first.
 * Environment: GPUSIM_PTX=FILE[:FILE...] loads those PTX files instead of every fatbinary's
 * (kernels and variables are then found by name in the first file that has them);
 * GPUSIM_DUMP_PTX=DIR writes each module's PTX as DIR/module-N.ptx as it is loaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fatbin.h"
#include "rt.h"

#define RT_MAX_MODULES 64            /* the model's GS_MAX_MODULES */

static struct {
    struct rt_module *mods[RT_MAX_MODULES];
    unsigned nmods;
    struct rt_module *ovr[RT_MAX_MODULES];   /* GPUSIM_PTX's files, when set */
    unsigned novr;
    struct rt_kernel **kerns;
    unsigned nkerns;
    struct rt_var **vars;
    unsigned nvars;
} reg;

struct rt_module *rt_module_at(unsigned i)
{
    return i < reg.nmods ? reg.mods[i] : NULL;
}

unsigned rt_nmodules(void)
{
    return reg.nmods;
}

/* The module a handle names (what __cudaRegisterFatBinary returned), or NULL. */
static struct rt_module *module_of(void **handle)
{
    for (unsigned i = 0; handle && i < reg.nmods; i++)
        if (&reg.mods[i]->self == handle)
            return reg.mods[i];
    return NULL;
}

/* ---- loading */

static void dump_ptx(const struct rt_module *m, const char *text, size_t len)
{
    const char *dir = getenv("GPUSIM_DUMP_PTX");
    char path[1024];
    FILE *f;
    if (!dir || !dir[0])
        return;
    snprintf(path, sizeof path, "%s/module-%u.ptx", dir, m->index);
    if (!(f = fopen(path, "w")) || fwrite(text, 1, len, f) != len || fclose(f))
        rt_once(NULL, "GPUSIM_DUMP_PTX: cannot write %s", path);
}

static void module_fail(struct rt_module *m, cudaError_t code, const char *msg)
{
    free(m->err);
    m->err = strdup(msg);
    m->code = code;
    rt_once(NULL, "module %u (the program's fatbinary %u): %s", m->index, m->index, msg);
}

/* Try the PTX entries newest first; the first that loads is the module. */
static void load_entries(struct gs_gpu *g, struct rt_module *m, const struct fb_image *img,
                         const unsigned *order, unsigned n)
{
    char first[2048] = "", name[64], an[32], *text;
    size_t len;
    for (unsigned i = 0; i < n; i++) {
        const struct fb_entry *e = &img->e[order[i]];
        char err[2048];
        snprintf(name, sizeof name, "fatbinary %u %s", m->index, fb_arch_name(e, an, sizeof an));
        if (fb_entry_text(e, &text, &len, err, sizeof err) == 0) {
            dump_ptx(m, text, len);
            if (gs_load_ptx_mem(g, text, len, name, &m->mod) == GS_OK) {
                free(text);
                return;
            }
            snprintf(err, sizeof err, "%s", gs_last_error(g));
            free(text);
        }
        if (!first[0])
            snprintf(first, sizeof first, "%s", err);
    }
    module_fail(m, cudaErrorInvalidPtx, first);
}

static void load_fatbin(struct gs_gpu *g, struct rt_module *m)
{
    static struct fb_image img;      /* under the lock; 10 KB kept off the stack */
    unsigned order[FB_MAX_ENTRIES], n;
    const void *data;
    char err[1024];
    if (fb_wrapper(m->wrapper, &data, err, sizeof err) ||
        fb_parse(data, SIZE_MAX, &img, err, sizeof err)) {
        module_fail(m, cudaErrorInvalidKernelImage, err);
        return;
    }
    if ((n = fb_ptx_order(&img, order, FB_MAX_ENTRIES)) == 0) {
        module_fail(m, cudaErrorNoKernelImageForDevice, "no PTX in it (only machine code), and "
                    "the model runs PTX: compile with a PTX target, e.g. nvcc's default or "
                    "-gencode arch=compute_75,code=compute_75 beside your -arch/-gencode (and "
                    "without -rdc=true, whose linked image holds machine code only)");
        return;
    }
    load_entries(g, m, &img, order, n);
}

/* GPUSIM_PTX's files as modules of their own. */
static void load_override(struct gs_gpu *g, const char *list)
{
    char *copy = strdup(list);
    for (char *p = copy ? strtok(copy, ":") : NULL; p && reg.novr < RT_MAX_MODULES;
         p = strtok(NULL, ":")) {
        struct rt_module *m = calloc(1, sizeof *m);
        if (!m)
            break;
        m->self = m;
        m->index = reg.novr + 1;
        m->ptx_file = strdup(p);
        reg.ovr[reg.novr++] = m;
        if (gs_load_ptx(g, p, &m->mod) != GS_OK) {
            m->err = strdup(gs_last_error(g));
            m->code = cudaErrorInvalidPtx;
            rt_once(NULL, "GPUSIM_PTX: %s", m->err ? m->err : p);
        }
    }
    free(copy);
}

void rt_load_modules(struct gs_gpu *g)
{
    const char *ovr = getenv("GPUSIM_PTX");
    if (ovr && ovr[0]) {
        load_override(g, ovr);
        return;
    }
    for (unsigned i = 0; i < reg.nmods; i++)
        load_fatbin(g, reg.mods[i]);
}

void rt_unload_modules(void)
{
    for (unsigned i = 0; i < reg.nmods; i++) {
        reg.mods[i]->mod = NULL;
        free(reg.mods[i]->err);
        reg.mods[i]->err = NULL;
    }
    for (unsigned i = 0; i < reg.novr; i++) {
        free(reg.ovr[i]->err);
        free((char *)reg.ovr[i]->ptx_file);
        free(reg.ovr[i]);
    }
    reg.novr = 0;
    for (unsigned i = 0; i < reg.nkerns; i++)
        reg.kerns[i]->nparams = -1;     /* known again once the module is reloaded */
}

/* ---- finding kernels and variables */

struct rt_kernel *rt_kernel_of(const void *host_fun)
{
    for (unsigned i = 0; host_fun && i < reg.nkerns; i++)
        if (reg.kerns[i]->host_fun == host_fun)
            return reg.kerns[i];
    return NULL;
}

struct rt_var *rt_var_of(const void *host_var)
{
    for (unsigned i = 0; host_var && i < reg.nvars; i++)
        if (reg.vars[i]->host_var == host_var)
            return reg.vars[i];
    return NULL;
}

static int has_kernel(const struct gs_module *mod, const char *name)
{
    return mod && gs_kernel_params(mod, name, NULL, 0) >= 0;
}

static int has_var(const struct gs_module *mod, const char *name)
{
    return mod && gs_module_var(mod, name, NULL, NULL) == GS_OK;
}

/* The loaded module for `name` (a kernel when kernel, else a variable) registered by m. */
static cudaError_t find_module(struct rt_module *m, const char *name, int kernel,
                               struct gs_module **out)
{
    int (*has)(const struct gs_module *, const char *) = kernel ? has_kernel : has_var;
    cudaError_t miss = kernel ? cudaErrorInvalidDeviceFunction : cudaErrorInvalidSymbol;
    const char *what = kernel ? "kernel" : "variable";
    if (reg.novr) {
        for (unsigned i = 0; i < reg.novr; i++)
            if (has(reg.ovr[i]->mod, name)) {
                *out = reg.ovr[i]->mod;
                return cudaSuccess;
            }
        rt_once(NULL, "%s %s is in none of GPUSIM_PTX's files", what, name);
        return miss;
    }
    if (!m->mod) {
        rt_once(NULL, "%s %s: its module %u did not load (the reason is above)", what, name,
                m->index);
        return m->code ? m->code : cudaErrorInvalidPtx;
    }
    if (!has(m->mod, name)) {
        rt_once(NULL, "%s %s is not in the PTX of module %u", what, name, m->index);
        return miss;
    }
    *out = m->mod;
    return cudaSuccess;
}

cudaError_t rt_kernel_module(struct rt_kernel *k, struct gs_module **mod)
{
    cudaError_t e = find_module(k->m, k->name, 1, mod);
    int n;
    if (e || k->nparams >= 0)
        return e;
    n = gs_kernel_params(*mod, k->name, NULL, 0);
    free(k->psize);
    if (!(k->psize = calloc(n ? (size_t)n : 1, sizeof *k->psize)))
        return cudaErrorMemoryAllocation;
    gs_kernel_params(*mod, k->name, k->psize, n);
    k->nparams = n;
    return cudaSuccess;
}

cudaError_t rt_var_addr(struct rt_var *v, uint64_t *addr, uint64_t *size)
{
    struct gs_module *mod;
    cudaError_t e = find_module(v->m, v->name, 0, &mod);
    if (e)
        return e;
    gs_module_var(mod, v->name, addr, size);
    return cudaSuccess;
}

/* ---- the entry points */

void **__cudaRegisterFatBinary(void *wrapper)
{
    struct rt_module *m;
    rt_lock();
    if (reg.nmods == RT_MAX_MODULES || !(m = calloc(1, sizeof *m))) {
        rt_once("modules", "more than %d fatbinaries (modules) registered: the rest are not "
                "loaded", RT_MAX_MODULES);
        rt_unlock();
        return NULL;
    }
    m->self = m;
    m->wrapper = wrapper;
    m->index = reg.nmods + 1;
    reg.mods[reg.nmods++] = m;
    if (rt_gpu_if_made())            /* registered after the GPU was made (a dlopen'ed library) */
        load_fatbin(rt_gpu_if_made(), m);
    rt_unlock();
    return &m->self;
}

void __cudaRegisterFatBinaryEnd(void **handle)
{
    (void)handle;
}

void __cudaUnregisterFatBinary(void **handle)
{
    (void)handle;                    /* at exit: the modules stay until the process ends */
}

char __cudaInitModule(void **handle)
{
    (void)handle;
    return 1;
}

/* Append p to a table of pointers. */
static int push(void ***tab, unsigned *n, void *p)
{
    void **grown = realloc(*tab, (*n + 1) * sizeof *grown);
    if (!grown)
        return -1;
    grown[(*n)++] = p;
    *tab = grown;
    return 0;
}

void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun,
                            const char *device_name, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bdim, dim3 *gdim, int *wsize)
{
    struct rt_kernel *k;
    (void)device_name; (void)thread_limit; (void)tid; (void)bid; (void)bdim; (void)gdim;
    (void)wsize;
    rt_lock();
    if (module_of(handle) && device_fun && (k = calloc(1, sizeof *k)) != NULL) {
        k->host_fun = host_fun;
        k->m = module_of(handle);
        k->nparams = -1;
        if (!(k->name = strdup(device_fun)) || push((void ***)&reg.kerns, &reg.nkerns, k)) {
            free(k->name);
            free(k);
        }
    }
    rt_unlock();
}

void __cudaRegisterVar(void **handle, char *host_var, char *device_address,
                       const char *device_name, int ext, size_t size, int constant, int global)
{
    struct rt_var *v;
    (void)device_address; (void)ext; (void)global;
    rt_lock();
    if (module_of(handle) && device_name && (v = calloc(1, sizeof *v)) != NULL) {
        v->host_var = host_var;
        v->m = module_of(handle);
        v->size = size;
        v->constant = constant;
        if (!(v->name = strdup(device_name)) || push((void ***)&reg.vars, &reg.nvars, v)) {
            free(v->name);
            free(v);
        }
    }
    rt_unlock();
}

void __cudaRegisterManagedVar(void **handle, void **host_var_ptr, char *device_address,
                              const char *device_name, int ext, size_t size, int constant,
                              int global)
{
    (void)handle; (void)host_var_ptr; (void)device_address; (void)ext; (void)size;
    (void)constant; (void)global;
    rt_lock();
    rt_once("managed", "__managed__ variable %s: managed memory is not supported by the model",
            device_name ? device_name : "?");
    rt_unlock();
}
