/*
 * test_wst.c -- DWS's warp-split table (model/sm/wst.h; 002_ddcb2f79a6edfee4.txt, dws-design.md
 * section 4): reset; launch; the branch split (entry, lanes, regime, priority, free entry);
 * the PC matcher and the merge one cycle later (home first, two splits, the pc and the
 * parked-empty rules, each condition that drops the candidate, the latency pair left apart);
 * the release with the last merge; mflag; the memory-split policy of every variant and each
 * eligibility condition with the reason it reports (ev_mref);
 * status; the round robin and time_skip's drift and skip; every err bit; configuration,
 * storage (the slides' 88-bit entry) and the registry entry points.
 */
#include "testutil.h"
#include "sm/wst.h"
#include "base/config.h"
#include "base/cost.h"
#include "sm/sm_limits.h"

struct unit {
    struct wst_cfg c;
    struct wst_regs q, d;
    struct wst_in in;
    struct wst_out out;            /* the last cycle's outputs */
};

/* One cycle; the one-cycle inputs (launch, bsplit, mcand, issued) are cleared after. */
static void cycle(struct unit *u)
{
    u->d = u->q;
    wst_eval(&u->c, &u->q, &u->in, &u->out, &u->d);
    wst_commit(&u->c, &u->q, &u->d);
    u->in.launch = 0;
    memset(&u->in.bsplit, 0, sizeof u->in.bsplit);
    memset(&u->in.mcand, 0, sizeof u->in.mcand);
    u->in.issued = 0;
}

/* A cycle that must raise no error. */
static void run(struct unit *u)
{
    cycle(u);
    assert_int_equal(u->out.err, 0);
}

/* Set slot s's simt state: live, at regime level, pc. */
static void slot(struct unit *u, unsigned s, int live, int lvl, uint32_t pc)
{
    u->in.live = live ? u->in.live | slot_bit(s) : u->in.live & ~slot_bit(s);
    u->in.lvl = lvl ? u->in.lvl | slot_bit(s) : u->in.lvl & ~slot_bit(s);
    u->in.pc[s] = pc;
}

static void flag(slotmask *m, unsigned s, int on)
{
    *m = on ? *m | slot_bit(s) : *m & ~slot_bit(s);
}

/* 4 homes, 4 entries (slots 4..7); homes 0..3 launched with 8 lanes each, live, pc 0. */
static void unit_init(struct unit *u, uint8_t variant)
{
    char err[128];
    memset(u, 0, sizeof *u);
    wst_cfg_default(&u->c);
    u->c.nwarps = 4;
    u->c.nent = 4;
    u->c.variant = variant;
    assert_int_equal(wst_cfg_check(&u->c, err, sizeof err), 0);
    wst_reset(&u->c, &u->q);
    u->in.mok = 1;
    for (unsigned h = 0; h < 4; h++) {
        u->in.launch |= 1ull << h;
        u->in.launch_lanes[h] = 0xFFu << (8 * h);
        slot(u, h, 1, 0, 0);
    }
    run(u);
}

/* Slot src splits lanes off on a branch; returns the new slot (live, at regime level, pc). */
static unsigned bsplit(struct unit *u, unsigned src, uint32_t lanes, uint32_t pc)
{
    unsigned dst = u->out.free;
    assert_true(u->out.free_v);
    u->in.bsplit = (struct wst_split){1, (uint8_t)src, lanes};
    flag(&u->in.issued, src, 1);
    run(u);
    assert_true(u->out.ev_bsplit);
    slot(u, dst, 1, 1, pc);
    flag(&u->in.lvl, src, 1);
    return dst;
}

/* Run until the matcher has a candidate (at most a round of the entries). */
static void until_cand(struct unit *u)
{
    for (unsigned i = 0; i < 8 && !u->out.cand.v; i++)
        run(u);
    assert_true(u->out.cand.v);
}

/* Run until a merge is confirmed. */
static void until_merge(struct unit *u)
{
    for (unsigned i = 0; i < 8; i++) {
        run(u);
        if (u->out.merge.v)
            return;
    }
    fail_msg("no merge in 8 cycles");
}

static void test_reset(void **state)
{
    struct unit u;
    struct wst_regs zero;
    (void)state;
    unit_init(&u, DWS_BRANCH);
    memset(&u.q, 0xA5, sizeof u.q);
    wst_reset(&u.c, &u.q);
    memset(&zero, 0, sizeof zero);
    assert_memory_equal(&u.q, &zero, sizeof zero);
}

/* Launched homes own their lanes; the table is empty: entry 0's slot is free. */
static void test_launch(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, DWS_BRANCH);
    assert_int_equal(u.q.own[0], 0xFF);
    assert_int_equal(u.q.own[3], 0xFF000000u);
    assert_true(u.out.free_v);
    assert_int_equal(u.out.free, 4);
    assert_false(u.out.full);
    assert_int_equal(u.out.nvalid, 0);
    run(&u);
    assert_int_equal(u.out.prio_key[0], 8);     /* from q: popcount of the owned lanes */
    assert_int_equal(u.out.prio_key[4], 0);
    u.in.launch = 1u << 4;                       /* not a home */
    cycle(&u);
    assert_int_equal(u.out.err, WST_E_LAUNCH);
}

/* A branch split: the entry, the lanes, the regime, the priorities, the next free entry. */
static void test_bsplit(void **state)
{
    struct unit u;
    unsigned s;
    (void)state;
    unit_init(&u, DWS_BRANCH);
    s = bsplit(&u, 1, 0x0F00, 20);
    assert_int_equal(s, 4);
    assert_true(slot_has(u.q.valid, 0));
    assert_int_equal(u.q.home[0], 1);
    assert_int_equal(u.q.own[4], 0x0F00);
    assert_int_equal(u.q.own[1], 0xF000);
    assert_int_equal(u.q.reg_on, 2);
    assert_int_equal(u.q.prio[0], 4);
    assert_int_equal(u.out.free, 5);
    assert_int_equal(u.out.nvalid, 1);
    assert_false(u.out.rel.v);                  /* the warp has a split: no release */
    /* a split slot at regime level splits again: its own lanes, its priority */
    s = bsplit(&u, 4, 0x0300, 30);
    assert_int_equal(s, 5);
    assert_int_equal(u.q.home[1], 1);
    assert_int_equal(u.q.own[4], 0x0C00);
    assert_int_equal(u.q.prio[0], 2);
    assert_int_equal(u.q.prio[1], 2);
    run(&u);
    assert_int_equal(u.out.prio_key[1], 4);
    assert_int_equal(u.out.prio_key[4], 2);
    assert_int_equal(u.out.prio_key[5], 2);
    /* a launch of a home in the regime is refused */
    u.in.launch = 2;
    u.in.launch_lanes[1] = 1;
    cycle(&u);
    assert_int_equal(u.out.err, WST_E_LAUNCH);
    assert_int_equal(u.q.own[1], 0xF000);
}

/* Every bsplit the table refuses raises WST_E_BSPLIT and changes nothing. */
static void test_bsplit_errors(void **state)
{
    struct unit u;
    struct wst_regs before;
    static const struct { uint8_t src; uint32_t lanes; } bad[] = {
        {0, 0}, {0, 0xFF}, {0, 0x1FF}, {8, 1}, {6, 1}, {1, 0x1000},
    };
    (void)state;
    unit_init(&u, DWS_BRANCH);
    bsplit(&u, 1, 0x0F00, 20);                 /* slot 4 of warp 1; warp 1 in the regime */
    flag(&u.in.lvl, 1, 0);                     /* home 1 nested below its regime level */
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        before = u.q;
        u.in.bsplit = (struct wst_split){1, bad[i].src, bad[i].lanes};
        cycle(&u);
        assert_int_equal(u.out.err, WST_E_BSPLIT);
        assert_memory_equal(u.q.own, before.own, sizeof before.own);
        assert_true(u.q.valid == before.valid);
    }
    slot(&u, 2, 0, 0, 0);                      /* not live */
    u.in.bsplit = (struct wst_split){1, 2, 0x010000};
    cycle(&u);
    assert_int_equal(u.out.err, WST_E_BSPLIT);
    slot(&u, 2, 1, 0, 0);
    /* the table full */
    bsplit(&u, 2, 0x010000, 1);               /* every split at its own pc: no merge */
    bsplit(&u, 2, 0x020000, 2);
    bsplit(&u, 3, 0x01000000, 3);
    assert_true(u.out.full);
    assert_false(u.out.free_v);
    u.in.bsplit = (struct wst_split){1, 0, 1};
    cycle(&u);
    assert_int_equal(u.out.err, WST_E_BSPLIT);
}

/* The matcher finds the split at the home's pc; the merge follows a cycle later, frees the
   entry and, the warp's last split gone, releases the home in the same cycle. */
static void test_merge_pc_and_release(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, DWS_BRANCH);
    bsplit(&u, 0, 0x0F, 20);                   /* slot 4 at 20, home 0 at 0 */
    run(&u);
    assert_false(u.out.cand.v);
    u.in.pc[4] = 0;
    run(&u);
    assert_true(u.out.cand.v);
    assert_int_equal(u.out.cand.dst, 0);
    assert_int_equal(u.out.cand.src, 4);
    assert_false(u.out.merge.v);
    run(&u);
    assert_true(u.out.merge.v);
    assert_int_equal(u.out.merge.dst, 0);
    assert_int_equal(u.out.merge.src, 4);
    assert_true(u.out.ev_merge_pc);
    assert_false(u.out.ev_merge_rpc);
    assert_true(u.out.free_mask == slot_bit(4));
    assert_int_equal(u.q.own[0], 0xFF);
    assert_int_equal(u.q.own[4], 0);
    assert_true(u.q.valid == 0);
    assert_true(u.out.rel.v);
    assert_int_equal(u.out.rel.slot, 0);
    assert_int_equal(u.q.reg_on, 0);
    assert_int_equal(u.out.free, 4);
}

/* A merge at the reconvergence point (the home arrived at G) counts as ev_merge_rpc; with a
   second split left the home is not released. */
static void test_merge_rpc_keeps_regime(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, DWS_BRANCH);
    bsplit(&u, 0, 0x0F, 7);
    bsplit(&u, 0, 0x30, 9);
    u.in.pc[0] = 7;
    flag(&u.in.arr, 0, 1);
    until_cand(&u);
    assert_int_equal(u.out.cand.src, 4);
    run(&u);
    assert_true(u.out.merge.v);
    assert_true(u.out.ev_merge_rpc);
    assert_false(u.out.ev_merge_pc);
    assert_false(u.out.rel.v);
    assert_int_equal(u.q.reg_on, 1);
    assert_int_equal(u.q.own[0], 0xCF);
}

/* Each condition of the confirmation drops the candidate (no merge, no change). */
static void test_merge_conditions(void **state)
{
    (void)state;
    for (unsigned k = 0; k < 10; k++) {
        struct unit u;
        unit_init(&u, DWS_BRANCH);
        bsplit(&u, 0, 0x0F, 0);
        run(&u);
        assert_true(u.out.cand.v);
        switch (k) {
        case 0: flag(&u.in.issued, 4, 1); break;
        case 1: flag(&u.in.busy, 0, 1); break;
        case 2: u.in.mok = 0; break;
        case 3: u.in.pc[4] = 5; break;
        case 4: flag(&u.in.lvl, 4, 0); break;
        case 5: flag(&u.in.live, 0, 0); break;
        case 6: u.in.bsplit = (struct wst_split){1, 0, 0x30}; break;   /* names dst */
        case 7: flag(&u.in.susp, 0, 1); break;   /* a latency pair: the home waits on memory */
        case 8:                                  /* both wait: they merge */
            flag(&u.in.susp, 0, 1);
            flag(&u.in.susp, 4, 1);
            break;
        default: break;                        /* the control: it merges */
        }
        cycle(&u);
        assert_int_equal(u.out.merge.v, k >= 8);
        assert_int_equal(slot_has(u.q.valid, 0), k < 8);
    }
}

/* The PC matcher leaves a latency pair apart -- two slots of a warp at the same pc, neither
   arrived, exactly one suspended on memory (wst_latency_pair; slides "Subdividing on Cache
   Misses": the ready lanes run on) -- and pairs them once both wait, both run, or one has
   arrived at the regime's reconvergence point. */
static void test_latency_pair(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, DWS_AGGRESS);
    bsplit(&u, 0, 0x0F, 0);                    /* slot 4, both at pc 0 */
    flag(&u.in.susp, 0, 1);
    for (unsigned i = 0; i < 6; i++) {
        run(&u);
        assert_false(u.out.cand.v);
        assert_false(u.out.merge.v);
    }
    assert_true(wst_latency_pair(u.in.susp, u.in.arr, 0, 4));
    flag(&u.in.arr, 0, 1);                     /* arrived: no longer kept apart */
    assert_false(wst_latency_pair(u.in.susp, u.in.arr, 0, 4));
    until_merge(&u);
    assert_int_equal(u.out.merge.dst, 0);
    assert_int_equal(u.out.merge.src, 4);
}

/* Parked-empty slots: an empty split merges into its home whatever the pc; an empty home
   takes its warp's only split wherever it is, but not one of two. */
static void test_merge_empty(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, DWS_BRANCH);
    bsplit(&u, 0, 0x0F, 20);
    flag(&u.in.empty, 4, 1);
    run(&u);
    assert_true(u.out.cand.v);
    assert_int_equal(u.out.cand.dst, 0);
    flag(&u.in.empty, 4, 0);
    run(&u);                                   /* no longer empty, pc differs: dropped */
    assert_false(u.out.merge.v);
    /* the home empty, two splits elsewhere: neither goes into the home */
    bsplit(&u, 4, 0x03, 30);
    flag(&u.in.empty, 0, 1);
    run(&u);
    run(&u);
    assert_false(u.out.cand.v);
    /* slot 5 parks empty: it merges (into the home or slot 4) */
    flag(&u.in.empty, 5, 1);
    until_cand(&u);
    assert_int_equal(u.out.cand.src, 5);
    run(&u);
    assert_true(u.out.merge.v);
    flag(&u.in.empty, 5, 0);
    slot(&u, 5, 0, 0, 0);
    /* one split left: it goes into the empty home wherever it is */
    until_merge(&u);
    assert_int_equal(u.out.merge.dst, 0);
    assert_int_equal(u.out.merge.src, 4);
    assert_true(u.out.rel.v);
    assert_int_equal(u.q.own[0], 0xFF);
}

/* Two splits of a warp at the same pc (the home elsewhere) merge, the lower slot the
   destination; splits of different warps never pair. */
static void test_merge_two_splits(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, DWS_BRANCH);
    bsplit(&u, 0, 0x0F, 40);                   /* slot 4 */
    bsplit(&u, 1, 0x0F00, 40);                 /* slot 5, warp 1 */
    bsplit(&u, 0, 0x30, 40);                   /* slot 6, warp 0 */
    u.in.pc[0] = 1;
    u.in.pc[1] = 2;
    until_cand(&u);
    assert_int_equal(u.out.cand.dst, 4);
    assert_int_equal(u.out.cand.src, 6);
    run(&u);
    assert_true(u.out.merge.v);
    assert_int_equal(u.q.own[4], 0x3F);
    assert_int_equal(u.q.prio[0], 6);
    assert_false(u.out.rel.v);
}

/* The matcher starts at rr and moves past the entry it looked at. */
static void test_round_robin(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, DWS_BRANCH);
    bsplit(&u, 0, 0x0F, 0);
    bsplit(&u, 1, 0x0F00, 0);
    u.in.mok = 0;                              /* candidates are never confirmed */
    u.q.rr = 0;
    run(&u);
    assert_int_equal(u.out.cand.src, 4);
    assert_int_equal(u.q.rr, 1);
    run(&u);
    assert_int_equal(u.out.cand.src, 5);
    assert_int_equal(u.q.rr, 2);
    run(&u);                                   /* entries 2, 3 free: wraps to entry 0 */
    assert_int_equal(u.out.cand.src, 4);
    flag(&u.in.busy, 4, 1);
    flag(&u.in.busy, 5, 1);
    run(&u);
    assert_false(u.out.cand.v);
    assert_int_equal(u.q.rr, 2);               /* none picked: rr + 1 */
}

/* One cycle and wst_drift of it (time_skip, model/sm/sm_sleep.c). */
static int drift(struct unit *u)
{
    struct wst_regs q = u->q;
    run(u);
    return wst_drift(&u->c, &q, &u->q, !wst_idle_entries(&u->c, &u->q, &u->in));
}

/* time_skip against ticking: with no entry idle the matcher's pointer moves on by one a cycle
   (drift 1) and wst_skip(n) is n such cycles; a lone idle entry holds it (0); two idle entries
   take turns (-1: the candidate changes). */
static void test_time_skip(void **state)
{
    struct unit u, v;
    (void)state;
    unit_init(&u, DWS_BRANCH);
    for (unsigned i = 0; i < 6; i++)                  /* no split */
        assert_int_equal(drift(&u), 1);
    v = u;
    wst_skip(&v.c, &v.q, 11);
    for (unsigned i = 0; i < 11; i++)
        run(&u);
    assert_memory_equal(&v.q, &u.q, sizeof u.q);
    u.in.mok = 0;                                     /* candidates are never confirmed */
    bsplit(&u, 0, 0x0F, 0);
    run(&u);
    for (unsigned i = 0; i < 3; i++)
        assert_int_equal(drift(&u), 0);
    bsplit(&u, 1, 0x0F00, 0);
    for (unsigned i = 0; i < 3; i++)
        assert_int_equal(drift(&u), -1);
    flag(&u.in.busy, 4, 1);                           /* both entries busy: none idle */
    flag(&u.in.busy, 5, 1);
    run(&u);
    for (unsigned i = 0; i < 3; i++)
        assert_int_equal(drift(&u), 1);
}

/* mflag: a merge while a row is non-empty; no split until the row is empty. */
static void test_mflag(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, DWS_AGGRESS);
    bsplit(&u, 0, 0x0F, 0);
    flag(&u.in.sb_any, 4, 1);
    run(&u);
    run(&u);
    assert_true(u.out.merge.v);
    assert_true(slot_has(u.q.mflag, 0));
    assert_true(slot_has(u.out.nosplit, 0));
    flag(&u.in.sb_any, 0, 1);
    u.in.bsplit = (struct wst_split){1, 0, 0x0F};
    cycle(&u);
    assert_int_equal(u.out.err, WST_E_BSPLIT);
    u.in.mcand = (struct wst_mcand){1, 0, 0x0F, 0xFF, 1};
    run(&u);
    assert_false(u.out.msplit.v);
    u.in.sb_any = 0;                           /* the row drained: mflag clears */
    run(&u);
    assert_false(slot_has(u.q.mflag, 0));
    bsplit(&u, 0, 0x0F, 3);
}

/* A memory split of the scenario under a variant: 0 home 0 the only active slot, 1 two
   active homes, 2 a split slot (of warp 2) the only active one. Returns msplit.v. */
static int mem_split(uint8_t variant, unsigned scenario)
{
    struct unit u;
    struct wst_mcand m;
    unit_init(&u, variant);
    for (unsigned h = 1; h < 4; h++)               /* homes 1..3 suspended */
        flag(&u.in.susp, h, 1);
    if (scenario == 1)
        flag(&u.in.susp, 1, 0);
    u.in.mcand = (struct wst_mcand){1, 0, 0x03, 0xFF, 1};
    if (scenario == 2) {
        bsplit(&u, 2, 0x0F0000, 5);                /* slot 4 */
        flag(&u.in.susp, 0, 1);
        u.in.mcand = (struct wst_mcand){1, 4, 0x030000, 0x0F0000, 1};
    }
    m = u.in.mcand;
    run(&u);
    assert_int_equal(u.out.ev_mref, u.out.msplit.v ? WST_MR_NONE : WST_MR_POLICY);
    if (u.out.msplit.v) {
        unsigned src = u.out.msplit.src, dst = u.out.msplit.dst;
        assert_int_equal(src, scenario == 2 ? 4 : 0);
        assert_int_equal(dst, scenario == 2 ? 5 : 4);
        assert_int_equal(u.out.msplit.lanes, m.lanes);
        assert_true(u.out.ev_msplit);
        assert_int_equal(u.out.ev_runahead_lanes, 2);
        assert_int_equal(u.q.own[dst], m.lanes);
        assert_int_equal(u.q.own[src], m.ld_lanes & ~m.lanes);
        assert_int_equal(u.q.reg_on, scenario == 2 ? 4 : 1);
    }
    return u.out.msplit.v;
}

/* The memory split of each variant (slides "Results (1)"). */
static void test_mcand_policy(void **state)
{
    static const struct { uint8_t v; int want[3]; } t[] = {
        {DWS_OFF, {0, 0, 0}},  {DWS_BRANCH, {0, 0, 0}}, {DWS_AGGRESS, {1, 1, 1}},
        {DWS_LAZY, {1, 0, 0}}, {DWS_REVIVE, {1, 0, 1}}, {DWS_REVIVE_MEM, {1, 0, 1}},
    };
    (void)state;
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++)
        for (unsigned k = 0; k < 3; k++)
            if (mem_split(t[i].v, k) != t[i].want[k])
                fail_msg("variant %u scenario %u: msplit %d", t[i].v, k, !t[i].want[k]);
}

/* Each eligibility condition of a memory split under aggress (no split, no error), and the
   reason it gives (ev_mref; the first that holds: not the slot's own divergence, nested,
   busy, the policy, the entry taken by a branch split, the table full). */
static void test_mcand_eligibility(void **state)
{
    static const uint8_t why[] = { WST_MR_OTHER, WST_MR_OTHER, WST_MR_OTHER, WST_MR_OTHER,
                                   WST_MR_BUSY, WST_MR_OTHER, WST_MR_BRANCH, WST_MR_NESTED,
                                   WST_MR_BUSY, WST_MR_FULL, WST_MR_NESTED, WST_MR_NONE };
    (void)state;
    for (unsigned k = 0; k < sizeof why; k++) {
        struct unit u;
        struct wst_mcand m = {1, 0, 0x03, 0xFF, 1};
        unit_init(&u, DWS_AGGRESS);
        switch (k) {
        case 0: m.part_hit = 0; break;
        case 1: m.ld_lanes = 0x7F; m.lanes = 0x03; break;   /* own != the load's lanes */
        case 2: m.lanes = 0; break;
        case 3: m.lanes = 0xFF; break;                       /* all of them: nothing stays */
        case 4: flag(&u.in.busy, 0, 1); break;
        case 5: flag(&u.in.live, 0, 0); break;
        case 6: u.in.bsplit = (struct wst_split){1, 1, 0x0F00}; break;  /* took the entry */
        case 7:                                               /* in the regime, nested */
            bsplit(&u, 0, 0x80, 9);
            flag(&u.in.lvl, 0, 0);
            m.ld_lanes = 0x7F;
            m.lanes = 0x03;
            break;
        case 8: u.q.mflag |= slot_bit(0); break;             /* merged with a pending write */
        case 9:                                               /* the four entries taken */
            for (unsigned h = 0; h < 4; h++)
                bsplit(&u, h, 0x80u << (8 * h), 9);
            m.ld_lanes = 0x7F;
            m.lanes = 0x03;
            break;
        case 10:                                              /* nested and busy: nested */
            bsplit(&u, 0, 0x80, 9);
            flag(&u.in.lvl, 0, 0);
            flag(&u.in.busy, 0, 1);
            m.ld_lanes = 0x7F;
            m.lanes = 0x03;
            break;
        default: break;                                       /* the control */
        }
        u.in.mcand = m;
        run(&u);
        assert_int_equal(u.out.msplit.v, why[k] == WST_MR_NONE);
        if (u.out.ev_mref != why[k])
            fail_msg("case %u: ev_mref %u, want %u", k, u.out.ev_mref, why[k]);
    }
}

static void test_mcand_errors(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, DWS_AGGRESS);
    u.in.mcand = (struct wst_mcand){1, 0, 0x100, 0xFF, 1};   /* lanes outside the load's */
    cycle(&u);
    assert_int_equal(u.out.err, WST_E_MCAND);
    assert_false(u.out.msplit.v);
    u.in.mcand = (struct wst_mcand){1, 8, 0x1, 0xFF, 1};     /* slot >= nslots */
    cycle(&u);
    assert_int_equal(u.out.err, WST_E_MCAND);
}

/* Status per entry from this cycle's inputs; the counts from q. */
static void test_status(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, DWS_BRANCH);
    bsplit(&u, 0, 0x0F, 3);
    bsplit(&u, 1, 0x0F00, 4);
    bsplit(&u, 2, 0x0F0000, 5);
    flag(&u.in.susp, 4, 1);
    flag(&u.in.arr, 5, 1);
    flag(&u.in.susp, 5, 1);                    /* arrived wins */
    run(&u);
    assert_int_equal(u.q.status[0], WST_SUSP);
    assert_int_equal(u.q.status[1], WST_ARR);
    assert_int_equal(u.q.status[2], WST_READY);
    flag(&u.in.susp, 6, 1);
    run(&u);
    assert_int_equal(u.q.status[2], WST_SUSP);
    assert_int_equal(u.q.status[3], WST_READY);   /* free */
    run(&u);
    assert_int_equal(u.out.nsusp, 2);
    assert_int_equal(u.out.narr, 1);
}

static void test_cfg_check(void **state)
{
    struct wst_cfg c;
    char err[128];
    (void)state;
    wst_cfg_default(&c);
    assert_int_equal(wst_cfg_check(&c, err, sizeof err), 0);
    c.nwarps = 0;
    assert_int_equal(wst_cfg_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "wst: nwarps 0 out of range 1..64");
    c.nwarps = 64;
    c.nent = 65;
    assert_int_equal(wst_cfg_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "wst: nent 65");
    c.nent = 64;
    assert_int_equal(wst_cfg_check(&c, err, sizeof err), 0);
    c.variant = DWS_REVIVE_MEM + 1;
    assert_int_equal(wst_cfg_check(&c, err, sizeof err), -1);
    c.variant = DWS_LAZY;
    c.lanes = 16;
    assert_int_equal(wst_cfg_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "lanes 16");
}

/* clog2(n) for n >= 1. */
static unsigned lg(unsigned n)
{
    unsigned b = 0;
    while ((1u << b) < n)
        b++;
    return b;
}

/* The value of one factor of a width in rtl/wst.sv: a number or a localparam (NW, NE, NS
   and their clog2s HB, EB, SB). */
static unsigned rtl_factor(const char *t, size_t n, unsigned nw, unsigned ne)
{
    static const char *const names[] = { "NW", "NE", "NS", "HB", "EB", "SB" };
    unsigned v[] = { nw, ne, nw + ne, lg(nw), lg(ne), lg(nw + ne) };
    for (unsigned i = 0; i < 6; i++)
        if (strlen(names[i]) == n && !strncmp(t, names[i], n))
            return v[i];
    if (t[0] >= '0' && t[0] <= '9')
        return (unsigned)strtoul(t, NULL, 10);
    fail_msg("rtl/wst.sv: unknown width factor %.*s", (int)n, t);
    return 0;
}

/* The flip-flops rtl/wst.sv declares for nw homes and ne entries: its register section
   (between "registers (wst_regs)" and "next state"), each `logic [A*B*...-1:0] x, y;` line
   A*B*... bits per name, `logic x;` one -- read from the Verilog, not from wst_storage. */
static unsigned rtl_bits(unsigned nw, unsigned ne)
{
    char *sv = tu_read_file("rtl/wst.sv", NULL), *p, *end;
    unsigned bits = 0;
    assert_non_null(sv);
    p = strstr(sv, "registers (wst_regs)");
    end = p ? strstr(p, "// next state") : NULL;
    assert_true(p && end);
    while ((p = strstr(p, "logic")) && p < end) {
        unsigned w = 1, names = 1;
        char *semi = strchr(p, ';'), *q;
        p += 5;
        while (*p == ' ')
            p++;
        if (*p == '[') {                       /* [F*F*...-1:0] */
            char *stop = strstr(p, "-1:0]");
            assert_non_null(stop);
            for (q = p + 1; q < stop; ) {
                size_t n = strcspn(q, "*-");
                w *= rtl_factor(q, n, nw, ne);
                q += n + (q[n] == '*');
            }
            p = stop + 5;
        }
        for (q = p; q < semi; q++)
            names += *q == ',';
        bits += w * names;
        p = semi + 1;
    }
    free(sv);
    return bits;
}

/* The storage wst_storage declares, against two figures computed apart from it: the table's
   entry from the slides' (backup "WST Hardware Overhead": 16 + 2 + 2 + 64 + 4 = 88 bits, 4
   warps of 16 lanes) with the model's fields put in -- 32 lanes for the 16, clog2(warps) for
   the 2-bit warp ID, no PC (simt's register of the entry's slot), a 6-bit priority (a
   popcount of 32 lanes) for the 4-bit one, and a valid bit -- times the entries; and the whole
   block against the flip-flops rtl/wst.sv declares (what Yosys counts: stage/yosys.wst and
   test_cost's Yosys check). At the sizes of gtx480 (48 + 80), the slides' WPU (4 warps, twice
   as many entries), configs/dws.cfg (8 + 16) and the block's default (48 + 48). */
static void test_storage_bits(void **state)
{
    static const unsigned sizes[][2] = { { 48, 80 }, { 4, 8 }, { 8, 16 }, { 48, 48 } };
    struct wst_cfg c;
    struct cost_list *l = calloc(1, sizeof *l);
    (void)state;
    assert_non_null(l);
    assert_int_equal(wst_entry_bits(16, 4, 64, 2, 4), 88);
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        unsigned nw = sizes[i][0], ne = sizes[i][1];
        unsigned ent = 88 - 16 + 32 - 2 + lg(nw) - 64 - 4 + 6 + 1;
        const struct cost_item *it = NULL;
        wst_cfg_default(&c);
        c.nwarps = (uint8_t)nw;
        c.nent = (uint8_t)ne;
        cost_list_init(l);
        wst_storage(&c, l);
        for (uint32_t k = 0; k < l->n; k++) {
            assert_string_equal(l->it[k].mech, "DWS (002)");
            if (!strcmp(l->it[k].name, "ent"))
                it = &l->it[k];
        }
        assert_non_null(it);
        assert_int_equal(it->bits, ent);
        assert_int_equal(it->entries, ne);
        assert_int_equal(cost_block_bits(l, "wst", 1), rtl_bits(nw, ne));
        print_message("wst %u + %u: entry %u bits (the slides' 88), block %llu bits = "
                      "rtl/wst.sv's %u flip-flops\n", nw, ne, ent,
                      (unsigned long long)cost_block_bits(l, "wst", 1), rtl_bits(nw, ne));
    }
    free(l);
}

/* One instance per SM only when dws != off; homes = warp slots, entries = factor x warps (the
   slides' "twice the number of warps" at 2), at most the 128 - warps slots the SM's 7-bit slot
   index leaves; the Verilog parameters. */
static void test_registry(void **state)
{
    static const struct { uint32_t warps, factor, nent; } sizes[] = {
        { 48, 2, 80 },                     /* gtx480: 96 capped at 128 - 48 */
        { 48, 1, 48 },                     /* as many as warps (before issue 38) */
        { 8, 2, 16 }, { 8, 3, 24 }, { 8, 4, 32 },   /* configs/dws.cfg and the report's sweep */
        { 32, 3, 96 }, { 32, 4, 96 },      /* 3 x 32 = 128 - 32; 4 x 32 capped */
        { 64, 1, 64 }, { 64, 2, 64 },      /* kepler: the cap leaves 64 */
    };
    struct gpu_config conf;
    struct wst_cfg c;
    char err[CONF_ERR_LEN], *buf = NULL;
    size_t len = 0;
    FILE *f;
    (void)state;
    conf_defaults(&conf);
    assert_int_equal(conf_load_file(&conf, "configs/gtx480.cfg", err, sizeof err), 0);
    assert_int_equal(wst_instances(&conf), 0);
    wst_cfg_from(&conf, 0, 0, &c);        /* no instance: the default factor's sizes */
    assert_int_equal(c.nwarps, 48);
    assert_int_equal(c.nent, 80);
    assert_int_equal(c.variant, DWS_OFF);
    conf.dws = DWS_LAZY;
    assert_int_equal(wst_instances(&conf), 1);
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        conf.dws_wst_factor = sizes[i].factor;
        conf.max_warps_per_sm = sizes[i].warps;
        wst_cfg_from(&conf, 0, 0, &c);
        assert_int_equal(c.nwarps, sizes[i].warps);
        assert_int_equal(c.nent, sizes[i].nent);
        assert_int_equal(sm_slots(&conf), sizes[i].warps + sizes[i].nent);
        assert_int_equal(wst_cfg_check(&c, err, sizeof err), 0);
    }
    conf.dws_wst_factor = 3;
    conf.max_warps_per_sm = 32;
    wst_cfg_from(&conf, 0, 0, &c);
    assert_int_equal(c.variant, DWS_LAZY);
    f = open_memstream(&buf, &len);
    wst_rtl_params(&c, f);
    fclose(f);
    tu_assert_contains(buf, "localparam WST_NWARPS = 32;");
    tu_assert_contains(buf, "localparam WST_NENT = 96;");
    tu_assert_contains(buf, "localparam WST_VARIANT = 3;");
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reset),
        cmocka_unit_test(test_launch),
        cmocka_unit_test(test_bsplit),
        cmocka_unit_test(test_bsplit_errors),
        cmocka_unit_test(test_merge_pc_and_release),
        cmocka_unit_test(test_merge_rpc_keeps_regime),
        cmocka_unit_test(test_merge_conditions),
        cmocka_unit_test(test_latency_pair),
        cmocka_unit_test(test_merge_empty),
        cmocka_unit_test(test_merge_two_splits),
        cmocka_unit_test(test_round_robin),
        cmocka_unit_test(test_time_skip),
        cmocka_unit_test(test_mflag),
        cmocka_unit_test(test_mcand_policy),
        cmocka_unit_test(test_mcand_eligibility),
        cmocka_unit_test(test_mcand_errors),
        cmocka_unit_test(test_status),
        cmocka_unit_test(test_cfg_check),
        cmocka_unit_test(test_storage_bits),
        cmocka_unit_test(test_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
