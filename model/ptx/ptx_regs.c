/*
 * ptx_regs.c -- the register estimate of a linked program (regs_per_thread, the occupancy
 * input): the maximum number of 32-bit register slots live at once, from a backward liveness
 * analysis over the prog's control flow.
 *
 * Not a hardware block: a load-time analysis, run by the linker and again by the rewriter
 * after every edit (ptx_rewrite.c).  Pure; the live sets are freed before it returns.
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
    case OP_NOP: case OP_RET: case OP_CALL:
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
    for (int k = 0; k < in->nopd && k < PTX_MAX_OPERANDS; k++) {
        const struct ptx_operand *o = &in->opd[k];
        int isdef = k < ndst;
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

/* Maximum number of simultaneously live 32-bit register slots (64-bit registers count 2,
   predicates 0) from a backward liveness analysis, plus 2.  This stands in for ptxas'
   register allocation: ptxas also needs a couple of registers for addresses and
   temporaries it creates.  Checked against ptxas -arch=sm_75 on the bench kernels: most land
   within about 30%; ptxas needs more where it hoists loads for latency (spmv, nw: about 2x)
   and fewer where it re-materialises values. */
uint32_t ptx_estimate_regs(const struct ptx_prog *p)
{
    uint32_t n = p->ninsns, nr = p->nregs, nw = (nr + 63) / 64;
    if (n == 0 || nr == 0)
        return 2;
    uint64_t total_slots = 0;
    for (uint32_t r = 0; r < nr; r++)
        total_slots += p->reg_type[r] == PT_PRED ? 0 : (ptx_type_size((enum ptx_type)p->reg_type[r]) == 8 ? 2 : 1);
    if ((uint64_t)n * nw > (1ull << 23))     /* > 64 MiB of live sets: fall back */
        return (uint32_t)(total_slots > 0xfffffff0u ? 0xfffffff0u : total_slots) + 2;
    uint64_t *live = calloc((size_t)n * nw, sizeof *live);
    uint64_t *w1 = calloc(nw, sizeof *w1), *w2 = calloc(nw, sizeof *w2), *tmp = calloc(nw, sizeof *tmp);
    if (!live || !w1 || !w2 || !tmp) {
        free(live), free(w1), free(w2), free(tmp);
        return (uint32_t)(total_slots > 0xfffffff0u ? 0xfffffff0u : total_slots) + 2;
    }
    for (uint32_t r = 0; r < nr; r++) {
        if (p->reg_type[r] != PT_PRED)
            w1[r / 64] |= 1ull << (r % 64);
        if (ptx_type_size((enum ptx_type)p->reg_type[r]) == 8)
            w2[r / 64] |= 1ull << (r % 64);
    }
    int32_t defs[PTX_INSN_MAX_REGS], uses[PTX_INSN_MAX_REGS];
    int nd, nu, changed = 1;
    uint32_t best = 0;
    /* live sets only grow from pass to pass, so the last pass sees the largest pressure */
    for (int pass = 0; changed && pass < 100000; pass++) {
        changed = 0;
        for (uint32_t pc = n; pc-- > 0;) {
            const struct ptx_insn *in = &p->insns[pc];
            memset(tmp, 0, nw * sizeof *tmp);
            int falls = !((in->op == OP_BRA || in->op == OP_EXIT) && in->guard < 0);
            if (falls && pc + 1 < n)
                for (uint32_t w = 0; w < nw; w++)
                    tmp[w] |= live[(size_t)(pc + 1) * nw + w];
            if (in->op == OP_BRA && in->opd[0].imm >= 0 && (uint64_t)in->opd[0].imm < n)
                for (uint32_t w = 0; w < nw; w++)
                    tmp[w] |= live[(size_t)in->opd[0].imm * nw + w];
            ptx_insn_regs(in, defs, &nd, uses, &nu);
            /* pressure: max(live-in, live-out plus registers written but dead) */
            uint32_t pout = 0, pin = 0;
            for (int k = 0; k < nd; k++)
                if (!(tmp[defs[k] / 64] >> (defs[k] % 64) & 1) && p->reg_type[defs[k]] != PT_PRED)
                    pout += ptx_type_size((enum ptx_type)p->reg_type[defs[k]]) == 8 ? 2 : 1;
            for (uint32_t w = 0; w < nw; w++)
                pout += (uint32_t)__builtin_popcountll(tmp[w] & w1[w])
                      + (uint32_t)__builtin_popcountll(tmp[w] & w2[w]);
            if (in->guard < 0)
                for (int k = 0; k < nd; k++)
                    tmp[defs[k] / 64] &= ~(1ull << (defs[k] % 64));
            for (int k = 0; k < nu; k++)
                tmp[uses[k] / 64] |= 1ull << (uses[k] % 64);
            uint64_t *cur = &live[(size_t)pc * nw];
            for (uint32_t w = 0; w < nw; w++) {
                if (cur[w] != tmp[w])
                    changed = 1;
                cur[w] = tmp[w];
                pin += (uint32_t)__builtin_popcountll(tmp[w] & w1[w])
                     + (uint32_t)__builtin_popcountll(tmp[w] & w2[w]);
            }
            if (pin > best)
                best = pin;
            if (pout > best)
                best = pout;
        }
    }
    free(live), free(w1), free(w2), free(tmp);
    return best + 2;
}
