/*
 * pas_cosim.cpp -- lockstep co-simulation of VTW's progress-aware scheduler: model/sm/pas.c
 * (from libgpusim.a, the code the GPU model runs) against rtl/pas.sv, Verilated through
 * tb/pas_top.sv.
 *
 * The top holds three instances driven by the same inputs: u0 is the configuration's (its
 * parameters come from gpusim_params.vh, generated from --config's file), u1 has 130 contexts,
 * 64 CTA slots and 4 schedulers, u2 5 contexts, 2 CTA slots and 1 scheduler.  Every cycle, for
 * every instance: key[x] for x < nctx and the 256 ahead bits after the combinational settle,
 * then after the clock edge every register of struct pas_regs -- iter[x] (x < nctx), low[t]
 * and nnext[t] (t < nctas).
 *
 * Random stimulus follows the SM's port rules: each traffic pattern (a few hundred cycles)
 * sizes its contexts and CTA slots like one of the instances (the others see entries they
 * ignore); CTAs of 1-32 (or 1-3) warps launch onto free contexts (cta_launch for one cycle,
 * ctx_cta, cta_nw, ctx_valid), warps exit, a CTA whose warps all exited retires; per scheduler an issue of a
 * live context, a nexttbid with the pattern's probability, held while the focused instance
 * says the warp is ahead (as the SM will, except in 3 % of patterns); insns count issues and
 * clear at a nexttbid, drawn from a few values (ties) or any value; prog is the CTA's sum or
 * any value; warps arrive at a barrier, which releases when all have (or now and then), nbar
 * counts them; a quarter of the patterns are in the slow phase.  2 % of cycles are
 * unconstrained (any bit of every port): pas.h defines those too.  Usage: see cosim.h.
 */
#include <cstdio>
#include <string>

#include "Vdut.h"
#include "Vdut___024root.h"
#include "cosim.h"

extern "C" {
#include "sm/pas.h"
}

namespace {

/* The RTL side of one instance uK of tb/pas_top.sv: parameters, outputs, registers. */
struct RtlInst {
    uint32_t nctx, nctas, nsched;
    uint64_t (*key)(const Vdut &, uint32_t x);
    uint64_t (*ahead)(const Vdut &, uint32_t word);
    uint64_t (*iter)(const Vdut___024root *, uint32_t x);
    uint64_t (*low)(const Vdut___024root *, uint32_t t);
    uint64_t (*nnext)(const Vdut___024root *, uint32_t t);
};

#define PAS_U(k, sig) pas_top__DOT__u##k##__DOT__##sig
#define PAS_INST(k)                                                                         \
    RtlInst{Vdut___024root::PAS_U(k, NCTX), Vdut___024root::PAS_U(k, NCTAS),              \
            Vdut___024root::PAS_U(k, NSCHED),                                              \
            [](const Vdut &d, uint32_t x) { return cosim::get_bits(d.key##k, 16 * x, 16); }, \
            [](const Vdut &d, uint32_t w) { return cosim::get_bits(d.ahead##k, 64 * w, 64); }, \
            [](const Vdut___024root *r, uint32_t x) {                                      \
                return cosim::get_bits(r->PAS_U(k, iter), 32 * x, 32); },                  \
            [](const Vdut___024root *r, uint32_t t) {                                      \
                return cosim::get_bits(r->PAS_U(k, low), 32 * t, 32); },                   \
            [](const Vdut___024root *r, uint32_t t) {                                      \
                return cosim::get_bits(r->PAS_U(k, nnext), 8 * t, 8); }}

const RtlInst kRtl[] = {PAS_INST(0), PAS_INST(1), PAS_INST(2)};
constexpr unsigned kInst = sizeof kRtl / sizeof kRtl[0];

/* The C side of one instance. */
struct CInst {
    pas_cfg cfg;
    pas_regs q, d;
    pas_out out;
    std::string label;
};

std::string cfg_text(const pas_cfg &c)
{
    return "nctx=" + std::to_string(c.nctx) + " nctas=" + std::to_string(c.nctas) +
           " nsched=" + std::to_string(c.nsched);
}

/* Stimulus state: the universe of the pattern, the CTAs and warps in it, the counters. */
struct Traffic {
    unsigned focus = 0;               /* the instance whose sizes the pattern uses */
    unsigned nctx = 0, nctas = 0;
    uint8_t ctx_cta[SM_MAX_CTX];
    uint8_t cta_nw[SM_MAX_CTAS] = {};
    uint64_t valid[PAS_CTX_WORDS] = {};
    uint32_t insns[SM_MAX_CTX] = {};
    uint8_t at_bar[SM_MAX_CTX] = {};
    uint32_t prog_any[SM_MAX_CTAS] = {};
    uint8_t slow = 0;
    unsigned left = 0;                /* cycles left in this pattern */
    unsigned launch_pct = 20, exit_pct = 1, issue_pct = 60, ntb_pct = 20, bar_pm = 2;
    bool hold = true, few = true, prog_sum = true, small = false;  /* small: 1-3 warps per CTA */
    Traffic() { std::memset(ctx_cta, PAS_NO_CTA, sizeof ctx_cta); }
};

class PasHarness {
public:
    using In = pas_in;
    static const char *name() { return "pas"; }

    explicit PasHarness(const cosim::Options &o)
    {
        pas_cfg conf = cosim::block_cfg<pas_cfg>(o.config, "pas");
        for (unsigned k = 0; k < kInst; k++) {
            pas_cfg c;
            std::memset(&c, 0, sizeof c);
            c.nctx = (uint16_t)kRtl[k].nctx;
            c.nctas = (uint8_t)kRtl[k].nctas;
            c.nsched = (uint8_t)kRtl[k].nsched;
            inst_[k].cfg = c;
            inst_[k].label = "u" + std::to_string(k) + " " + cfg_text(c);
            check_cfg(c, "tb/pas_top.sv u" + std::to_string(k));
        }
        cfg0_ = conf;
        if (!same(conf, inst_[0].cfg))
            throw cosim::Error("the RTL was built for pas " + cfg_text(inst_[0].cfg) +
                               " but " + o.config + " gives " + cfg_text(conf) +
                               " (build with COSIM_CONFIG=<that configuration>)");
    }
    cosim::Dut<Vdut> &dut() { return dut_; }

    void configure(const void *cfg, uint32_t size)
    {
        pas_cfg c = cfg0_;
        if (cfg) {
            if (size != sizeof c)
                throw cosim::Error("recorded pas cfg is " + std::to_string(size) +
                                   " bytes, sizeof(struct pas_cfg) is " +
                                   std::to_string(sizeof c));
            std::memcpy(&c, cfg, sizeof c);
            check_cfg(c, "the recording's cfg");
            if (!same(c, inst_[0].cfg))
                throw cosim::Error("the recording's pas cfg is " + cfg_text(c) +
                                   ", the RTL (u0) was built for " + cfg_text(inst_[0].cfg) +
                                   " (record and build with the same configuration)");
        }
        inst_[0].cfg = c;
    }

    void reset()
    {
        for (CInst &i : inst_) {
            pas_reset(&i.cfg, &i.q);
            i.d = i.q;
            std::memset(&i.out, 0, sizeof i.out);
        }
        pas_in zero;
        std::memset(&zero, 0, sizeof zero);
        drive(zero);
        dut_.reset();
        traffic_ = Traffic();
    }

    void random(cosim::Rng &r, pas_in &in)
    {
        Traffic &t = traffic_;
        if (t.left == 0)
            new_pattern(r);
        t.left--;
        if (r.chance(2)) {
            unconstrained(r, in);
            return;
        }
        retire_and_exit(r);
        launch(r, in);
        issues(r, in);
        counters(r, in);
        std::memcpy(in.ctx_cta, t.ctx_cta, sizeof in.ctx_cta);
        std::memcpy(in.cta_nw, t.cta_nw, sizeof in.cta_nw);
        std::memcpy(in.ctx_valid, t.valid, sizeof in.ctx_valid);
        in.slow = t.slow;
    }

    void step(const pas_in &in, cosim::Checker &chk)
    {
        drive(in);
        dut_.settle();
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            const RtlInst &r = kRtl[k];
            pas_eval(&i.cfg, &i.q, &in, &i.out, &i.d);
            chk.scope(i.label);
            for (uint32_t x = 0; x < i.cfg.nctx; x++)
                chk.eq("out.key", (int)x, i.out.key[x], r.key(dut_.top(), x));
            for (uint32_t w = 0; w < PAS_CTX_WORDS; w++)
                chk.eq("out.ahead", (int)w, i.out.ahead[w], r.ahead(dut_.top(), w));
        }
        dut_.edge();
        const Vdut___024root *root = dut_->rootp;
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            const RtlInst &r = kRtl[k];
            pas_commit(&i.cfg, &i.q, &i.d);
            chk.scope(i.label);
            for (uint32_t x = 0; x < i.cfg.nctx; x++)
                chk.eq("regs.iter", (int)x, i.q.iter[x], r.iter(root, x));
            for (uint32_t t = 0; t < i.cfg.nctas; t++) {
                chk.eq("regs.low", (int)t, i.q.low[t], r.low(root, t));
                chk.eq("regs.nnext", (int)t, i.q.nnext[t], r.nnext(root, t));
            }
        }
    }

private:
    static bool same(const pas_cfg &a, const pas_cfg &b)
    {
        return a.nctx == b.nctx && a.nctas == b.nctas && a.nsched == b.nsched;
    }
    static void check_cfg(const pas_cfg &c, const std::string &what)
    {
        char err[256];
        if (pas_cfg_check(&c, err, sizeof err))
            throw cosim::Error(what + ": " + err);
    }
    /* Every input port of the top from the struct (flattened as in rtl/pas.sv). */
    void drive(const pas_in &in)
    {
        Vdut &d = dut_.top();
        d.issued_v = d.issued_ntb = 0;
        d.issued_ctx = 0;
        for (unsigned k = 0; k < PAS_MAX_SCHED; k++) {
            cosim::set_bits(d.issued_v, k, 1, in.issued[k].v);
            cosim::set_bits(d.issued_ctx, 8 * k, 8, in.issued[k].ctx);
            cosim::set_bits(d.issued_ntb, k, 1, in.issued[k].ntb);
        }
        d.cta_launch = in.cta_launch;
        d.slow = in.slow & 1;
        for (unsigned x = 0; x < SM_MAX_CTX; x++) {
            cosim::set_bits(d.ctx_cta, 8 * x, 8, in.ctx_cta[x]);
            cosim::set_bits(d.insns, 32 * x, 32, in.insns[x]);
            cosim::set_bits(d.at_bar, x, 1, in.at_bar[x]);
        }
        for (unsigned w = 0; w < PAS_CTX_WORDS; w++)
            cosim::set_bits(d.ctx_valid, 64 * w, 64, in.ctx_valid[w]);
        for (unsigned t = 0; t < SM_MAX_CTAS; t++) {
            cosim::set_bits(d.cta_nw, 6 * t, 6, in.cta_nw[t]);
            cosim::set_bits(d.prog, 32 * t, 32, in.prog[t]);
            cosim::set_bits(d.nbar, 6 * t, 6, in.nbar[t]);
        }
    }
    void new_pattern(cosim::Rng &r)
    {
        static const unsigned launch_pcts[] = {0, 5, 30, 100};
        static const unsigned ntb_pcts[] = {0, 5, 20, 60, 100};
        Traffic &t = traffic_;
        unsigned focus = r.below(kInst);
        if (focus != t.focus || t.nctx == 0) {         /* a new universe: start empty */
            std::memset(t.ctx_cta, PAS_NO_CTA, sizeof t.ctx_cta);
            std::memset(t.cta_nw, 0, sizeof t.cta_nw);
            std::memset(t.valid, 0, sizeof t.valid);
            t.focus = focus;
            t.nctx = inst_[focus].cfg.nctx;
            t.nctas = inst_[focus].cfg.nctas;
        }
        t.left = 1 + r.below(400);
        t.launch_pct = launch_pcts[r.below(4)];
        t.exit_pct = r.chance(20) ? 5 : r.below(2);
        t.issue_pct = r.chance(20) ? 100 : 20 + r.below(60);
        t.ntb_pct = ntb_pcts[r.below(5)];
        static const unsigned bar_permille[] = {0, 2, 10, 50};
        t.bar_pm = bar_permille[r.below(4)];
        t.slow = r.chance(25);
        t.hold = !r.chance(3);
        t.few = r.chance(60);
        t.prog_sum = r.chance(70);
        t.small = r.chance(30);
    }
    /* A CTA whose warps all exited retires (its contexts are free); live warps exit. */
    void retire_and_exit(cosim::Rng &r)
    {
        Traffic &t = traffic_;
        uint64_t alive = 0;
        for (unsigned x = 0; x < t.nctx; x++) {
            if (t.ctx_cta[x] >= t.nctas)
                continue;
            if (pas_has(t.valid, x) && r.chance(t.exit_pct) && r.chance(10))
                t.valid[x / 64] &= ~(1ull << (x % 64));
            if (pas_has(t.valid, x))
                alive |= 1ull << t.ctx_cta[x];
        }
        for (unsigned x = 0; x < t.nctx; x++)
            if (t.ctx_cta[x] < t.nctas && !(alive >> t.ctx_cta[x] & 1) && r.chance(50))
                t.ctx_cta[x] = PAS_NO_CTA;           /* (all of a CTA's, over a few cycles) */
    }
    /* At most one CTA launches per cycle, onto free contexts chosen at random. */
    void launch(cosim::Rng &r, pas_in &in)
    {
        Traffic &t = traffic_;
        unsigned free_ctx[SM_MAX_CTX], nfree = 0, slot = r.below(t.nctas), nw;
        uint64_t used = 0;
        if (!r.chance(t.launch_pct))
            return;
        for (unsigned x = 0; x < t.nctx; x++) {
            if (t.ctx_cta[x] == PAS_NO_CTA)
                free_ctx[nfree++] = x;
            else if (t.ctx_cta[x] < t.nctas)
                used |= 1ull << t.ctx_cta[x];
        }
        if ((used >> slot & 1) || nfree == 0)
            return;
        nw = 1 + r.below(std::min(nfree, t.small ? 3u : 32u));
        for (unsigned i = 0; i < nw; i++) {
            unsigned j = i + r.below(nfree - i), x = free_ctx[j];
            free_ctx[j] = free_ctx[i];
            t.ctx_cta[x] = (uint8_t)slot;
            t.valid[x / 64] |= 1ull << (x % 64);
            t.insns[x] = 0;
            t.at_bar[x] = 0;
        }
        t.cta_nw[slot] = (uint8_t)nw;
        in.cta_launch = 1ull << slot;
    }
    /* Per scheduler: an issue of a live context, a nexttbid held while the focused instance
       says the warp is ahead. */
    void issues(cosim::Rng &r, pas_in &in)
    {
        Traffic &t = traffic_;
        const pas_out &o = inst_[t.focus].out;
        for (unsigned k = 0; k < PAS_MAX_SCHED; k++) {
            unsigned x = r.below(t.nctx);
            bool dup = false;
            for (unsigned j = 0; j < k; j++)
                dup |= in.issued[j].v && in.issued[j].ctx == x;
            if (!r.chance(t.issue_pct) || !pas_has(t.valid, x) || dup)
                continue;
            in.issued[k].v = 1;
            in.issued[k].ctx = (uint8_t)x;
            in.issued[k].ntb = r.chance(t.ntb_pct) && !(t.hold && pas_has(o.ahead, x));
            t.insns[x] = in.issued[k].ntb ? 0 : t.insns[x] + 1;
        }
    }
    /* insns, at_bar, nbar, prog of this cycle. */
    void counters(cosim::Rng &r, pas_in &in)
    {
        Traffic &t = traffic_;
        uint32_t sum[SM_MAX_CTAS] = {};
        uint8_t nbar[SM_MAX_CTAS] = {}, nw[SM_MAX_CTAS] = {};
        uint64_t release = 0;
        for (unsigned x = 0; x < t.nctx; x++) {
            if (r.chance(3))
                t.insns[x] = t.few ? r.below(3) : r.u32();
            if (r.below(1000) < t.bar_pm)
                t.at_bar[x] = 1;
            if (t.ctx_cta[x] < SM_MAX_CTAS && pas_has(t.valid, x)) {
                nw[t.ctx_cta[x]]++;
                nbar[t.ctx_cta[x]] = (uint8_t)(nbar[t.ctx_cta[x]] + t.at_bar[x]);
            }
        }
        for (unsigned c = 0; c < SM_MAX_CTAS; c++)   /* all arrived (or now and then): release */
            if (nbar[c] && (nbar[c] == nw[c] || r.chance(3))) {
                release |= 1ull << c;
                nbar[c] = 0;
            }
        for (unsigned x = 0; x < t.nctx; x++) {
            if (t.ctx_cta[x] >= SM_MAX_CTAS)
                continue;
            if (release >> t.ctx_cta[x] & 1)
                t.at_bar[x] = 0;
            if (pas_has(t.valid, x))
                sum[t.ctx_cta[x]] += t.insns[x];
        }
        for (unsigned c = 0; c < SM_MAX_CTAS; c++)
            if (r.chance(2))
                t.prog_any[c] = t.few ? r.below(4) : r.u32();
        std::memcpy(in.insns, t.insns, sizeof in.insns);
        std::memcpy(in.at_bar, t.at_bar, sizeof in.at_bar);
        std::memcpy(in.prog, t.prog_sum ? sum : t.prog_any, sizeof in.prog);
        std::memcpy(in.nbar, nbar, sizeof in.nbar);
    }
    /* Any bit of every port. */
    static void unconstrained(cosim::Rng &r, pas_in &in)
    {
        auto *b = reinterpret_cast<uint8_t *>(&in);
        for (size_t i = 0; i < sizeof in; i++)
            b[i] = (uint8_t)r.below(256);
        for (unsigned x = 0; x < SM_MAX_CTX; x++)         /* mostly small CTA slots */
            if (r.chance(70))
                in.ctx_cta[x] = (uint8_t)r.below(70);
    }

    cosim::Dut<Vdut> dut_;
    CInst inst_[kInst];
    pas_cfg cfg0_{};
    Traffic traffic_;
};

} /* namespace */

int main(int argc, char **argv)
{
    return cosim::run<PasHarness>(argc, argv);
}
