/*
 * test_cost.c -- cmocka tests for the storage and area estimator (model/base/cost.c, the blocks'
 * X_storage functions, cost/): the blocks' storage follows their configuration, bookkeeping
 * and off-chip storage are not priced, the area model's choices and scaling, the GTX480
 * report and its errors, the document checks (003's 64-bit token and 16-entry stack with
 * 32-byte spills, 004's 160-bit entry and 4-entry stack, eq. 1, the 8-bit VWI in the
 * scoreboard and the load queue), and -- when the environment names Yosys results
 * (COST_YOSYS_DIR, COST_RTL, set by `make cost-test`) -- one test per rtl/ block: the
 * estimator's register bits equal the flip-flops Yosys synthesized.
 */
#include <math.h>
#include "testutil.h"
#include "gpu/blocks.h"
#include "../cost/cost_main.h"
#include "../cost/estimate.h"
#include "sm/sb.h"
#include "sm/simt.h"
#include "sm/sm.h"
#include "sm/ws.h"
#include "sm/wst.h"

static void gtx480(struct gpu_config *c)
{
    char err[512];
    assert_int_equal(est_load_config(c, "configs/gtx480.cfg", NULL, 0, err, sizeof err), 0);
}

static const struct cost_item *find(const struct cost_list *l, const char *block,
                                    const char *name)
{
    for (uint32_t i = 0; i < l->n; i++)
        if (!strcmp(l->it[i].block, block) && !strcmp(l->it[i].name, name))
            return &l->it[i];
    return NULL;
}

/* ---------------------------------------------------------------- the blocks' storage */

/* The estimate of gtx480 (freed by the caller). */
static struct est *gtx480_estimate(void)
{
    struct gpu_config c;
    struct est *e = calloc(1, sizeof *e);
    char err[256];
    assert_non_null(e);
    gtx480(&c);
    if (est_build(e, &c, err, sizeof err))
        fail_msg("est_build: %s", err);
    return e;
}

static void test_sb_follows_config(void **st)
{
    struct cost_list l;
    struct sb_cfg c = {48, 256, 0};
    (void)st;
    cost_list_init(&l);
    sb_storage(&c, &l);
    assert_int_equal(cost_block_bits(&l, "sb", 1), 48 * 256 + 48 * 8);
    c.nslots = 32;
    c.nregs = 64;
    cost_list_init(&l);
    sb_storage(&c, &l);
    assert_int_equal(cost_block_bits(&l, "sb", 1), 32 * 64 + 32 * 8);
    assert_int_equal(find(&l, "sb", "vwi")->bits, 8);
}

static void test_ws_policy_decides_storage(void **st)
{
    struct cost_list l;
    struct ws_cfg c = {WS_GTO, 24, 8};
    (void)st;
    cost_list_init(&l);
    ws_storage(&c, &l);
    assert_int_equal(cost_block_bits(&l, "ws", 1), 24 * 24 + 5 + 1);
    assert_null(find(&l, "ws", "act"));
    c.policy = WS_LRR;             /* LRR never reads the age matrix */
    cost_list_init(&l);
    ws_storage(&c, &l);
    assert_int_equal(cost_block_bits(&l, "ws", 1), 5 + 1);
    c.policy = WS_TWOLEVEL;
    cost_list_init(&l);
    ws_storage(&c, &l);
    assert_int_equal(cost_block_bits(&l, "ws", 1), 24 * 24 + 24 + 5 + 1);
    c.policy = WS_PRIO;            /* the age matrix only: no last-issued slot */
    cost_list_init(&l);
    ws_storage(&c, &l);
    assert_int_equal(cost_block_bits(&l, "ws", 1), 24 * 24);
    c.policy = WS_GTO;             /* the issue pointer has clog2(nslots) bits */
    c.nslots = 128;
    cost_list_init(&l);
    ws_storage(&c, &l);
    assert_int_equal(cost_block_bits(&l, "ws", 1), 128 * 128 + 7 + 1);
    c.nslots = 12;
    cost_list_init(&l);
    ws_storage(&c, &l);
    assert_int_equal(cost_block_bits(&l, "ws", 1), 12 * 12 + 4 + 1);
}

static void test_simt_stack_and_vwi(void **st)
{
    struct cost_list l;
    struct simt_cfg c;
    const struct cost_item *stk, *vwi;
    uint64_t per_warp = 4 * 32 + 2 + 6 + 1 + 5 + 7 + 8 + 3;    /* pc mask rpc alive, live
                                                                   fin, cnt, popq, base,
                                                                   nspill, vwi, spq flq flw */
    (void)st;
    simt_cfg_default(&c);
    cost_list_init(&l);
    simt_storage(&c, &l);
    stk = find(&l, "simt", "stk");
    vwi = find(&l, "simt", "vwi");
    assert_non_null(stk);
    assert_non_null(vwi);
    assert_null(find(&l, "simt", "mem"));      /* the spill image is the SM's (global memory) */
    assert_int_equal(stk->entries, 48 * 16);
    assert_int_equal(stk->bits, 97);            /* the type goes to memory and to a save */
    assert_int_equal(stk->onchip, 1);
    assert_int_equal(vwi->entries, 48);
    assert_int_equal(vwi->bits, 8);
    assert_int_equal(cost_block_bits(&l, "simt", 1), 48 * 16 * 97 + 48 * per_warp + 6);
    assert_int_equal(cost_block_bits(&l, "simt", 0), cost_block_bits(&l, "simt", 1));
    c.pop_cycles = 2;                           /* the pop timers exist only when they count */
    cost_list_init(&l);
    simt_storage(&c, &l);
    assert_int_equal(cost_block_bits(&l, "simt", 1), 48 * 16 * 97 + 48 * (per_warp + 9) + 6);
}

static void test_no_bookkeeping_priced(void **st)
{
    struct est *e = gtx480_estimate();
    (void)st;
    for (int g = 0; g < 2; g++) {
        const struct est_list *el = g ? &e->gpu : &e->sm;
        for (uint32_t i = 0; i < el->l.n; i++) {
            const struct cost_item *it = &el->l.it[i];
            assert_null(strstr(it->name, "dirty"));
            assert_null(strstr(it->name, "wl_"));
            assert_true(it->entries > 0 && it->bits > 0 && it->inst > 0);
            if (!it->onchip)
                assert_true(el->um2[i][EST_REF_NODE] == 0.0);
        }
    }
    free(e);
}

static void test_gtx480_estimate(void **st)
{
    struct est *e = gtx480_estimate();
    struct est_sum s, sum = {0, {0, 0, 0}, 0};
    unsigned n;
    const struct blk_desc *all = blk_all(&n);
    (void)st;
    /* every SM block of the registry that the configuration instantiates has storage, and
       the blocks and the SM top (block "sm", sm_cost.c) add up to the SM's total */
    for (unsigned i = 0; i < n; i++) {
        struct est_sum b;
        if (all[i].level != BLK_LEVEL_SM || !all[i].instances(&e->conf))
            continue;
        b = est_sum(&e->sm, all[i].name, NULL);
        assert_true(b.bits > 0);
        sum.bits += b.bits;
        sum.um2[EST_REF_NODE] += b.um2[EST_REF_NODE];
    }
    s = est_sum(&e->sm, "sm", NULL);
    sum.bits += s.bits;
    sum.um2[EST_REF_NODE] += s.um2[EST_REF_NODE];
    s = est_sum(&e->sm, NULL, NULL);
    assert_int_equal(s.bits, sum.bits);
    assert_true(fabs(s.um2[EST_REF_NODE] - sum.um2[EST_REF_NODE]) < 1e-6 * s.um2[EST_REF_NODE]);
    /* two schedulers of 24 slots, GTO: 2 x (24 x 24 + 6) */
    assert_int_equal(est_sum(&e->sm, "ws", NULL).bits, 2 * (24 * 24 + 6));
    /* the VWI mechanism: scoreboard, result queue and pending loads */
    assert_int_equal(est_sum(&e->sm, NULL, "VWI tags (VT, 004)").bits, 48 * 8 + 64 * 8 + 32 * 8);
    /* GPU level: 12 L2 slices, 6 DRAM channels */
    assert_int_equal(find(&e->gpu.l, "l2", "tags.tag")->inst, 12);
    assert_int_equal(find(&e->gpu.l, "dram", "q.req")->inst, 6);
    /* area shrinks with the node as F^2 (every cell figure is F^2-normalised) */
    assert_true(fabs(s.um2[0] / s.um2[1] - (65.0 * 65.0) / (40.0 * 40.0)) < 1e-9);
    /* the per-SM storage is a small share of a GF100 SM, but not nothing */
    assert_true(s.um2[EST_REF_NODE] > 0.001 * est_sm_mm2(est_gf100()) * 1e6);
    assert_true(s.um2[EST_REF_NODE] < 0.5 * est_sm_mm2(est_gf100()) * 1e6);
    free(e);
}

/* The SM top's own storage (sm_cost.c) at gtx480's 48 slots and contexts, 8 CTA slots: the
   slot table 48 x (6 + none), the context table 48 x (CTA 3, warp 5, slot 6 + none, valid and
   done 2), the CTA table 8 x (ctaid 48, warps 6, finished 6, 32 contexts x 6, flags 2), two
   skid buffers of 4 packets and their pointers; no mechanism's wiring without its key, and
   each one's with it (c.vt = on: VT's command latches, with 256 contexts). */
static void test_sm_top(void **st)
{
    struct est *e = gtx480_estimate();
    struct gpu_config c;
    char err[256];
    (void)st;
    assert_int_equal(est_sum(&e->sm, NULL, "slot-to-context table").bits, 48 * 7);
    assert_int_equal(est_sum(&e->sm, NULL, "context table").bits, 48 * (3 + 5 + 7 + 2));
    assert_int_equal(est_sum(&e->sm, NULL, "CTA table").bits, 8 * (48 + 6 + 6 + 32 * 6 + 2));
    assert_int_equal(est_sum(&e->sm, NULL, "L1 request skid buffers").bits,
                     2 * (4 * cost_memreq_bits() + cost_fifo_bits(4)));
    assert_int_equal(est_sum(&e->sm, NULL, "VT command latches (004)").bits, 0);
    assert_int_equal(est_sum(&e->sm, NULL, "late values (VTW, 000)").bits, 0);
    gtx480(&c);
    c.vt = VT_ON;
    assert_int_equal(est_build(e, &c, err, sizeof err), 0);
    assert_true(est_sum(&e->sm, NULL, "VT command latches (004)").bits > 256 * 6);
    assert_int_equal(est_sum(&e->sm, NULL, "context table").bits, 256 * (6 + 5 + 7 + 2));
    free(e);
}

/* ---------------------------------------------------------------- the area model */

static void test_area_choices(void **st)
{
    const struct est_node *n = est_node(EST_REF_NODE);
    uint8_t k = 0;
    struct est_price p;
    (void)st;
    assert_int_equal(n->nm, 40);
    /* a register read in parallel is flip-flops: DFF + one write mux, / utilisation */
    assert_true(fabs(est_ff_um2(n, 1, 1, 1, COST_PAR, 1) - (n->dff_um2 + n->mux_um2) / 0.7) <
                1e-9);
    assert_true(est_sram_um2(n, 1024, 64, 1, COST_PAR, 1, &k) < 0);   /* parallel read */
    assert_true(est_sram_um2(n, 1024, 64, 1, 2, 1, &k) < 0);          /* 3 ports */
    assert_true(est_sram_um2(n, 16, 64, 1, 1, 1, &k) < 0);            /* 1 Kbit: too small */
    /* a large 1R1W FIFO: a 2-port SRAM, much smaller than flip-flops */
    p = est_array(n, 1024, 128, 1, 1, 1);
    assert_int_equal(p.kind, EST_SRAM2);
    assert_true(p.um2 < 0.2 * est_ff_um2(n, 1024, 128, 1, 1, 1));
    /* a single-ported one is cheaper still */
    assert_true(est_array(n, 1024, 128, 1, 1, 0).um2 <= p.um2);
    /* banking: 48 arrays of 16 entries are each too small for SRAM, and their read muxes
       are 16:1, not 768:1 */
    p = est_array(n, 768, 96, 48, 2, 2);
    assert_int_equal(p.kind, EST_FF);
    /* the osu018 scaling is in flip-flop equivalents: one DFFPOSX1 = one flip-flop */
    assert_true(fabs(est_scale_osu018(n, EST_OSU018_DFF_UM2) - n->dff_um2 / 0.7) < 1e-9);
    /* the GF100 SM */
    assert_true(fabs(est_sm_mm2(est_gf100()) - 529.0 * 0.5 / 16) < 1e-9);
}

/* ---------------------------------------------------------------- document checks */

static const struct est_check *check(const struct est_check *c, unsigned n, const char *what)
{
    for (unsigned i = 0; i < n; i++)
        if (strstr(c[i].what, what))
            return &c[i];
    fail_msg("no document check '%s'", what);
    return NULL;
}

/* The document checks of configs/gtx480.cfg into ck; their count. */
static unsigned gtx480_checks(struct est_check *ck)
{
    struct gpu_config c;
    gtx480(&c);
    return est_doc_checks(&c, ck, EST_MAX_CHECKS);
}

static void test_doc_003_token_stack(void **st)
{
    struct est_check ck[EST_MAX_CHECKS];
    unsigned n = gtx480_checks(ck);
    (void)st;
    assert_true(check(ck, n, "token bits per entry")->match);          /* 64 */
    assert_int_equal(check(ck, n, "token bits per entry")->model_value, 64);
    assert_true(check(ck, n, "entries per warp")->match);              /* 16 */
    assert_true(check(ck, n, "bytes per spill")->match);               /* 4 x 8 = 32 */
    /* on chip the model keeps 97 bits per entry: 16 x 97, not 16 x 64 */
    assert_false(check(ck, n, "on-chip stack bits per warp")->match);
    assert_int_equal(check(ck, n, "on-chip stack bits per warp")->doc_value, 1024);
    assert_int_equal(check(ck, n, "on-chip stack bits per warp")->model_value, 16 * 97);
}

static void test_doc_004_vt(void **st)
{
    struct est_check ck[EST_MAX_CHECKS];
    unsigned n = gtx480_checks(ck);
    (void)st;
    assert_int_equal(check(ck, n, "SIMT stack entry bits")->doc_value, 160);
    assert_int_equal(check(ck, n, "SIMT stack entry bits")->model_value, 97);
    assert_int_equal(check(ck, n, "4-entry cached stack")->doc_value, 640);
    assert_int_equal(check(ck, n, "4-entry cached stack")->model_value, 4 * 97);
    /* eq. 1: (8 + 5) + 96 + 160 x 4 x 32 */
    assert_int_equal(est_vt_context_bits(8, 32, 4, 160), 20589);
    assert_int_equal(check(ck, n, "eq. 1")->doc_value, 20589);
    assert_true(check(ck, n, "VWI tag bits per warp slot")->match);    /* 8 */
    assert_true(check(ck, n, "VWI bits per SM")->match);               /* 48 x 8 */
    assert_true(check(ck, n, "load-queue entry")->match);              /* 309 - 301 */
}

/* 000 Section 4.5 on Fermi (8 TBs, 48 warps), from the blocks' declarations: the index unit
   (ntb + the GPU counter) 44 B, the scheduler (pas + iss's progress counters) 456 B, 500 B
   with SameLane; the lane policies hold more than the paper's 1 B / 48 B (docs.c says why). */
static void test_doc_000_vtw(void **st)
{
    struct est_check ck[EST_MAX_CHECKS];
    unsigned n = gtx480_checks(ck);
    (void)st;
    assert_true(check(ck, n, "VTW index unit bytes")->match);
    assert_int_equal(check(ck, n, "VTW index unit bytes")->model_value, 44);
    assert_true(check(ck, n, "VTW scheduler bytes")->match);
    assert_int_equal(check(ck, n, "VTW scheduler bytes")->model_value, 456);
    assert_true(check(ck, n, "VTW SameLane bytes")->match);
    assert_int_equal(check(ck, n, "VTW SameLane bytes")->model_value, 500);
    /* lh 8 x 6 + lw 48 x 5 bits = 36 B; SlowestLane adds order 48 x 5 bits = 30 B */
    assert_int_equal(check(ck, n, "LowestToHighestLane extra")->doc_value, 1);
    assert_int_equal(check(ck, n, "LowestToHighestLane extra")->model_value, 36);
    assert_int_equal(check(ck, n, "SlowestLane extra")->doc_value, 48);
    assert_int_equal(check(ck, n, "SlowestLane extra")->model_value, 66);
    assert_int_equal(check(ck, n, "VTW SlowestLane bytes")->doc_value, 548);
    assert_int_equal(check(ck, n, "VTW SlowestLane bytes")->model_value, 566);
}

/* 004's VT: eq. (1) and (2) from the model's own functions, the 256 VWIs from the contexts
   under vt = on, the load queues from ldst's declarations (differs: a smaller entry) */
static void test_doc_004_vt_region(void **st)
{
    struct est_check ck[EST_MAX_CHECKS];
    unsigned n = gtx480_checks(ck);
    (void)st;
    assert_true(check(ck, n, "eq. 1 VT context, W=32, D=4 (160-bit entry)")->match);
    assert_int_equal(check(ck, n, "eq. 1 VT context, W=32, D=4 (160-bit entry)")->model_value,
                     20589);
    assert_int_equal(check(ck, n, "eq. 2 port cycles per context, B=512")->model_value, 41);
    assert_true(check(ck, n, "virtual warps per SM (8-bit VWI)")->match);
    /* 30 inactive entries of 184 bits + flags (5,813 bits) and the 32 active ones (2,534) */
    assert_int_equal(check(ck, n, "load queues 30 + 30 x 309 bits, bytes")->model_value * 8,
                     5813 + 2534);
}

/* 002's warp-split table (backup slide "WST Hardware Overhead"): 16 + 2 + 2 + 64 + 4 = 88 bits
   by wst_entry_bits, which wst_storage also uses; ours: 32 + 6 + 2 + 32 + 6 = 78 at 48 warps;
   the table's entries twice the warps, 96, but 80 on gtx480 (the SM's 128 slots). */
static void test_doc_002_wst(void **st)
{
    struct est_check ck[EST_MAX_CHECKS];
    unsigned n = gtx480_checks(ck);
    struct wst_cfg w;
    struct cost_list *l = calloc(1, sizeof *l);
    const struct est_check *m;
    (void)st;
    assert_non_null(l);
    assert_true(check(ck, n, "WST entry bits, the slides' fields")->match);
    assert_int_equal(check(ck, n, "WST entry bits, the slides' fields")->model_value, 88);
    m = check(ck, n, "WST entry bits, the model");
    assert_int_equal(m->doc_value, 88);
    assert_int_equal(m->model_value, 78);
    print_message("002 WST entry: slides %.0f bits, the model %.0f bits\n", m->doc_value,
                  m->model_value);
    /* 2 x 48 = 96 entries, capped at the 128 - 48 slots the 7-bit slot index leaves */
    m = check(ck, n, "WST entries per SM (twice the warps)");
    assert_int_equal(m->doc_value, 96);
    assert_int_equal(m->model_value, 80);
    assert_false(m->match);
    /* the storage of an entry is wst_entry_bits of the fields the table holds (no pc) + valid */
    wst_cfg_default(&w);
    cost_list_init(l);
    wst_storage(&w, l);
    assert_int_equal(find(l, "wst", "ent")->bits, 1 + wst_entry_bits(32, 48, 0, 2, 6));
    assert_int_equal(find(l, "wst", "ent")->entries, 48);
    assert_string_equal(find(l, "wst", "ent")->mech, "DWS (002)");
    free(l);
}

/* ---------------------------------------------------------------- the command */

static int run(const char **args, int n)
{
    char *argv[16];
    for (int i = 0; i < n; i++)
        argv[i] = (char *)args[i];
    argv[n] = NULL;
    return cost_main(n, argv);
}

static void test_command(void **st)
{
    const char *ok[] = {"cost", "--config", "configs/gtx480.cfg", "--json",
                        BUILD_DIR "/tests/cost.json"};
    const char *bad_cfg[] = {"cost", "--config", "configs/no-such.cfg"};
    const char *bad_set[] = {"cost", "--set", "simt_depth=1000"};
    const char *bad_opt[] = {"cost", "--frobnicate", "1"};
    const char *no_val[] = {"cost", "--json"};
    const char *bad_out[] = {"cost", "--json", "/nonexistent-dir/x.json"};
    char *js;
    (void)st;
    assert_int_equal(run(ok, 5), 0);
    js = tu_read_file(BUILD_DIR "/tests/cost.json", NULL);
    assert_non_null(js);
    assert_non_null(strstr(js, "\"sm_mechanisms\""));
    assert_non_null(strstr(js, "\"document_checks\""));
    assert_non_null(strstr(js, "\"VWI tags (VT, 004)\""));
    free(js);
    assert_int_equal(run(bad_cfg, 3), 2);
    assert_int_equal(run(bad_set, 3), 2);
    assert_int_equal(run(bad_opt, 3), 2);
    assert_int_equal(run(no_val, 2), 2);
    assert_int_equal(run(bad_out, 3), 2);
}

static void test_yosys_reader(void **st)
{
    const char *dir = BUILD_DIR "/tests";
    char path[256];
    struct est_yosys y;
    FILE *f;
    (void)st;
    snprintf(path, sizeof path, "%s/zz.txt", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "cells 10\nff_bits 4\nlib_cells 20\nlib_ff 4\nlib_area_um2 1234.5\n");
    fclose(f);
    assert_int_equal(est_read_yosys(dir, "zz", &y), 0);
    assert_int_equal(y.ff_bits, 4);
    assert_true(y.lib);
    assert_true(fabs(y.lib_um2 - 1234.5) < 1e-9);
    f = fopen(path, "w");                       /* the cell-library step timed out */
    assert_non_null(f);
    fprintf(f, "cells 10\nff_bits 4\nlib_timeout 1\n");
    fclose(f);
    assert_int_equal(est_read_yosys(dir, "zz", &y), 0);
    assert_false(y.lib);
    assert_string_equal(y.lib_why, "timeout");
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "failed 1\n");
    fclose(f);
    assert_int_equal(est_read_yosys(dir, "zz", &y), -1);
    assert_true(y.failed);
    assert_int_equal(est_read_yosys(dir, "no-such-block", &y), -1);
    remove(path);
}

/* ---------------------------------------------------------------- Yosys: bits == flip-flops */

static void test_yosys_block(void **st)
{
    const char *blk = *st;
    const char *dir = getenv("COST_YOSYS_DIR");
    const char *cfg = getenv("COST_CONFIG_FILE");
    struct gpu_config c;
    struct est_yosys y;
    struct cost_list *l = calloc(1, sizeof *l);
    char err[512];
    uint64_t bits;
    assert_non_null(l);
    struct gpu_config base;
    assert_int_equal(est_load_config(&base, cfg ? cfg : "configs/gtx480.cfg", NULL, 0, err,
                                     sizeof err), 0);
    if (est_yosys_config(&base, dir, &c, err, sizeof err))
        fail_msg("%s: %s", blk, err);
    if (est_read_yosys(dir, blk, &y))
        fail_msg("%s: no Yosys results in %s (synthesis failed? see %s/%s.log)", blk, dir, dir,
                 blk);
    cost_list_init(l);
    if (est_block_instance(&c, blk, l))
        fail_msg("%s: rtl/%s.sv has no C block with a storage list", blk, blk);
    bits = cost_block_bits(l, "", 1);
    if (bits != y.ff_bits)
        fail_msg("%s: estimator %llu register bits, Yosys %llu flip-flops", blk,
                 (unsigned long long)bits, (unsigned long long)y.ff_bits);
    free(l);
}

#define MAX_RTL 16

int main(void)
{
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_sb_follows_config),
        cmocka_unit_test(test_ws_policy_decides_storage),
        cmocka_unit_test(test_simt_stack_and_vwi),
        cmocka_unit_test(test_no_bookkeeping_priced),
        cmocka_unit_test(test_gtx480_estimate),
        cmocka_unit_test(test_sm_top),
        cmocka_unit_test(test_area_choices),
        cmocka_unit_test(test_doc_003_token_stack),
        cmocka_unit_test(test_doc_004_vt),
        cmocka_unit_test(test_doc_000_vtw),
        cmocka_unit_test(test_doc_004_vt_region),
        cmocka_unit_test(test_doc_002_wst),
        cmocka_unit_test(test_command),
        cmocka_unit_test(test_yosys_reader),
    };
    enum { NFIXED = sizeof fixed / sizeof fixed[0] };
    struct CMUnitTest tests[NFIXED + MAX_RTL];
    char names[MAX_RTL][48], blocks[MAX_RTL][16];
    const char *rtl = getenv("COST_RTL");
    unsigned n = NFIXED;
    memcpy(tests, fixed, sizeof fixed);
    /* one test per rtl/ block when `make cost-test` names the Yosys results */
    while (rtl && getenv("COST_YOSYS_DIR") && n < NFIXED + MAX_RTL) {
        int len;
        while (*rtl == ' ')
            rtl++;
        if (!*rtl || sscanf(rtl, "%15s%n", blocks[n - NFIXED], &len) != 1)
            break;
        rtl += len;
        snprintf(names[n - NFIXED], sizeof names[0], "yosys_ff_equals_bits_%.15s",
                 blocks[n - NFIXED]);
        tests[n] = (struct CMUnitTest){names[n - NFIXED], test_yosys_block, NULL, NULL,
                                       blocks[n - NFIXED]};
        n++;
    }
    return _cmocka_run_group_tests("test_cost", tests, n, NULL, NULL);
}
