/*
 * test_vtwx.c -- cmocka tests for the VTW transform (model/ptx/vtwx.c, 000_0da6b8b480bd0740.txt
 * Sections 4.1-4.4) and its two instructions in the front end (nexttbid, nextidxinblk).
 *
 * The instructions parse, print back and are refused when malformed; their def/use.  The
 * transform's structure on a small kernel (what is hoisted and what is not, the head, where
 * the exits went, the hidden parameters) and on every bench kernel in both forms (the printed
 * text parses and links back to the same program; no %ctaid, %nctaid (hw: %tid) read after the
 * prologue; the one exit at the head).  The sw form end to end: vecadd, matmul (shared memory
 * and barriers), conv2d (2-D grid) and a 3-D grid / 3-D block kernel, on 1, 3 and 5 CTAs
 * (5 divides no logical TB count used), functional and timing model, output bytes equal to
 * the original kernel's.  ptxas (where installed) accepts the sw form of every bench kernel.
 * The hw form on every mix of 1-D and 3-D grids and blocks, the indices from moves where the
 * launch makes them identities (test_hw_launch_shapes).  The checked-in kernel.vtw.res records
 * are those of the text the model transforms now (test_records_fresh).
 * Refusals.  The table of instructions, hoisted counts and registers per bench kernel is
 * printed (docs/ptx.md "VTW transform").
 */
#include <glob.h>
#include <sys/stat.h>
#include "ptx_cmp.h"
#include "gpu/gpusim.h"
#include "ptx/ptx_res.h"
#include "ptx/vtwx.h"
#include "func/gmem.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"
#define OUT_DIR BUILD_DIR "/tests/vtwx"

struct kern {
    struct ptx_module m;
    struct ptx_prog p;
};

static void load(struct kern *k, const char *text, const char *path, const char *name)
{
    char err[PTX_ERR_LEN];
    int rc = text ? ptx_parse(text, strlen(text), "t.ptx", &k->m, err, sizeof err)
                  : ptx_parse_file(path, &k->m, err, sizeof err);
    if (rc)
        fail_msg("%s", err);
    ptx_place_vars(&k->m, 0x10000000ull);
    if (ptx_link(&k->m, name ? name : k->m.funcs[0].name, &k->p, err, sizeof err))
        fail_msg("%s", err);
}

static void unload(struct kern *k)
{
    ptx_prog_free(&k->p);
    ptx_module_free(&k->m);
}

static void apply_ok(struct ptx_prog *p, enum vtwx_form f, struct vtwx_info *info)
{
    char err[PTX_ERR_LEN];
    if (vtwx_apply(p, f, info, err, sizeof err))
        fail_msg("%s", err);
}

/* ------------------------------------------------------------------ the two instructions */

static const char k_ext[] = HDR
    ".visible .entry kx(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  nexttbid.u32 %r1;\n"
    "  nextidxinblk.u32 %r2, %r1;\n"
    "  nextidxinblk.u32 %r3, 5;\n"
    "  ret;\n"
    "}\n";

static void test_new_insns_parse_print(void **state)
{
    (void)state;
    struct kern k;
    load(&k, k_ext, NULL, "kx");
    assert_int_equal(k.p.insns[0].op, OP_NEXTTB);
    assert_int_equal(k.p.insns[0].type, PT_U32);
    assert_int_equal(k.p.insns[0].nopd, 1);
    assert_int_equal(k.p.insns[1].op, OP_NEXTIDX);
    assert_int_equal(k.p.insns[1].nopd, 2);
    assert_int_equal(k.p.insns[1].opd[1].kind, OPD_REG);
    assert_int_equal(k.p.insns[2].opd[1].kind, OPD_IMM);
    assert_int_equal(k.p.insns[2].opd[1].imm, 5);
    assert_string_equal(ptx_op_name(OP_NEXTTB), "nexttbid");
    assert_string_equal(ptx_op_name(OP_NEXTIDX), "nextidxinblk");
    char *t = ptx_round_trip_prog(&k.p, &k.m, "kx");
    tu_assert_contains(t, "\tnexttbid.u32 %r1;\n\tnextidxinblk.u32 %r2, %r1;\n"
                          "\tnextidxinblk.u32 %r3, 5;\n");
    free(t);
    /* def/use: d written, a read */
    int32_t defs[PTX_INSN_MAX_REGS], uses[PTX_INSN_MAX_REGS];
    int nd, nu;
    ptx_insn_regs(&k.p.insns[0], defs, &nd, uses, &nu);
    assert_int_equal(nd, 1);
    assert_int_equal(nu, 0);
    assert_int_equal(defs[0], k.p.insns[0].opd[0].reg);
    ptx_insn_regs(&k.p.insns[1], defs, &nd, uses, &nu);
    assert_int_equal(nd, 1);
    assert_int_equal(nu, 1);
    assert_int_equal(uses[0], k.p.insns[0].opd[0].reg);
    unload(&k);

    static const struct { const char *insn, *msg; } bad[] = {
        {"nexttbid.s32 %r1;", "unsupported PTX instruction 'nexttbid.s32'"},
        {"nexttbid.u32 %rd1;", "type mismatch: '%rd1' is .b64, 'nexttbid.u32' needs .u32"},
        {"nexttbid.u32 %r1, %r2;", "wrong number of operands for 'nexttbid.u32'"},
        {"nexttbid %r1;", "missing type in 'nexttbid'"},
        {"nextidxinblk.u32 %r1;", "wrong number of operands for 'nextidxinblk.u32'"},
        {"nextidxinblk.u32 %r1, %tid.x;", "bad operand 2 of 'nextidxinblk.u32'"},
        {"nextidxinblk.u32 5, %r1;", "bad operand 1 of 'nextidxinblk.u32'"},
        {"nextidxinblk.u64 %rd1, %rd1;", "unsupported PTX instruction 'nextidxinblk.u64'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512], err[PTX_ERR_LEN];
        struct ptx_module m;
        snprintf(text, sizeof text, HDR ".visible .entry kb()\n{\n .reg .b32 %%r<3>;\n"
                 " .reg .b64 %%rd<2>;\n %s\n ret;\n}\n", bad[i].insn);
        assert_int_equal(ptx_parse(text, strlen(text), "b.ptx", &m, err, sizeof err), -1);
        tu_assert_contains(err, bad[i].msg);
    }
}

/* ------------------------------------------------------------------ structure */

/* out[ctaid.y * ntid.x + tid.x] = 7 + ntid.x * nctaid.y, except thread 3 (pcs in comments) */
static const char k_small[] = HDR
    ".visible .entry ks(.param .u64 out, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<4>;\n"
    "  .reg .b32 %r<12>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"          /*  0 hoisted */
    "  ld.param.u32 %r1, [n];\n"             /*  1 hoisted */
    "  cvta.to.global.u64 %rd2, %rd1;\n"     /*  2 hoisted */
    "  mov.u32 %r2, %ntid.x;\n"              /*  3 hoisted */
    "  mov.u32 %r3, %nctaid.y;\n"            /*  4 hoisted (reads the hidden parameter) */
    "  mul.lo.s32 %r4, %r2, %r3;\n"          /*  5 hoisted */
    "  mov.u32 %r5, %tid.x;\n"               /*  6 no: the thread index */
    "  add.s32 %r6, %r5, 1;\n"               /*  7 no: depends on 6 */
    "  mov.u32 %r7, 7;\n"                    /*  8 no: %r7 is written again at 14 */
    "  setp.eq.s32 %p3, %r1, 0;\n"           /*  9 hoisted */
    "  @%p3 mov.u32 %r10, 1;\n"              /* 10 no: guarded */
    "  ld.global.u32 %r11, [%rd2];\n"        /* 11 no: memory */
    "  mov.u32 %r8, %ctaid.y;\n"             /* 12 no */
    "  mad.lo.s32 %r9, %r8, %r2, %r5;\n"     /* 13 no */
    "  add.s32 %r7, %r7, %r4;\n"             /* 14 */
    "  setp.ge.s32 %p1, %r9, %r1;\n"         /* 15 */
    "  @%p1 bra $L_end;\n"                   /* 16 */
    "  mov.u32 %r10, 2;\n"                   /* 17: after the first block */
    "  setp.eq.s32 %p2, %r5, 3;\n"
    "  @%p2 ret;\n"                          /* a guarded exit in the middle */
    "  mul.wide.s32 %rd3, %r9, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r7;\n"
    "$L_end:\n"
    "  ret;\n"
    "}\n";

/* The program's special-register reads at pcs [from, to) of kind s (any component). */
static unsigned sreg_reads(const struct ptx_prog *p, enum ptx_sreg s, uint32_t from, uint32_t to)
{
    unsigned n = 0;
    for (uint32_t pc = from; pc < to; pc++)
        for (unsigned k = 0; k < p->insns[pc].nopd; k++)
            n += p->insns[pc].opd[k].kind == OPD_SREG && p->insns[pc].opd[k].sreg == s;
    return n;
}

/* Every instruction names a line: the wrapper's (the prologue, the head, the update block)
   the kernel's .entry line with "(VTW wrapper)" in messages, the head marked as such; the
   kernel's own (hoisted ones and the exits turned into branches included) a line of its
   body. (The wrapper's were at line 0: messages said "FILE:0".) */
static void check_lines(const struct ptx_prog *p, const struct vtwx_info *info, const char *tag)
{
    const struct ptx_func *fn = ptx_find_func(p->mod, p->name);
    unsigned heads = 0, wrapper = 0;
    char where[320], want[300];
    assert_non_null(fn);
    snprintf(want, sizeof want, "%s:%u (VTW wrapper)", p->mod->filename, fn->line);
    for (uint32_t pc = 0; pc < p->ninsns; pc++) {
        const struct ptx_insn *in = &p->insns[pc];
        ptx_where(p, pc, where, sizeof where);
        heads += in->origin == PTX_VTW_HEAD;
        wrapper += in->origin != PTX_SRC;
        if (in->line == 0 || (in->origin != PTX_SRC && strcmp(where, want))
            || (in->origin == PTX_SRC && strstr(where, "VTW")))
            fail_msg("%s: pc %u is at %s (origin %u)", tag, pc, where, in->origin);
    }
    if (heads != 1 || p->insns[info->head_pc].origin != PTX_VTW_HEAD)
        fail_msg("%s: %u instructions marked as the head, pc %u not", tag, heads, info->head_pc);
    if (wrapper + info->orig_ninsns < p->ninsns)
        fail_msg("%s: %u wrapper instructions, %u in all from %u", tag, wrapper, p->ninsns,
                 info->orig_ninsns);
}

/* What holds for every transformed program: the head, the one exit, the virtual indices,
   the exits' branches, the update block (sw). */
static void check_structure(const struct ptx_prog *p, enum vtwx_form f,
                            const struct vtwx_info *info, const char *tag)
{
    uint32_t h = info->head_pc, n = p->ninsns, e = h + (f == VTWX_HW);
    int hw = f == VTWX_HW;
    if (hw && p->insns[h].op != OP_NEXTTB)
        fail_msg("%s: no nexttbid at the head (pc %u)", tag, h);
    if (p->insns[e].op != OP_SETP || p->insns[e + 1].op != OP_EXIT || p->insns[e + 1].guard < 0)
        fail_msg("%s: the head does not test the logical TB index", tag);
    if (hw && p->insns[e + 2].op != OP_NEXTIDX)
        fail_msg("%s: no nextidxinblk after the exit test", tag);
    unsigned exits = 0, to_head = 0;
    for (uint32_t pc = 0; pc < n; pc++) {
        exits += p->insns[pc].op == OP_EXIT;
        to_head += p->insns[pc].op == OP_BRA && p->insns[pc].opd[0].imm == (int64_t)h;
    }
    if (exits != 1)
        fail_msg("%s: %u exits (only the head's expected)", tag, exits);
    if (!to_head)
        fail_msg("%s: nothing branches back to the head", tag);
    if (sreg_reads(p, SR_CTAID, h, n) || sreg_reads(p, SR_NCTAID, 0, n))
        fail_msg("%s: %%ctaid or %%nctaid read in the loop", tag);
    if (hw && sreg_reads(p, SR_TID, h, n))
        fail_msg("%s: %%tid read in the loop (hw form)", tag);
    const struct ptx_insn *last = &p->insns[n - 1];
    if (last->op != OP_BRA || last->guard >= 0 || last->opd[0].imm != (int64_t)h)
        fail_msg("%s: the program does not end with a branch to the head", tag);
    if (!hw && (p->insns[n - 2].op != OP_ADD || sreg_reads(p, SR_CTAID, 0, h) != 1))
        fail_msg("%s: no update block, or the first index is not %%ctaid.x", tag);
    assert_int_equal(info->regs_after, p->regs_per_thread);
    assert_int_equal(p->regs_per_thread, ptx_estimate_regs(p));
    check_lines(p, info, tag);
}

/* The index of the register named `name`. */
static int32_t reg_by_name(const struct ptx_prog *p, const char *name)
{
    for (uint32_t r = 0; r < p->nregs; r++)
        if (!strcmp(p->reg_name[r], name))
            return (int32_t)r;
    fail_msg("no register %s", name);
    return -1;
}

/* Where the (only) instruction writing `name` is, -1 if none. */
static int64_t def_pc(const struct ptx_prog *p, const char *name)
{
    int32_t r = reg_by_name(p, name), defs[PTX_INSN_MAX_REGS], uses[PTX_INSN_MAX_REGS];
    int nd, nu;
    for (uint32_t pc = 0; pc < p->ninsns; pc++) {
        ptx_insn_regs(&p->insns[pc], defs, &nd, uses, &nu);
        for (int k = 0; k < nd; k++)
            if (defs[k] == r)
                return pc;
    }
    return -1;
}

static void test_structure_small(void **state)
{
    (void)state;
    for (int f = VTWX_HW; f <= VTWX_SW; f++) {
        struct kern k;
        struct vtwx_info info;
        char tag[32];
        snprintf(tag, sizeof tag, "ks %s", f == VTWX_HW ? "hw" : "sw");
        load(&k, k_small, NULL, "ks");
        uint32_t n0 = k.p.ninsns, regs0 = k.p.regs_per_thread;
        apply_ok(&k.p, (enum vtwx_form)f, &info);
        assert_int_equal(info.orig_ninsns, n0);
        assert_int_equal(info.regs_before, regs0);
        assert_int_equal(info.hoisted, 7);
        assert_int_equal(info.uses_shared, 0);
        assert_int_equal(info.uses_bar, 0);
        /* parameters after out (0) and n (8): 12, 16, 20, 24 (, 28) */
        assert_int_equal(info.off_nctaid[0], 12);
        assert_int_equal(info.off_nctaid[1], 16);
        assert_int_equal(info.off_nctaid[2], 20);
        assert_int_equal(info.off_nlog, 24);
        assert_int_equal(info.off_nvirt, f == VTWX_SW ? 28 : -1);
        check_structure(&k.p, (enum vtwx_form)f, &info, tag);
        /* hoisted: before the head; the others after it */
        const char *in_pro[] = {"%rd1", "%r1", "%rd2", "%r2", "%r3", "%r4", "%p3"};
        const char *in_loop[] = {"%r5", "%r6", "%r7", "%r10", "%r11", "%r8", "%r9"};
        for (size_t i = 0; i < sizeof in_pro / sizeof in_pro[0]; i++)
            if (def_pc(&k.p, in_pro[i]) >= info.head_pc)
                fail_msg("%s: %s is not hoisted", tag, in_pro[i]);
        for (size_t i = 0; i < sizeof in_loop / sizeof in_loop[0]; i++)
            if (def_pc(&k.p, in_loop[i]) < info.head_pc)
                fail_msg("%s: %s is hoisted", tag, in_loop[i]);
        char *t = ptx_round_trip_prog(&k.p, &k.m, tag);
        tu_assert_contains(t, "\t.param .u32 __vtw_nctaid_x,\n\t.param .u32 __vtw_nctaid_y,\n"
                              "\t.param .u32 __vtw_nctaid_z,\n\t.param .u32 __vtw_nlog");
        tu_assert_contains(t, "\tmov.u32 %r3, %vtw_nctaid_y;\n");
        tu_assert_contains(t, "\tmov.u32 %r8, %vtw_ctaid_y;\n");
        if (f == VTWX_HW) {
            tu_assert_contains(t, "\tnexttbid.u32 %vtw_tb;\n\tsetp.ge.u32 %vtw_p, %vtw_tb, "
                                  "%vtw_nlog;\n\t@%vtw_p exit;\n\tnextidxinblk.u32 %vtw_tid, "
                                  "%vtw_tid;\n\t@%vtw_nd bra $L__pc23;\n\tmov.u32 %vtw_tid_x, "
                                  "%vtw_tid;\n\tmov.u32 %vtw_ctaid_y, 0;\n");
            /* the launch's shape: the block's test interleaved with the thread index, the
               grid's after the hoisted instructions */
            tu_assert_contains(t, "\tmov.u32 %vtw_ntid_z, %ntid.z;\n\tmov.u32 %vtw_tid, %tid.z;\n"
                                  "\tmov.u32 %vtw_t, %tid.y;\n\tmul.lo.u32 %vtw_ntid_z, "
                                  "%vtw_ntid_y, %vtw_ntid_z;\n\tmad.lo.u32 %vtw_tid, %vtw_tid, "
                                  "%vtw_ntid_y, %vtw_t;\n\tmov.u32 %vtw_t, %tid.x;\n\tsetp.ne.u32 "
                                  "%vtw_nd, %vtw_ntid_z, 1;\n");
            /* a launch that is not 1-D: the decomposition between the prologue and H */
            tu_assert_contains(t, "\tsetp.eq.s32 %p3, %r1, 0;\n\tsetp.ne.u32 %vtw_p, %vtw_nlog, "
                                  "%vtw_nctaid_x;\n\tor.pred %vtw_nd, %vtw_nd, %vtw_p;\n");
            tu_assert_contains(t, "\tbra $L__pc27;\n$L__pc23:\n\trem.u32 %vtw_tid_x, %vtw_tid, "
                                  "%vtw_ntid_x;\n\tdiv.u32 %vtw_t, %vtw_tb, %vtw_nctaid_x;\n"
                                  "\trem.u32 %vtw_ctaid_y, %vtw_t, %vtw_nctaid_y;\n\tbra $L__pc34;\n"
                                  "$L__pc27:\n\tnexttbid.u32 %vtw_tb;\n");
            tu_assert_contains(t, "\tmov.u32 %r5, %vtw_tid_x;\n");
            tu_assert_contains(t, "\t@%p2 bra $L__pc");
        } else {
            tu_assert_contains(t, "\t.param .u32 __vtw_nvirt\n)");
            tu_assert_contains(t, "\tmov.u32 %r5, %tid.x;\n");
            tu_assert_contains(t, "\tadd.u32 %vtw_tb, %vtw_tb, %vtw_nvirt;\n\tbra $L__pc");
            assert_null(strstr(t, "bar.sync"));
        }
        free(t);
        unload(&k);
    }
}

/* A register estimate that counts what the hoisted code keeps live across the loop. */
static void test_hoisting_counts_live_registers(void **state)
{
    (void)state;
    struct kern k;
    struct vtwx_info info;
    load(&k, NULL, "bench/matmul/kernel.ptx", "matmul");
    apply_ok(&k.p, VTWX_SW, &info);
    assert_true(info.hoisted >= 6);                  /* 3 pointers, 3 sizes, ... */
    assert_true(info.regs_after > info.regs_before);
    assert_int_equal(info.uses_shared, 1);
    assert_int_equal(info.uses_bar, 1);
    /* the sw form's barrier before the first shared access of each iteration */
    char *t = ptx_round_trip_prog(&k.p, &k.m, "matmul sw");
    tu_assert_contains(t, "\t@%vtw_p exit;\n\tbar.sync 0;\n");
    free(t);
    unload(&k);
}

/* Every bench kernel, both forms: structure and round trip; the table of docs/ptx.md. */
static void test_bench_structure(void **state)
{
    (void)state;
    glob_t g;
    unsigned n = 0;
    assert_int_equal(glob("bench/*/kernel.ptx", 0, NULL, &g), 0);
    print_message("%-14s %6s | %5s %4s %5s %5s | %5s %4s %5s %5s\n", "kernel", "insns",
                  "hw", "hoist", "regs", "regs'", "sw", "hoist", "regs", "regs'");
    for (size_t i = 0; i < g.gl_pathc; i++) {
        struct vtwx_info info[2];
        uint32_t ninsns[2];
        char tag[300], name[128] = "";
        for (int f = VTWX_HW; f <= VTWX_SW; f++) {
            struct kern k;
            load(&k, NULL, g.gl_pathv[i], NULL);
            snprintf(name, sizeof name, "%s", k.p.name);
            snprintf(tag, sizeof tag, "%s %s", g.gl_pathv[i], f == VTWX_HW ? "hw" : "sw");
            apply_ok(&k.p, (enum vtwx_form)f, &info[f - 1]);
            ninsns[f - 1] = k.p.ninsns;
            check_structure(&k.p, (enum vtwx_form)f, &info[f - 1], tag);
            free(ptx_round_trip_prog(&k.p, &k.m, tag));
            unload(&k);
        }
        print_message("%-14s %6u | %5u %4u %5u %5u | %5u %4u %5u %5u\n", name,
                      info[0].orig_ninsns, ninsns[0], info[0].hoisted, info[0].regs_before,
                      info[0].regs_after, ninsns[1], info[1].hoisted, info[1].regs_before,
                      info[1].regs_after);
        n++;
    }
    globfree(&g);
    assert_true(n >= 28);
}

/* ------------------------------------------------------------------ refusals */

static void expect_refused(const char *text, const char *path, enum vtwx_form f, const char *msg)
{
    struct kern k;
    struct vtwx_info info;
    char err[PTX_ERR_LEN];
    load(&k, text, path, NULL);
    uint32_t n = k.p.ninsns, np = k.p.nparams, nr = k.p.nregs;
    assert_int_equal(vtwx_apply(&k.p, f, &info, err, sizeof err), -1);
    tu_assert_contains(err, msg);
    assert_int_equal(k.p.ninsns, n);          /* unchanged */
    assert_int_equal(k.p.nparams, np);
    assert_int_equal(k.p.nregs, nr);
    unload(&k);
}

static void test_refusals(void **state)
{
    (void)state;
    expect_refused(k_small, NULL, (enum vtwx_form)0, "vtw: unknown form 0 (hw or sw)");
    expect_refused(k_small, NULL, (enum vtwx_form)3, "vtw: unknown form 3 (hw or sw)");
    expect_refused(k_ext, NULL, VTWX_SW, "vtw kx: already transformed (nexttbid at pc 0)");
    expect_refused(HDR ".visible .entry kl()\n{\n$L: bra $L;\n}\n", NULL, VTWX_HW,
                   "vtw kl: the kernel has no exit");
    static const char warp[] = HDR ".visible .entry kw(.param .u64 o)\n{\n .reg .b32 %r<2>;\n"
        " .reg .b64 %rd<2>;\n ld.param.u64 %rd1, [o];\n mov.u32 %r1, %warpid;\n"
        " st.global.u32 [%rd1], %r1;\n ret;\n}\n";
    expect_refused(warp, NULL, VTWX_HW, "vtw kw: pc 1 reads %warpid");
    struct kern k;
    struct vtwx_info info;
    char err[PTX_ERR_LEN];
    load(&k, warp, NULL, NULL);
    apply_ok(&k.p, VTWX_SW, &info);                 /* the sw form keeps the warps' threads */
    unload(&k);
    /* twice: the second is refused (the hidden parameters are there) */
    for (int f = VTWX_HW; f <= VTWX_SW; f++) {
        load(&k, NULL, "bench/vecadd/kernel.ptx", "vecadd");
        apply_ok(&k.p, (enum vtwx_form)f, &info);
        assert_int_equal(vtwx_apply(&k.p, VTWX_SW, &info, err, sizeof err), -1);
        tu_assert_contains(err, "vtw vecadd: already transformed (parameter __vtw_nctaid_x)");
        unload(&k);
    }
    assert_int_equal(vtwx_apply(NULL, VTWX_HW, &info, err, sizeof err), -1);
    assert_string_equal(err, "vtw: no kernel");
    assert_int_equal(vtwx_form_by_name("hw"), VTWX_HW);
    assert_int_equal(vtwx_form_by_name("sw"), VTWX_SW);
    assert_int_equal(vtwx_form_by_name("HW"), 0);
    assert_int_equal(vtwx_form_by_name(NULL), 0);
}

/* ------------------------------------------------------------------ sw form end to end */

/* 3-D grid and block: out[2 g] = ctaid.x + 256 ctaid.y + 65536 ctaid.z + 2^24 (nctaid.x +
   nctaid.y + nctaid.z), out[2 g + 1] = the linear thread index (g: the global linear index) */
static const char k_3d[] = HDR
    ".visible .entry k3(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<20>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ctaid.y;\n  mov.u32 %r3, %ctaid.z;\n"
    "  mov.u32 %r4, %nctaid.x;\n  mov.u32 %r5, %nctaid.y;\n  mov.u32 %r6, %nctaid.z;\n"
    "  mov.u32 %r7, %tid.x;\n  mov.u32 %r8, %tid.y;\n  mov.u32 %r9, %tid.z;\n"
    "  mov.u32 %r10, %ntid.x;\n  mov.u32 %r11, %ntid.y;\n  mov.u32 %r12, %ntid.z;\n"
    "  mad.lo.u32 %r13, %r3, %r5, %r2;\n  mad.lo.u32 %r13, %r13, %r4, %r1;\n"
    "  mad.lo.u32 %r14, %r9, %r11, %r8;\n  mad.lo.u32 %r14, %r14, %r10, %r7;\n"
    "  mul.lo.u32 %r15, %r10, %r11;\n  mul.lo.u32 %r15, %r15, %r12;\n"
    "  mad.lo.u32 %r16, %r13, %r15, %r14;\n"
    "  shl.b32 %r17, %r2, 8;\n  add.u32 %r17, %r17, %r1;\n"
    "  shl.b32 %r18, %r3, 16;\n  add.u32 %r17, %r17, %r18;\n"
    "  add.u32 %r18, %r4, %r5;\n  add.u32 %r18, %r18, %r6;\n"
    "  shl.b32 %r18, %r18, 24;\n  add.u32 %r17, %r17, %r18;\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mul.wide.u32 %rd2, %r16, 8;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v2.u32 [%rd3], {%r17, %r14};\n"
    "  ret;\n"
    "}\n";

#define MAX_ARGS 8

/* One kernel's launch: its arguments (pointer: a buffer of `bytes`, filled with small-integer
   floats; else the u32 value), grid and block. */
struct karg { uint32_t bytes, val; };
struct launch {
    const char *path, *text, *name;
    struct gs_dim3 grid, block;
    int nargs;
    struct karg a[MAX_ARGS];
};

/* Run `text` (kernel l->name) on a fresh GPU: the arguments of l, then `extra` u32 values;
   returns the pointer arguments' buffers after the launch, concatenated (malloc'ed). */
static uint8_t *run_text(const struct launch *l, const char *text, const char *model,
                         struct gs_dim3 grid, const uint32_t *extra, int nextra, size_t *len)
{
    struct gs_gpu *g;
    struct gs_module *mod;
    char err[1024], set[64];
    const char *sets[1] = {set};
    uint64_t d[MAX_ARGS] = {0};
    struct gs_arg args[MAX_ARGS + 5];
    size_t total = 0, off = 0;
    snprintf(set, sizeof set, "model=%s", model);
    if (gs_init(&g, NULL, sets, 1, err, sizeof err))
        fail_msg("%s", err);
    if (gs_load_ptx_text(g, text, l->name, &mod))
        fail_msg("%s: %s", l->name, gs_last_error(g));
    for (int i = 0; i < l->nargs; i++)
        total += l->a[i].bytes;
    uint8_t *out = malloc(total ? total : 1);
    assert_non_null(out);
    for (int i = 0; i < l->nargs; i++) {
        args[i] = GS_ARG(l->a[i].val);
        if (!l->a[i].bytes)
            continue;
        float *init = malloc(l->a[i].bytes);
        assert_non_null(init);
        for (uint32_t w = 0; w < l->a[i].bytes / 4; w++)
            init[w] = (float)((int)((w * 2654435761u + (uint32_t)i) % 9u) - 4);
        assert_int_equal(gs_malloc(g, &d[i], l->a[i].bytes), GS_OK);
        assert_int_equal(gs_memcpy_htod(g, d[i], init, l->a[i].bytes), GS_OK);
        free(init);
        args[i] = GS_ARG(d[i]);
    }
    for (int i = 0; i < nextra; i++)
        args[l->nargs + i] = GS_ARG(extra[i]);
    if (gs_launch(g, mod, l->name, grid, l->block, 0, args, l->nargs + nextra))
        fail_msg("%s on %u CTAs (%s): %s", l->name, grid.x, model, gs_last_error(g));
    for (int i = 0; i < l->nargs; i++)
        if (l->a[i].bytes) {
            assert_int_equal(gs_memcpy_dtoh(g, out + off, d[i], l->a[i].bytes), GS_OK);
            off += l->a[i].bytes;
        }
    gs_destroy(g);
    *len = total;
    return out;
}

/* The sw form on V CTAs for each V of vs computes the original's bytes. */
static void sw_matches(const struct launch *l, const char *model, const uint32_t *vs, int nv)
{
    struct kern k;
    struct vtwx_info info;
    char err[PTX_ERR_LEN];
    char *orig = l->text ? strdup(l->text) : tu_read_file(l->path, NULL);
    assert_non_null(orig);
    load(&k, l->text, l->path, l->name);
    apply_ok(&k.p, VTWX_SW, &info);
    char *sw = ptx_print_string(&k.p, err, sizeof err);
    if (!sw)
        fail_msg("%s", err);
    size_t n0, n1;
    uint8_t *want = run_text(l, orig, model, l->grid, NULL, 0, &n0);
    uint32_t nlog = l->grid.x * l->grid.y * l->grid.z;
    for (int i = 0; i < nv; i++) {
        uint32_t extra[5] = {l->grid.x, l->grid.y, l->grid.z, nlog, vs[i]};
        uint8_t *got = run_text(l, sw, model, (struct gs_dim3){vs[i], 1, 1}, extra, 5, &n1);
        assert_int_equal(n0, n1);
        for (size_t b = 0; b < n0; b++)
            if (got[b] != want[b])
                fail_msg("%s sw form on %u CTAs (%s model, %u logical TBs): byte %zu of the "
                         "output is %u, the original's %u", l->name, vs[i], model, nlog, b,
                         got[b], want[b]);
        free(got);
    }
    print_message("%s: the sw form on", l->name);
    for (int i = 0; i < nv; i++)
        print_message(" %u", vs[i]);
    print_message(" CTAs (%s) = the original on %u, %zu bytes\n", model, nlog, n0);
    free(want);
    free(sw);
    free(orig);
    unload(&k);
}

static const uint32_t k_virt[] = {1, 3, 5};

static const struct launch k_vecadd = {"bench/vecadd/kernel.ptx", NULL, "vecadd", {16, 1, 1},
    {64, 1, 1}, 4, {{4000, 0}, {4000, 0}, {4000, 0}, {0, 1000}}};
/* M = 70, N = 100, K = 60: 4 x 3 CTAs of 16 x 16 (32 x 32 tiles), shared memory, barriers */
static const struct launch k_matmul = {"bench/matmul/kernel.ptx", NULL, "matmul", {4, 3, 1},
    {16, 16, 1}, 6, {{70 * 60 * 4, 0}, {60 * 100 * 4, 0}, {70 * 100 * 4, 0}, {0, 70}, {0, 100},
    {0, 60}}};
/* 50 x 37 image, 16 x 8 blocks: 4 x 5 CTAs */
static const struct launch k_conv2d = {"bench/conv2d/kernel.ptx", NULL, "conv2d", {4, 5, 1},
    {16, 8, 1}, 5, {{50 * 37 * 4, 0}, {25 * 4, 0}, {50 * 37 * 4, 0}, {0, 50}, {0, 37}}};
static const struct launch k_k3 = {NULL, k_3d, "k3", {3, 2, 2}, {4, 2, 2}, 1,
    {{12 * 16 * 8, 0}}};

static void test_sw_functional(void **state)
{
    (void)state;
    sw_matches(&k_vecadd, "functional", k_virt, 3);
    sw_matches(&k_matmul, "functional", k_virt, 3);
    sw_matches(&k_conv2d, "functional", k_virt, 3);
    sw_matches(&k_k3, "functional", k_virt, 3);
}

static void test_sw_timing(void **state)
{
    (void)state;
    sw_matches(&k_vecadd, "timing", k_virt + 1, 2);
    sw_matches(&k_matmul, "timing", k_virt + 1, 2);
    sw_matches(&k_k3, "timing", k_virt + 1, 1);
}

/* ------------------------------------------------------------------ hw form: launch shapes */

/* k3 on `grid` x `block` (1 SM, 2 CTA slots, so that a virtual TB runs many logical TBs) on
   `model` with vtw = `vtw`: its output words into out (12 * 16 * 2 words), its warp
   instructions. */
static uint64_t run_k3(const char *vtw, const char *model, struct gs_dim3 grid,
                       struct gs_dim3 block, uint32_t *out)
{
    const char *sets[] = {"num_sms=1", "max_ctas_per_sm=2", vtw, model};
    struct gs_gpu *g;
    struct gs_module *mod;
    struct gs_stats st;
    uint64_t d;
    char err[512];
    const struct gs_arg args[] = {GS_ARG(d)};
    if (gs_init(&g, NULL, sets, 4, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(gs_load_ptx_text(g, k_3d, "k3.ptx", &mod), GS_OK);
    assert_int_equal(gs_malloc(g, &d, 12 * 16 * 8), GS_OK);
    assert_int_equal(gs_memset(g, d, 0xEE, 12 * 16 * 8), GS_OK);
    if (gs_launch(g, mod, "k3", grid, block, 0, args, 1))
        fail_msg("k3 (%s, %s): %s", vtw, model, gs_last_error(g));
    assert_int_equal(gs_memcpy_dtoh(g, out, d, 12 * 16 * 8), GS_OK);
    gs_kernel_stats(g, &st);
    gs_destroy(g);
    return st.warp_insns;
}

/* Issue 38 finding 2: the hw form's %tid and %ctaid come from moves where the launch makes
   them identities (1-D block and 1-D grid) and from rem/div otherwise -- right either way, on
   every mix of shapes (192 threads each), both models; and the 1-D launch takes the moves
   (fewer warp instructions than a 2-D block of the same size: no decomposition block, no
   branches into and out of it). */
static void test_hw_launch_shapes(void **state)
{
    (void)state;
    static const struct { struct gs_dim3 grid, block; } shape[] = {
        {{12, 1, 1}, {16, 1, 1}}, {{12, 1, 1}, {4, 4, 1}}, {{3, 4, 1}, {16, 1, 1}},
        {{3, 2, 2}, {4, 2, 2}}, {{2, 3, 2}, {2, 2, 4}},
    };
    static uint32_t want[12 * 16 * 2], got[12 * 16 * 2];
    uint64_t insns[2][5];
    for (unsigned m = 0; m < 2; m++)
        for (unsigned i = 0; i < 5; i++) {
            const char *model = m ? "model=timing" : "model=functional";
            run_k3("vtw=off", model, shape[i].grid, shape[i].block, want);
            insns[m][i] = run_k3("vtw=hw", model, shape[i].grid, shape[i].block, got);
            for (unsigned w = 0; w < 12 * 16 * 2; w++)
                if (got[w] != want[w])
                    fail_msg("k3 hw form, grid (%u,%u,%u) block (%u,%u,%u), %s: word %u is %u, "
                             "the original's %u", shape[i].grid.x, shape[i].grid.y,
                             shape[i].grid.z, shape[i].block.x, shape[i].block.y,
                             shape[i].block.z, model, w, got[w], want[w]);
        }
    assert_true(insns[1][0] < insns[1][1]);
    assert_true(insns[0][0] < insns[0][1]);
}

/* ------------------------------------------------------------------ ptxas */

static void test_ptxas_accepts_sw(void **state)
{
    (void)state;
    glob_t g;
    unsigned n = 0;
    mkdir(BUILD_DIR "/tests", 0777);
    mkdir(OUT_DIR, 0777);
    assert_int_equal(glob("bench/*/kernel.ptx", 0, NULL, &g), 0);
    struct ptx_res *r = calloc(1, sizeof *r), *rec = calloc(1, sizeof *rec);
    assert_non_null(r);
    assert_non_null(rec);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        struct kern k;
        struct vtwx_info info;
        char err[PTX_ERR_LEN], path[600], res[600];
        load(&k, NULL, g.gl_pathv[i], NULL);
        apply_ok(&k.p, VTWX_SW, &info);
        snprintf(path, sizeof path, OUT_DIR "/%s_sw.ptx", k.p.name);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        if (ptx_print(f, &k.p, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(fclose(f), 0);
        int rc = ptx_res_run_ptxas(path, "sm_75", r, err, sizeof err);
        if (rc > 0) {
            print_message("ptxas not found (GPUSIM_PTXAS, PATH, /usr/local/cuda/bin): the ptxas "
                          "check of the sw form is skipped\n");
            unload(&k);
            globfree(&g);
            free(r), free(rec);
            skip();
        }
        if (rc)
            fail_msg("ptxas rejects the sw form of %s (%s): %s", g.gl_pathv[i], path, err);
        ptx_res_path(g.gl_pathv[i], res, sizeof res);
        const struct ptx_res_kernel *before = ptx_res_read(res, rec, err, sizeof err) ? NULL
                                              : ptx_res_find(rec, k.p.name);
        print_message("%-14s ptxas registers %2u -> %2u (sw form)\n", k.p.name,
                      before ? before->regs : 0, r->k[0].regs);
        unload(&k);
        n++;
    }
    globfree(&g);
    free(r), free(rec);
    assert_true(n >= 28);
}

/* The checked-in records (bench/NAME/kernel.vtw.res) belong to the text the model transforms
   now: each entry's text hash is that of vtwx_ptxas_text on the kernel as `gpusim res` links
   it (variables where a load places them), so a change to the transform or the printer that is not followed
   by `make ptx-res` fails here, not silently in the registers of every VTW run. No ptxas
   needed. */
static void test_records_fresh(void **state)
{
    (void)state;
    glob_t g;
    unsigned n = 0;
    struct ptx_res *rec = calloc(1, sizeof *rec);
    assert_non_null(rec);
    assert_int_equal(glob("bench/*/kernel.ptx", 0, NULL, &g), 0);
    for (size_t i = 0; i < g.gl_pathc; i++)
        for (int f = VTWX_HW; f <= VTWX_SW; f++) {
            struct ptx_module m;
            struct ptx_prog p;
            char err[PTX_ERR_LEN], path[600], entry[160];
            if (ptx_parse_file(g.gl_pathv[i], &m, err, sizeof err))
                fail_msg("%s", err);
            ptx_place_vars(&m, GM_BASE);          /* as gpusim res and a load place them */
            if (ptx_link(&m, m.funcs[m.nfuncs - 1].name, &p, err, sizeof err))
                fail_msg("%s", err);
            apply_ok(&p, (enum vtwx_form)f, NULL);
            char *t = vtwx_ptxas_text(&p, err, sizeof err);
            assert_non_null(t);
            vtwx_res_path(g.gl_pathv[i], path, sizeof path);
            if (ptx_res_read(path, rec, err, sizeof err))
                fail_msg("%s: %s", path, err);
            snprintf(entry, sizeof entry, "%s.%s", p.name, f == VTWX_HW ? "hw" : "sw");
            const struct ptx_res_kernel *k = ptx_res_find(rec, entry);
            if (!k || k->text_hash != ptx_res_hash(t, strlen(t)) || rec->ptx_hash != m.text_hash)
                fail_msg("%s: entry %s is %s: run make ptx-res", path, entry,
                         k ? "stale" : "missing");
            free(t);
            ptx_prog_free(&p);
            ptx_module_free(&m);
            n++;
        }
    globfree(&g);
    free(rec);
    assert_true(n >= 56);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_insns_parse_print),
        cmocka_unit_test(test_structure_small),
        cmocka_unit_test(test_hoisting_counts_live_registers),
        cmocka_unit_test(test_bench_structure),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_sw_functional),
        cmocka_unit_test(test_sw_timing),
        cmocka_unit_test(test_hw_launch_shapes),
        cmocka_unit_test(test_ptxas_accepts_sw),
        cmocka_unit_test(test_records_fresh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
