/*
 * redir.c -- reference redirection (redir.h, 001_8bf4399a5d1562fa.txt Section III-A): a
 * prologue that loads D[slot] and gives the body the logical %ctaid and %tid.
 */
#include <stdio.h>
#include <string.h>
#include "redir.h"
#include "ptx_rewrite.h"

/* The prologue's registers. */
struct rg {
    int32_t map, addr, off, slot, d, lcta, ltid, t;     /* scratch and results */
    int32_t nt[3], nc[3], ntxy, ncxy, tpc;              /* %ntid, %nctaid, products */
    int32_t tid[3], cta[3];                             /* the logical components */
};

static const char *const xyz = "xyz";

/* Refusals: what a logical thread cannot do among another CTA's threads. */
static int scan(const struct ptx_prog *p, char *err, size_t errlen)
{
    for (uint32_t i = 0; i < p->nparams; i++)
        if (!strcmp(p->params[i].name, REDIR_PARAM) || !strncmp(p->params[i].name, "__vtw_", 6))
            return ptx_errf(err, errlen, "redirect %s: already transformed (parameter %s)",
                            p->name, p->params[i].name);
    if (ptx_prog_uses_shared(p))
        return ptx_errf(err, errlen, "redirect %s: the kernel uses shared memory: its CTAs' "
                        "threads would no longer be one logical CTA's", p->name);
    for (uint32_t pc = 0; pc < p->ninsns; pc++) {
        const struct ptx_insn *in = &p->insns[pc];
        if (in->op == OP_BAR || in->op == OP_SHFL || in->op == OP_VOTE ||
            in->op == OP_ACTIVEMASK || in->op == OP_NEXTTB || in->op == OP_NEXTIDX)
            return ptx_errf(err, errlen, "redirect %s: pc %u: %s synchronises or exchanges "
                            "among the threads a regrouping reorders", p->name, (unsigned)pc,
                            ptx_op_name((enum ptx_op)in->op));
        for (unsigned k = 0; k < in->nopd; k++)
            if (in->opd[k].kind == OPD_SREG &&
                (in->opd[k].sreg == SR_LANEID || in->opd[k].sreg == SR_WARPID))
                return ptx_errf(err, errlen, "redirect %s: pc %u reads %%%s, which a regrouping "
                                "changes", p->name, (unsigned)pc,
                                in->opd[k].sreg == SR_LANEID ? "laneid" : "warpid");
    }
    return 0;
}

static void add_regs(struct ptx_rw *rw, struct rg *r)
{
    char nm[32];
    r->map = ptx_rw_add_reg(rw, PT_U64, "%rg_map");
    r->addr = ptx_rw_add_reg(rw, PT_U64, "%rg_addr");
    r->off = ptx_rw_add_reg(rw, PT_U64, "%rg_off");
    r->slot = ptx_rw_add_reg(rw, PT_U32, "%rg_slot");
    r->d = ptx_rw_add_reg(rw, PT_U32, "%rg_d");
    r->lcta = ptx_rw_add_reg(rw, PT_U32, "%rg_lcta");
    r->ltid = ptx_rw_add_reg(rw, PT_U32, "%rg_ltid");
    r->t = ptx_rw_add_reg(rw, PT_U32, "%rg_t");
    r->ntxy = ptx_rw_add_reg(rw, PT_U32, "%rg_ntid_xy");
    r->ncxy = ptx_rw_add_reg(rw, PT_U32, "%rg_nctaid_xy");
    r->tpc = ptx_rw_add_reg(rw, PT_U32, "%rg_tpc");
    for (int c = 0; c < 3; c++) {
        snprintf(nm, sizeof nm, "%%rg_ntid_%c", xyz[c]);
        r->nt[c] = ptx_rw_add_reg(rw, PT_U32, nm);
        snprintf(nm, sizeof nm, "%%rg_nctaid_%c", xyz[c]);
        r->nc[c] = ptx_rw_add_reg(rw, PT_U32, nm);
        snprintf(nm, sizeof nm, "%%rg_tid_%c", xyz[c]);
        r->tid[c] = ptx_rw_add_reg(rw, PT_U32, nm);
        snprintf(nm, sizeof nm, "%%rg_ctaid_%c", xyz[c]);
        r->cta[c] = ptx_rw_add_reg(rw, PT_U32, nm);
    }
}

static struct ptx_insn op3(enum ptx_op op, int32_t d, int32_t a, int32_t b)
{
    return ptx_insn_new(op, PT_U32, 3, ptx_opd_reg(d), ptx_opd_reg(a), ptx_opd_reg(b));
}

static struct ptx_insn mad(int32_t d, int32_t a, int32_t b, int32_t c)
{
    struct ptx_insn i = op3(OP_MAD, d, a, b);
    i.opd[3] = ptx_opd_reg(c);
    i.nopd = 4;
    return i;
}

static struct ptx_insn mov_sreg(int32_t d, enum ptx_sreg s, unsigned c)
{
    return ptx_insn_new(OP_MOV, PT_U32, 2, ptx_opd_reg(d), ptx_opd_sreg(s, c));
}

/* linear = (v.z x n.y + v.y) x n.x + v.x, the hardware's sregs v (%tid or %ctaid) by n. */
static uint32_t linear(struct ptx_insn *o, const struct rg *r, enum ptx_sreg v, const int32_t *n,
                       int32_t dst)
{
    uint32_t k = 0;
    o[k++] = mov_sreg(dst, v, 2);
    o[k++] = mov_sreg(r->t, v, 1);
    o[k++] = mad(dst, dst, n[1], r->t);
    o[k++] = mov_sreg(r->t, v, 0);
    o[k++] = mad(dst, dst, n[0], r->t);
    return k;
}

/* out[c] = component c of linear index i over dimensions n (nxy = n.x x n.y). */
static uint32_t split(struct ptx_insn *o, const struct rg *r, int32_t i, const int32_t *n,
                      int32_t nxy, const int32_t *out)
{
    o[0] = op3(OP_REM, out[0], i, n[0]);
    o[1] = op3(OP_DIV, r->t, i, n[0]);
    o[2] = op3(OP_REM, out[1], r->t, n[1]);
    o[3] = op3(OP_DIV, out[2], i, nxy);
    return 4;
}

/* The prologue: slot, D[slot], the logical components. Returns the instructions written. */
static uint32_t prologue(const struct rg *r, int64_t off_map, struct ptx_insn *o)
{
    uint32_t k = 0;
    o[k++] = ptx_insn_ld(PS_PARAM, PT_U64, r->map, ptx_opd_addr(-1, off_map, PS_PARAM));
    for (int c = 0; c < 3; c++) {
        o[k++] = mov_sreg(r->nt[c], SR_NTID, (unsigned)c);
        o[k++] = mov_sreg(r->nc[c], SR_NCTAID, (unsigned)c);
    }
    o[k++] = op3(OP_MUL, r->ntxy, r->nt[0], r->nt[1]);
    o[k++] = op3(OP_MUL, r->ncxy, r->nc[0], r->nc[1]);
    o[k++] = op3(OP_MUL, r->tpc, r->ntxy, r->nt[2]);
    k += linear(o + k, r, SR_CTAID, r->nc, r->lcta);
    k += linear(o + k, r, SR_TID, r->nt, r->ltid);
    o[k++] = mad(r->slot, r->lcta, r->tpc, r->ltid);
    o[k] = ptx_insn_new(OP_MUL, PT_U32, 3, ptx_opd_reg(r->off), ptx_opd_reg(r->slot),
                        ptx_opd_imm(4));
    o[k].mod = MOD_WIDE;
    k++;
    o[k++] = ptx_insn_new(OP_ADD, PT_U64, 3, ptx_opd_reg(r->addr), ptx_opd_reg(r->map),
                          ptx_opd_reg(r->off));
    o[k++] = ptx_insn_ld(PS_GLOBAL, PT_U32, r->d, ptx_opd_addr(r->addr, 0, PS_GLOBAL));
    o[k++] = op3(OP_DIV, r->lcta, r->d, r->tpc);
    o[k++] = op3(OP_REM, r->ltid, r->d, r->tpc);
    k += split(o + k, r, r->ltid, r->nt, r->ntxy, r->tid);
    k += split(o + k, r, r->lcta, r->nc, r->ncxy, r->cta);
    return k;
}

int redir_apply(struct ptx_prog *p, int64_t *off_map, char *err, size_t errlen)
{
    struct ptx_rw rw;
    struct rg r;
    struct ptx_insn pro[64];
    uint32_t n0 = p->ninsns, np;
    if (scan(p, err, errlen))
        return -1;
    ptx_rw_begin(&rw, p);
    *off_map = ptx_rw_add_param(&rw, REDIR_PARAM, PT_U64, 0, 0);
    add_regs(&rw, &r);
    for (unsigned c = 0; c < 3; c++) {
        ptx_rw_subst_sreg(&rw, SR_TID, c, r.tid[c], 0, n0);
        ptx_rw_subst_sreg(&rw, SR_CTAID, c, r.cta[c], 0, n0);
    }
    np = prologue(&r, *off_map, pro);
    ptx_rw_insert(&rw, 0, pro, np, PTX_RW_KEEP_TARGETS);
    return ptx_rw_end(&rw, err, errlen);
}
