/*
 * ptx_regs.c -- the register estimate of a linked program (regs_per_thread, the occupancy
 * input): the maximum number of 32-bit register slots live at once, from a backward liveness
 * analysis over the prog's control flow.
 *
 * Not a hardware block: a load-time analysis, run by the linker and again by the rewriter
 * after every edit (ptx_rewrite.c).  Live sets are kept per basic block, so a pass costs
 * O(blocks x registers / 64 + instructions).  Pure; the live sets are freed before it returns.
 */
#include "ptx.h"
#include <stdlib.h>
#include <string.h>

/* Registers an instruction writes (defs) and reads (uses) (ptx.h). */
void ptx_insn_regs(const struct ptx_insn *in, int32_t *defs, int *nd, int32_t *uses, int *nu)
{
    *nd = *nu = 0;
    if (in->guard >= 0)
        uses[(*nu)++] = in->guard;
    int ndst;
    switch (in->op) {
    case OP_ST: case OP_RED: case OP_BRA: case OP_EXIT: case OP_BAR: case OP_MEMBAR:
    case OP_NOP: case OP_RET: case OP_CALL: case OP_PRINTF:
        ndst = 0;
        break;
    case OP_SETP: case OP_SHFL:
        ndst = 2;
        break;
    case OP_NEXTTB: case OP_NEXTIDX:     /* d; d, a (VTW, 000 Sec. 4.2) */
        ndst = 1;
        break;
    default:
        ndst = 1;
        break;
    }
    int cf = ptx_insn_carry(in);    /* the carry flag: written by .cc, read by carry in */
    for (int k = 0; k < in->nopd && k < PTX_MAX_OPERANDS; k++) {
        const struct ptx_operand *o = &in->opd[k];
        int isdef = k < ndst;
        if (k == cf) {
            if (o->kind == OPD_REG && o->reg >= 0 && (in->mod & MOD_CIN))
                uses[(*nu)++] = o->reg;
            if (o->kind == OPD_REG && o->reg >= 0 && (in->mod & MOD_CC))
                defs[(*nd)++] = o->reg;
            continue;
        }
        if (o->kind == OPD_REG && o->reg >= 0) {
            if (isdef)
                defs[(*nd)++] = o->reg;
            else
                uses[(*nu)++] = o->reg;
        } else if (o->kind == OPD_VEC) {
            for (unsigned e = 0; e < o->nvec && e < 4; e++)
                if (o->vec[e] >= 0) {
                    if (isdef)
                        defs[(*nd)++] = o->vec[e];
                    else
                        uses[(*nu)++] = o->vec[e];
                }
        } else if (o->kind == OPD_ADDR && o->reg >= 0) {
            uses[(*nu)++] = o->reg;
        }
    }
}

/* The liveness analysis over basic blocks: live-in sets per block (a block ends at every
   bra and exit and before every branch target), iterated to the fixed point, then one walk
   through each block with its final live-out set for the pressure.  Per pass it costs
   O(blocks x registers / 64 + instructions), not O(instructions x registers / 64). */
struct live {
    const struct ptx_prog *p;
    uint32_t n, nw, nb;
    uint32_t *first;             /* block b: instructions [first[b], first[b + 1]) */
    uint32_t *block_of;          /* pc -> block */
    uint64_t *in;                /* live-in of block b: in[b * nw .. + nw) */
};

/* 32-bit register slots of a register: predicates 0, 64-bit registers 2, others 1. */
static unsigned slots(const struct ptx_prog *p, int32_t r)
{
    if (p->reg_type[r] == PT_PRED)
        return 0;
    return ptx_type_size((enum ptx_type)p->reg_type[r]) == 8 ? 2 : 1;
}

static int ends_block(const struct ptx_insn *in)
{
    return in->op == OP_BRA || in->op == OP_EXIT;
}

/* Blocks: leaders at 0, at every branch target and after every bra / exit. */
static uint32_t split_blocks(struct live *L)
{
    const struct ptx_prog *p = L->p;
    uint8_t *lead = L->first ? calloc(L->n + 1, 1) : NULL;
    if (!lead)
        return 0;
    lead[0] = 1;
    for (uint32_t pc = 0; pc < L->n; pc++) {
        const struct ptx_insn *in = &p->insns[pc];
        if (in->op == OP_BRA && in->opd[0].imm >= 0 && (uint64_t)in->opd[0].imm < L->n)
            lead[in->opd[0].imm] = 1;
        if (ends_block(in))
            lead[pc + 1] = 1;
    }
    uint32_t nb = 0;
    for (uint32_t pc = 0; pc < L->n; pc++) {
        if (lead[pc])
            L->first[nb++] = pc;
        L->block_of[pc] = nb - 1;
    }
    L->first[nb] = L->n;
    free(lead);
    return nb;
}

/* The live-out set of block b, from its successors' live-in sets, into tmp. */
static void block_out(const struct live *L, uint32_t b, uint64_t *tmp)
{
    uint32_t last = L->first[b + 1] - 1, nw = L->nw;
    const struct ptx_insn *in = &L->p->insns[last];
    memset(tmp, 0, nw * sizeof *tmp);
    int falls = !(ends_block(in) && in->guard < 0);
    if (falls && last + 1 < L->n)
        for (uint32_t w = 0, s = L->block_of[last + 1]; w < nw; w++)
            tmp[w] |= L->in[(size_t)s * nw + w];
    if (in->op == OP_BRA && in->opd[0].imm >= 0 && (uint64_t)in->opd[0].imm < L->n)
        for (uint32_t w = 0, s = L->block_of[in->opd[0].imm]; w < nw; w++)
            tmp[w] |= L->in[(size_t)s * nw + w];
}

/* Block b backward from its live-out set in tmp to its live-in set; with best, the pressure
   at each instruction: max(live-in, live-out plus registers written but dead). */
static void block_walk(const struct live *L, uint32_t b, uint64_t *tmp, uint32_t *best)
{
    const struct ptx_prog *p = L->p;
    int32_t defs[PTX_INSN_MAX_REGS], uses[PTX_INSN_MAX_REGS];
    int nd, nu;
    uint32_t cnt = 0;
    for (uint32_t w = 0; best && w < L->nw; w++)
        for (uint64_t x = tmp[w]; x; x &= x - 1)
            cnt += slots(p, (int32_t)(w * 64 + (uint32_t)__builtin_ctzll(x)));
    for (uint32_t pc = L->first[b + 1]; pc-- > L->first[b];) {
        const struct ptx_insn *in = &p->insns[pc];
        ptx_insn_regs(in, defs, &nd, uses, &nu);
        uint32_t pout = cnt;
        for (int k = 0; best && k < nd; k++)
            if (!(tmp[defs[k] / 64] >> (defs[k] % 64) & 1))
                pout += slots(p, defs[k]);
        for (int k = 0; in->guard < 0 && k < nd; k++)
            if (tmp[defs[k] / 64] >> (defs[k] % 64) & 1) {
                tmp[defs[k] / 64] &= ~(1ull << (defs[k] % 64));
                cnt -= slots(p, defs[k]);
            }
        for (int k = 0; k < nu; k++)
            if (!(tmp[uses[k] / 64] >> (uses[k] % 64) & 1)) {
                tmp[uses[k] / 64] |= 1ull << (uses[k] % 64);
                cnt += slots(p, uses[k]);
            }
        if (best && pout > *best)
            *best = pout;
        if (best && cnt > *best)
            *best = cnt;
    }
}

/* Live-in sets to the fixed point (they only grow), then the pressure with the final sets. */
static uint32_t live_pressure(struct live *L, uint64_t *tmp)
{
    uint32_t nw = L->nw, best = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = L->nb; b-- > 0;) {
            block_out(L, b, tmp);
            block_walk(L, b, tmp, NULL);
            uint64_t *cur = &L->in[(size_t)b * nw];
            if (memcmp(cur, tmp, nw * sizeof *tmp)) {
                memcpy(cur, tmp, nw * sizeof *tmp);
                changed = 1;
            }
        }
    }
    for (uint32_t b = 0; b < L->nb; b++) {
        block_out(L, b, tmp);
        block_walk(L, b, tmp, &best);
    }
    return best;
}

/* Maximum number of simultaneously live 32-bit register slots (64-bit registers count 2,
   predicates 0) from a backward liveness analysis, plus 2.  This stands in for ptxas'
   register allocation: ptxas also needs a couple of registers for addresses and
   temporaries it creates.  Checked against ptxas -arch=sm_75 on the bench kernels: most land
   within about 30%; ptxas needs more where it hoists loads for latency (spmv, nw: about 2x)
   and fewer where it re-materialises values. */
uint32_t ptx_estimate_regs(const struct ptx_prog *p)
{
    struct live L = {p, p->ninsns, (p->nregs + 63) / 64, 0, NULL, NULL, NULL};
    if (L.n == 0 || p->nregs == 0)
        return 2;
    uint64_t total_slots = 0;
    for (uint32_t r = 0; r < p->nregs; r++)
        total_slots += slots(p, (int32_t)r);
    uint32_t fallback = (uint32_t)(total_slots > 0xfffffff0u ? 0xfffffff0u : total_slots) + 2;
    L.first = malloc(((size_t)L.n + 1) * sizeof *L.first);
    L.block_of = malloc((size_t)L.n * sizeof *L.block_of);
    uint64_t *tmp = calloc(L.nw, sizeof *tmp);
    if (L.block_of && tmp)
        L.nb = split_blocks(&L);
    if (L.nb && (uint64_t)L.nb * L.nw <= (1ull << 23))    /* else > 64 MiB of live sets: fall back */
        L.in = calloc((size_t)L.nb * L.nw, sizeof *L.in);
    uint32_t r = L.in ? live_pressure(&L, tmp) + 2 : fallback;
    free(L.first), free(L.block_of), free(L.in), free(tmp);
    return r;
}
