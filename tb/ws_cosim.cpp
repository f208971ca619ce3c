/*
 * ws_cosim.cpp -- lockstep co-simulation of the warp scheduler: model/sm/ws.c (from libgpusim.a,
 * the code the GPU model runs) against rtl/ws.sv, Verilated through tb/ws_top.sv.
 *
 * The top holds six schedulers driven by the same inputs: u0 is the configuration's (its
 * parameters come from gpusim_params.vh, generated from --config's file; replays use it with
 * the recording's cfg), u1..u5 cover LRR, GTO and TWOLEVEL at 32, 24, 5 and 1 slots.  Every
 * cycle, for every instance: issue_v and issue_slot after the combinational settle, then
 * after the clock edge every register of struct ws_regs -- older[i] for i < nslots (the
 * RTL's storage; the C rows above nslots never change), act, last, last_v.
 *
 * Random stimulus follows the SM's port rules (model/sm/sm.c sched_masks): slots live and die,
 * a new warp raises `fresh` for one or a few cycles, ready and lstall are subsets of valid and
 * disjoint; the ready density and its correlation with the previous cycle change every few
 * hundred cycles (bursts, all-ready, none-ready, GTO greed).  2 % of cycles are unconstrained
 * (any bit, also above nslots): ws.h defines those too.  Usage: see cosim.h (--help).
 */
#include <cstdio>
#include <string>

#include "Vdut.h"
#include "Vdut___024root.h"
#include "cosim.h"

extern "C" {
#include "sm/ws.h"
}

namespace {

/* The RTL side of one instance uK of tb/ws_top.sv: parameters and register accessors. */
struct RtlInst {
    uint32_t policy, nslots, active;
    uint32_t (*older)(const Vdut___024root *, uint32_t row);
    uint32_t (*act)(const Vdut___024root *);
    uint32_t (*last)(const Vdut___024root *);
    uint32_t (*last_v)(const Vdut___024root *);
};

#define WS_U(k, sig) ws_top__DOT__u##k##__DOT__##sig
#define WS_INST(k)                                                                          \
    RtlInst{Vdut___024root::WS_U(k, POLICY), Vdut___024root::WS_U(k, NSLOTS),             \
            Vdut___024root::WS_U(k, ACTIVE),                                                \
            [](const Vdut___024root *r, uint32_t i) -> uint32_t { return r->WS_U(k, older)[i]; }, \
            [](const Vdut___024root *r) -> uint32_t { return r->WS_U(k, act); },           \
            [](const Vdut___024root *r) -> uint32_t { return r->WS_U(k, last); },          \
            [](const Vdut___024root *r) -> uint32_t { return r->WS_U(k, last_v); }}

const RtlInst kRtl[] = {WS_INST(0), WS_INST(1), WS_INST(2), WS_INST(3), WS_INST(4), WS_INST(5)};
constexpr unsigned kInst = sizeof kRtl / sizeof kRtl[0];

/* The C side of one instance. */
struct CInst {
    ws_cfg cfg;
    ws_regs q, d;
    ws_out out;
    std::string label;
};

std::string cfg_text(const ws_cfg &c)
{
    return std::string(ws_policy_name(c.policy)) + " nslots=" + std::to_string(c.nslots) +
           " active=" + std::to_string(c.active);
}

/* Stimulus state: which slots hold a warp, and the current traffic pattern. */
struct Traffic {
    uint32_t live = 0, fresh = 0, ready = 0;
    unsigned left = 0;        /* cycles left in this pattern */
    unsigned ready_pct = 50, stall_pct = 10, born_pct = 3, die_pct = 1;
    bool sticky = false;      /* ready mostly as in the previous cycle (GTO greed) */
};

class WsHarness {
public:
    using In = ws_in;
    static const char *name() { return "ws"; }

    explicit WsHarness(const cosim::Options &o)
    {
        ws_cfg conf = cosim::block_cfg<ws_cfg>(o.config, "ws");
        for (unsigned k = 0; k < kInst; k++) {
            ws_cfg c;
            c.policy = (uint8_t)kRtl[k].policy;
            c.nslots = (uint8_t)kRtl[k].nslots;
            c.active = (uint8_t)kRtl[k].active;
            inst_[k].cfg = c;
            inst_[k].label = "u" + std::to_string(k) + " " + cfg_text(c);
            check_cfg(c, "tb/ws_top.sv u" + std::to_string(k));
        }
        cfg0_ = conf;
        if (!same(conf, inst_[0].cfg))
            throw cosim::Error("the RTL was built for ws " + cfg_text(inst_[0].cfg) +
                               " but " + o.config + " gives " + cfg_text(conf) +
                               " (build with COSIM_CONFIG=<that configuration>)");
    }
    cosim::Dut<Vdut> &dut() { return dut_; }

    void configure(const void *cfg, uint32_t size)
    {
        ws_cfg c = cfg0_;
        if (cfg) {
            if (size != sizeof c)
                throw cosim::Error("recorded ws cfg is " + std::to_string(size) +
                                   " bytes, sizeof(struct ws_cfg) is " +
                                   std::to_string(sizeof c));
            std::memcpy(&c, cfg, sizeof c);
            check_cfg(c, "the recording's cfg");
            if (!same(c, inst_[0].cfg))
                throw cosim::Error("the recording's ws cfg is " + cfg_text(c) +
                                   ", the RTL (u0) was built for " + cfg_text(inst_[0].cfg) +
                                   " (record and build with the same configuration)");
        }
        inst_[0].cfg = c;
    }

    void reset()
    {
        for (CInst &i : inst_) {
            ws_reset(&i.cfg, &i.q);
            i.d = i.q;
        }
        dut_->valid = dut_->ready = dut_->fresh = dut_->lstall = 0;
        dut_.reset();
    }

    void random(cosim::Rng &r, ws_in &in)
    {
        Traffic &t = traffic_;
        if (t.left == 0)
            new_pattern(r);
        t.left--;
        if (r.chance(2)) {                          /* unconstrained cycle */
            in.valid = r.u32();
            in.ready = r.u32();
            in.fresh = r.chance(50) ? r.u32() : 0;
            in.lstall = r.u32();
            return;
        }
        uint32_t die = t.live & (uint32_t)r.mask(32, t.die_pct);
        uint32_t keep_fresh = t.fresh & t.live & (uint32_t)r.mask(32, 30);
        uint32_t born = ~t.live & (uint32_t)r.mask(32, t.born_pct);
        uint32_t reborn = t.live & (uint32_t)r.mask(32, r.chance(5) ? 3 : 0);
        t.live = (t.live & ~die) | born;
        t.fresh = keep_fresh | born | reborn;
        t.fresh &= t.live;
        uint32_t rdy = (uint32_t)r.mask(32, t.ready_pct);
        if (t.sticky)
            rdy = (t.ready & ~(uint32_t)r.mask(32, 10)) | (rdy & (uint32_t)r.mask(32, 10));
        t.ready = rdy & t.live;
        in.valid = t.live;
        in.fresh = t.fresh;
        in.ready = t.ready;
        in.lstall = t.live & ~t.ready & (uint32_t)r.mask(32, t.stall_pct);
    }

    void step(const ws_in &in, cosim::Checker &chk)
    {
        dut_->valid = in.valid;
        dut_->ready = in.ready;
        dut_->fresh = in.fresh;
        dut_->lstall = in.lstall;
        dut_.settle();
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            ws_eval(&i.cfg, &i.q, &in, &i.out, &i.d);
            chk.scope(i.label);
            chk.eq("out.issue_v", i.out.issue_v, dut_->issue_v >> k & 1u);
            chk.eq("out.issue_slot", i.out.issue_slot, dut_->issue_slot >> (5 * k) & 31u);
        }
        dut_.edge();
        const Vdut___024root *root = dut_->rootp;
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            const RtlInst &r = kRtl[k];
            ws_commit(&i.cfg, &i.q, &i.d);
            chk.scope(i.label);
            for (uint32_t row = 0; row < r.nslots; row++)
                chk.eq("regs.older", (int)row, i.q.older[row], r.older(root, row));
            chk.eq("regs.act", i.q.act, r.act(root));
            chk.eq("regs.last", i.q.last, r.last(root));
            chk.eq("regs.last_v", i.q.last_v, r.last_v(root));
        }
    }

private:
    static bool same(const ws_cfg &a, const ws_cfg &b)
    {
        return a.policy == b.policy && a.nslots == b.nslots && a.active == b.active;
    }
    static void check_cfg(const ws_cfg &c, const std::string &what)
    {
        char err[256];
        if (ws_cfg_check(&c, err, sizeof err))
            throw cosim::Error(what + ": " + err);
    }
    void new_pattern(cosim::Rng &r)
    {
        static const unsigned ready_pcts[] = {0, 3, 15, 50, 85, 100};
        static const unsigned stall_pcts[] = {0, 5, 30, 80};
        Traffic &t = traffic_;
        t.left = 1 + r.below(400);
        t.ready_pct = ready_pcts[r.below(6)];
        t.stall_pct = stall_pcts[r.below(4)];
        t.born_pct = r.chance(20) ? 30 : r.below(4);
        t.die_pct = r.chance(10) ? 20 : r.below(3);
        t.sticky = r.chance(40);
    }

    cosim::Dut<Vdut> dut_;
    CInst inst_[kInst];
    ws_cfg cfg0_{};
    Traffic traffic_;
};

} /* namespace */

int main(int argc, char **argv)
{
    return cosim::run<WsHarness>(argc, argv);
}
