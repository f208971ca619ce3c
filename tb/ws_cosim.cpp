/*
 * ws_cosim.cpp -- lockstep co-simulation of the warp scheduler: model/sm/ws.c (from libgpusim.a,
 * the code the GPU model runs) against rtl/ws.sv, Verilated through tb/ws_top.sv.
 *
 * The top holds twelve schedulers driven by the same inputs: u0 is the configuration's (its
 * parameters come from gpusim_params.vh, generated from --config's file; replays use it with
 * the recording's cfg), u1..u11 cover LRR, GTO, TWOLEVEL and PRIO at 1, 5, 24, 33, 70 and 128
 * slots.  Every cycle, for every instance: issue_v and issue_slot after the combinational
 * settle, then after the clock edge every register of struct ws_regs -- older[i] for
 * i < nslots (the RTL's storage; the C rows above nslots never change), act, last, last_v.
 *
 * Random stimulus follows the SM's port rules (the issue stage, model/sm/iss.c) over all 128 slots:
 * slots live and die, a new warp raises `fresh` for one or a few cycles, ready and lstall are
 * subsets of valid and disjoint; the ready density and its correlation with the previous
 * cycle change every few hundred cycles (bursts, all-ready, none-ready, GTO greed).  The keys
 * (prio) follow a pattern too: all equal, a few values with many ties, any 16-bit value, drawn
 * anew every cycle or sticky (a few slots change per cycle).  2 % of cycles are unconstrained
 * (any bit, also above nslots, any keys): ws.h defines those too.  Usage: see cosim.h (--help).
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
    slotmask (*older)(const Vdut___024root *, uint32_t row);
    slotmask (*act)(const Vdut___024root *);
    uint32_t (*last)(const Vdut___024root *);
    uint32_t (*last_v)(const Vdut___024root *);
};

#define WS_U(k, sig) ws_top__DOT__u##k##__DOT__##sig
#define WS_INST(k)                                                                          \
    RtlInst{Vdut___024root::WS_U(k, POLICY), Vdut___024root::WS_U(k, NSLOTS),             \
            Vdut___024root::WS_U(k, ACTIVE),                                                \
            [](const Vdut___024root *r, uint32_t i) -> slotmask {                          \
                return cosim::get_mask(r->WS_U(k, older)[i], Vdut___024root::WS_U(k, NSLOTS)); }, \
            [](const Vdut___024root *r) -> slotmask {                                       \
                return cosim::get_mask(r->WS_U(k, act), Vdut___024root::WS_U(k, NSLOTS)); },  \
            [](const Vdut___024root *r) -> uint32_t { return r->WS_U(k, last); },          \
            [](const Vdut___024root *r) -> uint32_t { return r->WS_U(k, last_v); }}

const RtlInst kRtl[] = {WS_INST(0), WS_INST(1), WS_INST(2), WS_INST(3), WS_INST(4), WS_INST(5),
                        WS_INST(6), WS_INST(7), WS_INST(8), WS_INST(9), WS_INST(10), WS_INST(11)};
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

/* How the keys move: all equal, a few values (ties), any value; anew or sticky. */
enum KeyMode { K_EQUAL, K_FEW, K_ANY, K_FEW_STICKY, K_ANY_STICKY, K_NMODES };

/* Stimulus state: which slots hold a warp, the keys, and the current traffic pattern. */
struct Traffic {
    slotmask live = 0, fresh = 0, ready = 0;
    uint16_t keys[SM_MAX_SLOTS] = {};
    uint16_t kval[3] = {0, 1, 2};     /* the few values of K_FEW* */
    unsigned kmode = K_EQUAL;
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
        ws_in zero;
        std::memset(&zero, 0, sizeof zero);
        drive(zero);
        dut_.reset();
    }

    void random(cosim::Rng &r, ws_in &in)
    {
        Traffic &t = traffic_;
        if (t.left == 0)
            new_pattern(r);
        t.left--;
        if (r.chance(2)) {                          /* unconstrained cycle */
            in.valid = r.u128();
            in.ready = r.u128();
            in.fresh = r.chance(50) ? r.u128() : 0;
            in.lstall = r.u128();
            for (unsigned i = 0; i < SM_MAX_SLOTS; i++)
                in.prio[i] = (uint16_t)r.below(65536);
            return;
        }
        slotmask die = t.live & r.mask128(t.die_pct);
        slotmask keep_fresh = t.fresh & t.live & r.mask128(30);
        slotmask born = ~t.live & r.mask128(t.born_pct);
        slotmask reborn = t.live & r.mask128(r.chance(5) ? 3 : 0);
        t.live = (t.live & ~die) | born;
        t.fresh = keep_fresh | born | reborn;
        t.fresh &= t.live;
        slotmask rdy = r.mask128(t.ready_pct);
        if (t.sticky)
            rdy = (t.ready & ~r.mask128(10)) | (rdy & r.mask128(10));
        t.ready = rdy & t.live;
        in.valid = t.live;
        in.fresh = t.fresh;
        in.ready = t.ready;
        in.lstall = t.live & ~t.ready & r.mask128(t.stall_pct);
        new_keys(r);
        std::memcpy(in.prio, t.keys, sizeof in.prio);
    }

    void step(const ws_in &in, cosim::Checker &chk)
    {
        drive(in);
        dut_.settle();
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            ws_eval(&i.cfg, &i.q, &in, &i.out, &i.d);
            chk.scope(i.label);
            chk.eq("out.issue_v", i.out.issue_v, cosim::get_bits(dut_->issue_v, k, 1));
            chk.eq("out.issue_slot", i.out.issue_slot, cosim::get_bits(dut_->issue_slot, 7 * k, 7));
        }
        dut_.edge();
        const Vdut___024root *root = dut_->rootp;
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            const RtlInst &r = kRtl[k];
            ws_commit(&i.cfg, &i.q, &i.d);
            chk.scope(i.label);
            for (uint32_t row = 0; row < r.nslots; row++)
                chk.eq_mask("regs.older", (int)row, i.q.older[row], r.older(root, row));
            chk.eq_mask("regs.act", -1, i.q.act, r.act(root));
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
    /* Every input port of the top from the struct (prio flattened as in rtl/ws.sv). */
    void drive(const ws_in &in)
    {
        Vdut &d = dut_.top();
        cosim::set_mask(d.valid, in.valid);
        cosim::set_mask(d.ready, in.ready);
        cosim::set_mask(d.fresh, in.fresh);
        cosim::set_mask(d.lstall, in.lstall);
        for (unsigned i = 0; i < SM_MAX_SLOTS; i += 2)
            d.prio.at(i / 2) = (EData)in.prio[i] | (EData)in.prio[i + 1] << 16;
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
        t.kmode = r.below(K_NMODES);
        for (uint16_t &v : t.kval)   /* the few values: small, or spread over 16 bits */
            v = (uint16_t)(r.chance(50) ? r.below(4) : r.below(65536));
        if (t.kmode == K_EQUAL) {
            uint16_t v = t.kval[0];
            for (uint16_t &k : t.keys)
                k = v;
        }
    }
    /* This cycle's keys, by the pattern's mode. */
    void new_keys(cosim::Rng &r)
    {
        Traffic &t = traffic_;
        for (unsigned i = 0; i < SM_MAX_SLOTS; i++) {
            switch (t.kmode) {
            case K_EQUAL: break;
            case K_FEW: t.keys[i] = t.kval[r.below(3)]; break;
            case K_ANY: t.keys[i] = (uint16_t)r.below(65536); break;
            case K_FEW_STICKY: if (r.chance(5)) t.keys[i] = t.kval[r.below(3)]; break;
            default: if (r.chance(2)) t.keys[i] = (uint16_t)r.below(65536); break;
            }
        }
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
