/*
 * sb_cosim.cpp -- lockstep co-simulation of the scoreboard with VWI tags: model/sm/sb.c (from
 * libgpusim.a, the code the GPU model runs) against rtl/sb.sv, Verilated through tb/sb_top.sv.
 *
 * The top holds four scoreboards driven by the same inputs: u0 is the configuration's (its
 * parameters come from gpusim_params.vh, generated from --config's file; replays use it with
 * the recording's cfg), u1..u3 cover 128 slots x 64 bits, 5 x 2 and 1 x 1 (folding, every
 * slot index legal, tiny widths).  Every cycle, for every instance: hazard, any, cnt, mok,
 * ev_rel, ev_rel_stale and err after the combinational settle, then after the clock edge every
 * register of struct sb_regs -- pend and vwi of each slot < nslots (the RTL's storage); the C
 * rows above nslots and the bits above nregs must keep their reset values, which is checked as
 * well.
 *
 * Random stimulus follows the SM's port rules (model/sm/sm.c sb_step): a reserve presents the
 * destinations of an issued instruction; each destination is released later (1..400 cycles)
 * with the VWI its warp had at issue, a vector load's destinations in the same cycle; set-VWI
 * reassigns slots (new VWI: the slot number, a swapped-in warp's, or the same), so writebacks
 * still in flight turn stale; the check port asks for mostly recently reserved registers; the
 * count port reads one slot.  DWS (design note section 1): a copy splits a slot into another
 * (a branch split, or a memory split leaving up to 4 of the source's recent registers out), a
 * merge folds one slot into another, mchk asks about two slots; a write in flight names every
 * slot that holds its bit (the copy's destination joins it unless its register was left out,
 * a merge's destination replaces the source), so its release carries a slot set, now and then
 * with an extra slot of another VWI.  Traffic patterns change every few hundred cycles (slot
 * window 1..128, port load, latencies, register range, DWS rates -- none in a third of them;
 * now and then 800 cycles that fill every pending bit of slot 0), and 2 % of cycles carry junk
 * (slots >= nslots, reserve or copy n > 4, chk_n > 8, random tags, a copy or merge with
 * src == dst or on a row another port writes) that the C block defines as well (err,
 * ignored).
 * Usage: see cosim.h (--help).
 */
#include <cstdio>
#include <string>
#include <vector>

#include "Vdut.h"
#include "Vdut___024root.h"
#include "cosim.h"

extern "C" {
#include "sm/sb.h"
}

namespace {

using cosim::get_bits;
using cosim::set_bits;

/* ------------------------------------------------------------------ the instances */

/* The RTL side of one instance uK of tb/sb_top.sv: parameters and register accessors. */
struct RtlInst {
    uint32_t nslots, nregs, dws;
    uint64_t (*pend)(const Vdut___024root *, unsigned lsb, unsigned w);
    uint64_t (*vwi)(const Vdut___024root *, unsigned lsb, unsigned w);
};

#define SB_U(k, sig) sb_top__DOT__u##k##__DOT__##sig
#define SB_INST(k)                                                                          \
    RtlInst{Vdut___024root::SB_U(k, NSLOTS), Vdut___024root::SB_U(k, NREGS),               \
            Vdut___024root::SB_U(k, DWS),                                                   \
            [](const Vdut___024root *r, unsigned l, unsigned w) {                           \
                return get_bits(r->SB_U(k, pend), l, w); },                                 \
            [](const Vdut___024root *r, unsigned l, unsigned w) {                           \
                return get_bits(r->SB_U(k, vwi), l, w); }}

const RtlInst kRtl[] = {SB_INST(0), SB_INST(1), SB_INST(2), SB_INST(3)};
constexpr unsigned kInst = sizeof kRtl / sizeof kRtl[0];

/* The C side of one instance. */
struct CInst {
    sb_cfg cfg;
    sb_regs q, d;
    sb_out out;
    std::string label;
};

std::string cfg_text(const sb_cfg &c)
{
    return "nslots=" + std::to_string(c.nslots) + " nregs=" + std::to_string(c.nregs) +
           " dws=" + std::to_string(c.dws);
}

/* ------------------------------------------------------------------ stimulus */

struct Flight {                 /* a destination written back at `due` */
    uint64_t due;
    slotmask slots;             /* the slots holding its pending bit (DWS: splits) */
    uint8_t  vwi;
    uint16_t reg;
};

constexpr unsigned kRecent = 8; /* recently reserved registers kept per slot */

struct Traffic {
    uint64_t now = 0;
    std::vector<Flight> flights;
    uint8_t  vwi[SM_MAX_SLOTS];              /* the owner's VWI as the SM knows it */
    uint16_t recent[SM_MAX_SLOTS][kRecent];  /* registers to check (hazards) */
    uint8_t  nrecent[SM_MAX_SLOTS];          /* how many are valid, 0..kRecent */
    uint8_t  pos[SM_MAX_SLOTS];              /* next ring position */
    /* pattern */
    unsigned left = 0, win = 48, ports = 2, res_pct = 40, chk_pct = 30, set_pct = 1;
    unsigned lat_lo = 1, lat_hi = 20, reg_span = 64, cnt_pct = 10, junk_pct = 2;
    unsigned copy_pct = 0, merge_pct = 0, mchk_pct = 0;    /* DWS ports */
};

/* ------------------------------------------------------------------ the harness */

class SbHarness {
public:
    using In = sb_in;
    static const char *name() { return "sb"; }

    explicit SbHarness(const cosim::Options &o)
    {
        sb_cfg conf = cosim::block_cfg<sb_cfg>(o.config, "sb");
        for (unsigned k = 0; k < kInst; k++) {
            sb_cfg c;
            c.nslots = (uint8_t)kRtl[k].nslots;
            c.nregs = (uint16_t)kRtl[k].nregs;
            c.dws = (uint8_t)kRtl[k].dws;
            inst_[k].cfg = c;
            inst_[k].label = "u" + std::to_string(k) + " " + cfg_text(c);
            check_cfg(c, "tb/sb_top.sv u" + std::to_string(k));
        }
        cfg0_ = conf;
        if (!same(conf, inst_[0].cfg))
            throw cosim::Error("the RTL was built for sb " + cfg_text(inst_[0].cfg) +
                               " but " + o.config + " gives " + cfg_text(conf) +
                               " (build with COSIM_CONFIG=<that configuration>)");
        traffic_reset();
    }
    cosim::Dut<Vdut> &dut() { return dut_; }

    void configure(const void *cfg, uint32_t size)
    {
        sb_cfg c = cfg0_;
        if (cfg) {
            if (size != sizeof c)
                throw cosim::Error("recorded sb cfg is " + std::to_string(size) +
                                   " bytes, sizeof(struct sb_cfg) is " +
                                   std::to_string(sizeof c));
            std::memcpy(&c, cfg, sizeof c);
            check_cfg(c, "the recording's cfg");
            if (!same(c, inst_[0].cfg))
                throw cosim::Error("the recording's sb cfg is " + cfg_text(c) +
                                   ", the RTL (u0) was built for " + cfg_text(inst_[0].cfg) +
                                   " (record and build with the same configuration)");
        }
        inst_[0].cfg = c;
    }

    void reset()
    {
        for (CInst &i : inst_) {
            sb_reset(&i.cfg, &i.q);
            i.d = i.q;
        }
        sb_in zero;
        std::memset(&zero, 0, sizeof zero);
        drive(zero);
        dut_.reset();
        traffic_reset();
    }

    void random(cosim::Rng &r, sb_in &in)
    {
        Traffic &t = traffic_;
        if (t.left == 0)
            new_pattern(r);
        t.left--;
        t.now++;
        bool junk = r.chance(t.junk_pct);
        gen_setvwi(r, in, junk);
        gen_copy(r, in, junk);
        gen_merge(r, in, junk);
        gen_mchk(r, in, junk);
        gen_releases(r, in, junk);
        gen_reserves(r, in, junk);
        gen_checks(r, in, junk);
        if (r.chance(t.cnt_pct)) {
            in.cnt_v = 1;
            in.cnt_slot = (uint8_t)(junk && r.chance(50) ? r.below(SM_MAX_SLOTS) : r.below(t.win));
        }
    }

    void step(const sb_in &in, cosim::Checker &chk)
    {
        drive(in);
        dut_.settle();
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            sb_eval(&i.cfg, &i.q, &in, &i.out, &i.d);
            chk.scope(i.label);
            chk.eq_mask("out.hazard", -1, i.out.hazard,
                        get_bits(dut_->hazard, 128 * k, 64) |
                        (slotmask)get_bits(dut_->hazard, 128 * k + 64, 64) << 64);
            chk.eq_mask("out.any", -1, i.out.any,
                        get_bits(dut_->any, 128 * k, 64) |
                        (slotmask)get_bits(dut_->any, 128 * k + 64, 64) << 64);
            chk.eq("out.cnt", i.out.cnt, get_bits(dut_->cnt, 9 * k, 9));
            chk.eq("out.mok", i.out.mok, get_bits(dut_->mok, k, 1));
            chk.eq("out.ev_rel", i.out.ev_rel, get_bits(dut_->ev_rel, 4 * k, 4));
            chk.eq("out.ev_rel_stale", i.out.ev_rel_stale, get_bits(dut_->ev_rel_stale, 4 * k, 4));
            chk.eq("out.err", i.out.err, get_bits(dut_->err, 3 * k, 3));
        }
        dut_.edge();
        const Vdut___024root *root = dut_->rootp;
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            sb_commit(&i.cfg, &i.q, &i.d);
            chk.scope(i.label);
            compare_regs(i, kRtl[k], root, chk);
        }
    }

private:
    static bool same(const sb_cfg &a, const sb_cfg &b)
    {
        return a.nslots == b.nslots && a.nregs == b.nregs && a.dws == b.dws;
    }
    static void check_cfg(const sb_cfg &c, const std::string &what)
    {
        char err[256];
        if (sb_cfg_check(&c, err, sizeof err))
            throw cosim::Error(what + ": " + err);
    }

    /* Every input port of the top from the struct (arrays flattened as in rtl/sb.sv). */
    void drive(const sb_in &in)
    {
        Vdut &d = dut_.top();
        cosim::set_mask(d.setvwi, in.setvwi);
        for (unsigned s = 0; s < SM_MAX_SLOTS; s++) {
            set_bits(d.setvwi_vwi, 8 * s, 8, in.setvwi_vwi[s]);
            set_bits(d.chk_n, 4 * s, 4, in.chk_n[s]);
            for (unsigned k = 0; k < SB_MAX_CHK; k++)
                set_bits(d.chk_reg, 16 * (s * SB_MAX_CHK + k), 16, in.chk_reg[s][k]);
        }
        cosim::set_mask(d.chk_v, in.chk_v);
        uint64_t rel_vwi = 0;
        uint8_t rel_v = 0;
        for (unsigned i = 0; i < SB_MAX_REL; i++) {
            rel_v |= (uint8_t)((in.rel[i].v & 1u) << i);
            set_bits(d.rel_slots, 128 * i, 64, (uint64_t)in.rel[i].slots);
            set_bits(d.rel_slots, 128 * i + 64, 64, (uint64_t)(in.rel[i].slots >> 64));
            rel_vwi |= (uint64_t)in.rel[i].vwi << (8 * i);
            set_bits(d.rel_reg, 16 * i, 16, in.rel[i].reg);
        }
        d.rel_v = rel_v;
        d.rel_vwi = rel_vwi;
        uint32_t res_slot = 0, res_n = 0, res_v = 0;
        for (unsigned j = 0; j < SB_RES_PORTS; j++) {
            res_v |= (in.res[j].v & 1u) << j;
            res_slot |= (uint32_t)(in.res[j].slot & 127u) << (7 * j);
            res_n |= (uint32_t)(in.res[j].n & 7u) << (3 * j);
            for (unsigned k = 0; k < SB_MAX_DST; k++)
                set_bits(d.res_reg, 16 * (j * SB_MAX_DST + k), 16, in.res[j].reg[k]);
        }
        d.res_v = (CData)res_v;
        d.res_slot = res_slot;
        d.res_n = (SData)res_n;
        d.cnt_v = in.cnt_v & 1u;
        d.cnt_slot = in.cnt_slot & 127u;
        d.copy_v = in.copy.v & 1u;
        d.copy_src = in.copy.src & 127u;
        d.copy_dst = in.copy.dst & 127u;
        d.copy_n = in.copy.n & 7u;
        for (unsigned k = 0; k < SB_MAX_DST; k++)
            set_bits(d.copy_reg, 16 * k, 16, in.copy.reg[k]);
        d.merge_v = in.merge.v & 1u;
        d.merge_dst = in.merge.dst & 127u;
        d.merge_src = in.merge.src & 127u;
        d.mchk_v = in.mchk.v & 1u;
        d.mchk_a = in.mchk.a & 127u;
        d.mchk_b = in.mchk.b & 127u;
    }

    static void compare_regs(const CInst &i, const RtlInst &r, const Vdut___024root *root,
                             cosim::Checker &chk)
    {
        const unsigned nregs = i.cfg.nregs;
        for (unsigned s = 0; s < SM_MAX_SLOTS; s++) {
            bool live = s < i.cfg.nslots;
            for (unsigned w = 0; w < SB_WORDS; w++) {
                unsigned lo = 64 * w;
                uint64_t rtl = 0;
                if (live && lo < nregs)
                    rtl = r.pend(root, s * nregs + lo, std::min(64u, nregs - lo));
                if (i.q.pend[s][w] != rtl) {
                    std::string f = std::string(live ? "regs.pend" : "regs.pend (above nslots)") +
                                    "[" + std::to_string(s) + "] bits " + std::to_string(lo) +
                                    ".." + std::to_string(lo + 63);
                    chk.eq(f.c_str(), i.q.pend[s][w], rtl);
                }
            }
            uint64_t rv = live ? r.vwi(root, 8 * s, 8) : s;   /* unused rows keep vwi = s */
            if (i.q.vwi[s] != rv)
                chk.eq(live ? "regs.vwi" : "regs.vwi (above nslots)", (int)s, i.q.vwi[s], rv);
        }
    }

    /* ---------------------------------------------------------------- stimulus */

    void traffic_reset()
    {
        Traffic &t = traffic_;
        t.flights.clear();
        for (unsigned s = 0; s < SM_MAX_SLOTS; s++) {
            t.vwi[s] = (uint8_t)s;
            t.nrecent[s] = t.pos[s] = 0;
        }
    }

    void new_pattern(cosim::Rng &r)
    {
        static const unsigned wins[] = {1, 2, 5, 8, 16, 48, 48, 64, 100, 128};
        static const unsigned res_pcts[] = {0, 10, 40, 80, 100};
        static const unsigned chk_pcts[] = {0, 5, 30, 90};
        static const unsigned spans[] = {4, 16, 64, 300, 65536};
        Traffic &t = traffic_;
        if (r.chance(3)) {          /* fill slot 0: all of its pending bits, the count's top */
            t.left = 800;
            t.win = 1;
            t.ports = 4;
            t.res_pct = 100;
            t.chk_pct = 30;
            t.set_pct = 0;
            t.lat_lo = 300;
            t.lat_hi = 700;
            t.reg_span = 256;
            t.cnt_pct = 50;
            t.junk_pct = 0;
            t.copy_pct = t.merge_pct = t.mchk_pct = 0;
            return;
        }
        t.left = 1 + r.below(400);
        t.win = wins[r.below(10)];
        t.ports = r.chance(30) ? 4 : 1 + r.below(2);
        t.res_pct = res_pcts[r.below(5)];
        t.chk_pct = chk_pcts[r.below(4)];
        t.set_pct = r.chance(20) ? 15 : r.below(3);
        if (r.chance(30)) {
            t.lat_lo = 50;
            t.lat_hi = 400;
        } else {
            t.lat_lo = 1;
            t.lat_hi = 1 + r.below(30);
        }
        t.reg_span = spans[r.below(5)];
        t.cnt_pct = r.chance(50) ? 50 : 5;
        t.junk_pct = r.chance(10) ? 20 : 2;
        static const unsigned dws_pcts[] = {1, 5, 20};
        bool dws = !r.chance(33);
        t.copy_pct = dws ? dws_pcts[r.below(3)] : 0;
        t.merge_pct = dws ? dws_pcts[r.below(3)] : 0;
        t.mchk_pct = dws ? (r.chance(50) ? 50 : 10) : 0;
    }

    uint16_t pick_reg(cosim::Rng &r) { return (uint16_t)r.below(traffic_.reg_span); }

    /* Slots (re)assigned: a CTA launch (VWI = slot) or a swap (another warp's VWI). */
    void gen_setvwi(cosim::Rng &r, sb_in &in, bool junk)
    {
        Traffic &t = traffic_;
        if (!r.chance(t.set_pct) && !(junk && r.chance(30)))
            return;
        unsigned n = 1 + r.below(r.chance(20) ? 8 : 2);
        for (unsigned i = 0; i < n; i++) {
            unsigned s = junk && r.chance(30) ? r.below(SM_MAX_SLOTS) : r.below(t.win);
            uint8_t v;
            switch (r.below(4)) {
            case 0: v = (uint8_t)s; break;
            case 1: v = t.vwi[s]; break;                       /* same owner again */
            case 2: v = (uint8_t)(s + 64 * (1 + r.below(3))); break;
            default: v = (uint8_t)r.below(256); break;
            }
            in.setvwi |= slot_bit(s);
            in.setvwi_vwi[s] = v;
            t.vwi[s] = v;
            t.nrecent[s] = 0;
        }
    }

    /* A slot for a DWS port: in the window, or (junk) any 7-bit index. */
    uint8_t dws_slot(cosim::Rng &r, bool junk)
    {
        return (uint8_t)(junk && r.chance(20) ? r.below(SM_MAX_SLOTS) : r.below(traffic_.win));
    }

    /* Whether a copy or merge comes this cycle (pct, or junk); its two slots: distinct ones
       of the window, or (junk) equal or any 7-bit index. */
    bool dws_pair(cosim::Rng &r, unsigned pct, bool junk, uint8_t &a, uint8_t &b)
    {
        Traffic &t = traffic_;
        if ((!r.chance(pct) || t.win < 2) && !(junk && r.chance(20)))
            return false;
        a = dws_slot(r, junk);
        b = dws_slot(r, junk);
        if (a == b && !(junk && r.chance(30)))
            b = (uint8_t)((a + 1) % t.win);
        return true;
    }

    /* A split: dst takes src's row (minus a memory split's registers) and VWI. */
    void gen_copy(cosim::Rng &r, sb_in &in, bool junk)
    {
        Traffic &t = traffic_;
        sb_copy &c = in.copy;
        if (!dws_pair(r, t.copy_pct, junk, c.src, c.dst))
            return;
        c.v = 1;
        if (junk && r.chance(20) && in.setvwi)
            c.dst = (uint8_t)slot_ctz(in.setvwi);              /* a row set-VWI writes */
        unsigned have = t.nrecent[c.src];
        c.n = r.chance(60) ? 0 : (uint8_t)(1 + r.below(SB_MAX_DST));
        if (junk && r.chance(30))
            c.n = (uint8_t)(5 + r.below(3));
        for (unsigned k = 0; k < SB_MAX_DST; k++)
            c.reg[k] = have && r.chance(80) ? t.recent[c.src][r.below(have)] : pick_reg(r);
        if (c.src >= t.win || c.dst >= t.win || c.src == c.dst || slot_has(in.setvwi, c.dst) ||
            c.n > SB_MAX_DST)
            return;                          /* ignored by sb: the bookkeeping stays */
        for (Flight &f : t.flights) {
            bool left_out = false;
            for (unsigned k = 0; k < c.n; k++)
                left_out |= f.reg == c.reg[k];
            f.slots &= ~slot_bit(c.dst);
            if (slot_has(f.slots, c.src) && !left_out)
                f.slots |= slot_bit(c.dst);
        }
        t.vwi[c.dst] = t.vwi[c.src];
        std::memcpy(t.recent[c.dst], t.recent[c.src], sizeof t.recent[0]);
        t.nrecent[c.dst] = t.nrecent[c.src];
    }

    /* A merge: dst takes src's pending bits, src's row empties (its writes now name dst). */
    void gen_merge(cosim::Rng &r, sb_in &in, bool junk)
    {
        Traffic &t = traffic_;
        sb_merge &m = in.merge;
        if (!dws_pair(r, t.merge_pct, junk, m.dst, m.src))
            return;
        m.v = 1;
        bool clash = in.copy.v && (in.copy.dst == m.dst || in.copy.dst == m.src);
        if (clash && !(junk && r.chance(50))) {
            m.v = 0;
            return;
        }
        if (m.src >= t.win || m.dst >= t.win || m.src == m.dst || clash ||
            slot_has(in.setvwi, m.dst) || slot_has(in.setvwi, m.src))
            return;
        for (Flight &f : t.flights)
            if (slot_has(f.slots, m.src))
                f.slots = (f.slots & ~slot_bit(m.src)) | slot_bit(m.dst);
    }

    void gen_mchk(cosim::Rng &r, sb_in &in, bool junk)
    {
        Traffic &t = traffic_;
        if (!r.chance(t.mchk_pct) && !(junk && r.chance(20)))
            return;
        in.mchk.v = 1;
        in.mchk.a = dws_slot(r, junk);
        in.mchk.b = r.chance(10) ? in.mchk.a : dws_slot(r, junk);
    }

    /* Writebacks due now (up to 8; the rest wait a cycle), plus junk ones. */
    void gen_releases(cosim::Rng &r, sb_in &in, bool junk)
    {
        Traffic &t = traffic_;
        unsigned n = 0;
        for (size_t f = 0; f < t.flights.size() && n < SB_MAX_REL;) {
            const Flight &fl = t.flights[f];
            if (fl.due > t.now) {
                f++;
                continue;
            }
            sb_rel &rel = in.rel[n++];
            rel.v = 1;
            rel.slots = fl.slots;
            if (t.copy_pct && r.chance(10))    /* a slot of another warp: no effect there */
                rel.slots |= slot_bit(r.below(t.win));
            rel.vwi = fl.vwi;
            rel.reg = fl.reg;
            t.flights[f] = t.flights.back();
            t.flights.pop_back();
        }
        if (junk) {
            for (unsigned k = r.below(3); k > 0 && n < SB_MAX_REL; k--) {
                sb_rel &rel = in.rel[n++];
                unsigned s = r.below(SM_MAX_SLOTS);
                rel.v = 1;
                rel.slots = r.chance(20) ? r.mask128(3) | slot_bit(s) : slot_bit(s);
                rel.vwi = r.chance(50) ? (uint8_t)r.below(256) : t.vwi[s];
                rel.reg = pick_reg(r);
            }
        }
        /* the SM fills ports from 0 up; spread them now and then */
        if (n && n < SB_MAX_REL && r.chance(10))
            std::swap(in.rel[r.below(n)], in.rel[n + r.below(SB_MAX_REL - n)]);
    }

    /* Issued instructions' destinations; their writebacks are scheduled. */
    void gen_reserves(cosim::Rng &r, sb_in &in, bool junk)
    {
        Traffic &t = traffic_;
        for (unsigned j = 0; j < t.ports; j++) {
            if (!r.chance(t.res_pct))
                continue;
            sb_res &res = in.res[j];
            res.v = 1;
            res.slot = (uint8_t)(junk && r.chance(30) ? r.below(SM_MAX_SLOTS) : r.below(t.win));
            static const uint8_t ns[] = {0, 1, 1, 1, 1, 1, 2, 2, 3, 4};
            res.n = junk && r.chance(30) ? (uint8_t)(5 + r.below(3)) : ns[r.below(10)];
            bool vec = r.chance(50);
            uint64_t due = t.now + t.lat_lo + r.below(t.lat_hi - t.lat_lo + 1);
            for (unsigned k = 0; k < SB_MAX_DST; k++) {
                res.reg[k] = pick_reg(r);
                if (k >= res.n)
                    continue;
                if (!vec)
                    due = t.now + t.lat_lo + r.below(t.lat_hi - t.lat_lo + 1);
                if (t.flights.size() < 4096)
                    t.flights.push_back(Flight{due, slot_bit(res.slot), t.vwi[res.slot],
                                               res.reg[k]});
                t.recent[res.slot][t.pos[res.slot]++ % kRecent] = res.reg[k];
                if (t.nrecent[res.slot] < kRecent)
                    t.nrecent[res.slot]++;
            }
        }
    }

    /* Each checked slot's I-buffer head: recently reserved registers or any. */
    void gen_checks(cosim::Rng &r, sb_in &in, bool junk)
    {
        Traffic &t = traffic_;
        for (unsigned s = 0; s < t.win; s++) {
            if (!r.chance(t.chk_pct))
                continue;
            in.chk_v |= slot_bit(s);
            fill_check(r, in, s, junk);
        }
        if (junk && r.chance(30)) {
            unsigned s = r.below(SM_MAX_SLOTS);
            in.chk_v |= slot_bit(s);
            fill_check(r, in, s, junk);
        }
    }
    void fill_check(cosim::Rng &r, sb_in &in, unsigned s, bool junk)
    {
        Traffic &t = traffic_;
        static const uint8_t ns[] = {0, 1, 2, 2, 3, 3, 4, 5, 6, 8};
        in.chk_n[s] = junk && r.chance(30) ? (uint8_t)(9 + r.below(7)) : ns[r.below(10)];
        unsigned have = t.nrecent[s];
        for (unsigned k = 0; k < SB_MAX_CHK; k++)
            in.chk_reg[s][k] = have && r.chance(60) ? t.recent[s][r.below(have)] : pick_reg(r);
    }

    cosim::Dut<Vdut> dut_;
    CInst inst_[kInst];
    sb_cfg cfg0_{};
    Traffic traffic_;
};

} /* namespace */

int main(int argc, char **argv)
{
    return cosim::run<SbHarness>(argc, argv);
}
