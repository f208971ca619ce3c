/*
 * host.c -- the host API (gpusim.h): configuration, device memory, PTX modules, launches and
 * statistics. Launch validation (grid, block, shared memory, registers, arguments) lives here;
 * execution is funcsim.c. Reference redirection is host_redir.c, the CUDA runtime library's
 * questions host_cuda.c; host_priv.h has the objects they share.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ptx/flow.h"
#include "base/config.h"
#include "base/strfmt.h"
#include "cta.h"
#include "func/funcsim.h"
#include "func/gmem.h"
#include "gpusim.h"
#include "ptx/ptx.h"
#include "ptx/ptx_res.h"
#include "kres.h"
#include "record.h"
#include "sm/sm.h"
#include "sm/vtc.h"
#include "gpu.h"
#include "blocks.h"
#include "mem/l2copy.h"
#include "mem/memsys.h"
#include "stats.h"
#include "ptx/vtwx.h"
#include "ptx/redir.h"
#include "bbv.h"
#include "func/devprintf.h"
#include "host_priv.h"

static const char *const status_names[GS_ERR_COUNT] = {
    "ok", "invalid value", "out of memory", "configuration error", "PTX error",
    "not found", "launch error", "kernel fault"
};

const char *gs_status_name(int status)
{
    return status >= 0 && status < GS_ERR_COUNT ? status_names[status] : "unknown status";
}

/* gs_last_error's text becomes fmt's, however long (the arguments may name the old text). */
int host_seterr(struct gs_gpu *g, int status, const char *fmt, ...)
{
    va_list ap;
    char *t;
    size_t n;
    va_start(ap, fmt);
    t = str_vfmt(fmt, ap);
    va_end(ap);
    if (!t) {
        snprintf(g->err, g->errcap, "out of host memory for an error message");
        return status;
    }
    n = strlen(t) + 1;
    if (n > g->errcap) {             /* the longer text replaces the buffer */
        free(g->err);
        g->err = t;
        g->errcap = n;
        return status;
    }
    memcpy(g->err, t, n);
    free(t);
    return status;
}

const char *gs_last_error(const struct gs_gpu *g)
{
    return g ? g->err : "no GPU (gs_init failed or was not called)";
}

int gs_init(struct gs_gpu **gpu, const char *config_path, const char *const *sets, int nsets,
            char *err, size_t errlen)
{
    struct gs_gpu *g;
    char scratch[8];
    if (!err || !errlen) {
        err = scratch;
        errlen = sizeof scratch;
    }
    err[0] = 0;
    if (!gpu || (nsets > 0 && !sets)) {
        snprintf(err, errlen, "gs_init: null pointer");
        return GS_ERR_INVALID_VALUE;
    }
    if (nsets < 0) {
        *gpu = NULL;
        snprintf(err, errlen, "gs_init: %d overrides (nsets must not be negative)", nsets);
        return GS_ERR_INVALID_VALUE;
    }
    *gpu = NULL;
    g = calloc(1, sizeof *g);
    if (!g || !(g->gmem = calloc(1, sizeof *g->gmem)) || !(g->err = calloc(1, ERR_ROOM))) {
        if (g)
            free(g->gmem);
        free(g);
        snprintf(err, errlen, "out of host memory");
        return GS_ERR_OUT_OF_MEMORY;
    }
    /* every block's check at load too: a configuration a launch could not build is refused
       here, naming its keys, not at the launch as a kernel fault */
    if (blk_conf_load(&g->conf, &(struct conf_src){ config_path, sets, nsets }, err, errlen)) {
        free(g->gmem);
        free(g->err);
        free(g);
        return GS_ERR_CONFIG;
    }
    gm_init(g->gmem, g->conf.dram_bytes);
    g->errcap = ERR_ROOM;
    g->rec.block = -1;
    g->pf.out = stdout;
    if (g->conf.l2_copy_install && g->conf.model == MODEL_TIMING &&
        !(g->copied = l2copy_new(&g->conf))) {
        gs_destroy(g);
        snprintf(err, errlen, "out of host memory");
        return GS_ERR_OUT_OF_MEMORY;
    }
    *gpu = g;
    return GS_OK;
}

const struct gpu_config *gs_config(const struct gs_gpu *g)
{
    return g ? &g->conf : NULL;
}

void host_kernel_free(struct gs_kernel *k)
{
    for (unsigned f = 0; f < REDIR_NFORMS; f++)
        if (k->redir[f]) {
            host_kernel_free(k->redir[f]);
            free(k->redir[f]);
        }
    ptx_prog_free(&k->prog);
    flow_free(&k->flow);
}

static void module_free(struct gs_module *m)
{
    uint32_t i;
    if (!m)
        return;
    for (i = 0; m->kernels && i < m->mod.nfuncs; i++)
        if (m->kernels[i].linked)
            host_kernel_free(&m->kernels[i]);
    free(m->kernels);
    free(m->res);
    ptx_module_free(&m->mod);
    free(m);
}

void gs_destroy(struct gs_gpu *g)
{
    unsigned i;
    if (!g)
        return;
    for (i = 0; i < g->nmodules; i++)
        module_free(g->modules[i]);
    gm_destroy(g->gmem);
    free(g->gmem);
    free(g->rec.buf);
    l2copy_free(g->copied);
    msys_free(g->ms);
    pf_free(&g->pf);
    free(g->err);
    free(g);
}

#define REC_MAX_BYTES (256ull << 20)

int gs_record(struct gs_gpu *g, const char *block, const char *path)
{
    const struct blk_desc *b;
    if (!g || !block || !path)
        return g ? host_seterr(g, GS_ERR_INVALID_VALUE, "gs_record: null pointer") : GS_ERR_INVALID_VALUE;
    if (!(b = blk_find(block)) || !b->record) {
        char names[256];
        FILE *f = fmemopen(names, sizeof names, "w");
        names[0] = 0;
        if (f) {
            blk_names("record", f);
            fclose(f);
        }
        names[strcspn(names, "\n")] = 0;
        return host_seterr(g, GS_ERR_INVALID_VALUE, "--record: %s block '%s' (recordable: %s)",
                      b ? "cannot record the" : "unknown", block, names);
    }
    if (!b->instances(&g->conf))       /* a mechanism's block exists only with it on */
        return host_seterr(g, GS_ERR_CONFIG, "--record: configuration '%s' has no %s block (it "
                      "belongs to a mechanism that is off: ntb and pas need vtw = hw, vtc vt = on, wst "
                      "dws != off)",
                      g->conf.name, b->name);
    if (!g->rec.buf && !(g->rec.buf = malloc(REC_MAX_BYTES)))
        return host_seterr(g, GS_ERR_OUT_OF_MEMORY, "--record: cannot allocate the buffer");
    g->rec.block = b->id;
    g->rec.cap = REC_MAX_BYTES;
    g->rec.len = g->rec.records = 0;
    g->rec.overflow = 0;
    snprintf(g->rec_path, sizeof g->rec_path, "%s", path);
    return GS_OK;
}

/* Write the recording: header, the block's configuration (instance 0 on SM 0), the records. */
static int write_record(struct gs_gpu *g)
{
    unsigned n;
    const struct blk_desc *b = &blk_all(&n)[g->rec.block];
    struct rec_header h;
    unsigned char cfg[8192];
    char err[256];
    FILE *f;
    if (b->cfg_size > sizeof cfg || blk_cfg(b, &g->conf, 0, 0, cfg, err, sizeof err))
        return host_seterr(g, GS_ERR_CONFIG, "--record: %s", err);
    memset(&h, 0, sizeof h);
    snprintf(h.magic, sizeof h.magic, "%s", REC_MAGIC);
    snprintf(h.block, sizeof h.block, "%s", b->name);
    snprintf(h.config, sizeof h.config, "%s", g->conf.name);
    h.cfg_size = (uint32_t)b->cfg_size;
    h.in_size = (uint32_t)b->in_size;
    h.records = g->rec.records;
    if (!(f = fopen(g->rec_path, "wb")))
        return host_seterr(g, GS_ERR_INVALID_VALUE, "--record: cannot write %s", g->rec_path);
    fwrite(&h, sizeof h, 1, f);
    fwrite(cfg, h.cfg_size, 1, f);
    fwrite(g->rec.buf, 1, g->rec.len, f);
    if (fclose(f))
        return host_seterr(g, GS_ERR_INVALID_VALUE, "--record: error writing %s", g->rec_path);
    return GS_OK;
}

int gs_malloc(struct gs_gpu *g, uint64_t *dptr, uint64_t bytes)
{
    if (!g || !dptr)
        return g ? host_seterr(g, GS_ERR_INVALID_VALUE, "gs_malloc: null pointer") : GS_ERR_INVALID_VALUE;
    if (bytes == 0)
        return host_seterr(g, GS_ERR_INVALID_VALUE, "gs_malloc: size 0");
    switch (gm_alloc(g->gmem, bytes, dptr)) {
    case 0:
        return GS_OK;
    case GM_E_COUNT:
        return host_seterr(g, GS_ERR_OUT_OF_MEMORY, "gs_malloc: cannot allocate %llu bytes: %u "
                      "allocations are live, the most the model keeps (GM_MAX_ALLOCS; a module's "
                      "global and constant variables take one each)", (unsigned long long)bytes,
                      GM_MAX_ALLOCS);
    case GM_E_HOST:
        return host_seterr(g, GS_ERR_OUT_OF_MEMORY, "gs_malloc: cannot allocate %llu bytes: the host "
                      "is out of memory", (unsigned long long)bytes);
    default:
        return host_seterr(g, GS_ERR_OUT_OF_MEMORY, "gs_malloc: cannot allocate %llu bytes "
                      "(device memory %llu bytes, %llu in use)", (unsigned long long)bytes,
                      (unsigned long long)g->gmem->limit, (unsigned long long)g->gmem->bytes_live);
    }
}

int gs_free(struct gs_gpu *g, uint64_t dptr)
{
    if (!g)
        return GS_ERR_INVALID_VALUE;
    if (gm_free(g->gmem, dptr))
        return host_seterr(g, GS_ERR_INVALID_VALUE, "gs_free: 0x%llx is not a live allocation",
                      (unsigned long long)dptr);
    return GS_OK;
}

static uint8_t *dev_range(struct gs_gpu *g, const char *what, uint64_t addr, uint64_t bytes)
{
    uint8_t *p = gm_ptr(g->gmem, addr, bytes);
    if (!p)
        host_seterr(g, GS_ERR_INVALID_VALUE, "%s: [0x%llx, +%llu) is not inside one device allocation",
               what, (unsigned long long)addr, (unsigned long long)bytes);
    return p;
}

int gs_memcpy_htod(struct gs_gpu *g, uint64_t dst, const void *src, uint64_t bytes)
{
    uint8_t *p;
    if (!g || !src)
        return g ? host_seterr(g, GS_ERR_INVALID_VALUE, "gs_memcpy_htod: null pointer") : GS_ERR_INVALID_VALUE;
    if (bytes == 0)
        return GS_OK;
    if (!(p = dev_range(g, "gs_memcpy_htod", dst, bytes)))
        return GS_ERR_INVALID_VALUE;
    memcpy(p, src, bytes);
    l2copy_add(g->copied, dst, bytes);
    return GS_OK;
}

int gs_memcpy_dtoh(struct gs_gpu *g, void *dst, uint64_t src, uint64_t bytes)
{
    uint8_t *p;
    if (!g || !dst)
        return g ? host_seterr(g, GS_ERR_INVALID_VALUE, "gs_memcpy_dtoh: null pointer") : GS_ERR_INVALID_VALUE;
    if (bytes == 0)
        return GS_OK;
    if (!(p = dev_range(g, "gs_memcpy_dtoh", src, bytes)))
        return GS_ERR_INVALID_VALUE;
    memcpy(dst, p, bytes);
    return GS_OK;
}

int gs_memset(struct gs_gpu *g, uint64_t dst, int value, uint64_t bytes)
{
    uint8_t *p;
    if (!g)
        return GS_ERR_INVALID_VALUE;
    if (bytes == 0)
        return GS_OK;
    if (!(p = dev_range(g, "gs_memset", dst, bytes)))
        return GS_ERR_INVALID_VALUE;
    memset(p, value, bytes);
    l2copy_add(g->copied, dst, bytes);
    return GS_OK;
}

/* Allocate and initialise the module's .global and .const variables. */
static int module_vars(struct gs_gpu *g, struct gs_module *m)
{
    uint32_t i;
    for (i = 0; i < m->mod.nvars; i++) {
        struct ptx_var *v = &m->mod.vars[i];
        uint8_t *p;
        if ((v->space != PS_GLOBAL && v->space != PS_CONST) || v->is_extern)
            continue;
        if (gs_malloc(g, &v->addr, v->size ? v->size : 1))
            return host_seterr(g, GS_ERR_OUT_OF_MEMORY, "%s: variable '%s': %s", m->mod.filename,
                          v->name, g->err);
        p = gm_ptr(g->gmem, v->addr, v->size ? v->size : 1);
        if (v->init && v->size)
            memcpy(p, v->init, v->size);
    }
    return GS_OK;
}

static int load(struct gs_gpu *g, struct gs_module *m, struct gs_module **out)
{
    int rc;
    if (g->nmodules >= GS_MAX_MODULES) {
        module_free(m);
        return host_seterr(g, GS_ERR_OUT_OF_MEMORY, "too many modules loaded (%d)", GS_MAX_MODULES);
    }
    m->kernels = calloc(m->mod.nfuncs ? m->mod.nfuncs : 1, sizeof *m->kernels);
    if (!m->kernels) {
        module_free(m);
        return host_seterr(g, GS_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    if ((rc = module_vars(g, m)) != GS_OK) {
        module_free(m);
        return rc;
    }
    g->modules[g->nmodules++] = m;
    *out = m;
    return GS_OK;
}

int gs_load_ptx(struct gs_gpu *g, const char *path, struct gs_module **out)
{
    struct gs_module *m;
    if (!g || !path || !out)
        return g ? host_seterr(g, GS_ERR_INVALID_VALUE, "gs_load_ptx: null pointer") : GS_ERR_INVALID_VALUE;
    if (!(m = calloc(1, sizeof *m)))
        return host_seterr(g, GS_ERR_OUT_OF_MEMORY, "out of host memory");
    snprintf(m->path, sizeof m->path, "%s", path);
    if (ptx_parse_file(path, &m->mod, g->err, g->errcap) ||
        kres_load(&g->conf, &m->mod, path, NULL, 0, NULL, &m->res, &m->res_src, m->res_note,
                  sizeof m->res_note, m->rec, sizeof m->rec, g->err, g->errcap)) {
        ptx_module_free(&m->mod);
        free(m);
        return GS_ERR_PTX;
    }
    return load(g, m, out);
}

int gs_load_ptx_mem(struct gs_gpu *g, const char *text, size_t len, const char *name,
                    struct gs_module **out)
{
    struct gs_module *m;
    if (!g || !text || !out)
        return g ? host_seterr(g, GS_ERR_INVALID_VALUE, "gs_load_ptx_mem: null pointer") : GS_ERR_INVALID_VALUE;
    if (!(m = calloc(1, sizeof *m)))
        return host_seterr(g, GS_ERR_OUT_OF_MEMORY, "out of host memory");
    if (ptx_parse(text, len, name ? name : "<string>", &m->mod, g->err, g->errcap) ||
        kres_load(&g->conf, &m->mod, NULL, text, len, g->res_dir, &m->res, &m->res_src,
                  m->res_note, sizeof m->res_note, m->rec, sizeof m->rec, g->err, g->errcap)) {
        ptx_module_free(&m->mod);
        free(m);
        return GS_ERR_PTX;
    }
    return load(g, m, out);
}

int gs_load_ptx_text(struct gs_gpu *g, const char *text, const char *name, struct gs_module **out)
{
    return gs_load_ptx_mem(g, text, text ? strlen(text) : 0, name, out);
}

const char *gs_kernel_name(const struct gs_module *m, unsigned i)
{
    uint32_t f;
    for (f = 0; m && f < m->mod.nfuncs; f++)
        if (m->mod.funcs[f].is_entry && i-- == 0)
            return m->mod.funcs[f].name;
    return NULL;
}

int gs_kernel_params(const struct gs_module *m, const char *kernel, size_t *sizes, int max)
{
    const struct ptx_func *fn = m && kernel ? ptx_find_func(&m->mod, kernel) : NULL;
    uint32_t i;
    if (!fn || !fn->is_entry)
        return -1;
    for (i = 0; i < fn->nparams && (int)i < max; i++)
        sizes[i] = fn->params[i].size;
    return (int)fn->nparams;
}

/* Find, link and analyse the kernel (once per module). */
/* VTW (vtw = hw | sw): the kernel runs as its transform (ptx/vtwx.h). Its registers per
   thread: ptxas's count of the transform from FILE.vtw.res (next to the PTX file, or for PTX
   text next to the record FILE.res its counts came from: kres_vtw_path) when recorded for
   exactly this text, else the liveness estimate's growth (the index registers and the
   hoisted code kept live across the wrapper loop, 000 Sec. 4.3.1) added to the original
   count (kres_vtw). */
static int vtw_transform(struct gs_gpu *g, const struct gs_module *m, struct gs_kernel *k)
{
    enum vtwx_form form = g->conf.vtw == VTW_HW ? VTWX_HW : VTWX_SW;
    char *text, path[1024];
    flow_free(&k->flow);
    if (vtwx_apply(&k->prog, form, &k->vx, g->err, g->errcap) ||
        flow_build(&k->prog, &k->flow, g->err, g->errcap))
        return GS_ERR_PTX;
    k->vtw = (uint8_t)g->conf.vtw;
    k->vtw_hidden = form == VTWX_HW ? 4 : 5;
    k->regs_orig = k->kres.regs;
    kres_vtw_path(m->path[0] ? m->path : NULL, m->rec, path, sizeof path);
    text = path[0] ? vtwx_ptxas_text(&k->prog, g->err, g->errcap) : NULL;
    k->prog.regs_per_thread = kres_vtw(&g->conf, &k->kres, path,
                                       k->prog.name, form == VTWX_HW ? "hw" : "sw",
                                       m->mod.text_hash, text,
                                       (int32_t)k->vx.regs_after - (int32_t)k->vx.regs_before,
                                       k->vtw_note, sizeof k->vtw_note);
    free(text);
    return GS_OK;
}

/* Without VTW a kernel must not hold VTW's instructions (only the model's transform emits
   them); with it, the kernel runs as its transform. */
static int vtw_prepare(struct gs_gpu *g, const struct gs_module *m, struct gs_kernel *k)
{
    int64_t ext = vtwx_ext_pc(&k->prog);
    if (g->conf.vtw != VTW_OFF)
        return vtw_transform(g, m, k);
    if (ext >= 0)
        return host_seterr(g, GS_ERR_PTX, "%s: kernel %s holds VTW's %s (pc %lld), which only the "
                      "model's own transform emits: load the original kernel and set vtw = hw",
                      m->mod.filename, k->prog.name,
                      ptx_op_name((enum ptx_op)k->prog.insns[ext].op), (long long)ext);
    return GS_OK;
}

/* Link function i of module m into k: the program, its flow, its registers, VTW. */
int host_link_kernel(struct gs_gpu *g, struct gs_module *m, uint32_t i, struct gs_kernel *k)
{
    const char *name = m->mod.funcs[i].name;
    if (ptx_link(&m->mod, name, &k->prog, g->err, g->errcap) ||
        flow_build(&k->prog, &k->flow, g->err, g->errcap))
        return GS_ERR_PTX;
    kres_choose(&g->conf, &m->mod.funcs[i], k->prog.regs_per_thread,
                ptx_res_find(m->res, name), (enum kres_src)m->res_src, &k->kres);
    k->prog.regs_per_thread = k->kres.regs;
    k->fn = &m->mod.funcs[i];
    return vtw_prepare(g, m, k);
}

int host_get_kernel(struct gs_gpu *g, struct gs_module *m, const char *name, struct gs_kernel **out)
{
    int rc;
    struct gs_kernel *k;
    const struct ptx_func *fn = ptx_find_func(&m->mod, name);      /* by the module's index */
    if (!fn || !fn->is_entry)
        return host_seterr(g, GS_ERR_NOT_FOUND, "%s: no kernel (.entry) named '%s'", m->mod.filename, name);
    uint32_t i = (uint32_t)(fn - m->mod.funcs);
    k = &m->kernels[i];
    if (!k->linked) {
        if ((rc = host_link_kernel(g, m, i, k)) != GS_OK) {
            ptx_prog_free(&k->prog);
            flow_free(&k->flow);
            memset(k, 0, sizeof *k);
            return rc;
        }
        k->linked = 1;
    }
    *out = k;
    return GS_OK;
}

static int check_dims(struct gs_gpu *g, const char *kname, struct gs_dim3 grid, struct gs_dim3 block)
{
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
        return host_seterr(g, GS_ERR_LAUNCH, "launch %s: grid (%u,%u,%u) and block (%u,%u,%u) must be "
                      "non-zero", kname, grid.x, grid.y, grid.z, block.x, block.y, block.z);
    if (threads > g->conf.max_threads_per_cta)
        return host_seterr(g, GS_ERR_LAUNCH, "launch %s: block of %llu threads exceeds "
                      "max_threads_per_cta (%u)", kname, (unsigned long long)threads,
                      g->conf.max_threads_per_cta);
    if (block.z > 64 || grid.y > 65535 || grid.z > 65535 || grid.x > 0x7FFFFFFFu)
        return host_seterr(g, GS_ERR_LAUNCH, "launch %s: grid (%u,%u,%u) / block z %u beyond the "
                      "limits (x < 2^31, y,z <= 65535, block z <= 64)", kname, grid.x, grid.y,
                      grid.z, block.z);
    return GS_OK;
}

/* The block shape a kernel's .reqntid / .maxntid directives allow (CUDA refuses such a launch). */
static int check_ntid(struct gs_gpu *g, const struct gs_kernel *k, struct gs_dim3 b)
{
    const uint32_t *r = k->fn->reqntid, *x = k->fn->maxntid;
    uint64_t threads = (uint64_t)b.x * b.y * b.z;
    if (r[0] && (b.x != r[0] || b.y != r[1] || b.z != r[2]))
        return host_seterr(g, GS_ERR_LAUNCH, "launch %s: block (%u,%u,%u) differs from the kernel's "
                      ".reqntid %u, %u, %u (%s:%u)", k->prog.name, b.x, b.y, b.z, r[0], r[1], r[2],
                      k->prog.mod->filename, k->fn->line);
    if (x[0] && threads > (uint64_t)x[0] * x[1] * x[2])
        return host_seterr(g, GS_ERR_LAUNCH, "launch %s: block (%u,%u,%u) of %llu threads exceeds the "
                      "kernel's .maxntid %u, %u, %u (%s:%u)", k->prog.name, b.x, b.y, b.z,
                      (unsigned long long)threads, x[0], x[1], x[2], k->prog.mod->filename,
                      k->fn->line);
    return GS_OK;
}

/* Shared memory, registers and local memory of one CTA must fit an SM at all. */
static int check_resources(struct gs_gpu *g, const struct ptx_prog *p, struct gs_dim3 block,
                           uint32_t dyn)
{
    const struct gpu_config *c = &g->conf;
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    uint64_t shared = fsim_shared_bytes(p, 0) + (uint64_t)dyn;
    struct cta_limits lim;
    if (shared > c->max_shared_per_cta)
        return host_seterr(g, GS_ERR_LAUNCH, "launch %s: %llu bytes of shared memory per CTA (%u static "
                      "+ %u dynamic) exceed max_shared_per_cta (%u)", p->name,
                      (unsigned long long)shared, p->shared_static, dyn, c->max_shared_per_cta);
    cta_limits(c, (uint32_t)threads, p->regs_per_thread, 0, &lim);
    if (lim.by[CTA_LIM_REGS] == 0)     /* as allocated: per warp, in units of reg_alloc_unit */
        return host_seterr(g, GS_ERR_LAUNCH, "launch %s: one CTA of %llu threads at %u registers per "
                      "thread needs more than regs_per_sm (%u) as allocated in units of %u "
                      "registers per warp", p->name, (unsigned long long)threads,
                      p->regs_per_thread, c->regs_per_sm, c->reg_alloc_unit);
    if (p->local_size > c->local_bytes_per_thread)
        return host_seterr(g, GS_ERR_LAUNCH, "launch %s: %u bytes of local memory per thread exceed "
                      "local_bytes_per_thread (%llu)", p->name, p->local_size,
                      (unsigned long long)c->local_bytes_per_thread);
    if (c->model == MODEL_TIMING && sm_regs_check(p, g->err, g->errcap))
        return host_seterr(g, GS_ERR_LAUNCH, "%s", g->err);
    return GS_OK;
}

/* The host's arguments against the kernel's parameters: count, null pointers, sizes. */
static int check_args(struct gs_gpu *g, const struct ptx_prog *p, uint32_t nuser,
                      const struct gs_arg *args, int nargs)
{
    uint32_t i;
    if (nargs < 0 || (uint32_t)nargs != nuser)
        return host_seterr(g, GS_ERR_LAUNCH, "launch %s: %d arguments given, the kernel takes %u",
                      p->name, nargs, nuser);
    for (i = 0; i < nuser; i++) {
        if (!args[i].ptr)
            return host_seterr(g, GS_ERR_LAUNCH, "launch %s: argument %u is a null pointer", p->name, i);
        if (args[i].size != p->params[i].size)
            return host_seterr(g, GS_ERR_LAUNCH, "launch %s: argument %u (%s): the PTX parameter has "
                          "%u bytes, %zu given", p->name, i, p->params[i].name,
                          p->params[i].size, args[i].size);
    }
    return GS_OK;
}

static int build_params(struct gs_gpu *g, const struct gs_kernel *k, const struct gs_arg *args,
                        int nargs, uint8_t **out)
{
    const struct ptx_prog *p = &k->prog;
    uint32_t i, nuser = p->nparams - k->vtw_hidden;   /* VTW's own come last */
    uint8_t *buf;
    int rc;
    if ((rc = check_args(g, p, nuser, args, nargs)) != GS_OK)
        return rc;
    buf = calloc(1, p->param_size ? p->param_size : 1);
    if (!buf)
        return host_seterr(g, GS_ERR_OUT_OF_MEMORY, "out of host memory");
    for (i = 0; i < nuser; i++)
        memcpy(buf + p->params[i].offset, args[i].ptr, args[i].size);
    *out = buf;
    return GS_OK;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* What decided the launch's registers per thread, in words (gs_regs_note). */
static void regs_note(struct gs_gpu *g, const struct gs_module *m, const struct gs_kernel *k)
{
    const struct kres *r = &k->kres;
    char cap[96] = "";
    if (r->capped)
        snprintf(cap, sizeof cap, ", capped at max_regs_per_thread %u (a compile for this GPU "
                 "would spill)", g->conf.max_regs_per_thread);
    if (r->src == KRES_OVERRIDE)
        snprintf(g->regs_note, sizeof g->regs_note, "%u per thread, override (regs_per_thread); "
                 "compiler %u, liveness estimate %u", r->regs, r->compiler, r->estimate);
    else if (r->src == KRES_ESTIMATE)
        snprintf(g->regs_note, sizeof g->regs_note, "%u per thread, liveness estimate%s; %s",
                 r->regs, cap, m->res_note);
    else
        snprintf(g->regs_note, sizeof g->regs_note, "%u per thread, %s%s: %s; liveness estimate %u",
                 r->regs, kres_src_name(r->src), cap, m->res_note, r->estimate);
    if (k->vtw || k->redirected) {
        size_t n = strlen(g->regs_note);
        snprintf(g->regs_note + n, sizeof g->regs_note - n, "; %s",
                 k->vtw ? k->vtw_note : k->rd_note);
    }
}

const char *gs_regs_note(const struct gs_gpu *g)
{
    return g ? g->regs_note : "";
}

/* VT: the CTAs an SM holds (active and inactive), which limit gives them, how many may be
   active, the context region per CTA (eq. 1) and its port beats (eq. 2). */
static void vt_geometry(const struct gpu_config *c, uint32_t threads, uint32_t regs,
                        struct gs_stats *s)
{
    struct cta_limits l;
    uint32_t b = c->vt_swap_bits_per_cycle;
    cta_limits(c, threads, regs, s->shared_per_cta, &l);
    s->occupancy = l.vt;
    s->occupancy_limit = l.vt_by;
    s->vt_active_limit = l.vt_active;
    s->vt_ctx_bits = l.ctx_bits;
    s->vt_swap_beats = vtc_beats(l.ctx_bits, b);
}

/* Launch geometry and occupancy, for the reports. */
static void set_geometry(struct gs_gpu *g, const struct gs_module *m, const struct gs_kernel *k,
                         struct gs_dim3 grid, struct gs_dim3 block, uint32_t dyn)
{
    const struct ptx_prog *p = &k->prog;
    struct gs_stats *s = &g->last;
    enum cta_limit lim;
    s->grid[0] = grid.x; s->grid[1] = grid.y; s->grid[2] = grid.z;
    s->block[0] = block.x; s->block[1] = block.y; s->block[2] = block.z;
    s->regs_per_thread = p->regs_per_thread;
    s->regs_source = k->kres.src;
    s->regs_estimate = k->kres.estimate;
    s->regs_compiler = k->kres.compiler;
    regs_note(g, m, k);
    s->shared_per_cta = fsim_shared_bytes(p, dyn);
    s->local_per_thread = p->local_size;
    s->occupancy = cta_occupancy(&g->conf, block.x * block.y * block.z, p->regs_per_thread,
                                 s->shared_per_cta, &lim);
    s->occupancy_limit = lim;
    if (g->conf.vt != VT_OFF)
        vt_geometry(&g->conf, block.x * block.y * block.z, p->regs_per_thread, s);
    if (k->vtw) {
        s->regs_original = k->regs_orig;
        s->occupancy_original = cta_occupancy(&g->conf, block.x * block.y * block.z,
                                              k->regs_orig, s->shared_per_cta, &lim);
    }
}

static void put_u32(uint8_t *params, int64_t off, uint32_t v)
{
    memcpy(params + off, &v, sizeof v);
}

/* A VTW launch: NumVirtualTBs = MIN(residency of the transformed kernel on the GPU, logical
   TBs) CTAs in one dimension (000 Sec. 4.1), the logical grid in the transform's parameters.
   *grid becomes the launch's; *nlog the logical TBs (0 without VTW). */
static int vtw_launch(struct gs_gpu *g, const struct gs_kernel *k, struct gs_dim3 block,
                      uint32_t dyn, uint8_t *params, struct gs_dim3 *grid, uint32_t *nlog)
{
    const struct ptx_prog *p = &k->prog;
    uint64_t n = (uint64_t)grid->x * grid->y * grid->z, res;
    struct cta_limits lim;
    *nlog = 0;
    if (!k->vtw)
        return GS_OK;
    if (n > 0x7FFFFFFFu) {
        free(params);
        return host_seterr(g, GS_ERR_LAUNCH, "launch %s: %llu logical TBs: VTW's 32-bit TB index "
                      "holds at most 2^31 - 1", p->name, (unsigned long long)n);
    }
    /* a virtual TB per CTA the SMs hold: under VT its active and inactive ones (VT swaps
       them), else the resident ones */
    cta_limits(&g->conf, block.x * block.y * block.z, p->regs_per_thread,
               fsim_shared_bytes(p, dyn), &lim);
    res = (uint64_t)lim.vt * g->conf.num_sms;
    put_u32(params, k->vx.off_nctaid[0], grid->x);
    put_u32(params, k->vx.off_nctaid[1], grid->y);
    put_u32(params, k->vx.off_nctaid[2], grid->z);
    put_u32(params, k->vx.off_nlog, (uint32_t)n);
    *nlog = (uint32_t)n;
    grid->x = (uint32_t)(res < n ? res : n);
    grid->y = grid->z = 1;
    if (k->vx.off_nvirt >= 0)
        put_u32(params, k->vx.off_nvirt, grid->x);
    return GS_OK;
}

int gs_bbv(struct gs_gpu *g, FILE *out, int csv)
{
    if (!g || !out)
        return g ? host_seterr(g, GS_ERR_INVALID_VALUE, "gs_bbv: null FILE") : GS_ERR_INVALID_VALUE;
    if (g->conf.vtw != VTW_OFF)
        return host_seterr(g, GS_ERR_CONFIG, "gs_bbv: per-thread BBVs need vtw = off (under vtw = %s "
                      "a CTA runs many logical TBs, its threads are not the grid's)",
                      g->conf.vtw == VTW_HW ? "hw" : "sw");
    if (!csv && bbv_write_magic(out))
        return host_seterr(g, GS_ERR_INVALID_VALUE, "gs_bbv: cannot write the BBV file");
    g->bbv_out = out;
    g->bbv_csv = csv;
    return GS_OK;
}

/* gs_bbv's part of a launch: set up the counts and the probe sink (b->count NULL: off). */
static int bbv_launch_begin(struct gs_gpu *g, const struct gs_kernel *k, const char *kernel,
                            struct gs_dim3 grid, struct gs_dim3 block, struct bbv *b,
                            struct probe_sink *sink)
{
    memset(b, 0, sizeof *b);
    if (!g->bbv_out)
        return GS_OK;
    if (bbv_begin(b, kernel, &k->prog, &k->flow, &g->conf, grid, block, g->err, g->errcap))
        return GS_ERR_OUT_OF_MEMORY;
    *sink = (struct probe_sink){bbv_sink, b};
    return GS_OK;
}

static int bbv_launch_end(struct gs_gpu *g, struct bbv *b, int rc)
{
    if (!b->count)
        return rc;
    bbv_end(b, &g->last, g->conf.num_sms);
    if (rc == GS_OK && b->stray)
        rc = host_seterr(g, GS_ERR_KERNEL, "bbv: launch of %s: %llu probe events named a thread "
                    "outside the grid", b->kernel, (unsigned long long)b->stray);
    if (rc == GS_OK && bbv_write(g->bbv_out, b, g->bbv_csv, g->bbv_n++))
        rc = host_seterr(g, GS_ERR_INVALID_VALUE, "bbv: cannot write %s's BBVs", b->kernel);
    bbv_free(b);
    return rc;
}

/* m is one of g's modules (compared as a pointer: a module of another GPU, live or freed
   with it, is never read). */
int host_module_of(const struct gs_gpu *g, const struct gs_module *m)
{
    for (unsigned i = 0; i < g->nmodules; i++)
        if (g->modules[i] == m)
            return 1;
    return 0;
}

/* Run the launch on the configuration's model (the timing model with the GPU's state around
   it: the recording, what the copies left in L2, the memory system kept); a message longer
   than g->err's room (the deadlock dump) is kept whole. */
static int run_model(struct gs_gpu *g, const struct kernel_launch *l)
{
    struct gpu_env env = { .rec = g->rec.block >= 0 ? &g->rec : NULL, .l2_copied = g->copied,
                           .ms_keep = &g->ms };
    char *whole = NULL;
    int rc;
    if (g->conf.model == MODEL_TIMING)
        rc = gpu_run(l, &env, &g->last, g->err, g->errcap, &whole) ? GS_ERR_KERNEL : GS_OK;
    else
        rc = fsim_run(l, &g->last, g->err, g->errcap) ? GS_ERR_KERNEL : GS_OK;
    if (whole)
        rc = host_seterr(g, GS_ERR_KERNEL, "%s", whole);
    free(whole);
    return rc;
}

int gs_launch(struct gs_gpu *g, struct gs_module *m, const char *kernel, struct gs_dim3 grid,
              struct gs_dim3 block, uint32_t dyn_smem, const struct gs_arg *args, int nargs)
{
    struct gs_kernel *k = NULL;
    struct kernel_launch l;
    struct bbv bbv;
    struct probe_sink sink;
    uint64_t map = 0;
    struct gs_dim3 lgrid = grid;          /* the logical grid (VTW launches fewer CTAs) */
    uint8_t *params = NULL;
    double t0;
    int rc;
    if (!g)
        return GS_ERR_INVALID_VALUE;
    if (!m || !kernel || (nargs > 0 && !args))
        return g->last_launch_status = host_seterr(g, GS_ERR_INVALID_VALUE, "gs_launch: null pointer");
    if (!host_module_of(g, m))
        return g->last_launch_status = host_seterr(g, GS_ERR_INVALID_VALUE, "gs_launch: kernel '%s': "
                                              "the module was not loaded on this GPU (a module "
                                              "belongs to the GPU gs_load_ptx loaded it on)",
                                              kernel);
    if ((rc = host_get_kernel(g, m, kernel, &k)) != GS_OK ||
        (rc = host_redir_launch(g, m, &k, grid, block, dyn_smem, &map)) != GS_OK ||
        (rc = check_dims(g, kernel, grid, block)) != GS_OK ||
        (rc = check_ntid(g, k, block)) != GS_OK ||
        (rc = check_resources(g, &k->prog, block, dyn_smem)) != GS_OK ||
        (rc = build_params(g, k, args, nargs, &params)) != GS_OK ||
        (rc = vtw_launch(g, k, block, dyn_smem, params, &grid, &l.vtw_nlog)) != GS_OK) {
        if (map)                      /* (build_params and vtw_launch free params on failure) */
            gm_free(g->gmem, map);
        return g->last_launch_status = rc;
    }
    if (map)
        memcpy(params + k->redir_off, &map, 8);
    memset(&g->last, 0, sizeof g->last);
    set_geometry(g, m, k, lgrid, block, dyn_smem);
    g->last.vtw_ctas = k->vtw ? grid.x : 0;
    l.prog = &k->prog; l.flow = &k->flow; l.conf = &g->conf; l.gmem = g->gmem;
    l.params = params; l.grid = grid; l.block = block; l.dyn_smem = dyn_smem;
    l.sink = NULL;
    l.pf = &g->pf;
    if ((rc = bbv_launch_begin(g, k, kernel, grid, block, &bbv, &sink)) != GS_OK) {
        free(params);
        return g->last_launch_status = rc;
    }
    if (bbv.count)
        l.sink = &sink;
    t0 = now();
    rc = run_model(g, &l);
    g->last.host_seconds = now() - t0;
    pf_flush(&g->pf);                 /* what it printed, faulted or not */
    l2copy_clear(g->copied);
    g->last.launches = 1;
    free(params);
    if (map)
        gm_free(g->gmem, map);
    rc = bbv_launch_end(g, &bbv, rc);
    gs_stats_add(&g->total, &g->last);
    if (g->on_launch)
        g->on_launch(g, kernel, dyn_smem, rc, g->on_launch_arg);
    if (g->rec.block >= 0 && rc == GS_OK && (rc = write_record(g)) != GS_OK)
        return g->last_launch_status = rc;
    return g->last_launch_status = rc;
}

void gs_on_launch(struct gs_gpu *g, gs_launch_fn *fn, void *arg)
{
    if (g) {
        g->on_launch = fn;
        g->on_launch_arg = arg;
    }
}

int gs_synchronize(struct gs_gpu *g)
{
    return g ? g->last_launch_status : GS_ERR_INVALID_VALUE;
}

/* Without a GPU the statistics are all zero (nothing is read through a null pointer). */
void gs_kernel_stats(const struct gs_gpu *g, struct gs_stats *s)
{
    if (s)
        *s = g ? g->last : (struct gs_stats){0};
}

void gs_total_stats(const struct gs_gpu *g, struct gs_stats *s)
{
    if (s)
        *s = g ? g->total : (struct gs_stats){0};
}

void gs_reset_stats(struct gs_gpu *g)
{
    if (!g)
        return;
    memset(&g->last, 0, sizeof g->last);
    memset(&g->total, 0, sizeof g->total);
}
