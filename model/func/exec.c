/*
 * exec.c -- functional execution of one warp instruction (the SIMD datapath's semantics).
 *
 * Hardware it stands for: the SP (integer and single-precision ALU), SFU (transcendentals),
 * DP (double) and LD/ST units of an SM, seen functionally.  ex_exec() decodes one ptx_prog
 * instruction once, fetches each source operand for the 32 lanes of the warp, computes the
 * result of every executing lane (active & guard predicate), writes registers and memory and
 * reports what the instruction did (branch, barrier, exit, memory addresses, errors).
 *
 * Shape: one dispatch on the opcode per warp instruction, then one function per instruction
 * family, each family in its own file (exec_priv.h lists them: exec_int.c, exec_flt.c,
 * exec_cvt.c, exec_mem.c, exec_ctl.c, exec_printf.c).  This file: errors, operand fetch, the
 * host rounding mode, the dispatch and ex_exec.  Loops run over the set bits of the execution mask, or
 * over all 32 lanes for pure computations (straight loops the compiler vectorizes; inactive
 * lanes' results are never written back).  Operands are gathered into lane arrays (or read in
 * place) before any register is written, so a destination that is also a source never sees
 * a half-updated warp.  Memory accesses are checked for the whole warp before any is done.
 *
 * No state of its own, no I/O; no allocation but for vprintf's text (exec_printf.c), which
 * goes to the launch's buffer (ex_ctx.pf); snprintf runs only on the error path and there.
 * Source: PTX ISA semantics.  Approximations and the values chosen for cases PTX leaves
 * undefined (integer divide by zero, shfl from an inactive lane, ...) are in docs/exec.md.
 */
#include "exec_priv.h"
#include <fenv.h>
#include <stdarg.h>
#include <stdio.h>

/* ------------------------------------------------------------------ errors */

static void tid_of(const struct ex_ctx *c, uint32_t lin, uint32_t t[3])
{
    uint32_t nx = c->ntid[0] ? c->ntid[0] : 1, ny = c->ntid[1] ? c->ntid[1] : 1;
    t[0] = lin % nx;
    t[1] = lin / nx % ny;
    t[2] = lin / nx / ny;
}

/* Report an error of lane `lane`: "kernel K: PC n (file:line) CTA (x,y,z) thread (x,y,z): ..." */
__attribute__((cold, noinline, format(printf, 3, 4)))
void ex_fail(const struct xs *x, uint32_t lane, const char *fmt, ...)
{
    const struct ex_ctx *c = x->c;
    const struct ptx_prog *p = c->prog;
    char where[320];
    uint32_t t[3];
    tid_of(c, c->tid0 + lane, t);
    int n = snprintf(x->res->err, PTX_ERR_LEN, "kernel %s: PC %u (%s) CTA (%u,%u,%u) thread (%u,%u,%u): ",
                     p->name, x->pc, ptx_where(p, x->pc, where, sizeof where), c->ctaid[0],
                     c->ctaid[1], c->ctaid[2], t[0], t[1], t[2]);
    if (n < 0)
        n = 0;
    if (n >= PTX_ERR_LEN)
        n = PTX_ERR_LEN - 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->res->err + n, (size_t)(PTX_ERR_LEN - n), fmt, ap);
    va_end(ap);
    x->res->kind = EX_ERROR;
}

/* ------------------------------------------------------------------ operand fetch / write */

/* special registers that are the same in every lane */
static uint64_t sreg_uniform(const struct ex_ctx *c, uint8_t sr, unsigned comp)
{
    switch (sr) {
    case SR_NTID: return c->ntid[comp];
    case SR_CTAID: return c->ctaid[comp];
    case SR_NCTAID: return c->nctaid[comp];
    case SR_WARPID: return c->warpid;
    case SR_NWARPID: return c->nwarpid;
    case SR_SMID: return c->smid;
    case SR_NSMID: return c->nsmid;
    case SR_CLOCK: return (uint32_t)c->clock;
    case SR_CLOCK64: return c->clock;
    default: return 0;                     /* %gridid and anything unknown */
    }
}

static uint64_t lanemask(uint8_t sr, uint32_t lane)
{
    uint64_t le = (2ull << lane) - 1, lt = (1ull << lane) - 1;
    switch (sr) {
    case SR_LANEMASK_EQ: return 1ull << lane;
    case SR_LANEMASK_LT: return lt;
    case SR_LANEMASK_LE: return le & 0xffffffffu;
    case SR_LANEMASK_GT: return ~le & 0xffffffffu;
    default: return ~lt & 0xffffffffu;     /* SR_LANEMASK_GE */
    }
}

/* %tid of each lane: the linear index tid0 + lane decomposed over ntid, x fastest */
static void fetch_tid(const struct ex_ctx *c, unsigned comp, uint64_t *out)
{
    uint32_t t[3], nx = c->ntid[0] ? c->ntid[0] : 1, ny = c->ntid[1] ? c->ntid[1] : 1;
    tid_of(c, c->tid0, t);
    for (uint32_t l = 0; l < W; l++) {
        out[l] = t[comp];
        if (++t[0] == nx) {
            t[0] = 0;
            if (++t[1] == ny) {
                t[1] = 0;
                t[2]++;
            }
        }
    }
}

static void fetch_sreg(const struct ex_ctx *c, const struct ptx_operand *o, uint64_t *out)
{
    unsigned comp = o->comp > 2 ? 0 : o->comp;
    uint64_t v;
    switch (o->sreg) {
    case SR_TID:
        fetch_tid(c, comp, out);
        return;
    case SR_LANEID:
        ALL_LANES(l) out[l] = l;
        return;
    case SR_LANEMASK_EQ: case SR_LANEMASK_LT: case SR_LANEMASK_LE: case SR_LANEMASK_GT:
    case SR_LANEMASK_GE:
        ALL_LANES(l) out[l] = lanemask(o->sreg, l);
        return;
    default:
        v = sreg_uniform(c, o->sreg, comp);
        ALL_LANES(l) out[l] = v;
        return;
    }
}

/* {a, b, ...} used as a source: elements packed low first, each k_bits[t] / nvec wide */
static void fetch_pack(const struct ex_ctx *c, const struct ptx_operand *o, uint8_t t, uint64_t *out)
{
    unsigned n = o->nvec ? (o->nvec > 4 ? 4 : o->nvec) : 1, eb = k_bits[t] / n;
    uint64_t m = mask_of(eb);
    memset(out, 0, sizeof(lanes_t));
    for (unsigned i = 0; i < n; i++) {
        if (o->vec[i] < 0)
            continue;
        const uint64_t *col = c->regs + (size_t)o->vec[i] * W;
        for (uint32_t l = 0; l < W; l++)
            out[l] |= (col[l] & m) << (i * eb);
    }
}

/* Source operand o read as type t for all 32 lanes (sign/zero-extended; preds 0/1, '!' applied). */
void ex_fetch(const struct xs *x, const struct ptx_operand *o, uint8_t t, uint64_t *out)
{
    const struct ex_ctx *c = x->c;
    unsigned sh = 64u - k_bits[t];
    uint64_t v;
    switch (o->kind) {
    case OPD_REG: {
        const uint64_t *col = c->regs + (size_t)o->reg * W;
        if (t == PT_PRED)
            ALL_LANES(l) out[l] = (col[l] != 0) ^ (o->neg != 0);
        else if (sh == 0)
            memcpy(out, col, sizeof(lanes_t));
        else if (!k_sgn[t])
            ALL_LANES(l) out[l] = col[l] & (~0ull >> sh);
        else if (sh == 32)
            ALL_LANES(l) out[l] = (uint64_t)(int64_t)(int32_t)col[l];
        else
            ALL_LANES(l) out[l] = (uint64_t)((int64_t)(col[l] << sh) >> sh);
        return;
    }
    case OPD_IMM: case OPD_SYMADDR: case OPD_LABEL:
        v = t == PT_PRED ? (uint64_t)((o->imm != 0) ^ (o->neg != 0)) : ext((uint64_t)o->imm, t);
        for (uint32_t l = 0; l < W; l++) out[l] = v;
        return;
    case OPD_ADDR: {
        const uint64_t *col = o->reg >= 0 ? c->regs + (size_t)o->reg * W : NULL;
        for (uint32_t l = 0; l < W; l++) out[l] = ext((col ? col[l] : 0) + (uint64_t)o->imm, t);
        return;
    }
    case OPD_SREG:
        fetch_sreg(c, o, out);
        for (uint32_t l = 0; l < W; l++) out[l] = ext(out[l], t);
        return;
    case OPD_VEC:
        fetch_pack(c, o, t, out);
        for (uint32_t l = 0; l < W; l++) out[l] = ext(out[l], t);
        return;
    default:
        memset(out, 0, sizeof(lanes_t));
        return;
    }
}
/* A memory operand's address per lane: [reg + imm], or a plain register / immediate.  With a
   32-bit base register the address arithmetic is 32-bit (wraps), as PTX defines it. */
void ex_fetch_addr(const struct xs *x, const struct ptx_operand *o, uint64_t *out)
{
    const struct ptx_prog *p = x->c->prog;
    const uint64_t *col = (o->kind == OPD_ADDR || o->kind == OPD_REG) && o->reg >= 0
                          ? x->c->regs + (size_t)o->reg * W : NULL;
    uint64_t off = o->kind == OPD_REG ? 0 : (uint64_t)o->imm;
    int w32 = col && p->reg_type && (uint32_t)o->reg < p->nregs && p->reg_type[o->reg] < PT_COUNT &&
              k_bits[p->reg_type[o->reg]] <= 32;
    if (!col)
        ALL_LANES(l) out[l] = off;
    else if (w32)
        ALL_LANES(l) out[l] = (uint32_t)(col[l] + off);
    else
        ALL_LANES(l) out[l] = col[l] + off;
}

/* Mask of the executing lanes whose predicate operand o (with '!') is true. */
uint32_t ex_pred_mask(const struct xs *x, const struct ptx_operand *o)
{
    lanes_t v;
    uint32_t m = 0;
    ex_fetch(x, o, PT_PRED, v);
    FOR_LANES(l, x->exec) m |= (uint32_t)v[l] << l;
    return m;
}

/* ------------------------------------------------------------------ host rounding mode */

int ex_round_enter(uint8_t rnd)
{
    int want;
    switch (rnd) {
    case RND_RZ: want = FE_TOWARDZERO; break;
    case RND_RM: want = FE_DOWNWARD; break;
    case RND_RP: want = FE_UPWARD; break;
    default: return -1;
    }
    int old = fegetround();
    fesetround(want);
    return old;
}

void ex_round_leave(int old)
{
    if (old >= 0)
        fesetround(old);
}


/* ------------------------------------------------------------------ dispatch */

static uint32_t guard_mask(const struct ex_ctx *c, const struct ptx_insn *in, uint32_t active)
{
    if (in->guard < 0)
        return active;
    const uint64_t *col = c->regs + (size_t)in->guard * W;
    uint32_t m = 0;
    ALL_LANES(l) m |= (uint32_t)(col[l] != 0) << l;
    return (in->guard_neg ? ~m : m) & active;
}

/* ALU opcodes: float or integer family by type */
static void op_alu(const struct xs *x)
{
    uint8_t op = x->in->op;
    int flt_only = op == OP_FMA || op == OP_COPYSIGN || (op >= OP_SQRT && op <= OP_TANH);
    int flt_ok = flt_only || op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_MAD ||
                 op == OP_DIV || op == OP_MIN || op == OP_MAX || op == OP_ABS || op == OP_NEG;
    if (is_flt(x->in->type) && flt_ok)
        ex_op_flt(x);
    else if (flt_only)
        ex_fail(x, first_lane(x->exec), "%s needs a floating-point type", ptx_op_name((enum ptx_op)op));
    else
        ex_op_int(x);
}

static void dispatch(const struct xs *x)
{
    switch (x->in->op) {
    case OP_LD: ex_op_ld(x); break;
    case OP_ST: ex_op_st(x); break;
    case OP_MOV: ex_op_mov(x); break;
    case OP_CVTA: ex_op_cvta(x); break;
    case OP_CVT: ex_op_cvt(x); break;
    case OP_SETP: ex_op_setp(x); break;
    case OP_SET: ex_op_set(x); break;
    case OP_SELP: ex_op_selp(x); break;
    case OP_SLCT: ex_op_slct(x); break;
    case OP_ATOM: ex_op_atom(x, 0); break;
    case OP_RED: ex_op_atom(x, 1); break;
    case OP_SHFL: ex_op_shfl(x); break;
    case OP_VOTE: ex_op_vote(x); break;
    case OP_ACTIVEMASK: put_all(x, &x->in->opd[0], x->exec); break;
    case OP_BRA: ex_op_bra(x); break;
    case OP_EXIT: x->res->kind = EX_EXIT; x->res->exited = x->exec; break;
    case OP_BAR: ex_op_bar(x); break;
    case OP_PRINTF: ex_op_printf(x); break;
    case OP_MEMBAR: case OP_NOP: break;
    /* VTW's extension: nexttbid's value comes from the next-TB-index unit (ntb.h, or the
       functional model's copy of it); nextidxinblk is SameLane's move, which another lane
       policy's unit overwrites. */
    case OP_NEXTTB: break;
    case OP_NEXTIDX: ex_op_mov(x); break;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_FMA: case OP_DIV: case OP_REM:
    case OP_MIN: case OP_MAX: case OP_ABS: case OP_NEG: case OP_MUL24: case OP_MAD24: case OP_SAD:
    case OP_COPYSIGN: case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT:
    case OP_SHL: case OP_SHR: case OP_POPC: case OP_CLZ: case OP_BREV: case OP_BFE: case OP_BFI:
    case OP_PRMT: case OP_BFIND: case OP_SQRT: case OP_RSQRT: case OP_RCP: case OP_EX2:
    case OP_LG2: case OP_SIN: case OP_COS: case OP_TANH:
        op_alu(x);
        break;
    default:           /* call/ret are inlined by the linker and never reach a prog */
        ex_fail(x, first_lane(x->exec), "unsupported instruction '%s'", ptx_op_name((enum ptx_op)x->in->op));
        break;
    }
}

static void res_clear(struct ex_result *res)
{
    res->kind = EX_NORMAL;
    res->space = PS_GENERIC;
    res->is_store = res->is_atomic = 0;
    res->exec_mask = res->taken = res->target = res->exited = 0;
    res->bar_id = res->bar_count = res->access_bytes = 0;
    res->err[0] = '\0';
}

void ex_exec(const struct ex_ctx *ctx, uint32_t pc, uint32_t active, struct ex_result *res)
{
    res_clear(res);
    if (!ctx || !ctx->prog || !ctx->regs) {
        snprintf(res->err, PTX_ERR_LEN, "ex_exec: no program or registers");
        res->kind = EX_ERROR;
        return;
    }
    struct xs x = { ctx, NULL, res, pc, 0 };
    if (pc >= ctx->prog->ninsns) {
        ex_fail(&x, first_lane(active), "PC outside the program (%u instructions)", ctx->prog->ninsns);
        return;
    }
    x.in = &ctx->prog->insns[pc];
    if (x.in->type >= PT_COUNT || x.in->type2 >= PT_COUNT) {
        ex_fail(&x, first_lane(active), "bad instruction type");
        return;
    }
    x.exec = guard_mask(ctx, x.in, active);
    res->exec_mask = x.exec;
    dispatch(&x);
}
