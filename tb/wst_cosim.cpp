/*
 * wst_cosim.cpp -- lockstep co-simulation of DWS's warp-split table: model/sm/wst.c (from
 * libgpusim.a, the code the GPU model runs) against rtl/wst.sv, Verilated through
 * tb/wst_top.sv.
 *
 * The top holds four tables, each with its own inputs: u0 is the configuration's sizes (48
 * homes, 80 entries on gtx480) with AggressSplit's policy, u1 4 homes / 4 entries / aggress,
 * u2 3 / 5 / lazy, u3 6 / 10 / revive.  Every cycle, for every instance: every output after
 * the combinational settle, then after the clock edge every register of struct wst_regs --
 * valid, home, status and prio of each entry < nent, own of each slot < nslots, mflag, reg_on,
 * rr, cand (candq_v, candq_dst, candq_src).
 *
 * Random stimulus follows the block's contract (wst.h), one SM-like model per instance built
 * on the C block's registered state: homes launch (all lanes or a random set) and finish while
 * out of the regime; a slot is live when its home runs or its entry is valid; each live slot
 * holds a pc from a small range (so that splits meet), regime level, arrived, parked empty and
 * suspended flags for a while; busy, issued, sb_any and mok at random; branch splits only when
 * the last outputs said a free entry, from a live slot that may split (nosplit, regime level)
 * with a proper subset of its owned lanes (the slot issues); memory candidates from a live slot
 * with its owned lanes as the load's (mostly), a random subset completed, a hit or not.  A
 * pattern holds the rates for up to 400 cycles (many suspended slots in some, so that lazy and
 * revive split).  On this stimulus the C block must not raise err (checked).  5 % of the
 * patterns inject contract violations (a bsplit from any slot with any lanes, completed lanes
 * outside the load's, a launch of any home): C and RTL must raise the same err and ignore the
 * same port; the err check is off in those cycles.
 * Recordings (SM 0's table under dws = aggress: mk/cosim.mk's COSIM_KERNELS_wst) drive u0;
 * u1..u3 then get idle inputs.
 * After the random cycles the harness prints its coverage bins (events of u0..u3 together).
 * Usage: see cosim.h (--help).
 */
#include <algorithm>
#include <cstdio>
#include <string>

#include "Vdut.h"
#include "Vdut___024root.h"
#include "cosim.h"

extern "C" {
#include "sm/wst.h"
#include "base/config.h"
}

namespace {

using cosim::get_bits;
using cosim::set_bits;

/* The RTL side of one instance uK of tb/wst_top.sv: its sizes, variant and registers. */
struct RtlInst {
    uint32_t nwarps, nent, variant;
    uint64_t (*reg)(const Vdut___024root *, unsigned which, unsigned lsb, unsigned w);
};

enum { R_VALID, R_HOME, R_STATUS, R_PRIO, R_OWN, R_MFLAG, R_REGON, R_RR, R_CV, R_CD, R_CS };

#define WST_U(k, sig) wst_top__DOT__u##k##__DOT__##sig
#define WST_INST(k)                                                                         \
    RtlInst{Vdut___024root::WST_U(k, NW), Vdut___024root::WST_U(k, NE),                    \
            Vdut___024root::WST_U(k, VARIANT),                                              \
            [](const Vdut___024root *r, unsigned which, unsigned l, unsigned w) -> uint64_t { \
                switch (which) {                                                            \
                case R_VALID: return get_bits(r->WST_U(k, valid), l, w);                    \
                case R_HOME: return get_bits(r->WST_U(k, home), l, w);                      \
                case R_STATUS: return get_bits(r->WST_U(k, status), l, w);                  \
                case R_PRIO: return get_bits(r->WST_U(k, prio), l, w);                      \
                case R_OWN: return get_bits(r->WST_U(k, own), l, w);                        \
                case R_MFLAG: return get_bits(r->WST_U(k, mflag), l, w);                    \
                case R_REGON: return get_bits(r->WST_U(k, reg_on), l, w);                   \
                case R_RR: return get_bits(r->WST_U(k, rr), l, w);                          \
                case R_CV: return get_bits(r->WST_U(k, candq_v), l, w);                     \
                case R_CD: return get_bits(r->WST_U(k, candq_dst), l, w);                   \
                default: return get_bits(r->WST_U(k, candq_src), l, w);                     \
                } }}

const RtlInst kRtl[] = {WST_INST(0), WST_INST(1), WST_INST(2), WST_INST(3)};
constexpr unsigned kInst = sizeof kRtl / sizeof kRtl[0];

unsigned clog2(unsigned n)
{
    unsigned b = 0;
    while ((1u << b) < n)
        b++;
    return b;
}

/* The SM-like side of one instance: each slot's simt state and the pattern's rates. */
struct Traffic {
    bool hlive[WST_MAX_WARPS] = {};
    uint32_t pc[SM_MAX_SLOTS] = {};
    bool lvl[SM_MAX_SLOTS] = {}, arr[SM_MAX_SLOTS] = {}, empty[SM_MAX_SLOTS] = {},
         susp[SM_MAX_SLOTS] = {}, any[SM_MAX_SLOTS] = {};
    unsigned left = 0, pcs = 4, launch_pct = 20, finish_pct = 1, change_pct = 10,
             lvl_pct = 85, arr_pct = 10, empty_pct = 5, susp_pct = 30, any_pct = 30,
             busy_pct = 10, issued_pct = 10, mok_pct = 90, bsplit_pct = 20, mcand_pct = 20;
    bool violate = false;
};

/* Coverage bins the stimulus should reach (summed over the instances). */
struct Bins {
    uint64_t bsplits = 0, split_of_split = 0, msplits = 0, msplit_split_src = 0,
             merges_pc = 0, merges_rpc = 0, merges_empty = 0, merges_split_pair = 0,
             released = 0, dropped = 0, full = 0, mflag_refused = 0, violations = 0, err = 0,
             mref[WST_MR_N] = {};
};

struct CInst {
    wst_cfg cfg;
    wst_regs q, d;
    wst_out out;                   /* the last cycle's outputs */
    wst_in in;                     /* this cycle's inputs */
    Traffic t;
    bool violated = false;         /* a contract violation in this cycle's inputs */
    std::string label;
};

class WstHarness {
public:
    using In = wst_in;
    static const char *name() { return "wst"; }

    explicit WstHarness(const cosim::Options &o) : cycles_(o.cycles)
    {
        wst_cfg conf = cosim::block_cfg<wst_cfg>(o.config, "wst");
        for (unsigned k = 0; k < kInst; k++) {
            wst_cfg c;
            wst_cfg_default(&c);
            c.nwarps = (uint8_t)kRtl[k].nwarps;
            c.nent = (uint8_t)kRtl[k].nent;
            c.variant = (uint8_t)kRtl[k].variant;
            inst_[k].cfg = c;
            inst_[k].label = "u" + std::to_string(k) + " nwarps=" + std::to_string(c.nwarps) +
                             " nent=" + std::to_string(c.nent) + " variant=" +
                             std::to_string(c.variant);
            check_cfg(c, "tb/wst_top.sv u" + std::to_string(k));
        }
        /* u0 has the configuration's sizes and AggressSplit's policy (tb/wst_top.sv; the
           recordings run dws = aggress, the configuration file has dws = off) */
        if (conf.nwarps != inst_[0].cfg.nwarps || conf.nent != inst_[0].cfg.nent)
            throw cosim::Error("the RTL (u0) was built for another wst configuration than " +
                               o.config + " gives (build with COSIM_CONFIG=<that configuration>)");
    }
    void print_bins() const
    {
        std::printf("wst: bins (u0..u3): branch splits %llu (of a split slot %llu), memory "
                    "splits %llu (of a split slot %llu), merges on pc %llu / at G %llu (a "
                    "parked-empty slot %llu, two splits %llu), releases %llu, candidates "
                    "dropped %llu, cycles full %llu, splits held by mflag %llu, injected "
                    "contract violations %llu (cycles with err %llu)\n",
                    u(b_.bsplits), u(b_.split_of_split), u(b_.msplits), u(b_.msplit_split_src),
                    u(b_.merges_pc), u(b_.merges_rpc), u(b_.merges_empty),
                    u(b_.merges_split_pair), u(b_.released), u(b_.dropped), u(b_.full),
                    u(b_.mflag_refused), u(b_.violations), u(b_.err));
        std::printf("wst: memory candidates refused (u0..u3): not own %llu, nested %llu, busy "
                    "%llu, policy %llu, branch split %llu, full %llu\n",
                    u(b_.mref[WST_MR_OTHER]), u(b_.mref[WST_MR_NESTED]), u(b_.mref[WST_MR_BUSY]),
                    u(b_.mref[WST_MR_POLICY]), u(b_.mref[WST_MR_BRANCH]), u(b_.mref[WST_MR_FULL]));
    }
    cosim::Dut<Vdut> &dut() { return dut_; }

    /* A recording's cfg (SM 0's table) must be the one u0 was built for. */
    void configure(const void *cfg, uint32_t size)
    {
        wst_cfg c;
        replay_ = cfg != nullptr;
        if (!cfg)
            return;
        if (size != sizeof c)
            throw cosim::Error("recorded wst cfg is " + std::to_string(size) +
                               " bytes, sizeof(struct wst_cfg) is " + std::to_string(sizeof c));
        std::memcpy(&c, cfg, sizeof c);
        check_cfg(c, "the recording's cfg");
        if (c.nwarps != inst_[0].cfg.nwarps || c.nent != inst_[0].cfg.nent ||
            c.variant != inst_[0].cfg.variant)
            throw cosim::Error("the recording's wst cfg differs from the one u0 was built for");
    }

    void reset()
    {
        for (CInst &i : inst_) {
            wst_reset(&i.cfg, &i.q);
            i.d = i.q;
            std::memset(&i.out, 0, sizeof i.out);
            std::memset(&i.in, 0, sizeof i.in);
            i.t = Traffic();
            i.violated = false;
            drive(i.in, (unsigned)(&i - inst_));
        }
        dut_.reset();
    }

    void random(cosim::Rng &r, wst_in &in)
    {
        for (unsigned k = 0; k < kInst; k++) {
            wst_in &x = inst_[k].in;
            std::memset(&x, 0, sizeof x);
            gen(inst_[k], r, x);
        }
        in = inst_[0].in;
    }

    void step(const wst_in &in, cosim::Checker &chk)
    {
        if (replay_)
            for (unsigned k = 1; k < kInst; k++)
                std::memset(&inst_[k].in, 0, sizeof inst_[k].in);
        inst_[0].in = in;
        for (unsigned k = 0; k < kInst; k++)
            drive(inst_[k].in, k);
        dut_.settle();
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            i.d = i.q;
            wst_eval(&i.cfg, &i.q, &i.in, &i.out, &i.d);
            bins(i);
            chk.scope(i.label);
            compare_out(i.out, k, chk);
            if (!replay_ && !i.violated)        /* the stimulus keeps the contract */
                chk.eq("out.err on legal stimulus (RTL column: expected)", i.out.err, 0);
        }
        dut_.edge();
        const Vdut___024root *root = dut_->rootp;
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            wst_commit(&i.cfg, &i.q, &i.d);
            chk.scope(i.label);
            compare_regs(i, kRtl[k], root, chk);
        }
        if (!replay_ && ++done_ == cycles_)
            print_bins();
    }

private:
    static unsigned long long u(uint64_t x) { return (unsigned long long)x; }

    static void check_cfg(const wst_cfg &c, const std::string &what)
    {
        char err[256];
        if (wst_cfg_check(&c, err, sizeof err))
            throw cosim::Error(what + ": " + err);
        if (c.nwarps < 2 || c.nent < 2)
            throw cosim::Error(what + ": rtl/wst.sv needs nwarps >= 2 and nent >= 2");
    }

    /* Every input port of instance k (its field at [k*W +: W] of the top's ports). */
    void drive(const wst_in &in, unsigned k)
    {
        Vdut &d = dut_.top();
        set_bits(d.launch, 64 * k, 64, in.launch);
        for (unsigned h = 0; h < WST_MAX_WARPS; h++)
            set_bits(d.launch_lanes, 2048 * k + 32 * h, 32, in.launch_lanes[h]);
        for (unsigned s = 0; s < SM_MAX_SLOTS; s++)
            set_bits(d.pc, 4096 * k + 32 * s, 32, in.pc[s]);
        set_slots(d.lvl, k, in.lvl);
        set_slots(d.arr, k, in.arr);
        set_slots(d.empty, k, in.empty);
        set_slots(d.busy, k, in.busy);
        set_slots(d.live, k, in.live);
        set_slots(d.susp, k, in.susp);
        set_slots(d.issued, k, in.issued);
        set_slots(d.sb_any, k, in.sb_any);
        set_bits(d.mok, k, 1, in.mok);
        set_bits(d.bsplit_v, k, 1, in.bsplit.v);
        set_bits(d.bsplit_src, 7 * k, 7, in.bsplit.src);
        set_bits(d.bsplit_lanes, 32 * k, 32, in.bsplit.lanes);
        set_bits(d.mcand_v, k, 1, in.mcand.v);
        set_bits(d.mcand_src, 7 * k, 7, in.mcand.src);
        set_bits(d.mcand_lanes, 32 * k, 32, in.mcand.lanes);
        set_bits(d.mcand_ld_lanes, 32 * k, 32, in.mcand.ld_lanes);
        set_bits(d.mcand_part_hit, k, 1, in.mcand.part_hit);
    }
    template <class T> static void set_slots(T &v, unsigned k, slotmask m)
    {
        set_bits(v, 128 * k, 64, (uint64_t)m);
        set_bits(v, 128 * k + 64, 64, (uint64_t)(m >> 64));
    }
    template <class T> static slotmask get_slots(const T &v, unsigned k)
    {
        uint64_t lo = get_bits(v, 128 * k, 64);
        return (slotmask)get_bits(v, 128 * k + 64, 64) << 64 | lo;
    }

    void compare_out(const wst_out &o, unsigned k, cosim::Checker &chk)
    {
        Vdut &d = dut_.top();
        chk.eq("out.free_v", o.free_v, get_bits(d.free_v, k, 1));
        chk.eq("out.free", o.free, get_bits(d.free, 7 * k, 7));
        chk.eq("out.full", o.full, get_bits(d.full, k, 1));
        chk.eq("out.nvalid", o.nvalid, get_bits(d.nvalid, 7 * k, 7));
        chk.eq("out.cand.v", o.cand.v, get_bits(d.cand_v, k, 1));
        chk.eq("out.cand.dst", o.cand.dst, get_bits(d.cand_dst, 7 * k, 7));
        chk.eq("out.cand.src", o.cand.src, get_bits(d.cand_src, 7 * k, 7));
        chk.eq_mask("out.nosplit", -1, o.nosplit, get_slots(d.nosplit, k));
        chk.eq("out.msplit.v", o.msplit.v, get_bits(d.msplit_v, k, 1));
        chk.eq("out.msplit.src", o.msplit.src, get_bits(d.msplit_src, 7 * k, 7));
        chk.eq("out.msplit.dst", o.msplit.dst, get_bits(d.msplit_dst, 7 * k, 7));
        chk.eq("out.msplit.lanes", o.msplit.lanes, get_bits(d.msplit_lanes, 32 * k, 32));
        chk.eq("out.merge.v", o.merge.v, get_bits(d.merge_v, k, 1));
        chk.eq("out.merge.dst", o.merge.dst, get_bits(d.merge_dst, 7 * k, 7));
        chk.eq("out.merge.src", o.merge.src, get_bits(d.merge_src, 7 * k, 7));
        chk.eq("out.rel.v", o.rel.v, get_bits(d.rel_v, k, 1));
        chk.eq("out.rel.slot", o.rel.slot, get_bits(d.rel_slot, 7 * k, 7));
        chk.eq_mask("out.free_mask", -1, o.free_mask, get_slots(d.free_mask, k));
        for (unsigned s = 0; s < SM_MAX_SLOTS; s++)
            chk.eq("out.prio_key", (int)s, o.prio_key[s], get_bits(d.prio_key, 768 * k + 6 * s, 6));
        chk.eq("out.nsusp", o.nsusp, get_bits(d.nsusp, 7 * k, 7));
        chk.eq("out.narr", o.narr, get_bits(d.narr, 7 * k, 7));
        chk.eq("out.ev_bsplit", o.ev_bsplit, get_bits(d.ev_bsplit, k, 1));
        chk.eq("out.ev_msplit", o.ev_msplit, get_bits(d.ev_msplit, k, 1));
        chk.eq("out.ev_merge_pc", o.ev_merge_pc, get_bits(d.ev_merge_pc, k, 1));
        chk.eq("out.ev_merge_rpc", o.ev_merge_rpc, get_bits(d.ev_merge_rpc, k, 1));
        chk.eq("out.ev_runahead_lanes", o.ev_runahead_lanes,
               get_bits(d.ev_runahead_lanes, 6 * k, 6));
        chk.eq("out.ev_mref", o.ev_mref, get_bits(d.ev_mref, 3 * k, 3));
        chk.eq("out.err", o.err, get_bits(d.err, 3 * k, 3));
    }

    static void compare_regs(const CInst &i, const RtlInst &r, const Vdut___024root *root,
                             cosim::Checker &chk)
    {
        const wst_regs &q = i.q;
        unsigned nw = i.cfg.nwarps, ne = i.cfg.nent, ns = nw + ne;
        unsigned hb = clog2(nw), eb = clog2(ne), sb = clog2(ns);
        for (unsigned e = 0; e < ne; e++) {
            chk.eq("regs.valid", (int)e, slot_has(q.valid, e), r.reg(root, R_VALID, e, 1));
            chk.eq("regs.home", (int)e, q.home[e], r.reg(root, R_HOME, hb * e, hb));
            chk.eq("regs.status", (int)e, q.status[e], r.reg(root, R_STATUS, 2 * e, 2));
            chk.eq("regs.prio", (int)e, q.prio[e], r.reg(root, R_PRIO, 6 * e, 6));
        }
        for (unsigned s = 0; s < ns; s++) {
            chk.eq("regs.own", (int)s, q.own[s], r.reg(root, R_OWN, 32 * s, 32));
            chk.eq("regs.mflag", (int)s, slot_has(q.mflag, s), r.reg(root, R_MFLAG, s, 1));
        }
        for (unsigned h = 0; h < nw; h++)
            chk.eq("regs.reg_on", (int)h, (q.reg_on >> h) & 1, r.reg(root, R_REGON, h, 1));
        chk.eq("regs.rr", q.rr, r.reg(root, R_RR, 0, eb));
        chk.eq("regs.cand.v", q.cand.v, r.reg(root, R_CV, 0, 1));
        chk.eq("regs.cand.dst", q.cand.dst, r.reg(root, R_CD, 0, sb));
        chk.eq("regs.cand.src", q.cand.src, r.reg(root, R_CS, 0, sb));
    }

    /* Bins of this cycle: the state before it (q), its inputs and outputs. */
    void bins(const CInst &i)
    {
        const wst_out &o = i.out;
        const wst_in &in = i.in;
        unsigned nw = i.cfg.nwarps;
        b_.bsplits += o.ev_bsplit;
        b_.split_of_split += o.ev_bsplit && in.bsplit.src >= nw;
        b_.msplits += o.ev_msplit;
        b_.msplit_split_src += o.ev_msplit && o.msplit.src >= nw;
        b_.merges_pc += o.ev_merge_pc;
        b_.merges_rpc += o.ev_merge_rpc;
        if (o.merge.v) {
            b_.merges_empty += slot_has(in.empty, o.merge.src) || slot_has(in.empty, o.merge.dst);
            b_.merges_split_pair += o.merge.dst >= nw;
        }
        b_.released += o.rel.v;
        b_.dropped += i.q.cand.v && !o.merge.v;
        b_.full += o.full;
        b_.err += o.err != 0;
        b_.mref[o.ev_mref < WST_MR_N ? o.ev_mref : 0] += o.ev_mref != 0;
    }

    /* ---------------------------------------------------------------- stimulus */

    static void new_pattern(Traffic &t, cosim::Rng &r)
    {
        static const unsigned pcs[] = {1, 2, 3, 4, 8, 64};
        t.left = 1 + r.below(400);
        t.pcs = pcs[r.below(6)];
        t.launch_pct = r.chance(30) ? 100 : 1 + r.below(30);
        t.finish_pct = r.chance(50) ? 0 : 1 + r.below(3);
        t.change_pct = 1 + r.below(30);
        t.lvl_pct = 50 + r.below(51);
        t.arr_pct = r.below(30);
        t.empty_pct = r.chance(50) ? 0 : r.below(25);
        t.susp_pct = r.chance(30) ? 90 + r.below(11) : r.below(101);
        t.any_pct = r.below(101);
        t.busy_pct = r.below(40);
        t.issued_pct = r.below(30);
        t.mok_pct = r.chance(20) ? 100 : 50 + r.below(51);
        t.bsplit_pct = r.below(50);
        t.mcand_pct = r.below(60);
        t.violate = r.chance(5);
    }

    static unsigned pick(cosim::Rng &r, slotmask m)
    {
        unsigned n = slot_count(m), k = r.below(n);
        slotmask tmp;
        unsigned s = 0;
        for (SLOT_EACH(s, m, tmp))
            if (k-- == 0)
                return s;
        return s;
    }

    /* A non-empty proper subset of own (own has >= 2 lanes). */
    static uint32_t subset(cosim::Rng &r, uint32_t own)
    {
        uint32_t x = own & (uint32_t)r.next();
        if (x == 0 || x == own)
            x = own & (own - 1);            /* all but the lowest lane */
        if (r.chance(20))
            x = own & ~(own - 1);           /* the lowest lane alone */
        return x;
    }

    /* Each live slot's simt state: held for a while, changed at the pattern's rate. */
    void gen_slots(CInst &i, cosim::Rng &r, wst_in &in, slotmask live)
    {
        Traffic &t = i.t;
        slotmask tmp;
        unsigned s;
        for (SLOT_EACH(s, live, tmp)) {
            bool split = s >= i.cfg.nwarps;
            unsigned h = split ? i.q.home[s - i.cfg.nwarps] : s;
            bool reg = (i.q.reg_on >> h) & 1;
            if (r.chance(t.change_pct)) {
                t.pc[s] = r.below(t.pcs);
                t.lvl[s] = reg ? r.chance(t.lvl_pct) : r.chance(50);
                t.arr[s] = t.lvl[s] && r.chance(t.arr_pct);
                t.empty[s] = t.lvl[s] && r.chance(t.empty_pct);
                t.susp[s] = r.chance(t.susp_pct);
                t.any[s] = r.chance(t.any_pct);
            }
            in.pc[s] = t.pc[s];
            if (t.lvl[s]) in.lvl |= slot_bit(s);
            if (t.arr[s]) in.arr |= slot_bit(s);
            if (t.empty[s]) in.empty |= slot_bit(s);
            if (t.susp[s]) in.susp |= slot_bit(s);
            if (t.any[s]) in.sb_any |= slot_bit(s);
            if (r.chance(t.busy_pct)) in.busy |= slot_bit(s);
            if (r.chance(t.issued_pct)) in.issued |= slot_bit(s);
        }
    }

    /* Slots that may split now: live, several lanes, not held by mflag, at regime level if
       their warp is in the regime. */
    slotmask splittable(const CInst &i, const wst_in &in) const
    {
        slotmask m = 0, tmp;
        unsigned s;
        for (SLOT_EACH(s, in.live, tmp)) {
            unsigned h = s >= i.cfg.nwarps ? i.q.home[s - i.cfg.nwarps] : s;
            bool reg = (i.q.reg_on >> h) & 1;
            if (__builtin_popcount(i.q.own[s]) >= 2 && (!reg || slot_has(in.lvl, s)))
                m |= slot_bit(s);
        }
        return m;
    }

    void gen(CInst &i, cosim::Rng &r, wst_in &in)
    {
        Traffic &t = i.t;
        const wst_regs &q = i.q;
        unsigned nw = i.cfg.nwarps;
        slotmask live = 0, can;
        if (t.left == 0)
            new_pattern(t, r);
        t.left--;
        i.violated = false;
        for (unsigned h = 0; h < nw; h++) {
            bool reg = (q.reg_on >> h) & 1;
            if (!t.hlive[h] && r.chance(t.launch_pct)) {
                in.launch |= 1ull << h;
                in.launch_lanes[h] = r.chance(60) ? ~0u : (uint32_t)r.next() | 1u;
                t.hlive[h] = true;
                continue;                    /* live from the next cycle */
            }
            if (t.hlive[h] && !reg && r.chance(t.finish_pct))
                t.hlive[h] = false;
            if (t.hlive[h])
                live |= slot_bit(h);
        }
        live |= (q.valid & slot_first(i.cfg.nent)) << nw;
        in.live = live;
        gen_slots(i, r, in, live);
        in.mok = r.chance(t.mok_pct);
        can = splittable(i, in);
        if (can & q.mflag)
            b_.mflag_refused++;
        can &= ~q.mflag;
        if (i.out.free_v && can && r.chance(t.bsplit_pct)) {
            unsigned s = pick(r, can);
            in.bsplit = wst_split{1, (uint8_t)s, subset(r, q.own[s])};
            in.issued |= slot_bit(s);
        }
        if (live && r.chance(t.mcand_pct)) {
            unsigned s = pick(r, live);
            uint32_t own = q.own[s];
            in.mcand.v = 1;
            in.mcand.src = (uint8_t)s;
            in.mcand.ld_lanes = r.chance(85) ? own : own ^ (1u << r.below(32));
            in.mcand.lanes = in.mcand.ld_lanes & (uint32_t)(r.chance(70) ? r.next() :
                                                            r.chance(50) ? 0 : ~0ull);
            in.mcand.part_hit = r.chance(70);
        }
        if (t.violate && r.chance(10))
            violate(i, r, in);
    }

    /* One contract violation (the block must raise err and ignore it, alike in C and RTL). */
    void violate(CInst &i, cosim::Rng &r, wst_in &in)
    {
        i.violated = true;
        b_.violations++;
        switch (r.below(3)) {
        case 0:
            in.bsplit = wst_split{1, (uint8_t)r.below(128), (uint32_t)r.next()};
            break;
        case 1:
            in.mcand = wst_mcand{1, (uint8_t)r.below(128), (uint32_t)r.next(),
                                 (uint32_t)r.next(), (uint8_t)r.below(2)};
            break;
        default: {
            unsigned h = r.below(64);
            in.launch |= 1ull << h;
            in.launch_lanes[h] = (uint32_t)r.next();
            if (h < i.cfg.nwarps)
                i.t.hlive[h] = true;
            break;
        }
        }
    }

    cosim::Dut<Vdut> dut_;
    CInst inst_[kInst];
    Bins b_;
    bool replay_ = false;
    uint64_t cycles_, done_ = 0;       /* random cycles asked for, run */
};

} /* namespace */

int main(int argc, char **argv)
{
    return cosim::run<WstHarness>(argc, argv);
}
