/*
 * kres.c -- registers per thread of a kernel launch (see kres.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kres.h"
#include "base/config.h"
#include "ptx/ptx.h"
#include "ptx/ptx_res.h"
#include "ptx/redir.h"
#include "ptx/vtwx.h"

static const char *const src_names[KRES_COUNT] = { "estimate", "recorded", "ptxas", "override" };

const char *kres_src_name(unsigned src)
{
    return src < KRES_COUNT ? src_names[src] : "?";
}

uint32_t kres_regs_for(const struct gpu_config *c, uint32_t threads, uint32_t ctas)
{
    uint64_t warps = ((uint64_t)threads + 31) / 32 * (ctas ? ctas : 1);
    uint64_t unit = c->reg_alloc_unit ? c->reg_alloc_unit : 1;
    uint64_t per_warp = warps ? c->regs_per_sm / warps / unit * unit : c->regs_per_sm;
    return (uint32_t)(per_warp / 32);
}

/* The estimate, lowered to what the kernel's directives allow the compiler. */
static uint32_t directed(const struct gpu_config *c, const struct ptx_func *fn, uint32_t est)
{
    const uint32_t *nt = fn && fn->reqntid[0] ? fn->reqntid : fn ? fn->maxntid : NULL;
    if (fn && fn->maxnreg && est > fn->maxnreg)
        est = fn->maxnreg;
    if (fn && fn->minnctapersm && nt && nt[0]) {
        uint32_t lim = kres_regs_for(c, nt[0] * nt[1] * nt[2], fn->minnctapersm);
        if (lim && est > lim)
            est = lim;
    }
    return est;
}

void kres_choose(const struct gpu_config *c, const struct ptx_func *fn, uint32_t estimate,
                 const struct ptx_res_kernel *rk, enum kres_src rk_src, struct kres *o)
{
    o->estimate = estimate;
    o->compiler = rk ? rk->regs : 0;
    o->capped = 0;
    if (c->regs_per_thread) {
        o->regs = c->regs_per_thread;
        o->src = KRES_OVERRIDE;
    } else if (rk) {
        o->regs = rk->regs;
        o->src = (uint8_t)rk_src;
    } else {
        o->regs = directed(c, fn, estimate);
        o->src = KRES_ESTIMATE;
    }
    if (o->regs > c->max_regs_per_thread) {
        o->regs = c->max_regs_per_thread;
        o->capped = 1;
    }
}

/* The record next to ptx_path: 0 used, 1 none or stale (why in note), -1 malformed. */
static int read_record(const struct ptx_module *mod, const char *ptx_path, struct ptx_res *r,
                       char *note, size_t notelen, char *err, size_t errlen)
{
    char path[256];
    int rc;
    ptx_res_path(ptx_path, path, sizeof path);
    if ((rc = ptx_res_read(path, r, err, errlen)) < 0)
        return -1;
    if (rc)
        snprintf(note, notelen, "no record %s", path);
    else if (r->ptx_hash != mod->text_hash)
        snprintf(note, notelen, "%s is stale (the PTX changed since it was recorded; make ptx "
                 "or gpusim res renews it)", path), rc = 1;
    else
        snprintf(note, notelen, "%s (%s, %s)", path, r->target, r->tool);
    return rc;
}

/* PTX text: a record in res_dir carrying the text's hash ("recorded"). 0 used, 1 none. */
static int text_record(const struct ptx_module *mod, const char *res_dir, struct ptx_res *r,
                       char *note, size_t notelen, char *path, size_t pathlen)
{
    if (!res_dir || !res_dir[0]) {
        snprintf(note, notelen, "no record (PTX given as text, no record directory)");
        return 1;
    }
    if (ptx_res_find_record(res_dir, mod->text_hash, r, path, pathlen)) {
        snprintf(note, notelen, "no record with the PTX's hash %016llx in %s",
                 (unsigned long long)mod->text_hash, res_dir);
        return 1;
    }
    snprintf(note, notelen, "%s (its ptx_fnv1a is the PTX text's; %s, %s)", path, r->target,
             r->tool);
    return 0;
}

/* PTX text: ptxas's answer, from the cache when it holds this text for this ptxas version,
   else ptxas run now and its answer cached. 0 used (note says which), 1 no ptxas, -1 ptxas
   failed (msg). */
static int text_ptxas(const struct ptx_module *mod, const char *text, size_t len,
                      struct ptx_res *r, char *note, size_t notelen, char *msg, size_t msglen)
{
    char version[128], path[1024];
    int rc;
    if (ptx_res_ptxas_version(version, sizeof version))
        return 1;
    if (ptx_res_cache_get(mod->text_hash, version, r, path, sizeof path) == 0) {
        snprintf(note, notelen, "ptxas -v --gpu-name %s, its answer cached in %s (%s)",
                 r->target, path, r->tool);
        return 0;
    }
    if ((rc = ptx_res_run_ptxas_text(text, len, mod->target, r, msg, msglen)) != 0)
        return rc;
    r->ptx_hash = mod->text_hash;
    if (!strcmp(r->tool, version) && ptx_res_cache_put(r, version, path, sizeof path) == 0)
        snprintf(note, notelen, "ptxas -v --gpu-name %s run at load (%s), its answer cached in "
                 "%s", r->target, r->tool, path);
    else
        snprintf(note, notelen, "ptxas -v --gpu-name %s run at load (%s; not cached: no cache "
                 "directory or cannot write it)", r->target, r->tool);
    return 0;
}

/* The text branch of kres_load. */
static int load_text(const struct gpu_config *c, const struct ptx_module *mod, const char *text,
                     size_t len, const char *res_dir, struct ptx_res *r, uint8_t *src,
                     char *note, size_t notelen, char *rec, size_t reclen)
{
    char why[1100], msg[256], got[1500];
    int rc;
    if (text_record(mod, res_dir, r, why, sizeof why, rec, reclen) == 0) {
        *src = KRES_RECORDED;
        snprintf(note, notelen, "%s", why);
        return 0;
    }
    if (c->regs_source == REGS_RECORDED) {
        snprintf(note, notelen, "%s; regs_source = recorded", why);
        return 1;
    }
    rc = text_ptxas(mod, text, len, r, got, sizeof got, msg, sizeof msg);
    if (rc == 0) {
        *src = KRES_PTXAS;
        snprintf(note, notelen, "%s; %s", got, why);
        return 0;
    }
    snprintf(note, notelen, "%s; %s", why, rc > 0 ? "ptxas not installed" : msg);
    return 1;
}

int kres_load(const struct gpu_config *c, const struct ptx_module *mod, const char *ptx_path,
              const char *text, size_t len, const char *res_dir, struct ptx_res **res,
              uint8_t *src, char *note, size_t notelen, char *rec, size_t reclen,
              char *err, size_t errlen)
{
    char why[512], msg[256];
    struct ptx_res *r;
    int rc;
    *res = NULL;
    if (reclen)
        rec[0] = 0;
    *src = KRES_ESTIMATE;
    if (c->regs_source == REGS_ESTIMATE) {
        snprintf(note, notelen, "regs_source = estimate");
        return 0;
    }
    if (!(r = calloc(1, sizeof *r))) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    if (!ptx_path) {
        if (load_text(c, mod, text, len, res_dir, r, src, note, notelen, rec, reclen) == 0)
            *res = r;
        else
            free(r);
        if (*src != KRES_RECORDED && reclen)
            rec[0] = 0;
        return 0;
    }
    rc = read_record(mod, ptx_path, r, why, sizeof why, err, errlen);
    if (rc == 0) {
        *res = r; *src = KRES_RECORDED;
        snprintf(note, notelen, "%s", why);
        return 0;
    }
    if (rc < 0 || c->regs_source == REGS_RECORDED) {
        free(r);
        snprintf(note, notelen, "%s; regs_source = recorded", why);
        return rc < 0 ? -1 : 0;
    }
    rc = ptx_res_run_ptxas(ptx_path, mod->target, r, msg, sizeof msg);
    if (rc == 0) {
        r->ptx_hash = mod->text_hash;
        *res = r; *src = KRES_PTXAS;
        snprintf(note, notelen, "ptxas -v --gpu-name %s run at load (%s); %s", r->target, r->tool,
                 why);
        return 0;
    }
    free(r);
    snprintf(note, notelen, "%s; %s", why, rc > 0 ? "ptxas not installed" : msg);
    return 0;
}

/* A transform's registers per thread: entry `name` of the record at `path` when it was
   compiled from exactly `text` and the record's ptx_hash is the module's; else the
   original's count plus `grow`; an override stays. Capped at max_regs_per_thread. The note
   says which and why (`what`: the transform's name, `file`: the record's, for the notes). */
static uint32_t kres_xform(const struct gpu_config *c, const struct kres *orig,
                           const char *path, const char *name, const char *what,
                           const char *file, uint64_t ptx_hash, const char *text, int32_t grow,
                           char *note, size_t notelen)
{
    char why[1024], err[256];
    struct ptx_res *r = calloc(1, sizeof *r);
    const struct ptx_res_kernel *rk = NULL;
    uint64_t h = text ? ptx_res_hash(text, strlen(text)) : 0;
    int64_t regs;
    if (orig->src == KRES_OVERRIDE || c->regs_source == REGS_ESTIMATE || !path || !r)
        snprintf(why, sizeof why, "%s", orig->src == KRES_OVERRIDE ? "override" : !path ?
                 "PTX given as text, without a record" : r ? "regs_source = estimate" :
                 "out of host memory");
    else {
        int rc = ptx_res_read(path, r, err, sizeof err);
        rk = rc ? NULL : ptx_res_find(r, name);
        if (rc)
            snprintf(why, sizeof why, "%s", rc > 0 ? file : err);
        else if (!rk || r->ptx_hash != ptx_hash || rk->text_hash != h)
            snprintf(why, sizeof why, "%s %s (make ptx-res renews it)", path,
                     rk ? "is stale" : "has no entry for it"), rk = NULL;
        else
            snprintf(why, sizeof why, "%s entry %s", path, name);
    }
    if (orig->src == KRES_OVERRIDE)
        regs = orig->regs;
    else if (rk)
        regs = rk->regs;
    else
        regs = (int64_t)orig->regs + grow > 1 ? (int64_t)orig->regs + grow : 1;
    if (regs > c->max_regs_per_thread)
        regs = c->max_regs_per_thread;
    snprintf(note, notelen, "%s: %lld per thread, %s%s", what, (long long)regs,
             rk ? "ptxas on the transform, " : orig->src == KRES_OVERRIDE ? "" :
             "the original's + the liveness estimate's growth; ", why);
    free(r);
    return (uint32_t)regs;
}

void kres_vtw_path(const char *ptx_path, const char *rec, char *out, size_t outlen)
{
    size_t n = rec ? strlen(rec) : 0;
    if (ptx_path)
        vtwx_res_path(ptx_path, out, outlen);
    else if (n > 4 && !strcmp(rec + n - 4, ".res"))
        snprintf(out, outlen, "%.*s.vtw.res", (int)(n - 4), rec);
    else if (outlen)
        out[0] = 0;
}

uint32_t kres_vtw(const struct gpu_config *c, const struct kres *orig, const char *path,
                  const char *kernel, const char *form, uint64_t ptx_hash, const char *text,
                  int32_t grow, char *note, size_t notelen)
{
    char name[160], what[64];
    snprintf(name, sizeof name, "%s.%s", kernel, form);
    snprintf(what, sizeof what, "VTW %s form", form);
    return kres_xform(c, orig, path && path[0] ? path : NULL, name, what,
                      "no record FILE.vtw.res", ptx_hash, text, grow, note, notelen);
}

uint32_t kres_redir(const struct gpu_config *c, const struct kres *orig, const char *ptx_path,
                    const char *kernel, const char *form, uint64_t ptx_hash, const char *text,
                    int32_t grow, char *note, size_t notelen)
{
    char path[512], name[160], what[64];
    snprintf(name, sizeof name, "%s.%s", kernel, form);
    snprintf(what, sizeof what, "redirected, form %s", form);
    if (ptx_path)
        redir_res_path(ptx_path, path, sizeof path);
    return kres_xform(c, orig, ptx_path ? path : NULL, name, what, "no record FILE.redir.res",
                      ptx_hash, text, grow, note, notelen);
}
