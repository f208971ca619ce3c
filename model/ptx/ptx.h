/*
 * ptx.h -- in-memory form of a PTX module and of a linked, flattened kernel program.
 *
 * Not a hardware block: this is the front end's data model. The parser (ptx_parse.c) turns
 * PTX text into a `ptx_module` (functions, module variables, instructions whose symbol and
 * label operands are still names).  The linker (ptx_link.c, ptx_inline.c, ptx_regs.c) turns
 * one `.entry` of a module into a `ptx_prog`: every non-recursive `.func` call inlined, every
 * label an instruction index, every symbol an address in its state space (and a named range
 * in the prog's symbol table), every register a dense index.  The executor, the control-flow
 * analysis (flow.c), the functional runner and the timing model work only on `ptx_prog`; the
 * printer (ptx_print.c) writes one back as PTX text and the rewriter (ptx_rewrite.h) edits
 * one.  docs/ptx.md.
 *
 * Address conventions (state-space addresses, as PTX defines them):
 *   .param  kernel params at [0, kparam_size); call-site / callee params of inlined calls live
 *           in a per-thread scratch area at [PTX_PSCRATCH_BASE, PTX_PSCRATCH_BASE + pscratch_size)
 *   .shared offset inside the CTA's shared memory: static variables first, then dynamic
 *   .local  offset inside the thread's local memory
 *   .global device address (module .global variables are allocated by the host at load)
 *   .const  device address of the const bank (module .const variables, allocated at load)
 * Generic addresses: shared at PTX_GEN_SHARED + off, local at PTX_GEN_LOCAL + off, anything
 * else is global (cvta does the conversion at run time, generic ld/st decode it; no window
 * address is ever folded into an instruction).
 */
#ifndef PTX_H
#define PTX_H
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#define PTX_GEN_SHARED     0x0000700000000000ull
#define PTX_GEN_LOCAL      0x0000710000000000ull
#define PTX_GEN_WINDOW     0x0000010000000000ull  /* size of each of the two windows */
#define PTX_PSCRATCH_BASE  0x00100000u
#define PTX_MAX_OPERANDS   6
#define PTX_ERR_LEN        512

enum ptx_type {
    PT_NONE = 0, PT_PRED,
    PT_B8, PT_B16, PT_B32, PT_B64,
    PT_U8, PT_U16, PT_U32, PT_U64,
    PT_S8, PT_S16, PT_S32, PT_S64,
    PT_F16, PT_F32, PT_F64,
    PT_COUNT
};

enum ptx_space { PS_GENERIC = 0, PS_GLOBAL, PS_SHARED, PS_LOCAL, PS_CONST, PS_PARAM, PS_COUNT };

/* opcodes; the dotted modifiers go into ptx_insn fields */
enum ptx_op {
    OP_INVALID = 0,
    OP_LD, OP_ST, OP_MOV, OP_CVTA, OP_CVT,
    OP_ADD, OP_SUB, OP_MUL, OP_MAD, OP_FMA, OP_DIV, OP_REM, OP_MIN, OP_MAX, OP_ABS, OP_NEG,
    OP_MUL24, OP_MAD24, OP_SAD, OP_COPYSIGN,
    OP_AND, OP_OR, OP_XOR, OP_NOT, OP_CNOT, OP_SHL, OP_SHR,
    OP_POPC, OP_CLZ, OP_BREV, OP_BFE, OP_BFI, OP_PRMT, OP_BFIND,
    OP_SETP, OP_SET, OP_SELP, OP_SLCT,
    OP_BRA, OP_EXIT, OP_RET, OP_CALL,       /* RET/CALL never reach a ptx_prog (inlined) */
    OP_BAR, OP_MEMBAR,
    OP_ATOM, OP_RED,
    OP_SQRT, OP_RSQRT, OP_RCP, OP_EX2, OP_LG2, OP_SIN, OP_COS, OP_TANH,
    OP_SHFL, OP_VOTE, OP_ACTIVEMASK,
    OP_NOP,
    OP_NEXTTB, OP_NEXTIDX,  /* VTW's ISA extension (000 Sec. 4.2): nexttbid.u32 d; nextidxinblk.u32 d, a */
    OP_PRINTF,              /* a call of the .extern vprintf (linker-made): opd[0] the return
                               .param (or none), opd[1] the format's address, opd[2] the
                               arguments' (each a .param address or a register); devprintf.h */
    OP_COUNT
};

enum ptx_cmp {   /* setp / set / slct comparison */
    CMP_NONE = 0, CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE,
    CMP_LO, CMP_LS, CMP_HI, CMP_HS,
    CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU, CMP_NUM, CMP_NAN
};
enum ptx_boolop { BOP_NONE = 0, BOP_AND, BOP_OR, BOP_XOR };
enum ptx_rnd {   /* rounding: .rn .rz .rm .rp (float), .rni .rzi .rmi .rpi (to integer) */
    RND_NONE = 0, RND_RN, RND_RZ, RND_RM, RND_RP, RND_RNI, RND_RZI, RND_RMI, RND_RPI
};
/* atom/red operation, shfl mode, vote mode, prmt mode share one field (sub) */
enum ptx_atomop { AOP_NONE = 0, AOP_ADD, AOP_MIN, AOP_MAX, AOP_INC, AOP_DEC, AOP_AND, AOP_OR,
                  AOP_XOR, AOP_EXCH, AOP_CAS };
enum ptx_shflmode { SHFL_UP = 1, SHFL_DOWN, SHFL_BFLY, SHFL_IDX };
enum ptx_votemode { VOTE_ALL = 1, VOTE_ANY, VOTE_UNI, VOTE_BALLOT };
/* prmt mode (also in sub): none = the default (per-nibble byte select) */
enum ptx_prmtmode { PRMT_DEFAULT = 0, PRMT_F4E, PRMT_B4E, PRMT_RC8, PRMT_ECL, PRMT_ECR, PRMT_RC16 };

/* modifier bits (ptx_insn.mod) */
#define MOD_LO      0x0001u
#define MOD_HI      0x0002u
#define MOD_WIDE    0x0004u
#define MOD_SAT     0x0008u
#define MOD_FTZ     0x0010u
#define MOD_APPROX  0x0020u
#define MOD_FULL    0x0040u
#define MOD_UNI     0x0080u
#define MOD_CC      0x0100u   /* .cc: the carry (borrow) out written to the carry operand */
#define MOD_TO      0x0200u   /* cvta.to */
#define MOD_SHIFTAMT 0x0400u  /* bfe/bfi/prmt: reserved */
#define MOD_NC      0x0800u   /* ld.global.nc */
#define MOD_VOLATILE 0x1000u
#define MOD_CIN     0x2000u   /* carry in: addc, subc, madc (op add, sub, mad) */

enum ptx_sreg {
    SR_NONE = 0, SR_TID, SR_NTID, SR_CTAID, SR_NCTAID, SR_LANEID, SR_WARPID, SR_NWARPID,
    SR_SMID, SR_NSMID, SR_CLOCK, SR_CLOCK64, SR_GRIDID, SR_LANEMASK_EQ, SR_LANEMASK_LT,
    SR_LANEMASK_LE, SR_LANEMASK_GT, SR_LANEMASK_GE
};

enum ptx_opd_kind {
    OPD_NONE = 0,
    OPD_REG,     /* .reg: register index (prog) */
    OPD_IMM,     /* immediate: .imm holds the bits (ints sign-extended to 64; f32 as float bits
                    in the low 32; f64 as double bits) */
    OPD_SREG,    /* special register: .sreg + .comp (0..2 for .x/.y/.z) */
    OPD_ADDR,    /* memory operand [base + imm]: .reg base register or -1, .imm offset (in a
                    prog, a symbol base is already folded into .imm) */
    OPD_SYMADDR, /* a variable's address used as a value (mov %r, sym): folded to .imm in prog */
    OPD_VEC,     /* {r0, r1, r2, r3}: .nvec registers in .vec[] (-1 = '_' sink) */
    OPD_LABEL,   /* branch target: instruction index in .imm (prog) */
    OPD_SYM      /* module form only: unresolved symbol name index (.sym) */
};

struct ptx_operand {
    uint8_t  kind;      /* enum ptx_opd_kind */
    uint8_t  neg;       /* '!' on a predicate operand */
    uint8_t  sreg;      /* enum ptx_sreg */
    uint8_t  comp;      /* .x=0 .y=1 .z=2 */
    uint8_t  nvec;      /* OPD_VEC: 2 or 4 (or 1..4) */
    uint8_t  space;     /* OPD_ADDR / OPD_SYMADDR: space of the symbol, if any (enum ptx_space) */
    int32_t  reg;       /* OPD_REG / OPD_ADDR base; -1 if none */
    int32_t  vec[4];    /* OPD_VEC */
    int32_t  sym;       /* module form: symbol (string table index) for OPD_SYM/ADDR/SYMADDR/LABEL; -1 */
    int64_t  imm;
};

/* Where an instruction comes from (not printed; like the line, for messages and watchdogs). */
enum ptx_origin {
    PTX_SRC = 0,        /* the .ptx file, at its line */
    PTX_VTW,            /* the VTW transform's wrapper (ptx/vtwx.h); line = the kernel's .entry */
    PTX_VTW_HEAD        /* ... its head H: a warp at it begins a logical TB */
};

struct ptx_insn {
    uint8_t  op;        /* enum ptx_op */
    uint8_t  type;      /* main (destination / operation) type, enum ptx_type */
    uint8_t  type2;     /* second type: cvt source, setp/set/slct compare type, etc. */
    uint8_t  space;     /* ld/st/atom/red/cvta state space */
    uint8_t  cmp;       /* enum ptx_cmp */
    uint8_t  bop;       /* enum ptx_boolop (setp/set combine) */
    uint8_t  rnd;       /* enum ptx_rnd */
    uint8_t  sub;       /* atom op / shfl mode / vote mode */
    uint8_t  vec;       /* ld/st vector width: 1, 2, 4 */
    uint8_t  nopd;      /* operands used */
    uint8_t  guard_neg; /* @!%p */
    uint8_t  origin;    /* enum ptx_origin: the source, or the transform that made it */
    uint16_t mod;       /* MOD_* bits */
    uint16_t pragma;    /* the .pragma statements just before it (ptx_pragma(mod, pragma));
                           0: none.  Printed back before it; copied with it by the linker,
                           the rewriter and the transforms */
    int32_t  guard;     /* guard predicate register, -1 if unguarded */
    uint32_t line;      /* source line in the .ptx file (VTW wrapper: the kernel's .entry) */
    struct ptx_operand opd[PTX_MAX_OPERANDS];
};

/* add/sub/mad with .cc or carry in (add.cc, addc, sub.cc, subc, mad.cc, madc) name the
   condition code's carry flag CC.CF as one more operand after their sources -- opd[3] (add,
   sub) or opd[4] (mad) -- a predicate register the parser declares as %gs_cc where the scope
   has none, and the linker makes one per kernel: a register like any other to the linker,
   the scoreboard and the register estimate, not printed as an operand.  The operand's index,
   or -1 without one. */
#define PTX_CARRY_NAME "%gs_cc"
static inline int ptx_insn_carry(const struct ptx_insn *in)
{
    if (!(in->mod & (MOD_CC | MOD_CIN)))
        return -1;
    return in->op == OP_MAD ? 4 : 3;
}

/* ---------------- module form (parser output) ---------------- */

struct ptx_var {                 /* a .global/.const/.shared/.local variable */
    char     name[96];
    uint8_t  space;              /* enum ptx_space */
    uint8_t  type;               /* element type */
    uint8_t  is_extern;          /* .extern .shared x[] (dynamic shared memory) */
    uint8_t  scratch;            /* .param declared as .local after .pragma "gpusim param_scratch"
                                    (how the printer writes the scratch of inlined calls) */
    uint32_t align;
    uint64_t size;               /* bytes (element size x count); 0 for extern unsized */
    uint8_t *init;               /* initializer bytes (size bytes) or NULL */
    int32_t  func;               /* declaring function, -1 if module scope */
    uint64_t addr;               /* .global/.const: device address set by the host at load */
};

struct ptx_regdecl {             /* one register name, after %r<N> expansion */
    char     name[32];
    uint8_t  type;
};

struct ptx_param {               /* one .param of an .entry or .func */
    char     name[96];
    uint8_t  type;
    uint32_t align;
    uint32_t size;               /* bytes (arrays: .param .align 8 .b8 p[16]) */
    uint32_t offset;             /* offset in the parameter buffer */
};

#define PTX_MAX_CALL_ARGS 32
struct ptx_call {                /* call (ret0,..), callee, (arg0,..): names as symbol indices */
    int32_t  callee;             /* strs[] index of the callee name */
    uint32_t nrets, nargs;
    int32_t  rets[4];            /* strs[] indices of the caller's .param return variables */
    int32_t  args[PTX_MAX_CALL_ARGS]; /* strs[] indices of .param variables (or registers) */
    uint8_t  arg_is_reg[PTX_MAX_CALL_ARGS];
};

struct ptx_func {
    char     name[128];
    uint8_t  is_entry;           /* .entry (kernel) vs .func */
    uint32_t line;               /* line of the declaration */
    struct ptx_param *params;  uint32_t nparams;  uint32_t param_size;
    struct ptx_param *rets;    uint32_t nrets;
    struct ptx_regdecl *regs;  uint32_t nregs;     /* registers declared in this function
                                                      (including call-sequence scopes) */
    struct ptx_insn *insns;    uint32_t ninsns;    /* operands in module form (OPD_SYM/LABEL by sym) */
    char   **labels;           uint32_t nlabels;   /* label name ...                       */
    uint32_t *label_pos;                             /* ... and the instruction index it marks */
    struct ptx_call *calls;    uint32_t ncalls;    /* OP_CALL: opd[0].imm indexes this */
    uint32_t var0, nvar;                             /* its function-scope variables:
                                                        mod->vars[var0 .. var0 + nvar) */
    uint32_t reqntid[3], maxntid[3];                 /* performance directives, 0 if absent */
    uint32_t maxnreg, minnctapersm;                  /* .maxnreg / .minnctapersm, 0 if absent */
    uint32_t maxnctapersm, maxclusterrank;           /* .maxnctapersm / .maxclusterrank, 0 if absent */
    uint32_t reqnctapercluster[3];                   /* .reqnctapercluster, 0 if absent */
    uint8_t  noreturn, explicitcluster;              /* .noreturn / .explicitcluster given */
    uint16_t pragma;                                 /* entry-scope .pragma statements (between
                                                        the header and the body), 0: none */
};

struct ptx_names;                /* ptx_ntab.h */
struct ptx_module {
    char     filename[256];
    char     version[16], target[32];
    char     target_opts[64];  /* the .target options after the name (", texmode_independent")
                                  but debug (it needs the debug sections, which are not kept) */
    uint32_t address_size;
    uint16_t pragma;          /* module-scope .pragma statements, 0: none */
    char   **pragmas;         /* the .pragma groups, each the statements' string lists joined
                                 by '\n' ("\"nounroll\""); ptx_pragma reads them */
    uint32_t npragmas;
    uint64_t text_hash;       /* FNV-1a of the PTX text (ptx_res_hash): matches its ptxas record */
    struct ptx_func *funcs;   uint32_t nfuncs;
    struct ptx_var  *vars;    uint32_t nvars;      /* every variable, module- or function-scope */
    char   **strs;            uint32_t nstrs;      /* symbol string table (for OPD_SYM) */
    struct ptx_names *names;                       /* the parser's index: functions and
                                                      module-scope variables by name (ptx_ntab.h) */
};

/* ---------------- prog form (linked kernel) ---------------- */

struct ptx_sym {                 /* a named address range of a linked program (symbol table) */
    char     name[96];           /* declared name; "NAME_iN" for the copy in inlined call N */
    uint8_t  space;              /* PS_SHARED, PS_LOCAL, PS_PARAM (scratch), PS_GLOBAL, PS_CONST */
    uint8_t  type;               /* declared element type */
    uint8_t  is_extern;          /* .extern .shared: addr is the dynamic base, size 0 */
    uint32_t align;
    uint64_t addr;               /* the address operands hold: shared/local offset,
                                    PTX_PSCRATCH_BASE + offset, device address */
    uint64_t size;
    int32_t  var;                /* module variable (mod->vars index), -1 for a slot the linker
                                    made (a register argument, an unused return value) */
};

struct ptx_prog {
    char     name[128];
    const struct ptx_module *mod;
    struct ptx_insn *insns;   uint32_t ninsns;    /* inlined, resolved, ends with exit */
    uint8_t *reg_type;        uint32_t nregs;     /* dense registers, their declared types */
    char   (*reg_name)[32];                       /* for dumps */
    struct ptx_param *params; uint32_t nparams;  uint32_t param_size;   /* kernel params */
    uint32_t shared_static;   /* bytes of static shared memory; dynamic starts here (aligned 16) */
    uint32_t local_size;      /* bytes of local memory per thread */
    uint32_t pscratch_size;   /* bytes of per-thread param scratch for inlined calls */
    uint32_t regs_per_thread; /* estimate for occupancy: 32-bit registers after inlining */
    uint32_t *insn_func_line; /* unused (NULL) unless set by linker */
    struct ptx_sym *syms;     uint32_t nsyms;     /* what the addresses above were named */
};

/* Parse PTX text. On error returns -1 and writes "FILE:LINE: message" into err. */
int  ptx_parse(const char *text, size_t len, const char *filename,
               struct ptx_module *mod, char *err, size_t errlen);
/* The same on a file's bytes, read whole through model/base/infile.h: a regular file of at
   most PTX_FILE_MAX bytes (a FIFO, a device or a directory is refused at once with
   "PATH: cannot read PTX: REASON"). */
#define PTX_FILE_MAX (256u << 20)
int  ptx_parse_file(const char *path, struct ptx_module *mod, char *err, size_t errlen);
void ptx_module_free(struct ptx_module *mod);
const struct ptx_func *ptx_find_func(const struct ptx_module *mod, const char *name);
/* Pragma group `idx` of a module (an insn's, a function's or the module's .pragma field): the
   string lists of its .pragma statements, one a line (`"nounroll"`); NULL for 0 or out of
   range. */
const char *ptx_pragma(const struct ptx_module *mod, uint16_t idx);

/* Link one kernel (.entry) into a prog. Module .global/.const variables must already have
   their .addr set (the host API does this at load). On error returns -1 with a message. */
int  ptx_link(const struct ptx_module *mod, const char *kernel, struct ptx_prog *prog,
              char *err, size_t errlen);
void ptx_prog_free(struct ptx_prog *prog);
/* regs_per_thread of a prog: the most 32-bit register slots live at once, plus 2 (ptx_regs.c). */
uint32_t ptx_estimate_regs(const struct ptx_prog *prog);
/* The registers one instruction writes (defs[0..nd)) and reads (uses[0..nu): the guard,
   sources, address bases), as the register estimate sees them; arrays of PTX_INSN_MAX_REGS. */
#define PTX_INSN_MAX_REGS (PTX_MAX_OPERANDS * 4 + 1)
void ptx_insn_regs(const struct ptx_insn *in, int32_t *defs, int *nd, int32_t *uses, int *nu);

/* Print a linked kernel as PTX text that parses and links back to the same program and that
   ptxas accepts (docs/ptx.md says how folded addresses are printed).  p->mod, if set, gives
   .version/.target, performance directives and variable initializers.  0, or -1 with a
   message (a malformed prog: register or branch target out of range). */
int   ptx_print(FILE *f, const struct ptx_prog *p, char *err, size_t errlen);
/* The same into a malloc'ed string (the caller frees it); NULL with a message on error. */
char *ptx_print_string(const struct ptx_prog *p, char *err, size_t errlen);
/* ptx_print_string without the printer's header comment (it names the file and the
   estimate): the text a transform's ptxas record is made from and checked against. */
char *ptx_print_body(const struct ptx_prog *p, char *err, size_t errlen);
/* Give every .global/.const variable of a module that has no device address yet (addr == 0)
   a distinct one from `base` up, aligned -- for printing a module that was never loaded. */
void  ptx_place_vars(struct ptx_module *mod, uint64_t base);

/* Helpers shared by parser, linker and executor */
unsigned    ptx_type_size(enum ptx_type t);   /* bytes; PRED = 1; NONE = 0 */
int         ptx_type_is_float(enum ptx_type t);
int         ptx_type_is_signed(enum ptx_type t);
const char *ptx_type_name(enum ptx_type t);   /* "u32" ... */
const char *ptx_op_name(enum ptx_op op);      /* "add" ... */
const char *ptx_space_name(enum ptx_space s); /* "global" ... ("" for generic) */
const char *ptx_sreg_name(enum ptx_sreg s);   /* "%tid" ... (components not included) */
/* Format a message into err (when err and errlen) and return -1: the error return of the
   front end's passes. */
int ptx_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Does linked kernel p touch shared memory (static variables, a .shared access or address)? */
int ptx_prog_uses_shared(const struct ptx_prog *p);
/* Where instruction pc of p comes from, for messages: "FILE:LINE", with " (VTW wrapper)"
   after an instruction of the VTW transform's wrapper (its line is the kernel's .entry);
   "?" for an unknown file, line 0 for a pc outside the program. Returns buf. */
const char *ptx_where(const struct ptx_prog *p, uint32_t pc, char *buf, size_t len);
/* Disassemble one prog instruction (for dumps and error messages). */
void        ptx_insn_format(const struct ptx_prog *p, uint32_t pc, char *buf, size_t len);

#endif
