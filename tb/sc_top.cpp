/*
 * sc_top.cpp -- SystemC co-simulation of the warp scheduler: Verilator's --sc model of
 * rtl/ws.sv (module ws with the configuration's parameters) and WsModel, an SC_MODULE around
 * model/sm/ws.c (the code the GPU model runs, from libgpusim.a), share clock, reset and input
 * signals.  A checker process compares them every clock:
 *   at the rising edge, before it takes effect: issue_v and issue_slot (Mealy outputs);
 *   at the falling edge: every register (older rows, act, last, last_v).
 * A stimulus thread drives constrained-random legal inputs over all 128 slots (valid,
 * ready <= valid, lstall <= valid & ~ready, fresh on newly arrived warps, keys from a few
 * values with many ties, sticky or redrawn) at the falling edge.  Ports of 65 bits and more
 * are sc_bv (Verilator's --sc default): the 128-bit slot sets and the 2048-bit prio.
 * Usage: sc_top [--config FILE] [--seed N] --cycles N.  Exit 0 clean, 1 mismatch, 2 error.
 */
#include <systemc.h>

#include <cinttypes>
#include <cstdio>

#include "Vws_sc.h"
#include "Vws_sc___024root.h"
#include "cosim.h"

extern "C" {
#include "sm/ws.h"
}

using Mask = sc_bv<128>;
using Keys = sc_bv<128 * 16>;

static slotmask from_bv(const Mask &v)
{
    return (slotmask)v.range(127, 64).to_uint64() << 64 | v.range(63, 0).to_uint64();
}
static Mask to_bv(slotmask m)
{
    Mask v;
    v.range(63, 0) = (uint64)(uint64_t)m;
    v.range(127, 64) = (uint64)(uint64_t)(m >> 64);
    return v;
}

/* The C block as a SystemC module: a combinational method (ws_eval on the current inputs
 * and registers) and a clocked method (ws_eval + ws_commit at the rising edge). */
SC_MODULE(WsModel) {
    sc_in<bool> clk, rst;
    sc_in<Mask> valid, ready, fresh, lstall;
    sc_in<Keys> prio;
    sc_out<bool> issue_v;
    sc_out<uint32_t> issue_slot;

    ws_cfg cfg{};
    ws_regs q{};

    SC_CTOR(WsModel)
    {
        SC_METHOD(comb);
        sensitive << valid << ready << fresh << lstall << prio << q_changed_;
        SC_METHOD(seq);
        sensitive << clk.pos();
        dont_initialize();
    }

    void comb()
    {
        ws_in in = inputs();
        ws_regs d = q;
        ws_out out;
        ws_eval(&cfg, &q, &in, &out, &d);
        issue_v.write(out.issue_v != 0);
        issue_slot.write(out.issue_slot);
    }
    void seq()
    {
        if (rst.read()) {
            ws_reset(&cfg, &q);
        } else {
            ws_in in = inputs();
            ws_regs d = q;
            ws_out out;
            ws_eval(&cfg, &q, &in, &out, &d);
            ws_commit(&cfg, &q, &d);
        }
        q_changed_.notify(SC_ZERO_TIME);
    }

private:
    ws_in inputs() const
    {
        ws_in in;
        in.valid = from_bv(valid.read());
        in.ready = from_bv(ready.read());
        in.fresh = from_bv(fresh.read());
        in.lstall = from_bv(lstall.read());
        const Keys &k = prio.read();
        for (int i = 0; i < SM_MAX_SLOTS; i++)
            in.prio[i] = (uint16_t)k.range(16 * i + 15, 16 * i).to_uint();
        return in;
    }
    sc_event q_changed_;
};

/* Stimulus and checker. */
SC_MODULE(Bench) {
    sc_in<bool> clk;
    sc_out<bool> rst;
    sc_out<Mask> valid, ready, fresh, lstall;
    sc_out<Keys> prio;
    sc_in<bool> c_issue_v, r_issue_v;
    sc_in<uint32_t> c_issue_slot, r_issue_slot;

    WsModel *cmod = nullptr;
    Vws_sc *rtl = nullptr;
    uint64_t cycles = 0, seed = 1, cycle = 0;
    bool failed = false;

    SC_CTOR(Bench)
    {
        SC_THREAD(stimulus);
        sensitive << clk.neg();
        SC_METHOD(check_outputs);
        sensitive << clk.pos();
        dont_initialize();
        SC_METHOD(check_regs);
        sensitive << clk.neg();
        dont_initialize();
    }

    void stimulus()
    {
        cosim::Rng r(seed);
        slotmask live = 0;
        Keys keys;
        keys = 0;
        rst.write(true);
        wait();
        wait();
        rst.write(false);
        for (cycle = 0; cycle < cycles && !failed; cycle++) {
            slotmask born = ~live & r.mask128(3);
            live = (live & ~r.mask128(1)) | born;
            slotmask rdy = live & r.mask128(r.chance(50) ? 10 : 60);
            bool sticky = (cycle / 500) % 2;
            for (int i = 0; i < SM_MAX_SLOTS; i++)
                if (!sticky || r.chance(5))
                    keys.range(16 * i + 15, 16 * i) = r.chance(90) ? r.below(3) : r.below(65536);
            valid.write(to_bv(live));
            fresh.write(to_bv(born));
            ready.write(to_bv(rdy));
            lstall.write(to_bv(live & ~rdy & r.mask128(20)));
            prio.write(keys);
            wait();
        }
        sc_stop();
    }

    void check_outputs()
    {
        if (rst.read() || failed)
            return;
        eq("out.issue_v", c_issue_v.read(), r_issue_v.read());
        eq("out.issue_slot", c_issue_slot.read(), r_issue_slot.read());
    }
    void check_regs()
    {
        if (failed)
            return;
        const Vws_sc___024root *root = rtl->rootp;
        const unsigned n = cmod->cfg.nslots;
        for (uint32_t i = 0; i < n && !failed; i++)
            eq_mask("regs.older[" + std::to_string(i) + "]", cmod->q.older[i],
                    cosim::get_mask(root->ws__DOT__older[i], n));
        eq_mask("regs.act", cmod->q.act, cosim::get_mask(root->ws__DOT__act, n));
        eq("regs.last", cmod->q.last, root->ws__DOT__last);
        eq("regs.last_v", cmod->q.last_v, root->ws__DOT__last_v);
    }

private:
    void eq_mask(const std::string &field, slotmask c, slotmask v)
    {
        eq(field + "[63:0]", (uint64_t)c, (uint64_t)v);
        eq(field + "[127:64]", (uint64_t)(c >> 64), (uint64_t)(v >> 64));
    }
    void eq(const std::string &field, uint64_t c, uint64_t v)
    {
        if (c == v || failed)
            return;
        failed = true;
        std::printf("MISMATCH at cycle %" PRIu64 " (%s)\n  field %s\n  C   = 0x%" PRIx64
                    "\n  RTL = 0x%" PRIx64 "\n", cycle, sc_time_stamp().to_string().c_str(),
                    field.c_str(), c, v);
    }
};

static int run(int argc, char **argv)
{
    cosim::Options o = cosim::parse_options(argc, argv);
    if (!o.replays.empty())
        throw cosim::Error("the SystemC top runs random stimulus only (--cycles N)");
    ws_cfg cfg = cosim::block_cfg<ws_cfg>(o.config, "ws");
    if (cfg.policy != Vws_sc___024root::ws__DOT__POLICY ||
        cfg.nslots != Vws_sc___024root::ws__DOT__NSLOTS ||
        cfg.active != Vws_sc___024root::ws__DOT__ACTIVE)
        throw cosim::Error(o.config + " does not match the parameters rtl/ws.sv was built with "
                           "(build with COSIM_CONFIG=<that configuration>)");

    sc_clock clk("clk", 10, SC_NS);
    sc_signal<bool> rst, c_issue_v, r_issue_v;
    sc_signal<Mask> valid, ready, fresh, lstall;
    sc_signal<Keys> prio;
    sc_signal<uint32_t> c_issue_slot, r_issue_slot;

    Vws_sc rtl("rtl");
    rtl.clk(clk); rtl.rst(rst);
    rtl.valid(valid); rtl.ready(ready); rtl.fresh(fresh); rtl.lstall(lstall); rtl.prio(prio);
    rtl.issue_v(r_issue_v); rtl.issue_slot(r_issue_slot);

    WsModel cmod("cmod");
    cmod.cfg = cfg;
    ws_reset(&cfg, &cmod.q);
    cmod.clk(clk); cmod.rst(rst);
    cmod.valid(valid); cmod.ready(ready); cmod.fresh(fresh); cmod.lstall(lstall); cmod.prio(prio);
    cmod.issue_v(c_issue_v); cmod.issue_slot(c_issue_slot);

    Bench bench("bench");
    bench.cmod = &cmod;
    bench.rtl = &rtl;
    bench.cycles = o.cycles;
    bench.seed = o.seed;
    bench.clk(clk); bench.rst(rst);
    bench.valid(valid); bench.ready(ready); bench.fresh(fresh); bench.lstall(lstall);
    bench.prio(prio);
    bench.c_issue_v(c_issue_v); bench.r_issue_v(r_issue_v);
    bench.c_issue_slot(c_issue_slot); bench.r_issue_slot(r_issue_slot);

    sc_start();
    rtl.final();
    if (bench.failed) {
        std::printf("SystemC ws: FAIL (mismatch)\n");
        return 1;
    }
    std::printf("SystemC ws (%s, %s): PASS %" PRIu64 " cycles, 0 mismatches\n",
                ws_policy_name(cfg.policy), o.config.c_str(), bench.cycle);
    return 0;
}

int sc_main(int argc, char **argv)
{
    try {
        return run(argc, argv);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "sc_top: %s\n", e.what());
        return 2;
    }
}
