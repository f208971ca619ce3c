/*
 * ntb_cosim.cpp -- lockstep co-simulation of VTW's next-TB-index unit: model/sm/ntb.c (from
 * libgpusim.a, the code the GPU model runs) against rtl/ntb.sv, Verilated through
 * tb/ntb_top.sv.
 *
 * The top holds eight units driven by the same inputs: u0 is the configuration's, u1..u5 cover
 * every lane policy at latency 1 and at latency 2 and 3, u6 and u7 are the configuration's
 * unit under the two other lane policies (tb/ntb_top.sv), all with the configuration's TB
 * slots and contexts.  Every cycle, for every instance: gtake and the four
 * replies after the combinational settle, then after the clock edge every register of struct
 * ntb_regs the RTL holds for its configuration -- map and cnt of each TB slot < nctas; lh and
 * lw (lane != same), order (slowest); the pipe's lat - 1 stages and head (the C head must stay
 * 0 with one stage).
 *
 * Random stimulus follows the unit's contract (ntb.h): a kernel shape (warps per TB 1..32,
 * the last one partial or not) holds until all TB slots are retired and a new one is drawn;
 * TB slot s holds contexts s * nw .. s * nw + nw - 1 (consecutive, warp i at base + i); a slot
 * is launched (one per cycle), runs, and retires at random; a warp presents nexttbid only when
 * no sibling is an iteration behind it (the SM's hold), nextidxinblk at any time (not under
 * lane same: the SM executes it as a move -- u0 and u4 get it anyway and answer warp * 32,
 * which is what the C lw holds there), at most one request per warp per cycle on random ports;
 * gnext grows by the takes of the previous cycle plus other SMs' takes, now and then near the
 * 32-bit wrap; prog: all equal, a few values (ties for SlowestLane) or any value.
 * Recordings (`gpusim run KERNEL --set vtw=hw --record ntb=FILE`: SM 0's unit) drive all eight
 * instances; the recording's cfg must be u0's, u6's or u7's -- mk/cosim.mk records each kernel
 * under every lane policy (--set vtw_lane=...), so that each policy's unit sees a real kernel.
 * Usage: see cosim.h (--help).
 */
#include <algorithm>
#include <cstdio>
#include <string>

#include "Vdut.h"
#include "Vdut___024root.h"
#include "cosim.h"

extern "C" {
#include "sm/ntb.h"
}

namespace {

using cosim::get_bits;
using cosim::set_bits;

/* The RTL side of one instance uK of tb/ntb_top.sv: parameters and register accessors. */
struct RtlInst {
    uint32_t nctas, nctx, lane, lat;
    uint64_t (*reg)(const Vdut___024root *, unsigned which, unsigned lsb, unsigned w);
};

enum { R_MAP, R_CNT, R_LH, R_LW, R_ORDER, R_PIPE, R_HEAD };

#define NTB_U(k, sig) ntb_top__DOT__u##k##__DOT__##sig
#define NTB_INST(k)                                                                         \
    RtlInst{Vdut___024root::NTB_U(k, NCTAS), Vdut___024root::NTB_U(k, NCTX),               \
            Vdut___024root::NTB_U(k, LANE), Vdut___024root::NTB_U(k, LAT),                 \
            [](const Vdut___024root *r, unsigned which, unsigned l, unsigned w) -> uint64_t { \
                switch (which) {                                                            \
                case R_MAP: return get_bits(r->NTB_U(k, map), l, w);                        \
                case R_CNT: return get_bits(r->NTB_U(k, cnt), l, w);                        \
                case R_LH: return get_bits(r->NTB_U(k, lh), l, w);                          \
                case R_LW: return get_bits(r->NTB_U(k, lw), l, w);                          \
                case R_ORDER: return get_bits(r->NTB_U(k, order), l, w);                    \
                case R_PIPE: return get_bits(r->NTB_U(k, pipe), l, w);                      \
                default: return get_bits(r->NTB_U(k, head), l, w);                          \
                } }}

const RtlInst kRtl[] = {NTB_INST(0), NTB_INST(1), NTB_INST(2), NTB_INST(3), NTB_INST(4),
                        NTB_INST(5), NTB_INST(6), NTB_INST(7)};
constexpr unsigned kInst = sizeof kRtl / sizeof kRtl[0];
constexpr unsigned kRep = 90;      /* bits of one reply in the RTL's pipe */

struct CInst {
    ntb_cfg cfg;
    ntb_regs q, d;
    ntb_out out;
    std::string label;
};

std::string cfg_text(const ntb_cfg &c)
{
    return std::string(ntb_lane_name(c.lane)) + " lat=" + std::to_string(c.lat) + " nctas=" +
           std::to_string(c.nctas) + " nctx=" + std::to_string(c.nctx);
}

/* Stimulus state: the kernel shape, which TB slots run, each warp's iteration. */
struct Traffic {
    unsigned nw = 1, nfull = 1, nslots = 1;
    bool live[SM_MAX_CTAS] = {};
    uint32_t it[SM_MAX_CTAS][32] = {};
    uint32_t prog[SM_MAX_CTX] = {};
    uint32_t gnext = 0;
    unsigned left = 0, req_pct = 30, idx_pct = 30, launch_pct = 20, retire_pct = 1, pmode = 0;
    bool draining = false;
};

class NtbHarness {
public:
    using In = ntb_in;
    static const char *name() { return "ntb"; }

    explicit NtbHarness(const cosim::Options &o)
    {
        ntb_cfg conf = cosim::block_cfg<ntb_cfg>(o.config, "ntb");
        for (unsigned k = 0; k < kInst; k++) {
            ntb_cfg c;
            ntb_cfg_default(&c);
            c.nctas = (uint8_t)kRtl[k].nctas;
            c.nctx = (uint16_t)kRtl[k].nctx;
            c.lane = (uint8_t)kRtl[k].lane;
            c.lat = (uint8_t)kRtl[k].lat;
            inst_[k].cfg = c;
            inst_[k].label = "u" + std::to_string(k) + " " + cfg_text(c);
            check_cfg(c, "tb/ntb_top.sv u" + std::to_string(k));
        }
        const ntb_cfg &u0 = inst_[0].cfg;
        if (conf.nctas != u0.nctas || conf.nctx != u0.nctx || conf.lane != u0.lane ||
            conf.lat != u0.lat)
            throw cosim::Error("the RTL was built for ntb " + cfg_text(u0) + " but " + o.config +
                               " gives " + cfg_text(conf) +
                               " (build with COSIM_CONFIG=<that configuration>)");
    }
    cosim::Dut<Vdut> &dut() { return dut_; }

    /* A recording's cfg (SM 0's unit under vtw = hw) must be one an instance was built for:
       u0 (the configuration's lane policy), u6 or u7 (its unit under the other two: a
       recording made with --set vtw_lane=...); every instance takes the recorded inputs. */
    void configure(const void *cfg, uint32_t size)
    {
        ntb_cfg c;
        if (!cfg)
            return;
        if (size != sizeof c)
            throw cosim::Error("recorded ntb cfg is " + std::to_string(size) +
                               " bytes, sizeof(struct ntb_cfg) is " + std::to_string(sizeof c));
        std::memcpy(&c, cfg, sizeof c);
        check_cfg(c, "the recording's cfg");
        for (unsigned k : {0u, 6u, 7u}) {
            const ntb_cfg &u = inst_[k].cfg;
            if (c.nctas == u.nctas && c.nctx == u.nctx && c.lane == u.lane && c.lat == u.lat) {
                inst_[k].cfg = c;
                return;
            }
        }
        throw cosim::Error("the recording's ntb cfg is " + cfg_text(c) + ", the RTL (u0, u6, u7) "
                           "was built for " + cfg_text(inst_[0].cfg) + " under every lane policy"
                           " (record and build with the same configuration)");
    }

    void reset()
    {
        for (CInst &i : inst_) {
            ntb_reset(&i.cfg, &i.q);
            i.d = i.q;
            std::memset(&i.out, 0, sizeof i.out);
        }
        traffic_ = Traffic();
        ntb_in zero;
        std::memset(&zero, 0, sizeof zero);
        drive(zero);
        dut_.reset();
    }

    void random(cosim::Rng &r, ntb_in &in)
    {
        Traffic &t = traffic_;
        t.gnext += inst_[0].out.gtake + (r.chance(20) ? r.below(4) : 0);
        if (r.chance(1))
            t.gnext = r.chance(50) ? 0xFFFFFFFFu - r.below(8) : r.u32();
        if (t.left == 0)
            new_pattern(r);
        t.left--;
        new_prog(r);
        in.nw = (uint8_t)t.nw;
        in.nfull = (uint8_t)t.nfull;
        in.gnext = t.gnext;
        std::memcpy(in.prog, t.prog, sizeof in.prog);
        gen_requests(r, in);
        gen_launch(r, in);
    }

    void step(const ntb_in &in, cosim::Checker &chk)
    {
        drive(in);
        dut_.settle();
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            ntb_eval(&i.cfg, &i.q, &in, &i.out, &i.d);
            chk.scope(i.label);
            chk.eq("out.gtake", i.out.gtake, get_bits(dut_->gtake, 3 * k, 3));
            for (unsigned p = 0; p < NTB_PORTS; p++) {
                const ntb_rep &e = i.out.rep[p];
                unsigned q = NTB_PORTS * k + p;
                chk.eq("out.rep.v", (int)p, e.v, get_bits(dut_->rep_v, q, 1));
                chk.eq("out.rep.ctx", (int)p, e.ctx, get_bits(dut_->rep_ctx, 8 * q, 8));
                chk.eq("out.rep.reg", (int)p, e.reg, get_bits(dut_->rep_reg, 16 * q, 16));
                chk.eq("out.rep.mask", (int)p, e.mask, get_bits(dut_->rep_mask, 32 * q, 32));
                chk.eq("out.rep.val", (int)p, e.val, get_bits(dut_->rep_val, 32 * q, 32));
                chk.eq("out.rep.addlane", (int)p, e.addlane, get_bits(dut_->rep_addlane, q, 1));
            }
        }
        dut_.edge();
        const Vdut___024root *root = dut_->rootp;
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            ntb_commit(&i.cfg, &i.q, &i.d);
            chk.scope(i.label);
            compare_regs(i, kRtl[k], root, chk);
        }
    }

private:
    static void check_cfg(const ntb_cfg &c, const std::string &what)
    {
        char err[256];
        if (ntb_cfg_check(&c, err, sizeof err))
            throw cosim::Error(what + ": " + err);
    }

    /* Every input port of the top from the struct (flattened as in rtl/ntb.sv). */
    void drive(const ntb_in &in)
    {
        Vdut &d = dut_.top();
        uint32_t v = 0, op = 0, cta = 0, ctx = 0, warp = 0;
        uint64_t reg = 0;
        for (unsigned k = 0; k < NTB_PORTS; k++) {
            const ntb_req &q = in.req[k];
            v |= (q.v & 1u) << k;
            op |= (q.op & 1u) << k;
            cta |= (uint32_t)(q.cta & 63u) << (6 * k);
            ctx |= (uint32_t)q.ctx << (8 * k);
            warp |= (uint32_t)(q.warp & 31u) << (5 * k);
            reg |= (uint64_t)q.reg << (16 * k);
            set_bits(d.req_mask, 32 * k, 32, q.mask);
        }
        d.req_v = (CData)v;
        d.req_op = (CData)op;
        d.req_cta = cta;
        d.req_ctx = ctx;
        d.req_warp = warp;
        d.req_reg = reg;
        d.launch_v = in.launch_v & 1u;
        d.launch_cta = in.launch_cta & 63u;
        d.launch_base = in.launch_base;
        d.nw = in.nw & 63u;
        d.nfull = in.nfull & 63u;
        d.gnext = in.gnext;
        for (unsigned c = 0; c < SM_MAX_CTX; c++)
            set_bits(d.prog, 32 * c, 32, in.prog[c]);
    }

    static void compare_regs(const CInst &i, const RtlInst &r, const Vdut___024root *root,
                             cosim::Checker &chk)
    {
        const ntb_cfg &c = i.cfg;
        for (unsigned s = 0; s < c.nctas; s++) {
            chk.eq("regs.map", (int)s, i.q.map[s], r.reg(root, R_MAP, 32 * s, 32));
            chk.eq("regs.cnt", (int)s, i.q.cnt[s], r.reg(root, R_CNT, 8 * s, 8));
            if (c.lane != NTB_SAME)
                chk.eq("regs.lh", (int)s, i.q.lh[s], r.reg(root, R_LH, 6 * s, 6));
        }
        for (unsigned x = 0; x < c.nctx; x++) {
            if (c.lane != NTB_SAME)
                chk.eq("regs.lw", (int)x, i.q.lw[x], r.reg(root, R_LW, 5 * x, 5));
            if (c.lane == NTB_SLOWEST)
                chk.eq("regs.order", (int)x, i.q.order[x], r.reg(root, R_ORDER, 5 * x, 5));
        }
        unsigned stages = c.lat > 1 ? c.lat - 1u : 0;
        for (unsigned s = 0; s < stages; s++)
            for (unsigned p = 0; p < NTB_PORTS; p++) {
                const ntb_rep &e = i.q.pipe[s][p];
                unsigned lsb = (s * NTB_PORTS + p) * kRep;
                int n = (int)(s * NTB_PORTS + p);
                chk.eq("regs.pipe.v", n, e.v, r.reg(root, R_PIPE, lsb, 1));
                chk.eq("regs.pipe.ctx", n, e.ctx, r.reg(root, R_PIPE, lsb + 1, 8));
                chk.eq("regs.pipe.reg", n, e.reg, r.reg(root, R_PIPE, lsb + 9, 16));
                chk.eq("regs.pipe.mask", n, e.mask, r.reg(root, R_PIPE, lsb + 25, 32));
                chk.eq("regs.pipe.val", n, e.val, r.reg(root, R_PIPE, lsb + 57, 32));
                chk.eq("regs.pipe.addlane", n, e.addlane, r.reg(root, R_PIPE, lsb + 89, 1));
            }
        unsigned hb = 0;
        while (stages > 1 && (1u << hb) < stages)
            hb++;
        chk.eq("regs.head", i.q.head, hb ? r.reg(root, R_HEAD, 0, hb) : 0);
    }

    /* ---------------------------------------------------------------- stimulus */

    void new_pattern(cosim::Rng &r)
    {
        static const unsigned pcts[] = {5, 30, 60, 100};
        Traffic &t = traffic_;
        t.left = 1 + r.below(500);
        t.req_pct = pcts[r.below(4)];
        t.idx_pct = r.chance(30) ? 0 : r.below(60);
        t.launch_pct = r.chance(30) ? 100 : 1 + r.below(30);
        t.retire_pct = r.chance(50) ? 0 : r.below(3);
        t.pmode = r.below(3);
        t.draining = r.chance(25);           /* retire everything, then a new shape */
    }

    void new_shape(cosim::Rng &r)
    {
        static const unsigned nws[] = {1, 2, 3, 4, 5, 8, 12, 16, 24, 32};
        Traffic &t = traffic_;
        const ntb_cfg &c = inst_[0].cfg;
        do
            t.nw = nws[r.below(10)];
        while (t.nw > c.nctx);
        t.nfull = r.chance(30) ? t.nw - 1 : t.nw;
        t.nslots = std::min<unsigned>(c.nctas, c.nctx / t.nw);
        t.draining = false;
    }

    void new_prog(cosim::Rng &r)
    {
        Traffic &t = traffic_;
        for (unsigned x = 0; x < SM_MAX_CTX; x++) {
            if (!r.chance(20))
                continue;
            switch (t.pmode) {
            case 0: t.prog[x] = 7; break;
            case 1: t.prog[x] = r.below(4); break;
            default: t.prog[x] = r.chance(50) ? r.below(100) : r.u32(); break;
            }
        }
    }

    /* Up to 4 requests from live TB slots, at most one per warp, on random ports. */
    void gen_requests(cosim::Rng &r, ntb_in &in)
    {
        Traffic &t = traffic_;
        bool any = false;
        for (unsigned s = 0; s < t.nslots; s++)
            any = any || t.live[s];
        if (!any)
            return;
        for (unsigned k = 0; k < NTB_PORTS; k++) {
            if (!r.chance(t.req_pct))
                continue;
            unsigned s, w;
            do
                s = r.below(t.nslots);
            while (!t.live[s]);
            w = r.below(t.nw);
            bool used = false;
            for (unsigned j = 0; j < k; j++)
                used = used || (in.req[j].v && in.req[j].cta == s && in.req[j].warp == w);
            if (used)
                continue;
            ntb_req &q = in.req[k];
            uint32_t lo = *std::min_element(t.it[s], t.it[s] + t.nw);
            if (r.chance(t.idx_pct))
                q.op = NTB_OP_IDX;
            else if (t.it[s][w] == lo) {
                q.op = NTB_OP_TB;
                t.it[s][w]++;
            } else
                continue;                    /* held: a sibling is an iteration behind */
            q.v = 1;
            q.cta = (uint8_t)s;
            q.warp = (uint8_t)w;
            q.ctx = (uint8_t)(s * t.nw + w);
            q.reg = (uint16_t)r.below(65536);
            q.mask = r.chance(50) ? 0xFFFFFFFFu : r.u32();
        }
    }

    /* One launch or retirement a cycle; a draining pattern retires all, then a new shape. */
    void gen_launch(cosim::Rng &r, ntb_in &in)
    {
        Traffic &t = traffic_;
        unsigned s = r.below(t.nslots);
        if (t.draining) {
            for (unsigned i = 0; i < SM_MAX_CTAS; i++)
                if (t.live[i] && r.chance(10))
                    t.live[i] = false;
            bool any = false;
            for (unsigned i = 0; i < SM_MAX_CTAS; i++)
                any = any || t.live[i];
            if (!any)
                new_shape(r);
            return;
        }
        if (t.live[s]) {
            if (r.chance(t.retire_pct))
                t.live[s] = false;
            return;
        }
        if (!r.chance(t.launch_pct))
            return;
        in.launch_v = 1;
        in.launch_cta = (uint8_t)s;
        in.launch_base = (uint8_t)(s * t.nw);
        t.live[s] = true;
        std::fill(t.it[s], t.it[s] + 32, 0u);
    }

    cosim::Dut<Vdut> dut_;
    CInst inst_[kInst];
    Traffic traffic_;
};

} /* namespace */

int main(int argc, char **argv)
{
    return cosim::run<NtbHarness>(argc, argv);
}
