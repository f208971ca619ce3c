/*
 * redir.c -- reference redirection (redir.h, 001_8bf4399a5d1562fa.txt Section III-A): a
 * prologue that loads D[slot] (the logical thread's linear index, 4 bytes) and splits it into
 * the logical %ctaid and %tid the body reads, in the form of the launch's shape class.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "redir.h"
#include "ptx_res.h"
#include "ptx_rewrite.h"

enum { BK_1D, BK_POW2, BK_DIV };                 /* the block part of a form */
enum { GK_1D, GK_2D, GK_ANY };                   /* the grid part */

/* The prologue's registers and what it must produce. */
struct rg {
    unsigned bk, gk;                             /* the form's parts */
    int rd_tid[3], rd_cta[3];                    /* the body reads %tid.c / %ctaid.c */
    int32_t map, addr, off, slot, l, lcta, ltid, t, u, v;  /* scratch and the split */
    int32_t tpc;                                 /* threads per CTA (b1: %ntid.x's register) */
    int32_t nt[3], nc[3];                        /* %ntid, %nctaid */
    int32_t tid[3], cta[3];                      /* the logical components */
};

static const char *const xyz = "xyz";
static const char *const form_names[REDIR_NFORMS] = {"b1g1", "b1g2", "b1gn", "bpg1", "bpg2",
                                                     "bpgn", "bdg1", "bdg2", "bdgn"};

static int pow2(uint32_t n)
{
    return n && !(n & (n - 1));
}

unsigned redir_form(const uint32_t g[3], const uint32_t b[3])
{
    unsigned bk = b[1] == 1 && b[2] == 1 && pow2(b[0]) ? BK_1D :
                  pow2(b[0]) && pow2(b[1]) && pow2(b[2]) ? BK_POW2 : BK_DIV;
    return bk * 3 + (g[1] == 1 && g[2] == 1 ? GK_1D : g[2] == 1 ? GK_2D : GK_ANY);
}

const char *redir_form_name(unsigned form)
{
    return form < REDIR_NFORMS ? form_names[form] : NULL;
}

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

/* Which components of %tid and %ctaid the body reads. */
static void reads(const struct ptx_prog *p, struct rg *r)
{
    for (uint32_t pc = 0; pc < p->ninsns; pc++)
        for (unsigned k = 0; k < p->insns[pc].nopd; k++) {
            const struct ptx_operand *o = &p->insns[pc].opd[k];
            if (o->kind == OPD_SREG && o->comp < 3 && o->sreg == SR_TID)
                r->rd_tid[o->comp] = 1;
            if (o->kind == OPD_SREG && o->comp < 3 && o->sreg == SR_CTAID)
                r->rd_cta[o->comp] = 1;
        }
}

static int32_t reg(struct ptx_rw *rw, enum ptx_type t, const char *fmt, int c)
{
    char nm[32];
    snprintf(nm, sizeof nm, fmt, c);
    return ptx_rw_add_reg(rw, t, nm);
}

static void add_regs(struct ptx_rw *rw, struct rg *r)
{
    r->map = ptx_rw_add_reg(rw, PT_U64, "%rg_map");
    r->addr = ptx_rw_add_reg(rw, PT_U64, "%rg_addr");
    r->off = ptx_rw_add_reg(rw, PT_U64, "%rg_off");
    r->slot = ptx_rw_add_reg(rw, PT_U32, "%rg_slot");
    r->l = ptx_rw_add_reg(rw, PT_U32, "%rg_l");
    r->lcta = ptx_rw_add_reg(rw, PT_U32, "%rg_lcta");
    r->ltid = ptx_rw_add_reg(rw, PT_U32, "%rg_ltid");
    r->t = ptx_rw_add_reg(rw, PT_U32, "%rg_t");
    r->u = ptx_rw_add_reg(rw, PT_U32, "%rg_u");
    r->v = ptx_rw_add_reg(rw, PT_U32, "%rg_v");
    r->tpc = ptx_rw_add_reg(rw, PT_U32, "%rg_tpc");
    for (int c = 0; c < 3; c++) {
        r->nt[c] = reg(rw, PT_U32, "%%rg_ntid_%c", xyz[c]);
        r->nc[c] = reg(rw, PT_U32, "%%rg_nctaid_%c", xyz[c]);
        r->tid[c] = reg(rw, PT_U32, "%%rg_tid_%c", xyz[c]);
        r->cta[c] = reg(rw, PT_U32, "%%rg_ctaid_%c", xyz[c]);
    }
}

/* ------------------------------------------------------------------ instructions */

static struct ptx_insn op3(enum ptx_op op, int32_t d, int32_t a, int32_t b)
{
    return ptx_insn_new(op, PT_U32, 3, ptx_opd_reg(d), ptx_opd_reg(a), ptx_opd_reg(b));
}

static struct ptx_insn op3i(enum ptx_op op, enum ptx_type t, int32_t d, int32_t a, int64_t imm)
{
    return ptx_insn_new(op, t, 3, ptx_opd_reg(d), ptx_opd_reg(a), ptx_opd_imm(imm));
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

static struct ptx_insn mov_imm(int32_t d, int64_t v)
{
    return ptx_insn_new(OP_MOV, PT_U32, 2, ptx_opd_reg(d), ptx_opd_imm(v));
}

static struct ptx_insn popc(int32_t d, int32_t a)
{
    return ptx_insn_new(OP_POPC, PT_B32, 2, ptx_opd_reg(d), ptx_opd_reg(a));
}

/* The code being built. */
struct code {
    struct ptx_insn o[64];
    uint32_t k;
};

static void put(struct code *c, struct ptx_insn i)
{
    c->o[c->k++] = i;
}

/* d = linear index of the hardware's sreg v by n over dims dimensions (the others are 0):
   (v.z x n.y + v.y) x n.x + v.x. */
static void linear(struct code *c, const struct rg *r, enum ptx_sreg v, const int32_t *n,
                   unsigned dims, int32_t d)
{
    put(c, mov_sreg(d, v, dims - 1));
    for (unsigned k = dims - 1; k-- > 0;) {
        put(c, mov_sreg(r->t, v, k));
        put(c, mad(d, d, n[k], r->t));
    }
}

/* q = a / n and rem = a - q x n (rem only if want_rem). */
static void divmod(struct code *c, int32_t q, int32_t rem, int32_t a, int32_t n, int want_rem)
{
    put(c, op3(OP_DIV, q, a, n));
    if (want_rem) {
        put(c, op3(OP_MUL, rem, q, n));
        put(c, op3(OP_SUB, rem, a, rem));
    }
}

/* Split a by the radices n[0], n[1] into out[0..2] by divisions: out[0] = a % n0,
   out[1] = a / n0 % n1, out[2] = a / (n0 n1); only the wanted ones (want[c]). two_d: the
   third radix is 1 (out[1] = a / n0, out[2] = 0). */
static void split_div(struct code *c, const struct rg *r, int32_t a, const int32_t *n,
                      const int32_t *out, const int *want, int two_d)
{
    if (two_d && (want[1] || want[2])) {
        divmod(c, out[1], out[0], a, n[0], want[0]);       /* out1 = a / n0 */
        if (want[2])
            put(c, mov_imm(out[2], 0));
        return;
    }
    if (!want[1] && !want[2]) {
        if (want[0])
            put(c, op3(OP_REM, out[0], a, n[0]));
        return;
    }
    divmod(c, r->u, out[0], a, n[0], want[0]);             /* u = a / n0 */
    divmod(c, r->v, out[1], r->u, n[1], want[1]);          /* v = u / n1 */
    if (want[2])
        put(c, ptx_insn_new(OP_MOV, PT_U32, 2, ptx_opd_reg(out[2]), ptx_opd_reg(r->v)));
}

/* The same by shifts and masks: every radix a power of two (log2 n = popc(n - 1)). */
static void split_pow2(struct code *c, const struct rg *r, int32_t a, const int32_t *n,
                       const int32_t *out, const int *want)
{
    put(c, op3i(OP_SUB, PT_U32, r->u, n[0], 1));
    if (want[0]) {
        put(c, op3(OP_AND, out[0], a, r->u));
        c->o[c->k - 1].type = PT_B32;
    }
    if (!want[1] && !want[2])
        return;
    put(c, popc(r->u, r->u));
    put(c, op3(OP_SHR, r->v, a, r->u));                    /* v = a >> log2 n0 */
    if (want[1]) {
        put(c, op3i(OP_SUB, PT_U32, r->u, n[1], 1));
        put(c, op3(OP_AND, out[1], r->v, r->u));
        c->o[c->k - 1].type = PT_B32;
    }
    if (want[2]) {
        put(c, op3i(OP_SUB, PT_U32, r->u, n[1], 1));
        put(c, popc(r->u, r->u));
        put(c, op3(OP_SHR, out[2], r->v, r->u));
    }
}

/* l into lcta and ltid, then ltid into %tid's components (the block part of the form). */
static void split_block(struct code *c, const struct rg *r, int want_cta, const int *want)
{
    int any = want[0] || want[1] || want[2];
    if (r->bk == BK_DIV) {
        if (want_cta)
            divmod(c, r->lcta, r->ltid, r->l, r->tpc, any);
        else if (any)
            put(c, op3(OP_REM, r->ltid, r->l, r->tpc));
        if (any)
            split_div(c, r, r->ltid, r->nt, r->tid, want, 0);
        return;
    }
    put(c, op3i(OP_SUB, PT_U32, r->t, r->tpc, 1));            /* threads per CTA - 1 */
    if (any) {
        put(c, op3(OP_AND, r->bk == BK_1D ? r->tid[0] : r->ltid, r->l, r->t));
        c->o[c->k - 1].type = PT_B32;
    }
    if (want_cta) {
        put(c, popc(r->u, r->t));
        put(c, op3(OP_SHR, r->lcta, r->l, r->u));
    }
    if (r->bk == BK_POW2 && any)
        split_pow2(c, r, r->ltid, r->nt, r->tid, want);
    for (int k = 1; k < 3 && r->bk == BK_1D; k++)
        if (want[k])
            put(c, mov_imm(r->tid[k], 0));
}

/* lcta into %ctaid's components (the grid part of the form). */
static void split_grid(struct code *c, const struct rg *r, const int *want)
{
    if (r->gk != GK_1D) {
        split_div(c, r, r->lcta, r->nc, r->cta, want, r->gk == GK_2D);
        return;
    }
    if (want[0])
        put(c, ptx_insn_new(OP_MOV, PT_U32, 2, ptx_opd_reg(r->cta[0]), ptx_opd_reg(r->lcta)));
    for (int k = 1; k < 3; k++)
        if (want[k])
            put(c, mov_imm(r->cta[k], 0));
}

/* The prologue: the slot, D[slot], the logical components the body reads. */
static void prologue(struct rg *r, int64_t off_map, struct code *c)
{
    int want_cta = r->rd_cta[0] || r->rd_cta[1] || r->rd_cta[2];
    c->k = 0;
    put(c, ptx_insn_ld(PS_PARAM, PT_U64, r->map, ptx_opd_addr(-1, off_map, PS_PARAM)));
    put(c, mov_sreg(r->nt[0], SR_NTID, 0));
    for (unsigned k = 1; k < 3 && r->bk != BK_1D; k++)
        put(c, mov_sreg(r->nt[k], SR_NTID, k));
    for (unsigned k = 0; k < (r->gk == GK_ANY ? 2u : r->gk == GK_2D); k++)
        put(c, mov_sreg(r->nc[k], SR_NCTAID, k));
    if (r->bk == BK_1D) {
        r->tpc = r->nt[0];
    } else {
        put(c, op3(OP_MUL, r->tpc, r->nt[0], r->nt[1]));
        put(c, op3(OP_MUL, r->tpc, r->tpc, r->nt[2]));
    }
    linear(c, r, SR_CTAID, r->nc, r->gk + 1, r->lcta);
    linear(c, r, SR_TID, r->nt, r->bk == BK_1D ? 1 : 3, r->ltid);
    put(c, mad(r->slot, r->lcta, r->tpc, r->ltid));
    c->o[c->k] = op3i(OP_MUL, PT_U32, r->off, r->slot, REDIR_D_BYTES);
    c->o[c->k++].mod = MOD_WIDE;
    put(c, ptx_insn_new(OP_ADD, PT_U64, 3, ptx_opd_reg(r->addr), ptx_opd_reg(r->map),
                        ptx_opd_reg(r->off)));
    put(c, ptx_insn_ld(PS_GLOBAL, PT_U32, r->l, ptx_opd_addr(r->addr, 0, PS_GLOBAL)));
    split_block(c, r, want_cta, r->rd_tid);
    if (want_cta)
        split_grid(c, r, r->rd_cta);
}

int redir_apply(struct ptx_prog *p, unsigned form, int64_t *off_map, char *err, size_t errlen)
{
    struct ptx_rw rw;
    struct rg r;
    struct code c;
    uint32_t n0 = p->ninsns;
    if (form >= REDIR_NFORMS)
        return ptx_errf(err, errlen, "redirect %s: no form %u", p->name, form);
    if (scan(p, err, errlen))
        return -1;
    memset(&r, 0, sizeof r);
    r.bk = form / 3;
    r.gk = form % 3;
    reads(p, &r);
    ptx_rw_begin(&rw, p);
    *off_map = ptx_rw_add_param(&rw, REDIR_PARAM, PT_U64, 0, 0);
    add_regs(&rw, &r);
    for (unsigned k = 0; k < 3; k++) {
        ptx_rw_subst_sreg(&rw, SR_TID, k, r.tid[k], 0, n0);
        ptx_rw_subst_sreg(&rw, SR_CTAID, k, r.cta[k], 0, n0);
    }
    prologue(&r, *off_map, &c);
    ptx_rw_insert(&rw, 0, c.o, c.k, PTX_RW_KEEP_TARGETS);
    return ptx_rw_end(&rw, err, errlen);
}

char *redir_ptxas_text(const struct ptx_prog *p, char *err, size_t errlen)
{
    return ptx_print_body(p, err, errlen);
}

void redir_res_path(const char *ptx_path, char *out, size_t outlen)
{
    ptx_res_path_ext(ptx_path, ".redir.res", out, outlen);
}
