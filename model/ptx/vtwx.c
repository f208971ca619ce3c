/*
 * vtwx.c -- the VTW transform (interface and the shape of the result: vtwx.h; source:
 * 000_0da6b8b480bd0740.txt Sections 4.1-4.4; docs/ptx.md "VTW transform").
 *
 * Not a hardware block: load-time program surgery with the rewriter.  Steps: analyse the
 * original (special registers read, exits, shared memory and barriers, the instructions to
 * hoist), add the hidden parameters and the virtual registers, substitute the special
 * registers in the original code, insert prologue + head at pc 0 (branches to the old pc 0
 * keep reaching the body), append the sw form's update block, turn every exit of the body
 * into a branch, delete the hoisted originals.  The rewriter checks every edit; the caller
 * prints the result and parses it back to have the types checked (tests/test_vtwx.c).
 */
#include "vtwx.h"
#include "ptx_rewrite.h"
#include "ptx_res.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VX_MAX_HEAD 64          /* prologue + head instructions besides the hoisted ones */

/* What the transform needs to know of the original program, and the registers it adds. */
struct vx {
    struct ptx_prog *p;
    enum vtwx_form form;
    uint32_t n0;                 /* instructions of the original */
    uint8_t  cta[3], ncta[3], tid[3];   /* components read: %ctaid, %nctaid, %tid */
    uint8_t  *hoist;             /* per original pc: moved to the prologue */
    uint32_t nhoist;
    uint32_t hoist_lo;           /* where the prologue holds them */
    int32_t  r_tb, r_p, r_nlog, r_nvirt, r_t, r_g[3], r_gxy, r_ntx, r_nty, r_ntxy, r_vtid;
    int32_t  r_cta[3], r_tid[3];
    int32_t  r_ntz, r_pnd;       /* %ntid.z (hw, %tid read); the launch is not 1-D where the
                                    body reads its indices (the decomposition's branch) */
    uint32_t slow_at;            /* the decomposition block's first instruction (in the new code) */
};

enum vtwx_form vtwx_form_by_name(const char *name)
{
    if (name && !strcmp(name, "hw"))
        return VTWX_HW;
    if (name && !strcmp(name, "sw"))
        return VTWX_SW;
    return (enum vtwx_form)0;
}

/* ------------------------------------------------------------------ analysis */


int64_t vtwx_ext_pc(const struct ptx_prog *p)
{
    for (uint32_t pc = 0; pc < p->ninsns; pc++)
        if (p->insns[pc].op == OP_NEXTTB || p->insns[pc].op == OP_NEXTIDX)
            return pc;
    return -1;
}

/* The special registers read; refusals. */
static int scan(struct vx *x, struct vtwx_info *info, char *err, size_t errlen)
{
    const struct ptx_prog *p = x->p;
    uint32_t exits = 0;
    for (uint32_t i = 0; i < p->nparams; i++)
        if (!strncmp(p->params[i].name, "__vtw_", 6))
            return ptx_errf(err, errlen, "vtw %s: already transformed (parameter %s)", p->name,
                           p->params[i].name);
    int64_t ext = vtwx_ext_pc(p);
    if (ext >= 0)
        return ptx_errf(err, errlen, "vtw %s: already transformed (%s at pc %u)", p->name,
                        ptx_op_name((enum ptx_op)p->insns[ext].op), (unsigned)ext);
    for (uint32_t pc = 0; pc < p->ninsns; pc++) {
        const struct ptx_insn *in = &p->insns[pc];
        exits += in->op == OP_EXIT;
        info->uses_bar |= in->op == OP_BAR;
        for (unsigned k = 0; k < in->nopd; k++) {
            const struct ptx_operand *o = &in->opd[k];
            if (o->kind != OPD_SREG || o->comp > 2)
                continue;
            if (o->sreg == SR_CTAID) x->cta[o->comp] = 1;
            if (o->sreg == SR_NCTAID) x->ncta[o->comp] = 1;
            if (o->sreg == SR_TID) x->tid[o->comp] = 1;
            if (o->sreg == SR_WARPID && x->form == VTWX_HW)
                return ptx_errf(err, errlen, "vtw %s: pc %u reads %%warpid, which the hw form "
                               "cannot virtualise (a virtual warp may take another logical "
                               "warp's threads)", p->name, (unsigned)pc);
        }
    }
    if (!exits)
        return ptx_errf(err, errlen, "vtw %s: the kernel has no exit", p->name);
    info->uses_shared = (uint8_t)ptx_prog_uses_shared(p);
    return 0;
}

static int pure_op(const struct ptx_prog *p, const struct ptx_insn *in)
{
    switch (in->op) {
    case OP_MOV: case OP_CVTA: case OP_CVT:
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_FMA: case OP_DIV: case OP_REM:
    case OP_MIN: case OP_MAX: case OP_ABS: case OP_NEG: case OP_MUL24: case OP_MAD24:
    case OP_SAD: case OP_COPYSIGN:
    case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT: case OP_SHL: case OP_SHR:
    case OP_POPC: case OP_CLZ: case OP_BREV: case OP_BFE: case OP_BFI: case OP_PRMT:
    case OP_BFIND:
    case OP_SETP: case OP_SET: case OP_SELP: case OP_SLCT:
    case OP_SQRT: case OP_RSQRT: case OP_RCP: case OP_EX2: case OP_LG2: case OP_SIN: case OP_COS:
    case OP_TANH:
        return 1;
    case OP_LD:      /* a kernel parameter (not the param scratch of inlined calls) */
        return in->space == PS_PARAM && in->opd[1].kind == OPD_ADDR && in->opd[1].reg < 0
               && in->opd[1].imm >= 0 && (uint64_t)in->opd[1].imm < p->param_size;
    default:
        return 0;
    }
}

/* Operands other than registers: immediates, folded addresses, %ntid, %nctaid only. */
static int invariant_opds(const struct ptx_insn *in)
{
    for (unsigned k = 0; k < in->nopd; k++) {
        const struct ptx_operand *o = &in->opd[k];
        if (o->kind == OPD_SREG && o->sreg != SR_NTID && o->sreg != SR_NCTAID)
            return 0;
        if (o->kind == OPD_ADDR && o->reg >= 0)
            return 0;
    }
    return 1;
}

/* Section 4.3.1's loop-independent code motion: which instructions of the first basic block
   move to the prologue (the rule: vtwx.h, docs/ptx.md). */
static int pick_hoisted(struct vx *x)
{
    const struct ptx_prog *p = x->p;
    uint32_t n = p->ninsns;
    uint32_t *ndef = calloc(p->nregs ? p->nregs : 1, sizeof *ndef);
    uint8_t *inv = calloc(p->nregs ? p->nregs : 1, 1), *target = calloc(n, 1);
    x->hoist = calloc(n, 1);
    if (!ndef || !inv || !target || !x->hoist)
        return free(ndef), free(inv), free(target), -1;
    int32_t defs[PTX_INSN_MAX_REGS], uses[PTX_INSN_MAX_REGS];
    int nd, nu;
    for (uint32_t pc = 0; pc < n; pc++) {
        const struct ptx_insn *in = &p->insns[pc];
        if (in->op == OP_BRA && in->opd[0].imm >= 0 && (uint64_t)in->opd[0].imm < n)
            target[in->opd[0].imm] = 1;
        ptx_insn_regs(in, defs, &nd, uses, &nu);
        for (int k = 0; k < nd; k++)
            ndef[defs[k]]++;
    }
    for (uint32_t pc = 0; pc < n && !target[pc]; pc++) {
        const struct ptx_insn *in = &p->insns[pc];
        if (in->op == OP_BRA || in->op == OP_EXIT)
            break;
        if (in->guard >= 0 || !pure_op(p, in) || !invariant_opds(in))
            continue;
        ptx_insn_regs(in, defs, &nd, uses, &nu);
        int ok = nd > 0;
        for (int k = 0; k < nu && ok; k++)
            ok = inv[uses[k]];
        for (int k = 0; k < nd && ok; k++)
            ok = ndef[defs[k]] == 1;
        if (!ok)
            continue;
        for (int k = 0; k < nd; k++)
            inv[defs[k]] = 1;
        x->hoist[pc] = 1;
        x->nhoist++;
    }
    free(ndef), free(inv), free(target);
    return 0;
}

/* ------------------------------------------------------------------ building */

static const char *const k_xyz = "xyz";

/* The body reads a %tid component the hw form virtualises. */
static int tid_read(const struct vx *x)
{
    return x->form == VTWX_HW && (x->tid[0] || x->tid[1] || x->tid[2]);
}

/* The hidden parameters and the virtual registers (only those the program needs). */
static void add_params_regs(struct vx *x, struct ptx_rw *rw, struct vtwx_info *info)
{
    static const char *const pn[3] = {VTWX_PARAM_NCTAID_X, VTWX_PARAM_NCTAID_Y,
                                      VTWX_PARAM_NCTAID_Z};
    char nm[32];
    for (int c = 0; c < 3; c++)
        info->off_nctaid[c] = ptx_rw_add_param(rw, pn[c], PT_U32, 0, 0);
    info->off_nlog = ptx_rw_add_param(rw, VTWX_PARAM_NLOG, PT_U32, 0, 0);
    info->off_nvirt = x->form == VTWX_SW ? ptx_rw_add_param(rw, VTWX_PARAM_NVIRT, PT_U32, 0, 0) : -1;
    int any_cta = x->cta[0] || x->cta[1] || x->cta[2], hw = x->form == VTWX_HW;
    int need_g[3] = {any_cta || x->ncta[0], x->cta[1] || x->cta[2] || x->ncta[1], x->ncta[2]};
    x->r_tb = ptx_rw_add_reg(rw, PT_U32, "%vtw_tb");
    x->r_p = ptx_rw_add_reg(rw, PT_PRED, "%vtw_p");
    x->r_nlog = ptx_rw_add_reg(rw, PT_U32, "%vtw_nlog");
    x->r_nvirt = hw ? -1 : ptx_rw_add_reg(rw, PT_U32, "%vtw_nvirt");
    x->r_t = hw || x->cta[1] ? ptx_rw_add_reg(rw, PT_U32, "%vtw_t") : -1;
    for (int c = 0; c < 3; c++) {
        snprintf(nm, sizeof nm, "%%vtw_nctaid_%c", k_xyz[c]);
        x->r_g[c] = need_g[c] ? ptx_rw_add_reg(rw, PT_U32, nm) : -1;
        snprintf(nm, sizeof nm, "%%vtw_ctaid_%c", k_xyz[c]);
        x->r_cta[c] = x->cta[c] ? ptx_rw_add_reg(rw, PT_U32, nm) : -1;
        snprintf(nm, sizeof nm, "%%vtw_tid_%c", k_xyz[c]);
        x->r_tid[c] = hw && x->tid[c] ? ptx_rw_add_reg(rw, PT_U32, nm) : -1;
    }
    x->r_gxy = x->cta[2] ? ptx_rw_add_reg(rw, PT_U32, "%vtw_nctaid_xy") : -1;
    x->r_ntz = hw && tid_read(x) ? ptx_rw_add_reg(rw, PT_U32, "%vtw_ntid_z") : -1;
    x->r_pnd = any_cta || (hw && tid_read(x)) ? ptx_rw_add_reg(rw, PT_PRED, "%vtw_nd") : -1;
    x->r_ntx = hw ? ptx_rw_add_reg(rw, PT_U32, "%vtw_ntid_x") : -1;
    x->r_nty = hw ? ptx_rw_add_reg(rw, PT_U32, "%vtw_ntid_y") : -1;
    x->r_ntxy = hw && x->tid[2] ? ptx_rw_add_reg(rw, PT_U32, "%vtw_ntid_xy") : -1;
    x->r_vtid = hw ? ptx_rw_add_reg(rw, PT_U32, "%vtw_tid") : -1;
}

/* Reads of %ctaid, %nctaid (and in the hw form %tid) in the original code [0, n0). */
static void substitute(struct vx *x, struct ptx_rw *rw)
{
    for (unsigned c = 0; c < 3; c++) {
        if (x->r_cta[c] >= 0)
            ptx_rw_subst_sreg(rw, SR_CTAID, c, x->r_cta[c], 0, x->n0);
        if (x->ncta[c])
            ptx_rw_subst_sreg(rw, SR_NCTAID, c, x->r_g[c], 0, x->n0);
        if (x->r_tid[c] >= 0)
            ptx_rw_subst_sreg(rw, SR_TID, c, x->r_tid[c], 0, x->n0);
    }
}

static struct ptx_insn op3(enum ptx_op op, int32_t d, int32_t a, int32_t b)
{
    return ptx_insn_new(op, PT_U32, 3, ptx_opd_reg(d), ptx_opd_reg(a), ptx_opd_reg(b));
}

static struct ptx_insn mov_sreg(int32_t d, enum ptx_sreg s, unsigned c)
{
    return ptx_insn_new(OP_MOV, PT_U32, 2, ptx_opd_reg(d), ptx_opd_sreg(s, c));
}

/* The components d[c] (-1: not read) of linear index i split by dimensions (n0, n1):
   (i % n0, i / n0 % n1, i / n01), t a scratch register; with y read, q = i / n0 once and
   x = i - q * n0 (one division fewer on the chain). Returns the instructions written. */
static uint32_t split_index(struct ptx_insn *o, const int32_t *d, int32_t i, int32_t n0,
                            int32_t n1, int32_t n01, int32_t t)
{
    uint32_t k = 0;
    if (d[1] >= 0) {
        o[k++] = op3(OP_DIV, t, i, n0);
        o[k++] = op3(OP_REM, d[1], t, n1);
        if (d[0] >= 0) {
            o[k++] = op3(OP_MUL, d[0], t, n0);
            o[k++] = op3(OP_SUB, d[0], i, d[0]);
        }
    } else if (d[0] >= 0) {
        o[k++] = op3(OP_REM, d[0], i, n0);
    }
    if (d[2] >= 0)
        o[k++] = op3(OP_DIV, d[2], i, n01);
    return k;
}

/* The same components when the launch makes them identities (a 1-D block, a 1-D grid):
   x = i, y = z = 0. */
static uint32_t split_1d(struct ptx_insn *o, const int32_t *d, int32_t i)
{
    uint32_t k = 0;
    if (d[0] >= 0)
        o[k++] = ptx_insn_new(OP_MOV, PT_U32, 2, ptx_opd_reg(d[0]), ptx_opd_reg(i));
    for (unsigned c = 1; c < 3; c++)
        if (d[c] >= 0)
            o[k++] = ptx_insn_new(OP_MOV, PT_U32, 2, ptx_opd_reg(d[c]), ptx_opd_imm(0));
    return k;
}

/* The prologue's test of the grid's shape, after the hoisted instructions (the parameter loads
   it reads have landed by then): %vtw_nd |= the logical TBs != the grid's x (the body reads
   %ctaid). The block's test is interleaved with the linear thread index (prologue). */
static uint32_t grid_test(const struct vx *x, struct ptx_insn *o)
{
    uint32_t k = 0;
    if (x->r_cta[0] < 0 && x->r_cta[1] < 0 && x->r_cta[2] < 0)
        return 0;
    if (x->r_ntz < 0)
        return (o[0] = ptx_insn_setp(CMP_NE, PT_U32, x->r_pnd, ptx_opd_reg(x->r_nlog),
                                     ptx_opd_reg(x->r_g[0]))), 1;
    o[k++] = ptx_insn_setp(CMP_NE, PT_U32, x->r_p, ptx_opd_reg(x->r_nlog), ptx_opd_reg(x->r_g[0]));
    o[k++] = ptx_insn_new(OP_OR, PT_PRED, 3, ptx_opd_reg(x->r_pnd), ptx_opd_reg(x->r_pnd),
                          ptx_opd_reg(x->r_p));
    return k;
}

/* hw: %vtw_tid = tid.x + ntid.x * (tid.y + ntid.y * tid.z), and where the body reads %tid the
   block's test %vtw_nd = ntid.y * ntid.z != 1, the two dependence chains interleaved (a warp
   issues in order: each dependent instruction waits for its producer). */
static uint32_t thread_index(const struct vx *x, struct ptx_insn *o)
{
    uint32_t k = 0;
    int blk = x->r_ntz >= 0;
    o[k++] = mov_sreg(x->r_ntx, SR_NTID, 0);
    o[k++] = mov_sreg(x->r_nty, SR_NTID, 1);
    if (blk)
        o[k++] = mov_sreg(x->r_ntz, SR_NTID, 2);
    o[k++] = mov_sreg(x->r_vtid, SR_TID, 2);
    o[k++] = mov_sreg(x->r_t, SR_TID, 1);
    if (blk)
        o[k++] = op3(OP_MUL, x->r_ntz, x->r_nty, x->r_ntz);
    o[k] = op3(OP_MAD, x->r_vtid, x->r_vtid, x->r_nty);
    o[k].opd[3] = ptx_opd_reg(x->r_t), o[k++].nopd = 4;
    o[k++] = mov_sreg(x->r_t, SR_TID, 0);
    if (blk)
        o[k++] = ptx_insn_setp(CMP_NE, PT_U32, x->r_pnd, ptx_opd_reg(x->r_ntz), ptx_opd_imm(1));
    o[k] = op3(OP_MAD, x->r_vtid, x->r_vtid, x->r_ntx);
    o[k].opd[3] = ptx_opd_reg(x->r_t), o[k++].nopd = 4;
    if (x->r_ntxy >= 0)
        o[k++] = op3(OP_MUL, x->r_ntxy, x->r_ntx, x->r_nty);
    return k;
}

/* Prologue: the hidden parameters, hw: the linear thread index, the hoisted instructions,
   sw: the first virtual TB index.  Returns the instructions written. */
static uint32_t prologue(struct vx *x, const struct vtwx_info *info, struct ptx_insn *o)
{
    const struct ptx_prog *p = x->p;
    uint32_t k = 0;
    for (int c = 0; c < 3; c++)
        if (x->r_g[c] >= 0)
            o[k++] = ptx_insn_ld(PS_PARAM, PT_U32, x->r_g[c],
                                 ptx_opd_addr(-1, info->off_nctaid[c], PS_PARAM));
    o[k++] = ptx_insn_ld(PS_PARAM, PT_U32, x->r_nlog, ptx_opd_addr(-1, info->off_nlog, PS_PARAM));
    if (x->r_nvirt >= 0)
        o[k++] = ptx_insn_ld(PS_PARAM, PT_U32, x->r_nvirt,
                             ptx_opd_addr(-1, info->off_nvirt, PS_PARAM));
    if (x->r_gxy >= 0)
        o[k++] = op3(OP_MUL, x->r_gxy, x->r_g[0], x->r_g[1]);
    if (x->form == VTWX_HW)
        k += thread_index(x, o + k);
    x->hoist_lo = k;
    for (uint32_t pc = 0; pc < x->n0; pc++)
        if (x->hoist[pc])
            o[k++] = p->insns[pc];
    k += grid_test(x, o + k);
    if (x->form == VTWX_SW)
        o[k++] = mov_sreg(x->r_tb, SR_CTAID, 0);
    return k;
}

/* Head H: the next logical TB (hw), the loop exit, the next thread index (hw), the barrier
   of Section 4.4 (sw with shared memory), the virtual indices the body reads -- as moves, with
   a branch to their decomposition (slow_split) when the launch is not 1-D. */
static uint32_t head(struct vx *x, const struct vtwx_info *info, struct ptx_insn *o)
{
    uint32_t k = 0;
    int hw = x->form == VTWX_HW;
    if (hw)
        o[k++] = ptx_insn_new(OP_NEXTTB, PT_U32, 1, ptx_opd_reg(x->r_tb));
    o[k++] = ptx_insn_setp(CMP_GE, PT_U32, x->r_p, ptx_opd_reg(x->r_tb), ptx_opd_reg(x->r_nlog));
    o[k] = ptx_insn_new(OP_EXIT, PT_NONE, 0);
    o[k++].guard = x->r_p;
    if (hw)
        o[k++] = ptx_insn_new(OP_NEXTIDX, PT_U32, 2, ptx_opd_reg(x->r_vtid), ptx_opd_reg(x->r_vtid));
    if (!hw && info->uses_shared) {
        struct ptx_operand none = ptx_opd_imm(0);
        none.kind = OPD_NONE;
        o[k++] = ptx_insn_new(OP_BAR, PT_NONE, 2, ptx_opd_imm(0), none);
    }
    if (x->r_pnd >= 0)
        o[k++] = ptx_insn_bra(x->r_pnd, 0, PTX_RW_LOCAL(x->slow_at));
    if (x->r_ntz >= 0)
        k += split_1d(o + k, x->r_tid, x->r_vtid);
    k += split_1d(o + k, x->r_cta, x->r_tb);
    return k;
}

/* The decomposition for a launch that is not 1-D, between the prologue (which branches over
   it to H, at o[n]) and H: the indices by rem/div, then to the body (old pc 0). Returns the
   instructions written; x->slow_at: its first. */
static uint32_t slow_split(struct vx *x, uint32_t k, struct ptx_insn *o)
{
    uint32_t n = 0;
    if (x->r_pnd < 0)
        return 0;
    x->slow_at = k + 1;
    n += 1;
    if (x->r_ntz >= 0)
        n += split_index(o + n, x->r_tid, x->r_vtid, x->r_ntx, x->r_nty, x->r_ntxy, x->r_t);
    n += split_index(o + n, x->r_cta, x->r_tb, x->r_g[0], x->r_g[1], x->r_gxy, x->r_t);
    o[n++] = ptx_insn_bra(-1, 0, 0);
    o[0] = ptx_insn_bra(-1, 0, PTX_RW_LOCAL(k + n));
    return n;
}

/* The hoisted originals (now from pc np) deleted in one edit: the range up to the last one
   becomes its instructions that stay (no branch targets it: vtwx.h). */
static void drop_hoisted(const struct vx *x, struct ptx_rw *rw, uint32_t np)
{
    uint32_t end = x->n0, k = 0;
    while (end > 0 && !x->hoist[end - 1])
        end--;
    if (!end)
        return;
    struct ptx_insn *keep = malloc(end * sizeof *keep);
    if (!keep) {
        ptx_rw_add_reg(rw, PT_NONE, NULL);      /* makes the rewriter fail: out of memory */
        return;
    }
    for (uint32_t pc = 0; pc < end; pc++)
        if (!x->hoist[pc])
            keep[k++] = x->p->insns[np + pc];
    ptx_rw_replace_range(rw, np, end, keep, k);
    free(keep);
}

/* The line the wrapper's instructions report: the kernel's .entry (its first instruction's
   without the module). */
static uint32_t entry_line(const struct ptx_prog *p)
{
    const struct ptx_func *fn = p->mod ? ptx_find_func(p->mod, p->name) : NULL;
    return fn ? fn->line : p->ninsns ? p->insns[0].line : 0;
}

/* The wrapper's instructions o[0..n) but [skip_lo, skip_hi) (the hoisted originals, which
   keep their own line): origin PTX_VTW at the kernel's .entry line. */
static void mark_wrapper(struct ptx_insn *o, uint32_t n, uint32_t skip_lo, uint32_t skip_hi,
                         uint32_t line)
{
    for (uint32_t k = 0; k < n; k++)
        if (k < skip_lo || k >= skip_hi) {
            o[k].origin = PTX_VTW;
            o[k].line = line;
        }
}

/* Prologue and head at pc 0 (the body's branches to its first instruction keep reaching it),
   sw: U at the end, every exit of the body a branch, the hoisted originals deleted.
   Returns H's pc. */
static uint32_t rebuild(struct vx *x, struct ptx_rw *rw, const struct vtwx_info *info)
{
    struct ptx_prog *p = x->p;
    struct ptx_insn *pro = malloc((VX_MAX_HEAD + x->nhoist) * sizeof *pro);
    if (!pro) {
        ptx_rw_add_reg(rw, PT_NONE, NULL);      /* makes the rewriter fail: out of memory */
        return 0;
    }
    uint32_t h = prologue(x, info, pro), line = entry_line(p);
    h += slow_split(x, h, pro + h);
    uint32_t np = h + head(x, info, pro + h);
    mark_wrapper(pro, np, x->hoist_lo, x->hoist_lo + x->nhoist, line);
    pro[h].origin = PTX_VTW_HEAD;
    ptx_rw_insert(rw, 0, pro, np, PTX_RW_KEEP_TARGETS);
    free(pro);
    int64_t to = h;
    if (x->form == VTWX_SW) {
        struct ptx_insn upd[2] = {op3(OP_ADD, x->r_tb, x->r_tb, x->r_nvirt), ptx_insn_bra(-1, 0, h)};
        mark_wrapper(upd, 2, 0, 0, line);
        to = ptx_rw_insert(rw, p->ninsns, upd, 2, 0);
    }
    for (uint32_t pc = np; pc < np + x->n0 && pc < p->ninsns; pc++) {
        struct ptx_insn *in = &p->insns[pc];
        struct ptx_insn b = ptx_insn_bra(in->guard, in->guard_neg, to);
        b.line = in->line;                        /* the exit it stands for */
        if (in->op == OP_EXIT && pc + 1 == (uint32_t)to && in->guard < 0)
            ptx_rw_replace(rw, pc, NULL, 0);      /* U follows: fall into it (the last pc) */
        else if (in->op == OP_EXIT)
            ptx_rw_replace(rw, pc, &b, 1);
    }
    drop_hoisted(x, rw, np);
    return h;
}

int vtwx_apply(struct ptx_prog *p, enum vtwx_form form, struct vtwx_info *info, char *err,
               size_t errlen)
{
    struct vtwx_info dummy;
    struct vx x;
    struct ptx_rw rw;
    if (!info)
        info = &dummy;
    memset(info, 0, sizeof *info);
    memset(&x, 0, sizeof x);
    if (form != VTWX_HW && form != VTWX_SW)
        return ptx_errf(err, errlen, "vtw: unknown form %d (hw or sw)", (int)form);
    if (!p || !p->ninsns)
        return ptx_errf(err, errlen, "vtw: no kernel");
    x.p = p, x.form = form, x.n0 = p->ninsns;
    info->orig_ninsns = p->ninsns;
    info->regs_before = p->regs_per_thread;
    if (scan(&x, info, err, errlen))
        return -1;
    if (pick_hoisted(&x)) {
        free(x.hoist);
        return ptx_errf(err, errlen, "vtw %s: out of memory", p->name);
    }
    ptx_rw_begin(&rw, p);
    add_params_regs(&x, &rw, info);
    substitute(&x, &rw);
    info->head_pc = rebuild(&x, &rw, info);
    info->hoisted = x.nhoist;
    free(x.hoist);
    if (ptx_rw_end(&rw, err, errlen))
        return -1;
    info->regs_after = p->regs_per_thread;
    return 0;
}

/* text with every `from OPERANDS;` rewritten as `to OPERANDS EXTRA;` (malloc'd; frees text). */
static char *stand_in(char *text, const char *from, const char *to, const char *extra)
{
    size_t lf = strlen(from), n = 0, cap = strlen(text) * 2 + 64;
    char *out = malloc(cap), *p = text, *q;
    if (!out) {
        free(text);
        return NULL;
    }
    while ((q = strstr(p, from)) && strchr(q, ';')) {
        char *semi = strchr(q, ';');
        n += (size_t)snprintf(out + n, cap - n, "%.*s%s%.*s%s", (int)(q - p), p, to,
                              (int)(semi - q - lf), q + lf, extra);
        p = semi;
    }
    snprintf(out + n, cap - n, "%s", p);
    free(text);
    return out;
}

char *vtwx_ptxas_text(const struct ptx_prog *p, char *err, size_t errlen)
{
    char *t = ptx_print_body(p, err, errlen);
    if (!t)
        return NULL;
    if (!(t = stand_in(t, "nexttbid.u32 ", "mov.u32 ", ", %clock")) ||
        !(t = stand_in(t, "nextidxinblk.u32 ", "mov.u32 ", "")))
        ptx_errf(err, errlen, "out of host memory");
    return t;
}

void vtwx_res_path(const char *ptx_path, char *out, size_t outlen)
{
    ptx_res_path_ext(ptx_path, ".vtw.res", out, outlen);
}
