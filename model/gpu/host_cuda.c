/*
 * host_cuda.c -- what the CUDA runtime library (cuda/) asks of a GPU and its modules through
 * the host API (gpusim.h): device printf's destination, the record directory for PTX given as
 * text, module variables, a kernel's attributes and occupancy, memory in use, device address
 * ranges. Host-side code; host_priv.h has the objects.
 */
#include <string.h>
#include "cta.h"
#include "func/funcsim.h"
#include "host_priv.h"

int gs_set_printf(struct gs_gpu *g, FILE *out)
{
    if (!g)
        return GS_ERR_INVALID_VALUE;
    g->pf.out = out;
    return GS_OK;
}

int gs_set_res_dir(struct gs_gpu *g, const char *dir)
{
    if (!g)
        return GS_ERR_INVALID_VALUE;
    if (dir && strlen(dir) >= sizeof g->res_dir)
        return host_seterr(g, GS_ERR_INVALID_VALUE, "gs_set_res_dir: a directory name of %zu "
                      "characters (at most %zu)", strlen(dir), sizeof g->res_dir - 1);
    snprintf(g->res_dir, sizeof g->res_dir, "%s", dir ? dir : "");
    return GS_OK;
}

int gs_module_var(const struct gs_module *m, const char *name, uint64_t *addr, uint64_t *size)
{
    uint32_t i;
    if (!m || !name)
        return GS_ERR_INVALID_VALUE;
    for (i = 0; i < m->mod.nvars; i++) {
        const struct ptx_var *v = &m->mod.vars[i];
        if (v->func < 0 && (v->space == PS_GLOBAL || v->space == PS_CONST) && !v->is_extern &&
            !strcmp(v->name, name)) {
            if (addr)
                *addr = v->addr;
            if (size)
                *size = v->size;
            return GS_OK;
        }
    }
    return GS_ERR_NOT_FOUND;
}

/* The CTAs of `threads` threads one SM holds for program p with dyn bytes of dynamic shared
   memory, as a launch's statistics report them (under VT its own count), and the limit. */
static uint32_t occupancy_of(const struct gpu_config *c, const struct ptx_prog *p,
                             uint32_t threads, uint32_t dyn, enum cta_limit *lim)
{
    uint32_t shared = fsim_shared_bytes(p, dyn);
    struct cta_limits l;
    if (c->vt == VT_OFF)
        return cta_occupancy(c, threads, p->regs_per_thread, shared, lim);
    cta_limits(c, threads, p->regs_per_thread, shared, &l);
    *lim = l.vt_by;
    return l.vt;
}

/* The largest block of kernel k a launch may have: the configuration's, the directives',
   and what its registers and static shared memory leave on one SM (a multiple of 32). */
static uint32_t max_block(const struct gpu_config *c, const struct gs_kernel *k)
{
    const uint32_t *r = k->fn->reqntid, *x = k->fn->maxntid;
    uint32_t t = c->max_threads_per_cta;
    enum cta_limit lim;
    if (r[0] && r[0] * r[1] * r[2] < t)
        t = r[0] * r[1] * r[2];
    if (x[0] && x[0] * x[1] * x[2] < t)
        t = x[0] * x[1] * x[2];
    while (t > 0 && cta_occupancy(c, t, k->prog.regs_per_thread,
                                  fsim_shared_bytes(&k->prog, 0), &lim) == 0)
        t = t > 32 ? (t - 1) / 32 * 32 : 0;
    return t;
}

int gs_kernel_attr(struct gs_gpu *g, struct gs_module *m, const char *kernel,
                   struct gs_kernel_attr *a)
{
    struct gs_kernel *k;
    int rc;
    if (!g)
        return GS_ERR_INVALID_VALUE;
    if (!m || !kernel || !a)
        return host_seterr(g, GS_ERR_INVALID_VALUE, "gs_kernel_attr: null pointer");
    if (!host_module_of(g, m))
        return host_seterr(g, GS_ERR_INVALID_VALUE, "gs_kernel_attr: kernel '%s': the module was "
                      "not loaded on this GPU", kernel);
    if ((rc = host_get_kernel(g, m, kernel, &k)) != GS_OK)
        return rc;
    memset(a, 0, sizeof *a);
    a->regs = k->prog.regs_per_thread;
    a->regs_source = k->kres.src;
    a->shared_static = k->prog.shared_static;
    a->local_per_thread = k->prog.local_size;
    a->max_threads = max_block(&g->conf, k);
    a->nparams = k->fn->nparams;
    return GS_OK;
}

int gs_kernel_occupancy(struct gs_gpu *g, struct gs_module *m, const char *kernel,
                        uint32_t threads, uint32_t dyn_smem, uint32_t *ctas, const char **limit)
{
    struct gs_kernel *k;
    enum cta_limit lim = CTA_LIM_THREADS;
    int rc;
    if (!g)
        return GS_ERR_INVALID_VALUE;
    if (!m || !kernel || !ctas)
        return host_seterr(g, GS_ERR_INVALID_VALUE, "gs_kernel_occupancy: null pointer");
    if (!host_module_of(g, m))
        return host_seterr(g, GS_ERR_INVALID_VALUE, "gs_kernel_occupancy: kernel '%s': the module "
                      "was not loaded on this GPU", kernel);
    if ((rc = host_get_kernel(g, m, kernel, &k)) != GS_OK)
        return rc;
    if (threads == 0 || threads > g->conf.max_threads_per_cta)
        return host_seterr(g, GS_ERR_INVALID_VALUE, "gs_kernel_occupancy: %u threads per CTA (1 to "
                      "max_threads_per_cta, %u)", threads, g->conf.max_threads_per_cta);
    *ctas = occupancy_of(&g->conf, &k->prog, threads, dyn_smem, &lim);
    if (fsim_shared_bytes(&k->prog, dyn_smem) > g->conf.max_shared_per_cta) {
        *ctas = 0;
        lim = CTA_LIM_SHARED;
    }
    if (limit)
        *limit = cta_limit_name(lim);
    return GS_OK;
}

void gs_mem_info(const struct gs_gpu *g, uint64_t *used, uint64_t *total)
{
    if (used)
        *used = g ? g->gmem->bytes_live : 0;
    if (total)
        *total = g ? g->gmem->limit : 0;
}

int gs_device_range(const struct gs_gpu *g, uint64_t addr, uint64_t bytes)
{
    return g && gm_ptr(g->gmem, addr, bytes ? bytes : 1) != NULL;
}
