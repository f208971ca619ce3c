/*
 * host_redir.c -- the host API's reference redirection (gpusim.h gs_redirect; 001's thread
 * regrouping applied by a PTX rewrite, ptx/redir.h): the permutations checked, and at a launch
 * the kernel's redirected variant for the launch's shape (made once, its registers from ptxas
 * where recorded) with D[] in device memory. Host-side code; host_priv.h has the objects.
 */
#include <stdlib.h>
#include <string.h>
#include "func/gmem.h"
#include "host_priv.h"

/* perm[0 .. len) is a permutation of 0 .. len - 1 (launch i's, for the message). GS_OK, or
   GS_ERR_INVALID_VALUE with a message naming the launch, the slot and the value. */
static int check_perm(struct gs_gpu *g, unsigned i, const uint32_t *perm, uint64_t len)
{
    uint64_t *seen, p, q;
    if (len == 0 || len >= (1ull << 32))
        return host_seterr(g, GS_ERR_INVALID_VALUE, "gs_redirect: launch %u: a regrouping of %llu "
                      "threads (1 to 2^32 - 1)", i, (unsigned long long)len);
    if (!(seen = calloc((size_t)(len + 63) / 64, sizeof *seen)))
        return host_seterr(g, GS_ERR_OUT_OF_MEMORY, "out of host memory");
    for (p = 0; p < len; p++) {
        uint32_t v = perm[p];
        if (v >= len || (seen[v / 64] >> (v % 64) & 1))
            break;
        seen[v / 64] |= 1ull << (v % 64);
    }
    free(seen);
    if (p == len)
        return GS_OK;
    if (perm[p] >= len)
        return host_seterr(g, GS_ERR_INVALID_VALUE, "gs_redirect: launch %u: slot %llu's thread %u "
                      "is not below the regrouping's %llu threads (not a permutation)", i,
                      (unsigned long long)p, perm[p], (unsigned long long)len);
    for (q = 0; perm[q] != perm[p]; q++) {}
    return host_seterr(g, GS_ERR_INVALID_VALUE, "gs_redirect: launch %u: thread %u is in slots %llu "
                  "and %llu (not a permutation)", i, perm[p], (unsigned long long)q,
                  (unsigned long long)p);
}

int gs_redirect(struct gs_gpu *g, const uint32_t *const *perm, const uint64_t *len, unsigned n)
{
    int rc;
    if (!g || (n && (!perm || !len)))
        return g ? host_seterr(g, GS_ERR_INVALID_VALUE, "gs_redirect: null pointer") :
                   GS_ERR_INVALID_VALUE;
    if (g->conf.vtw != VTW_OFF)
        return host_seterr(g, GS_ERR_CONFIG, "gs_redirect: reference redirection needs vtw = off "
                      "(both rewrite the kernel's thread indices)");
    for (unsigned i = 0; i < n; i++)
        if (perm[i] && (rc = check_perm(g, i, perm[i], len[i])) != GS_OK)
            return rc;
    g->rd_perm = perm;
    g->rd_len = len;
    g->rd_n = n;
    g->rd_next = 0;
    return GS_OK;
}

/* Form f of the redirected variant of kernel k (m's function i), made once. Its registers
   per thread: ptxas's count of the form from FILE.redir.res when recorded for exactly this
   text, else the original's count plus the liveness estimate's growth (kres_redir). */
static int redir_variant(struct gs_gpu *g, struct gs_module *m, struct gs_kernel *k, unsigned f)
{
    struct gs_kernel *r;
    char *text;
    int32_t grow;
    if (k->redir[f])
        return GS_OK;
    r = calloc(1, sizeof *r);
    if (!r)
        return host_seterr(g, GS_ERR_OUT_OF_MEMORY, "out of host memory");
    if (host_link_kernel(g, m, (uint32_t)(k - m->kernels), r) != GS_OK ||
        redir_apply(&r->prog, f, &r->redir_off, g->err, g->errcap) ||
        (flow_free(&r->flow), flow_build(&r->prog, &r->flow, g->err, g->errcap))) {
        host_kernel_free(r);
        free(r);
        return GS_ERR_LAUNCH;
    }
    r->linked = 1;
    r->vtw_hidden = 1;
    r->redirected = 1;
    grow = (int32_t)r->prog.regs_per_thread - (int32_t)r->kres.estimate;
    text = m->path[0] ? redir_ptxas_text(&r->prog, g->err, g->errcap) : NULL;
    r->kres.regs = kres_redir(&g->conf, &r->kres, m->path[0] ? m->path : NULL, r->prog.name,
                              redir_form_name(f), m->mod.text_hash, text, grow, r->rd_note,
                              sizeof r->rd_note);
    free(text);
    r->prog.regs_per_thread = r->kres.regs;
    k->redir[f] = r;
    return GS_OK;
}

/* gs_redirect's part of a launch: the variant to run and D[] in device memory (*map 0: this
   launch runs unchanged). D[p] is launch i's perm[p], the logical thread of slot p. */
int host_redir_launch(struct gs_gpu *g, struct gs_module *m, struct gs_kernel **k,
                        struct gs_dim3 grid, struct gs_dim3 block, uint32_t dyn, uint64_t *map)
{
    unsigned i = g->rd_next++;
    uint64_t n = (uint64_t)grid.x * grid.y * grid.z * block.x * block.y * block.z, bytes;
    const uint32_t gd[3] = {grid.x, grid.y, grid.z}, bd[3] = {block.x, block.y, block.z};
    unsigned f = redir_form(gd, bd);
    int rc;
    *map = 0;
    if (i >= g->rd_n || !g->rd_perm[i])
        return GS_OK;
    if (dyn)
        return host_seterr(g, GS_ERR_LAUNCH, "redirect %s: launch %u has %u bytes of dynamic shared "
                      "memory: its CTAs' threads would no longer be one logical CTA's",
                      (*k)->prog.name, i, dyn);
    if (g->rd_len[i] != n || n >= (1ull << 32))
        return host_seterr(g, GS_ERR_LAUNCH, "redirect %s: launch %u: a regrouping of %llu threads "
                      "for a launch of %llu (at most 2^32 - 1)", (*k)->prog.name, i,
                      (unsigned long long)g->rd_len[i], (unsigned long long)n);
    if ((rc = redir_variant(g, m, *k, f)) != GS_OK)
        return rc;
    bytes = n * REDIR_D_BYTES;
    if (gm_alloc(g->gmem, bytes, map))
        return host_seterr(g, GS_ERR_OUT_OF_MEMORY, "launch %s: no device memory for D[]",
                      (*k)->prog.name);
    memcpy(gm_ptr(g->gmem, *map, bytes), g->rd_perm[i], bytes);
    *k = (*k)->redir[f];
    return GS_OK;
}
