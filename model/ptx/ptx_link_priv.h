/*
 * ptx_link_priv.h -- what the files of the PTX linker share (private to model/ptx/ptx_link.c
 * and ptx_inline.c; the interface is ptx.h).
 *
 * Not a hardware block.  The linker is split along its stages:
 *   ptx_link.c    errors and memory, name tables, the analysis (call graph, frame layouts,
 *                 symbol checks, static shared layout), the symbol table of the prog, the
 *                 entry points
 *   ptx_inline.c  emission: copying instructions with every call inlined, symbol and
 *                 register relocation, branch fixups
 *   ptx_regs.c    the register estimate (liveness), also used by the rewriter
 * Here: the link context (struct lctx), per-function frame layouts, inlined instances, and
 * the functions the stages call in each other (prefix lk_).
 */
#ifndef PTX_LINK_PRIV_H
#define PTX_LINK_PRIV_H
#include "ptx.h"
#include "ptx_ntab.h"
#include <setjmp.h>
#include <stdint.h>

#define MAX_PROG_INSNS  (1u << 19)   /* after inlining (a ptx_insn is ~260 bytes) */
#define MAX_PROG_REGS   (1u << 20)
#define MAX_CALL_DEPTH  256
#define MAX_FRAME_BYTES (1u << 30)
#define NONE32          0xffffffffu

enum skind { SK_NONE = 0, SK_FVAR, SK_PARAM, SK_RET, SK_MVAR };

struct flayout {                 /* per reachable function, made when the walk reaches it */
    uint32_t  fi;
    uint8_t   state;             /* call-graph walk: 0 new, 1 on the stack, 2 done */
    int32_t  *vars;              /* function-scope variables (module var indices) */
    uint32_t *off;               /* their offsets in the local or param-scratch frame */
    uint32_t  nvars;
    struct ntab names;           /* variable, parameter, return parameter names -> idx << 2 | SK_* */
    uint32_t  local_size, local_align, ps_size, ps_align;
};

struct lvar {                    /* per module variable the program names */
    int32_t   v;
    uint32_t  shared_off;        /* static shared offset, NONE32 */
    uint32_t  mlocal_off;        /* module-scope .local: local offset once placed, NONE32 */
};

struct fixup { uint32_t pc; uint32_t target; };   /* target: local insn index (ninsns = end) */

struct inst {                    /* one inlined copy of a function */
    uint32_t fi, id;
    uint32_t reg_base, local_base, ps_base;   /* ps_base: offset inside the scratch area */
    uint32_t args, rets;         /* index in the u32 pool of the callee's param / ret addresses */
};

struct lctx {
    const struct ptx_module *m;
    struct ptx_prog *p;
    char    *err;
    size_t   errlen;
    char     errbuf[PTX_ERR_LEN];
    jmp_buf  jb;
    uint32_t cap_insns, cap_regs, cap_syms;
    struct flayout **fl;         /* reachable functions, in the order the walk met them ... */
    uint32_t nfl, cap_fl;
    struct ntab fl_of;           /* ... by function index */
    struct lvar *lv;             /* the variables reachable code names, by index after the walk */
    uint32_t nlv, cap_lv;
    struct ntab lv_of;           /* ... by variable index */
    uint32_t dyn_base;
    uint64_t local_total, ps_total;
    uint32_t ninst;
    uint32_t *pool;              /* u32 stack: pc maps, argument/return addresses */
    uint32_t npool, cap_pool;
    struct fixup *fix;           /* fixup stack */
    uint32_t nfix, cap_fix;
    uint16_t pend_pragma;        /* the .pragma of a call or ret that emits no copy of itself:
                                    for the next instruction emitted (lk_emit) */
};

static inline uint64_t lk_align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

/* ------------------------------------------------------------------ ptx_link.c */
int  lk_is_vprintf(struct lctx *L, uint32_t fi, const struct ptx_call *cl);

void lk_fail(struct lctx *L, uint32_t line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));
void *lk_grow(struct lctx *L, void *arr, uint32_t *cap, uint64_t need, size_t esz);
int lk_lookup_sym(struct lctx *L, uint32_t fi, int32_t sym, uint32_t *idx);
/* The frame layout of function fi (made on first use); the defined function a name (strs
   index) calls, -1; a variable's link state (made on first use). */
struct flayout *lk_fl(struct lctx *L, uint32_t fi);
int32_t lk_func_of_sym(const struct lctx *L, int32_t sym);
struct lvar *lk_var(struct lctx *L, int32_t v);
/* Record a named range in the prog's symbol table; id != 0 suffixes the name "_i<id>". */
void lk_add_sym(struct lctx *L, const char *name, uint32_t id, uint8_t space, int32_t var,
                uint8_t type, uint32_t align, uint64_t addr, uint64_t size);
/* The local and param-scratch variables of one instance, into the symbol table. */
void lk_frame_syms(struct lctx *L, const struct inst *I);

/* ------------------------------------------------------------------ ptx_inline.c */

uint32_t lk_alloc_local(struct lctx *L, uint64_t size, uint32_t align);
uint32_t lk_alloc_pscratch(struct lctx *L, uint64_t size, uint32_t align);
uint32_t lk_new_regs(struct lctx *L, uint32_t fi, uint32_t id);
struct ptx_insn lk_make_bra(int32_t guard, uint8_t neg, uint32_t line);
struct ptx_insn *lk_emit(struct lctx *L, const struct ptx_insn *in);
void lk_emit_instance(struct lctx *L, const struct inst *I, uint32_t depth);

#endif
