/*
 * ptx_rewrite.h -- edits of a linked kernel (ptx_prog) for program transforms.
 *
 * Not a hardware block: a load-time tool for transforms such as VTW's wrapper while loop
 * (000_0da6b8b480bd0740.txt Section 4.1: virtual TB indices instead of %ctaid/%tid, every exit
 * a branch to the index-update block) or reference redirection (001_8bf4399a5d1562fa.txt
 * Section III.A: a new kernel parameter, thread IDs replaced by D[tid]).  Example: docs/ptx.md.
 *
 * Every edit is checked before it is made and leaves the program as the linker leaves one:
 * registers and branch targets in range, guards of type .pred, no call or ret, an unguarded
 * exit or bra last, flow_build succeeds; regs_per_thread is recomputed.  A rejected edit
 * changes nothing and makes the rewriter fail (sticky): later edits are refused too, and
 * ptx_rw_end reports the first error.  So a transform checks once, at the end.
 * The rewriter checks structure, not types: print the result (ptx_print) and parse it back to
 * have the parser check operand types.  Rewrite before a launch; a flow built for the old
 * instructions must be built again (flow_build).
 *
 * Branch targets.  Inserting n instructions at pc moves every instruction from pc on by n and
 * every branch with it.  A branch that targeted pc itself then runs the inserted code (it was
 * inserted "at the label"), unless PTX_RW_KEEP_TARGETS is given (then it still reaches the old
 * instruction: code only the fall-through path runs, e.g. a loop's entry code).  Inside the
 * inserted or replacing code, a label operand holds either an old pc (the old instruction,
 * wherever it now is) or PTX_RW_LOCAL(k), the k-th new instruction.  ptx_rw_newpc maps pcs
 * across the last edit for data a transform keeps by pc.
 */
#ifndef PTX_REWRITE_H
#define PTX_REWRITE_H
#include "ptx.h"

struct ptx_rw {
    struct ptx_prog *p;
    int      failed;             /* an edit was rejected: every later one is refused */
    char     err[PTX_ERR_LEN];   /* the first rejection */
    uint32_t at, removed, added; /* the last edit of the instruction list (ptx_rw_newpc) */
};

#define PTX_RW_LOCAL(k)      (-1 - (int64_t)(k))   /* label operand: the k-th new instruction */
#define PTX_RW_KEEP_TARGETS  1u                    /* insert: branches to pc keep the old one */

void     ptx_rw_begin(struct ptx_rw *rw, struct ptx_prog *p);
/* 0 if every edit was made, else -1 with the first rejection in err. */
int      ptx_rw_end(const struct ptx_rw *rw, char *err, size_t errlen);

/* Insert n instructions before pc (pc == ninsns: at the end). Returns the pc of the first
   one, or -1. */
int64_t  ptx_rw_insert(struct ptx_rw *rw, uint32_t pc, const struct ptx_insn *ins, uint32_t n,
                       unsigned flags);
/* Replace the instruction at pc by n instructions (n == 0 deletes it); branches to pc reach
   the first new one (or the next instruction), and so does its .pragma (ptx_insn.pragma)
   when that one has none. Returns pc, or -1. */
int64_t  ptx_rw_replace(struct ptx_rw *rw, uint32_t pc, const struct ptx_insn *ins, uint32_t n);
/* Replace the count instructions from pc by n instructions in one edit (a transform deleting
   many instructions: one copy and one check, not one per instruction); branches to any of
   them reach the first new one (or the instruction after them); their .pragma goes with the
   copies the caller passes, if any. Returns pc, or -1. */
int64_t  ptx_rw_replace_range(struct ptx_rw *rw, uint32_t pc, uint32_t count,
                              const struct ptx_insn *ins, uint32_t n);
/* Relabel: every branch to `from` goes to `to`. Returns how many branches, or -1. */
int64_t  ptx_rw_retarget(struct ptx_rw *rw, uint32_t from, uint32_t to);
/* Where the instruction at old_pc is after the last insert/replace (the replaced one: the
   first new instruction). */
uint32_t ptx_rw_newpc(const struct ptx_rw *rw, uint32_t old_pc);

/* A new register of type t named `name` (NULL: "%rwN"). Returns its index, or -1. */
int32_t  ptx_rw_add_reg(struct ptx_rw *rw, enum ptx_type t, const char *name);
/* A new kernel parameter at the end of the list, size bytes (0: the type's size) aligned to
   align (0: the size of t), laid out as the parser lays out parameters.  Returns its offset
   in the parameter buffer (param_size grows), or -1. */
int64_t  ptx_rw_add_param(struct ptx_rw *rw, const char *name, enum ptx_type t, uint32_t size,
                          uint32_t align);
/* Every read of the special register s (component comp: 0..2 for .x/.y/.z) in [from, to)
   becomes a read of register reg.  Returns how many, or -1. */
int64_t  ptx_rw_subst_sreg(struct ptx_rw *rw, enum ptx_sreg s, unsigned comp, int32_t reg,
                           uint32_t from, uint32_t to);

/* Building instructions (operands as the parser makes them, so that they print and parse
   back the same).  ptx_insn_new: op with main type t and nopd operands (struct ptx_operand
   values); ld/st get .vec 1, integer mul/mad/mul24/mad24 .lo; set other fields after. */
struct ptx_operand ptx_opd_reg(int32_t r);
struct ptx_operand ptx_opd_imm(int64_t v);
struct ptx_operand ptx_opd_sreg(enum ptx_sreg s, unsigned comp);
/* [base+off] (base a register), or with base -1 a folded address in `space` as the linker
   leaves one: e.g. a kernel parameter, ptx_opd_addr(-1, offset, PS_PARAM). */
struct ptx_operand ptx_opd_addr(int32_t base, int64_t off, enum ptx_space space);
struct ptx_operand ptx_opd_label(int64_t target);
struct ptx_insn    ptx_insn_new(enum ptx_op op, enum ptx_type t, unsigned nopd, ...);
/* setp.cmp.t p, a, b */
struct ptx_insn    ptx_insn_setp(enum ptx_cmp cmp, enum ptx_type t, int32_t p, struct ptx_operand a,
                                 struct ptx_operand b);
/* [@[!]guard] bra target (guard -1: unconditional) */
struct ptx_insn    ptx_insn_bra(int32_t guard, int neg, int64_t target);
/* ld.space.t */
struct ptx_insn    ptx_insn_ld(enum ptx_space space, enum ptx_type t, int32_t dst, struct ptx_operand addr);

#endif
