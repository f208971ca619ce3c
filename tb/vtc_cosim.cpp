/*
 * vtc_cosim.cpp -- lockstep co-simulation of VT's Virtual Thread Controller: model/sm/vtc.c
 * (from libgpusim.a, the code the GPU model runs) against rtl/vtc.sv, Verilated through
 * tb/vtc_top.sv.
 *
 * The top holds three controllers, each with its own inputs: u0 is the configuration's (64
 * CTA slots on gtx480), u1 has 8 entries, u2 5 (the FIFO wraps at a non-power of two).  Every
 * cycle, for every instance: every output after the combinational settle, then after the
 * clock edge every register of struct vtc_regs -- res, act, saved, inq, cnt and rdq of each
 * entry < nctas, rd_head, rd_n, ph, out_cta, in_cta, sv_i, rs_i, rd_left, wr_left.
 *
 * Random stimulus follows the block's contract (vtc.h), one SM-like model per instance built
 * on the C block's registered state: an epoch holds a kernel shape (nw in 1..32; beats in
 * {0, 1, 2, 11, 41}, any up to 60 or, rarely, up to 4 095; an active and a resident limit)
 * until every CTA has completed; at most one launch a cycle into a free slot, active only below
 * the active limit and while the ready FIFO is empty (the SM's launch rule); nstall <= nlive
 * <= nw for active CTAs (a CTA's stall level holds for a while, often every live warp), 0 for
 * inactive ones; warps finish at random, and a CTA with no live warp completes when it is
 * active and not the CTA being restored; pend exactly the cycle after a save (0, a few, or up
 * to 256 pending writes); stale writebacks only for inactive CTAs and never beyond their
 * counter; a grant only after ctx_req, at random (demand on the port); room only below the
 * active limit.  Draining patterns stop launching and finish the kernel, so that fills and new
 * shapes happen.  On this stimulus the C block must not raise err (checked).  5 % of the
 * patterns inject contract violations (a wrong CTA, a grant without request, a bad nw ...):
 * C and RTL must raise the same err and ignore the same port; the err check is off for an
 * instance from its first violation until its table is empty again.
 * Recordings (none yet: the registry's record flag is 0 until the SM drives the block) would
 * drive u0; u1 and u2 then get idle inputs.
 * After the random cycles the harness prints its coverage bins (events of u0..u2 together).
 * Usage: see cosim.h (--help).
 */
#include <algorithm>
#include <cstdio>
#include <string>

#include "Vdut.h"
#include "Vdut___024root.h"
#include "cosim.h"

extern "C" {
#include "sm/vtc.h"
}

namespace {

using cosim::get_bits;
using cosim::set_bits;

/* The RTL side of one instance uK of tb/vtc_top.sv: its table size and register accessors. */
struct RtlInst {
    uint32_t nctas;
    uint64_t (*reg)(const Vdut___024root *, unsigned which, unsigned lsb, unsigned w);
};

enum { R_RES, R_ACT, R_SAVED, R_INQ, R_CNT, R_RDQ, R_HEAD, R_N, R_PH, R_OUT, R_IN, R_SV, R_RS,
       R_RDL, R_WRL };

#define VTC_U(k, sig) vtc_top__DOT__u##k##__DOT__##sig
#define VTC_INST(k)                                                                         \
    RtlInst{Vdut___024root::VTC_U(k, NCTAS),                                               \
            [](const Vdut___024root *r, unsigned which, unsigned l, unsigned w) -> uint64_t { \
                switch (which) {                                                            \
                case R_RES: return get_bits(r->VTC_U(k, res), l, w);                        \
                case R_ACT: return get_bits(r->VTC_U(k, act), l, w);                        \
                case R_SAVED: return get_bits(r->VTC_U(k, saved), l, w);                    \
                case R_INQ: return get_bits(r->VTC_U(k, inq), l, w);                        \
                case R_CNT: return get_bits(r->VTC_U(k, cnt), l, w);                        \
                case R_RDQ: return get_bits(r->VTC_U(k, rdq), l, w);                        \
                case R_HEAD: return get_bits(r->VTC_U(k, rd_head), l, w);                   \
                case R_N: return get_bits(r->VTC_U(k, rd_n), l, w);                         \
                case R_PH: return get_bits(r->VTC_U(k, ph), l, w);                          \
                case R_OUT: return get_bits(r->VTC_U(k, out_cta), l, w);                    \
                case R_IN: return get_bits(r->VTC_U(k, in_cta), l, w);                      \
                case R_SV: return get_bits(r->VTC_U(k, sv_i), l, w);                        \
                case R_RS: return get_bits(r->VTC_U(k, rs_i), l, w);                        \
                case R_RDL: return get_bits(r->VTC_U(k, rd_left), l, w);                    \
                default: return get_bits(r->VTC_U(k, wr_left), l, w);                       \
                } }}

const RtlInst kRtl[] = {VTC_INST(0), VTC_INST(1), VTC_INST(2)};
constexpr unsigned kInst = sizeof kRtl / sizeof kRtl[0];

unsigned clog2(unsigned n)
{
    unsigned b = 0;
    while ((1u << b) < n)
        b++;
    return b;
}

/* The SM-like side of one instance: the kernel shape, each CTA's warps, the pattern. */
struct Traffic {
    unsigned nw = 4, beats = 0, nactmax = 2, resmax = 4;
    uint8_t live[SM_MAX_CTAS] = {}, stall[SM_MAX_CTAS] = {};
    unsigned left = 0, launch_pct = 30, act_pct = 50, grant_pct = 100, stall_pct = 50,
             change_pct = 10, finish_pct = 2, done_pct = 50, room_pct = 30, rel_pct = 30,
             pend_mode = 0;
    bool draining = false, violate = false;
};

/* Coverage bins the stimulus should reach (summed over the instances). */
struct Bins {
    uint64_t swaps = 0, fills = 0, fresh = 0, withheld = 0, fifo2 = 0, zero_in_save = 0,
             zero_after = 0, beats0 = 0, beats1 = 0, beats_many = 0, nw1 = 0, nw32 = 0, done = 0,
             violations = 0, err = 0;
};

struct CInst {
    vtc_cfg cfg;
    vtc_regs q, d;
    vtc_out out;                   /* the last cycle's outputs */
    vtc_in in;                     /* this cycle's inputs */
    Traffic t;
    bool tainted = false;          /* a contract violation since the table was last empty */
    std::string label;
};

class VtcHarness {
public:
    using In = vtc_in;
    static const char *name() { return "vtc"; }

    explicit VtcHarness(const cosim::Options &o) : cycles_(o.cycles)
    {
        vtc_cfg conf = cosim::block_cfg<vtc_cfg>(o.config, "vtc");
        for (unsigned k = 0; k < kInst; k++) {
            vtc_cfg c;
            vtc_cfg_default(&c);
            c.nctas = (uint8_t)kRtl[k].nctas;
            inst_[k].cfg = c;
            inst_[k].label = "u" + std::to_string(k) + " nctas=" + std::to_string(c.nctas);
            check_cfg(c, "tb/vtc_top.sv u" + std::to_string(k));
        }
        if (conf.nctas != inst_[0].cfg.nctas)
            throw cosim::Error("the RTL was built for vtc nctas=" +
                               std::to_string(inst_[0].cfg.nctas) + " but " + o.config +
                               " gives nctas=" + std::to_string(conf.nctas) +
                               " (build with COSIM_CONFIG=<that configuration>)");
    }
    /* The bins, printed when the random cycles are done (before the summary lines). */
    void print_bins() const
    {
        std::printf("vtc: bins (u0..u2): swaps %llu, fills %llu, first runs %llu, withheld "
                    "grants %llu, pops from a FIFO of >= 2 %llu, counter 0 during the saves "
                    "%llu / after %llu, swaps with beats 0 %llu / 1 %llu / > 1 %llu, swaps "
                    "with nw 1 %llu / 32 %llu, completions %llu, injected contract "
                    "violations %llu (cycles with err %llu)\n",
                    u(b_.swaps), u(b_.fills), u(b_.fresh), u(b_.withheld), u(b_.fifo2),
                    u(b_.zero_in_save), u(b_.zero_after), u(b_.beats0), u(b_.beats1),
                    u(b_.beats_many), u(b_.nw1), u(b_.nw32), u(b_.done), u(b_.violations),
                    u(b_.err));
    }
    cosim::Dut<Vdut> &dut() { return dut_; }

    /* A recording's cfg (SM 0's controller) must be the one u0 was built for. */
    void configure(const void *cfg, uint32_t size)
    {
        vtc_cfg c;
        replay_ = cfg != nullptr;
        if (!cfg)
            return;
        if (size != sizeof c)
            throw cosim::Error("recorded vtc cfg is " + std::to_string(size) +
                               " bytes, sizeof(struct vtc_cfg) is " + std::to_string(sizeof c));
        std::memcpy(&c, cfg, sizeof c);
        check_cfg(c, "the recording's cfg");
        if (c.nctas != inst_[0].cfg.nctas)
            throw cosim::Error("the recording's vtc cfg has nctas=" + std::to_string(c.nctas) +
                               ", the RTL (u0) was built for " +
                               std::to_string(inst_[0].cfg.nctas));
    }

    void reset()
    {
        for (CInst &i : inst_) {
            vtc_reset(&i.cfg, &i.q);
            i.d = i.q;
            std::memset(&i.out, 0, sizeof i.out);
            std::memset(&i.in, 0, sizeof i.in);
            i.t = Traffic();
            i.tainted = false;
            i.in.nw = (uint8_t)i.t.nw;
            drive(i.in, (unsigned)(&i - inst_));
        }
        dut_.reset();
    }

    void random(cosim::Rng &r, vtc_in &in)
    {
        for (unsigned k = 0; k < kInst; k++) {
            vtc_in &x = inst_[k].in;
            std::memset(&x, 0, sizeof x);
            gen(inst_[k], r, x);
        }
        in = inst_[0].in;
    }

    void step(const vtc_in &in, cosim::Checker &chk)
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
            vtc_eval(&i.cfg, &i.q, &i.in, &i.out, &i.d);
            bins(i);
            chk.scope(i.label);
            compare_out(i.out, k, chk);
            if (!replay_ && !i.tainted)        /* the stimulus keeps the contract */
                chk.eq("out.err on legal stimulus (RTL column: expected)", i.out.err, 0);
        }
        dut_.edge();
        const Vdut___024root *root = dut_->rootp;
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            vtc_commit(&i.cfg, &i.q, &i.d);
            chk.scope(i.label);
            compare_regs(i, kRtl[k], root, chk);
        }
        if (!replay_ && ++done_ == cycles_)
            print_bins();
    }

private:
    static unsigned long long u(uint64_t x) { return (unsigned long long)x; }

    static void check_cfg(const vtc_cfg &c, const std::string &what)
    {
        char err[256];
        if (vtc_cfg_check(&c, err, sizeof err))
            throw cosim::Error(what + ": " + err);
        if (c.nctas < 2)
            throw cosim::Error(what + ": rtl/vtc.sv needs nctas >= 2");
    }

    /* Every input port of instance k (its field at [k*W +: W] of the top's ports). */
    void drive(const vtc_in &in, unsigned k)
    {
        Vdut &d = dut_.top();
        set_bits(d.launch, 64 * k, 64, in.launch);
        set_bits(d.launch_act, 64 * k, 64, in.launch_act);
        set_bits(d.done, 64 * k, 64, in.done);
        set_bits(d.nw, 6 * k, 6, in.nw);
        set_bits(d.beats, 12 * k, 12, in.beats);
        set_bits(d.room, k, 1, in.room);
        for (unsigned c = 0; c < SM_MAX_CTAS; c++) {
            set_bits(d.nstall, 384 * k + 6 * c, 6, in.nstall[c]);
            set_bits(d.nlive, 384 * k + 6 * c, 6, in.nlive[c]);
        }
        set_bits(d.pend_v, k, 1, in.pend_v);
        set_bits(d.pend_n, 9 * k, 9, in.pend_n);
        for (unsigned p = 0; p < SB_MAX_REL; p++) {
            set_bits(d.rel_v, 8 * k + p, 1, in.rel[p].v);
            set_bits(d.rel_cta, 48 * k + 6 * p, 6, in.rel[p].cta);
        }
        set_bits(d.grant, k, 1, in.grant);
    }

    void compare_out(const vtc_out &o, unsigned k, cosim::Checker &chk)
    {
        Vdut &d = dut_.top();
        chk.eq("out.fence_v", o.fence_v, get_bits(d.fence_v, k, 1));
        chk.eq("out.fence_cta", o.fence_cta, get_bits(d.fence_cta, 6 * k, 6));
        chk.eq("out.save_v", o.save_v, get_bits(d.save_v, k, 1));
        chk.eq("out.save_w", o.save_w, get_bits(d.save_w, 5 * k, 5));
        chk.eq("out.rest_v", o.rest_v, get_bits(d.rest_v, k, 1));
        chk.eq("out.rest_w", o.rest_w, get_bits(d.rest_w, 5 * k, 5));
        chk.eq("out.rest_fresh", o.rest_fresh, get_bits(d.rest_fresh, k, 1));
        chk.eq("out.rest_cta", o.rest_cta, get_bits(d.rest_cta, 6 * k, 6));
        chk.eq("out.ldq_v", o.ldq_v, get_bits(d.ldq_v, k, 1));
        chk.eq("out.ldq_cta", o.ldq_cta, get_bits(d.ldq_cta, 6 * k, 6));
        chk.eq("out.ctx_req", o.ctx_req, get_bits(d.ctx_req, k, 1));
        chk.eq("out.rdy_n", o.rdy_n, get_bits(d.rdy_n, 7 * k, 7));
        chk.eq("out.nact", o.nact, get_bits(d.nact, 7 * k, 7));
        chk.eq("out.ninact", o.ninact, get_bits(d.ninact, 7 * k, 7));
        chk.eq("out.ev_out", o.ev_out, get_bits(d.ev_out, k, 1));
        chk.eq("out.ev_in", o.ev_in, get_bits(d.ev_in, k, 1));
        chk.eq("out.ev_fill", o.ev_fill, get_bits(d.ev_fill, k, 1));
        chk.eq("out.ev_busy", o.ev_busy, get_bits(d.ev_busy, k, 1));
        chk.eq("out.ev_wait", o.ev_wait, get_bits(d.ev_wait, k, 1));
        chk.eq("out.err", o.err, get_bits(d.err, 6 * k, 6));
    }

    static void compare_regs(const CInst &i, const RtlInst &r, const Vdut___024root *root,
                             cosim::Checker &chk)
    {
        const vtc_regs &q = i.q;
        unsigned n = i.cfg.nctas, cb = clog2(n), nb = clog2(n + 1);
        for (unsigned s = 0; s < n; s++) {
            chk.eq("regs.res", (int)s, (q.res >> s) & 1, r.reg(root, R_RES, s, 1));
            chk.eq("regs.act", (int)s, (q.act >> s) & 1, r.reg(root, R_ACT, s, 1));
            chk.eq("regs.saved", (int)s, (q.saved >> s) & 1, r.reg(root, R_SAVED, s, 1));
            chk.eq("regs.inq", (int)s, (q.inq >> s) & 1, r.reg(root, R_INQ, s, 1));
            chk.eq("regs.cnt", (int)s, q.cnt[s], r.reg(root, R_CNT, 14 * s, 14));
            chk.eq("regs.rdq", (int)s, q.rdq[s], r.reg(root, R_RDQ, cb * s, cb));
        }
        chk.eq("regs.rd_head", q.rd_head, r.reg(root, R_HEAD, 0, cb));
        chk.eq("regs.rd_n", q.rd_n, r.reg(root, R_N, 0, nb));
        chk.eq("regs.ph", q.ph, r.reg(root, R_PH, 0, 2));
        chk.eq("regs.out_cta", q.out_cta, r.reg(root, R_OUT, 0, cb));
        chk.eq("regs.in_cta", q.in_cta, r.reg(root, R_IN, 0, cb));
        chk.eq("regs.sv_i", q.sv_i, r.reg(root, R_SV, 0, 6));
        chk.eq("regs.rs_i", q.rs_i, r.reg(root, R_RS, 0, 6));
        chk.eq("regs.rd_left", q.rd_left, r.reg(root, R_RDL, 0, 12));
        chk.eq("regs.wr_left", q.wr_left, r.reg(root, R_WRL, 0, 12));
    }

    /* Bins of this cycle: the state before it (q), its inputs and outputs. */
    void bins(const CInst &i)
    {
        const vtc_regs &q = i.q;
        const vtc_in &in = i.in;
        unsigned nw = in.nw;
        b_.withheld += i.out.ev_wait;
        b_.fifo2 += i.out.ev_in && q.rd_n >= 2;
        b_.done += __builtin_popcountll(in.done & q.res & q.act);
        for (unsigned p = 0; p < SB_MAX_REL; p++) {
            unsigned k = in.rel[p].cta;
            if (!in.rel[p].v || q.cnt[k] != 1)
                continue;
            bool saving = q.ph == VTC_SWAP && q.out_cta == k && q.sv_i < nw;
            (saving ? b_.zero_in_save : b_.zero_after)++;
        }
        if (i.out.ev_out) {
            b_.swaps++;
            (in.beats == 0 ? b_.beats0 : in.beats == 1 ? b_.beats1 : b_.beats_many)++;
            b_.nw1 += nw == 1;
            b_.nw32 += nw == 32;
        }
        b_.fills += i.out.ev_fill;
        b_.err += i.out.err != 0;
        b_.fresh += i.out.rest_v && i.out.rest_fresh && i.out.rest_w == 0;
    }

    /* ---------------------------------------------------------------- stimulus */

    static void new_pattern(Traffic &t, cosim::Rng &r)
    {
        static const unsigned grants[] = {100, 100, 70, 30, 5};
        t.left = 1 + r.below(500);
        t.launch_pct = r.chance(30) ? 100 : 1 + r.below(40);
        t.act_pct = r.below(101);
        t.grant_pct = grants[r.below(5)];
        t.stall_pct = r.below(101);
        t.change_pct = 1 + r.below(30);
        t.finish_pct = r.chance(30) ? 0 : 1 + r.below(5);
        t.done_pct = 10 + r.below(91);
        t.room_pct = r.below(101);
        t.rel_pct = r.chance(20) ? 0 : 5 + r.below(96);
        t.pend_mode = r.below(3);
        t.draining = r.chance(40);
        t.violate = r.chance(5);
    }

    /* A new kernel shape (no CTA is resident). */
    static void new_shape(const vtc_cfg &c, Traffic &t, cosim::Rng &r)
    {
        static const unsigned nws[] = {1, 2, 3, 4, 5, 8, 16, 31, 32};
        static const unsigned bs[] = {0, 1, 2, 11, 41};
        t.nw = nws[r.below(9)];
        t.beats = r.chance(80) ? bs[r.below(5)] : r.chance(90) ? r.below(61) : 64 + r.below(4032);
        t.nactmax = 1 + r.below(std::min<unsigned>(c.nctas - 1, 8));
        t.resmax = t.nactmax + 1 + r.below(std::min<unsigned>(c.nctas - t.nactmax, r.chance(50) ? 8 : 64));
        t.draining = false;
    }

    static uint16_t pend_count(const Traffic &t, cosim::Rng &r)
    {
        switch (t.pend_mode) {
        case 0: return 0;
        case 1: return (uint16_t)r.below(9);
        default: return (uint16_t)(r.chance(50) ? r.below(9) : r.below(SB_MAX_REGS + 1));
        }
    }

    void gen(CInst &i, cosim::Rng &r, vtc_in &in)
    {
        Traffic &t = i.t;
        const vtc_regs &q = i.q;
        uint64_t act = q.res & q.act, launchable;
        unsigned nact = (unsigned)__builtin_popcountll(act);
        unsigned nres = (unsigned)__builtin_popcountll(q.res);
        if (t.left == 0)
            new_pattern(t, r);
        t.left--;
        if (q.res == 0 && (t.draining || r.chance(20)))
            new_shape(i.cfg, t, r);
        in.nw = (uint8_t)t.nw;
        in.beats = (uint16_t)t.beats;
        /* the SM's answers to the last outputs */
        if (i.out.save_v) {
            in.pend_v = 1;
            in.pend_n = pend_count(t, r);
        }
        in.grant = i.out.ctx_req && r.chance(t.grant_pct);
        /* completions: active CTAs outside the swap with no live warp */
        for (unsigned k = 0; k < i.cfg.nctas; k++)
            if (((act >> k) & 1) && t.live[k] == 0 && !(q.ph != VTC_IDLE && q.in_cta == k) &&
                r.chance(t.done_pct))
                in.done |= 1ull << k;
        /* one launch a cycle into a free slot */
        launchable = ~q.res & (i.cfg.nctas >= 64 ? ~0ull : (1ull << i.cfg.nctas) - 1);
        if (!t.draining && launchable && nres < t.resmax && r.chance(t.launch_pct)) {
            unsigned k;
            do
                k = r.below(i.cfg.nctas);
            while (!((launchable >> k) & 1));
            in.launch = 1ull << k;
            if (nact < t.nactmax && q.rd_n == 0 && r.chance(t.act_pct))
                in.launch_act = in.launch;
            t.live[k] = (uint8_t)(t.nw - (t.nw > 1 && r.chance(10) ? r.below(t.nw) : 0));
            t.stall[k] = 0;
        }
        gen_warps(i, r, in);
        in.room = nact < t.nactmax && r.chance(t.draining ? 90 : t.room_pct);
        gen_stale(i, r, in);
        if (q.res == 0 && q.ph == VTC_IDLE)
            i.tainted = false;
        if (t.violate && r.chance(10))
            violate(i, r, in);
    }

    /* One contract violation (the block must raise err and ignore it, alike in C and RTL). */
    void violate(CInst &i, cosim::Rng &r, vtc_in &in)
    {
        unsigned k = r.below(SM_MAX_CTAS), p = r.below(SB_MAX_REL);
        i.tainted = true;
        b_.violations++;
        switch (r.below(7)) {
        case 0: in.rel[p].v = 1; in.rel[p].cta = (uint8_t)k; break;
        case 1:
            in.launch |= 1ull << k;
            if (r.chance(50))
                in.launch_act |= 1ull << k;
            break;
        case 2: in.done |= 1ull << k; break;
        case 3: in.pend_v ^= 1; in.pend_n = (uint16_t)r.below(512); break;
        case 4: in.grant = 1; break;
        case 5: in.nw = (uint8_t)r.below(64); break;
        default: in.launch_act |= 1ull << k; break;
        }
    }

    /* Live and stalled warps of the active CTAs (and of one launched active now). */
    void gen_warps(CInst &i, cosim::Rng &r, vtc_in &in)
    {
        Traffic &t = i.t;
        uint64_t act = (i.q.res & i.q.act) | in.launch_act;
        for (uint64_t m = act; m; m &= m - 1) {
            unsigned k = (unsigned)__builtin_ctzll(m);
            if (t.live[k] && r.chance(t.draining ? 30 : t.finish_pct))
                t.live[k] = (uint8_t)(t.live[k] - std::min<unsigned>(t.live[k], 1 + r.below(4)));
            if (r.chance(t.change_pct) || t.stall[k] > t.live[k])
                t.stall[k] = r.chance(t.stall_pct) ? t.live[k] : (uint8_t)r.below(t.live[k] + 1u);
            in.nlive[k] = t.live[k];
            in.nstall[k] = t.stall[k];
        }
    }

    /* Stale writebacks: inactive CTAs, never more than their counter. */
    void gen_stale(CInst &i, cosim::Rng &r, vtc_in &in)
    {
        const vtc_regs &q = i.q;
        uint16_t left[SM_MAX_CTAS];
        uint64_t cand = q.res & ~q.act;
        if (!cand || !r.chance(i.t.rel_pct))
            return;
        std::copy(q.cnt, q.cnt + SM_MAX_CTAS, left);
        for (unsigned p = 0; p < SB_MAX_REL; p++) {
            unsigned k = r.below(i.cfg.nctas);
            if (!((cand >> k) & 1) || left[k] == 0 || !r.chance(60))
                continue;
            left[k]--;
            in.rel[p].v = 1;
            in.rel[p].cta = (uint8_t)k;
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
    return cosim::run<VtcHarness>(argc, argv);
}
