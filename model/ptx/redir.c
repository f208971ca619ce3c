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
    int32_t map, addr, off, slot, lcta, ltid, t;        /* scratch */
    int32_t nt[3], nc[3], tpc;                          /* %ntid, %nctaid, threads per CTA */
    int32_t w[4];                                       /* the loaded record */
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
    r->lcta = ptx_rw_add_reg(rw, PT_U32, "%rg_lcta");
    r->ltid = ptx_rw_add_reg(rw, PT_U32, "%rg_ltid");
    r->t = ptx_rw_add_reg(rw, PT_U32, "%rg_t");
    r->tpc = ptx_rw_add_reg(rw, PT_U32, "%rg_tpc");
    for (int c = 0; c < 4; c++) {
        snprintf(nm, sizeof nm, "%%rg_w%d", c);
        r->w[c] = ptx_rw_add_reg(rw, PT_U32, nm);
    }
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

/* d = (a >> sh) & mask (mask 0: no mask). */
static uint32_t field(struct ptx_insn *o, int32_t d, int32_t a, unsigned sh, uint32_t mask)
{
    uint32_t k = 0;
    int32_t src = a;
    if (sh) {
        o[k] = ptx_insn_new(OP_SHR, PT_U32, 3, ptx_opd_reg(d), ptx_opd_reg(a), ptx_opd_imm(sh));
        k++;
        src = d;
    }
    o[k++] = mask ? ptx_insn_new(OP_AND, PT_B32, 3, ptx_opd_reg(d), ptx_opd_reg(src),
                                 ptx_opd_imm(mask))
                  : ptx_insn_new(OP_MOV, PT_U32, 2, ptx_opd_reg(d), ptx_opd_reg(src));
    return k;
}

/* ld.global.v4.u32 {w0..w3}, [addr] */
static struct ptx_insn load_record(const struct rg *r)
{
    struct ptx_insn i = ptx_insn_ld(PS_GLOBAL, PT_U32, r->w[0], ptx_opd_addr(r->addr, 0,
                                                                            PS_GLOBAL));
    i.opd[0].kind = OPD_VEC;
    i.opd[0].nvec = 4;
    for (int c = 0; c < 4; c++)
        i.opd[0].vec[c] = r->w[c];
    i.vec = 4;
    return i;
}

/* The prologue: the slot, its record (REDIR_RECORD_BYTES), the logical components. Returns
   the instructions written. */
static uint32_t prologue(const struct rg *r, int64_t off_map, struct ptx_insn *o)
{
    uint32_t k = 0;
    o[k++] = ptx_insn_ld(PS_PARAM, PT_U64, r->map, ptx_opd_addr(-1, off_map, PS_PARAM));
    for (int c = 0; c < 3; c++) {
        o[k++] = mov_sreg(r->nt[c], SR_NTID, (unsigned)c);
        o[k++] = mov_sreg(r->nc[c], SR_NCTAID, (unsigned)c);
    }
    o[k++] = op3(OP_MUL, r->tpc, r->nt[0], r->nt[1]);
    o[k++] = op3(OP_MUL, r->tpc, r->tpc, r->nt[2]);
    k += linear(o + k, r, SR_CTAID, r->nc, r->lcta);
    k += linear(o + k, r, SR_TID, r->nt, r->ltid);
    o[k++] = mad(r->slot, r->lcta, r->tpc, r->ltid);
    o[k] = ptx_insn_new(OP_MUL, PT_U32, 3, ptx_opd_reg(r->off), ptx_opd_reg(r->slot),
                        ptx_opd_imm(REDIR_RECORD_BYTES));
    o[k].mod = MOD_WIDE;
    k++;
    o[k++] = ptx_insn_new(OP_ADD, PT_U64, 3, ptx_opd_reg(r->addr), ptx_opd_reg(r->map),
                          ptx_opd_reg(r->off));
    o[k++] = load_record(r);
    k += field(o + k, r->tid[0], r->w[0], 0, 0x3ff);
    k += field(o + k, r->tid[1], r->w[0], 10, 0x3ff);
    k += field(o + k, r->tid[2], r->w[0], 20, 0);
    k += field(o + k, r->cta[0], r->w[1], 0, 0);
    k += field(o + k, r->cta[1], r->w[2], 0, 0xffff);
    k += field(o + k, r->cta[2], r->w[2], 16, 0);
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

void redir_record(uint32_t l, const uint32_t g[3], const uint32_t b[3], uint32_t rec[4])
{
    uint32_t tpc = b[0] * b[1] * b[2], cta = l / tpc, tid = l % tpc;
    rec[0] = tid % b[0] | (tid / b[0] % b[1]) << 10 | (tid / (b[0] * b[1])) << 20;
    rec[1] = cta % g[0];
    rec[2] = (cta / g[0] % g[1]) | (cta / (g[0] * g[1])) << 16;
    rec[3] = 0;
}
