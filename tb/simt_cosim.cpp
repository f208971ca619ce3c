/*
 * simt_cosim.cpp -- lockstep co-simulation of the SIMT reconvergence stack: model/sm/simt.c
 * (from libgpusim.a, the code the GPU model runs) against rtl/simt.sv, Verilated through
 * tb/simt_top.sv.
 *
 * The top holds three stacks, each with its own ports and its own stimulus: u0 is the
 * configuration's (parameters from gpusim_params.vh, generated from --config's file;
 * recordings drive it, with the recording's cfg), u1 (IPDOM, 8 warps, depth 4, chunk 2, pop
 * and fill latencies) and u2 (TOKEN, 127 warps: slots up to 126 and 127 as the one beyond
 * nwarps, depth 3) spill, fill and wait all the time, with the DWS ports on (cfg.dws: branch
 * and memory splits, merges, releases from the stimulus; u0 without DWS gets them too and
 * must ignore them); in a replay they idle.  Every cycle, for every instance:
 * every output of struct simt_out after the combinational settle (pc and mask of each warp
 * slot, busy, fin, redirect, req_v and the request's fields where req_v, each spill port's v
 * and, where v, its VWI, index and chunk, saved_v and, where saved_v, the whole saved state,
 * the event counts, err, err_slot), then after the clock edge every register of struct
 * simt_regs: the per-warp registers (VWI included) and flags, rr, each warp's on-chip ring
 * stk[w][0..depth-1].
 *
 * Random stimulus: tb/simt_stim.h (random programs with the model's own reconvergence pcs,
 * the issue latch, launches with a VWI per context, the memory side with the spill images --
 * spill data written from the spill ports, fill data read back at the request's address --,
 * saves and restores of contexts into other slots, inputs simt.h defines as errors).
 * Rarely, a backdoor writes the same corner state into both sides (full stack and memory
 * image, an empty stack under an rpc): no input sequence reaches SIMT_E_OVERFLOW or
 * SIMT_E_STACK.  After the random phase it prints what each instance did.  Usage: see
 * cosim.h (--help).
 */
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Vdut.h"
#include "Vdut___024root.h"
#include "cosim.h"
#include "simt_stim.h"

namespace {

using Root = Vdut___024root;
constexpr unsigned kEntBits = 97;          /* {type, mask, rpc, pc} */
constexpr unsigned kSlots = SM_MAX_SLOTS;

/* ------------------------------------------------------------------ port bit slices */

inline uint64_t low_mask(unsigned n) { return n >= 64 ? ~0ull : ((1ull << n) - 1ull); }

inline uint64_t wbits(const uint32_t *w, unsigned lo, unsigned n)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < n;) {
        unsigned b = lo + i, sh = b % 32, take = std::min(32u - sh, n - i);
        r |= (uint64_t)((w[b / 32] >> sh) & (uint32_t)low_mask(take)) << i;
        i += take;
    }
    return r;
}

inline void wput(uint32_t *w, unsigned lo, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n;) {
        unsigned b = lo + i, sh = b % 32, take = std::min(32u - sh, n - i);
        uint32_t m = (uint32_t)low_mask(take) << sh;
        w[b / 32] = (w[b / 32] & ~m) | ((uint32_t)(v >> i) << sh & m);
        i += take;
    }
}

template <class T> uint64_t pget(const T &p, unsigned lo, unsigned n)
{
    return (uint64_t)p >> lo & low_mask(n);
}
template <std::size_t W> uint64_t pget(const VlWide<W> &p, unsigned lo, unsigned n)
{
    return wbits(p.data(), lo, n);
}
template <class T> void pput(T &p, unsigned lo, unsigned n, uint64_t v)
{
    uint64_t m = low_mask(n) << lo;
    p = (T)(((uint64_t)p & ~m) | (v << lo & m));
}
template <std::size_t W> void pput(VlWide<W> &p, unsigned lo, unsigned n, uint64_t v)
{
    wput(p.data(), lo, n, v);
}

/* A 97-bit entry {type, mask, rpc, pc} of a port at bit lo. */
template <class P> void put_ent(P &p, unsigned lo, const simt_ent &e)
{
    pput(p, lo, 32, e.pc);
    pput(p, lo + 32, 32, e.rpc);
    pput(p, lo + 64, 32, e.mask);
    pput(p, lo + 96, 1, e.type);
}
template <class P> void cmp_ent(cosim::Checker &chk, const std::string &f, const simt_ent &e,
                                const P &p, unsigned lo)
{
    chk.eq((f + ".pc").c_str(), e.pc, pget(p, lo, 32));
    chk.eq((f + ".rpc").c_str(), e.rpc, pget(p, lo + 32, 32));
    chk.eq((f + ".mask").c_str(), e.mask, pget(p, lo + 64, 32));
    chk.eq((f + ".type").c_str(), e.type, pget(p, lo + 96, 1));
}

/* A flag register [NW-1:0] (CData .. VlWide, by NW) as a slotmask, and back. */
template <class T> slotmask vmask(const T &v) { return (slotmask)(uint64_t)v; }
template <std::size_t W> slotmask vmask(const VlWide<W> &v)
{
    slotmask m = 0;
    for (std::size_t i = 0; i < W && i < 4; i++)
        m |= (slotmask)v.data()[i] << (32 * i);
    return m;
}
template <class T> void vset(T &v, slotmask m) { v = (T)(uint64_t)m; }
template <std::size_t W> void vset(VlWide<W> &v, slotmask m)
{
    for (std::size_t i = 0; i < W; i++)
        v.data()[i] = i < 4 ? (uint32_t)(m >> (32 * i)) : 0u;
}

/* Two slot masks, as two 64-bit halves. */
void eq_mask(cosim::Checker &chk, const char *f, slotmask c, slotmask rtl)
{
    chk.eq(f, 0, (uint64_t)c, (uint64_t)rtl);
    chk.eq(f, 1, (uint64_t)(c >> 64), (uint64_t)(rtl >> 64));
}

/* ------------------------------------------------------------------ RTL instances */

/* One instance uK of tb/simt_top.sv: its elaborated parameters and a register comparison. */
struct RtlInst {
    uint32_t nw, policy, depth, chunk, popc, fillc, eb, sm_id, dws;
    uint64_t spill_base;
    uint32_t spill_stride;
    void (*cmp)(cosim::Checker &, const simt_regs &, const Root *);
    /* Backdoor: warp w's registers and every flag vector of the C block's q into the RTL. */
    void (*poke)(Root *, unsigned w, const simt_regs &);
};

/* The flag registers of one instance (slotmasks of its [NW-1:0] vectors). */
struct Flags {
    slotmask live, fin, spq, flq, flw, popq, tmr, hold;
};

/* Every register of simt_regs of one instance against the C block's q. */
template <class U32, class U8, class STK>
void cmp_regs(cosim::Checker &chk, const simt_regs &c, unsigned nw, unsigned depth,
              const U32 &pc, const U32 &mask, const U32 &rpc, const U32 &alive, const U8 &cnt,
              const U8 &base, const U8 &nspill, const U8 &timer, const U8 &vwi, const U8 &hdepth,
              const Flags &f, uint32_t rr, const STK &stk)
{
    for (unsigned w = 0; w < nw; w++) {
        chk.eq("regs.pc", (int)w, c.pc[w], pc[w]);
        chk.eq("regs.mask", (int)w, c.mask[w], mask[w]);
        chk.eq("regs.rpc", (int)w, c.rpc[w], rpc[w]);
        chk.eq("regs.alive", (int)w, c.alive[w], alive[w]);
        chk.eq("regs.cnt", (int)w, c.cnt[w], cnt[w]);
        chk.eq("regs.base", (int)w, c.base[w], base[w]);
        chk.eq("regs.nspill", (int)w, c.nspill[w], nspill[w]);
        chk.eq("regs.timer", (int)w, c.timer[w], timer[w]);
        chk.eq("regs.vwi", (int)w, c.vwi[w], vwi[w]);
        chk.eq("regs.hdepth", (int)w, c.hdepth[w], hdepth[w]);
    }
    eq_mask(chk, "regs.live", c.live, f.live);
    eq_mask(chk, "regs.fin", c.fin, f.fin);
    eq_mask(chk, "regs.spq", c.spq, f.spq);
    eq_mask(chk, "regs.flq", c.flq, f.flq);
    eq_mask(chk, "regs.flw", c.flw, f.flw);
    eq_mask(chk, "regs.popq", c.popq, f.popq);
    eq_mask(chk, "regs.tmr", c.tmr, f.tmr);
    eq_mask(chk, "regs.hold", c.hold, f.hold);
    chk.eq("regs.rr", c.rr, rr);
    for (unsigned w = 0; w < nw; w++) {
        const uint32_t *s = stk[w].data();
        for (unsigned k = 0; k < depth; k++) {
            const simt_ent &e = c.stk[w][k];
            unsigned lo = k * kEntBits;
            if (e.pc == wbits(s, lo, 32) && e.rpc == wbits(s, lo + 32, 32) &&
                e.mask == wbits(s, lo + 64, 32) && e.type == wbits(s, lo + 96, 1))
                continue;
            cmp_ent(chk, "regs.stk[" + std::to_string(w) + "][" + std::to_string(k) + "]", e,
                    stk[w], lo);
        }
    }
}

#define SIMT_U(k, sig) simt_top__DOT__u##k##__DOT__##sig
#define SIMT_FLAGS(k, r)                                                                    \
    Flags{vmask(r->SIMT_U(k, live_q)), vmask(r->SIMT_U(k, fin_q)), vmask(r->SIMT_U(k, spq_q)), \
          vmask(r->SIMT_U(k, flq_q)), vmask(r->SIMT_U(k, flw_q)), vmask(r->SIMT_U(k, popq_q)), \
          vmask(r->SIMT_U(k, tmr_q)), vmask(r->SIMT_U(k, hold_q))}
#define SIMT_INST(k)                                                                        \
    RtlInst{Root::SIMT_U(k, NW), Root::SIMT_U(k, POLICY), Root::SIMT_U(k, DEPTH),          \
            Root::SIMT_U(k, CHUNK), Root::SIMT_U(k, POPC), Root::SIMT_U(k, FILLC),         \
            Root::SIMT_U(k, EB), Root::SIMT_U(k, SIMT_SM_ID), Root::SIMT_U(k, DWS_ON),    \
            Root::SIMT_U(k, SIMT_SPILL_BASE), Root::SIMT_U(k, SIMT_SPILL_STRIDE),          \
            [](cosim::Checker &chk, const simt_regs &c, const Root *r) {                   \
                cmp_regs(chk, c, Root::SIMT_U(k, NW), Root::SIMT_U(k, DEPTH),              \
                         r->SIMT_U(k, pc_q), r->SIMT_U(k, mask_q), r->SIMT_U(k, rpc_q),    \
                         r->SIMT_U(k, alive_q), r->SIMT_U(k, cnt_q), r->SIMT_U(k, base_q), \
                         r->SIMT_U(k, nspill_q), r->SIMT_U(k, timer_q),                    \
                         r->SIMT_U(k, vwi_q), r->SIMT_U(k, hdepth_q), SIMT_FLAGS(k, r),    \
                         r->SIMT_U(k, rr_q),                                               \
                         r->SIMT_U(k, stk_q));                                             \
            },                                                                             \
            [](Root *r, unsigned w, const simt_regs &q) {                                  \
                r->SIMT_U(k, pc_q)[w] = q.pc[w];                                           \
                r->SIMT_U(k, mask_q)[w] = q.mask[w];                                       \
                r->SIMT_U(k, rpc_q)[w] = q.rpc[w];                                         \
                r->SIMT_U(k, alive_q)[w] = q.alive[w];                                     \
                r->SIMT_U(k, cnt_q)[w] = q.cnt[w];                                         \
                r->SIMT_U(k, base_q)[w] = q.base[w];                                       \
                r->SIMT_U(k, nspill_q)[w] = q.nspill[w];                                   \
                r->SIMT_U(k, timer_q)[w] = q.timer[w];                                     \
                r->SIMT_U(k, hdepth_q)[w] = q.hdepth[w];                                   \
                vset(r->SIMT_U(k, live_q), q.live);                                        \
                vset(r->SIMT_U(k, fin_q), q.fin);                                          \
                vset(r->SIMT_U(k, spq_q), q.spq);                                          \
                vset(r->SIMT_U(k, flq_q), q.flq);                                          \
                vset(r->SIMT_U(k, flw_q), q.flw);                                          \
                vset(r->SIMT_U(k, popq_q), q.popq);                                        \
                vset(r->SIMT_U(k, tmr_q), q.tmr);                                          \
                vset(r->SIMT_U(k, hold_q), q.hold);                                        \
            }}

const RtlInst kRtl[] = {SIMT_INST(0), SIMT_INST(1), SIMT_INST(2)};
constexpr unsigned kInst = sizeof kRtl / sizeof kRtl[0];

std::string cfg_text(const simt_cfg &c)
{
    char b[256];
    std::snprintf(b, sizeof b, "%s nwarps=%u depth=%u chunk=%u entry_bytes=%u pop=%u fill=%u "
                  "sm=%u spill_base=0x%llx stride=%u dws=%u", simt_policy_name(c.policy),
                  c.nwarps, c.depth, c.chunk, c.entry_bytes, c.pop_cycles, c.fill_cycles,
                  c.sm_id, (unsigned long long)c.spill_base, c.spill_stride, c.dws);
    return b;
}

bool same(const simt_cfg &a, const simt_cfg &b)
{
    return a.nwarps == b.nwarps && a.policy == b.policy && a.depth == b.depth &&
           a.chunk == b.chunk && a.entry_bytes == b.entry_bytes &&
           a.pop_cycles == b.pop_cycles && a.fill_cycles == b.fill_cycles &&
           a.sm_id == b.sm_id && a.spill_base == b.spill_base &&
           a.spill_stride == b.spill_stride && a.dws == b.dws;
}

simt_cfg rtl_cfg(const RtlInst &r)
{
    simt_cfg c;
    std::memset(&c, 0, sizeof c);
    c.nwarps = (uint8_t)r.nw;
    c.policy = (uint8_t)r.policy;
    c.depth = (uint8_t)r.depth;
    c.chunk = (uint8_t)r.chunk;
    c.entry_bytes = (uint8_t)r.eb;
    c.pop_cycles = (uint8_t)r.popc;
    c.fill_cycles = (uint8_t)r.fillc;
    c.sm_id = (uint8_t)r.sm_id;
    c.spill_base = r.spill_base;
    c.spill_stride = r.spill_stride;
    c.dws = (uint8_t)r.dws;
    return c;
}

/* ------------------------------------------------------------------ the harness */

/* What the stimulus made an instance do (printed at the end: the runs exercise the block). */
struct Stats {
    uint64_t cycles = 0, launches = 0, updates = 0, pushes = 0, pops = 0, spills = 0,
             fills = 0, reqs = 0, max_depth = 0, max_pop = 0, max_spill = 0, corners = 0,
             saves = 0, restores = 0, saved_spilled = 0, high = 0, err[11] = {};
    uint64_t bsplits = 0, msplits = 0, merges = 0, rels = 0, arr = 0;   /* DWS */
    uint64_t deepest = 0;          /* cnt + nspill of warps no backdoor corner touched */
    slotmask touched = 0;          /* warps a corner touched (or restored) since their launch */
};

struct CInst {
    simt_cfg cfg{};
    Stats st;
    std::unique_ptr<simt_regs> q, d;
    simt_in in{};
    simt_out out{};
    std::string label;
};

class SimtHarness {
public:
    using In = simt_in;
    static const char *name() { return "simt"; }

    explicit SimtHarness(const cosim::Options &o)
    {
        simt_cfg conf = cosim::block_cfg<simt_cfg>(o.config, "simt");
        cosim::Rng pr(o.seed ^ 0x5157u);
        for (unsigned i = 0; i < 48; i++)
            progs_.push_back(i % 4 == 3 ? loop_prog(pr)
                                        : random_prog(pr, 4 + pr.below(60), i % 4 == 0));
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            i.cfg = rtl_cfg(kRtl[k]);
            i.q.reset(new simt_regs);
            i.d.reset(new simt_regs);
            i.label = "u" + std::to_string(k) + " " + cfg_text(i.cfg);
            check_cfg(i.cfg, "tb/simt_top.sv u" + std::to_string(k));
            drv_[k].init(i.cfg, &progs_, o.seed * 3 + k);
        }
        cfg0_ = conf;
        quiet_ = o.quiet;
        cycles_ = o.cycles;
        if (!same(conf, inst_[0].cfg))
            throw cosim::Error("the RTL was built for simt " + cfg_text(inst_[0].cfg) +
                               " but " + o.config + " gives " + cfg_text(conf) +
                               " (build with COSIM_CONFIG=<that configuration>)");
    }
    cosim::Dut<Vdut> &dut() { return dut_; }

    void configure(const void *cfg, uint32_t size)
    {
        simt_cfg c = cfg0_;
        random_ = cfg == nullptr;
        if (cfg) {
            if (size != sizeof c)
                throw cosim::Error("recorded simt cfg is " + std::to_string(size) +
                                   " bytes, sizeof(struct simt_cfg) is " +
                                   std::to_string(sizeof c));
            std::memcpy(&c, cfg, sizeof c);
            check_cfg(c, "the recording's cfg");
            if (!same(c, inst_[0].cfg))
                throw cosim::Error("the recording's simt cfg is " + cfg_text(c) +
                                   ", the RTL (u0) was built for " + cfg_text(inst_[0].cfg) +
                                   " (record and build with the same configuration)");
        }
        inst_[0].cfg = c;
        for (CInst &i : inst_)
            i.st = Stats{};
        phase_n_ = 0;
    }

    void reset()
    {
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            simt_reset(&i.cfg, i.q.get());
            *i.d = *i.q;
            std::memset(&i.in, 0, sizeof i.in);
            drive(k, i.in);
            drv_[k].reset();
        }
        dut_.reset();
    }

    void random(cosim::Rng &, simt_in &in)
    {
        for (unsigned k = 0; k < kInst; k++)
            drv_[k].make(*inst_[k].q, inst_[k].in);
        in = inst_[0].in;
    }

    void step(const simt_in &in, cosim::Checker &chk)
    {
        inst_[0].in = in;
        if (!random_)                          /* a replay drives u0; u1 and u2 idle */
            for (unsigned k = 1; k < kInst; k++)
                std::memset(&inst_[k].in, 0, sizeof inst_[k].in);
        for (unsigned k = 0; k < kInst; k++)
            drive(k, inst_[k].in);
        dut_.settle();
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            simt_eval(&i.cfg, i.q.get(), &i.in, &i.out, i.d.get());
            chk.scope(i.label);
            cmp_out(k, i.out, chk);
            count(i);
        }
        dut_.edge();
        for (unsigned k = 0; k < kInst; k++) {
            CInst &i = inst_[k];
            simt_commit(&i.cfg, i.q.get(), i.d.get());
            chk.scope(i.label);
            kRtl[k].cmp(chk, *i.q, dut_->rootp);
            deepest(i);
            if (random_) {
                corner(k);
                drv_[k].observe(i.in, i.out, *i.q);
            }
        }
        failed_ = failed_ || chk.failed();
        if (random_ && ++phase_n_ == cycles_ && !quiet_ && !failed_)
            print_stats();
    }

private:
    /* What the random stimulus made each instance do (printed after its last cycle, before
       the summary line): the run exercised what it is meant to. */
    void print_stats() const
    {
        for (const CInst &i : inst_) {
            const Stats &s = i.st;
            std::printf("simt: %s: %llu cycles, %llu launches, %llu updates, %llu pushes, "
                        "%llu pops, %llu spills, %llu fills, %llu requests; per cycle at most "
                        "%llu pops, %llu spills; ev_depth <= %llu; stack <= %llu entries "
                        "(warps no corner touched); %llu saves (%llu with entries in memory), "
                        "%llu restores; %llu cycles with a warp above slot 63 live; errors "
                        "slot %llu busy %llu overflow %llu reconv %llu fill %llu stack %llu "
                        "save %llu restore %llu; %llu backdoor corners\n",
                        i.label.c_str(), (unsigned long long)s.cycles,
                        (unsigned long long)s.launches, (unsigned long long)s.updates,
                        (unsigned long long)s.pushes, (unsigned long long)s.pops,
                        (unsigned long long)s.spills, (unsigned long long)s.fills,
                        (unsigned long long)s.reqs, (unsigned long long)s.max_pop,
                        (unsigned long long)s.max_spill, (unsigned long long)s.max_depth,
                        (unsigned long long)s.deepest, (unsigned long long)s.saves,
                        (unsigned long long)s.saved_spilled, (unsigned long long)s.restores,
                        (unsigned long long)s.high, (unsigned long long)s.err[0],
                        (unsigned long long)s.err[1], (unsigned long long)s.err[2],
                        (unsigned long long)s.err[3], (unsigned long long)s.err[4],
                        (unsigned long long)s.err[5], (unsigned long long)s.err[6],
                        (unsigned long long)s.err[7], (unsigned long long)s.corners);
            std::printf("simt: %s: DWS: %llu branch splits, %llu memory splits, %llu merges, "
                        "%llu releases, %llu arrived slot-cycles; errors split %llu merge %llu "
                        "release %llu\n", i.label.c_str(), (unsigned long long)s.bsplits,
                        (unsigned long long)s.msplits, (unsigned long long)s.merges,
                        (unsigned long long)s.rels, (unsigned long long)s.arr,
                        (unsigned long long)s.err[8], (unsigned long long)s.err[9],
                        (unsigned long long)s.err[10]);
        }
    }

    static void count(CInst &i)
    {
        Stats &s = i.st;
        s.cycles++;
        s.launches += slot_count(i.in.launch & slot_first(i.cfg.nwarps));
        for (const simt_upd &u : i.in.upd)
            s.updates += u.v;
        s.pushes += i.out.ev_push;
        s.pops += i.out.ev_pop;
        s.spills += i.out.ev_spill;
        s.fills += i.out.ev_fill;
        s.reqs += i.out.req_v && i.in.req_ready;
        s.max_depth = std::max<uint64_t>(s.max_depth, i.out.ev_depth);
        s.max_pop = std::max<uint64_t>(s.max_pop, i.out.ev_pop);
        s.max_spill = std::max<uint64_t>(s.max_spill, i.out.ev_spill);
        for (unsigned b = 0; b < 11; b++)
            s.err[b] += i.out.err >> b & 1u;
        for (const simt_upd &u : i.in.upd)
            if (u.v && u.split_v && u.split_slot < i.cfg.nwarps &&
                slot_has(i.d->live & i.d->hold & ~i.d->fin, u.split_slot) &&
                !slot_has(i.q->live & ~i.q->fin, u.split_slot) && i.d->hdepth[u.split_slot] == 0)
                s.bsplits++;
        s.msplits += i.cfg.dws && i.in.split.v && !(i.out.err & SIMT_E_SPLIT);
        s.merges += i.cfg.dws && i.in.merge.v && !(i.out.err & SIMT_E_MERGE);
        s.rels += i.cfg.dws && i.in.rel.v && !(i.out.err & SIMT_E_REL);
        s.arr += slot_count(i.out.arr);
        s.saves += i.out.saved_v;
        s.saved_spilled += i.out.saved_v && i.out.saved.nspill;
        s.restores += i.in.restore_v && !(i.out.err & SIMT_E_RESTORE);
        s.high += (i.q->live >> 64) != 0;
    }

    /* Rarely, a backdoor write of the same state into both sides: corners no input sequence
       reaches, because the stack keeps its invariants (every rpc has its SYNC entry below,
       depth <= 2 x 32 entries), but whose handling simt.h defines: a full stack and memory
       image (SIMT_E_OVERFLOW), an empty stack under an rpc (SIMT_E_STACK; with no active
       lane, the warp is finished) on the update path and on the pending-pop path. */
    void corner(unsigned k)
    {
        CInst &i = inst_[k];
        Driver &dr = drv_[k];
        cosim::Rng &r = dr.rng();
        simt_regs &q = *i.q;
        if (r.below(4000) != 0)
            return;
        slotmask idle = q.live & ~q.fin & ~(q.spq | q.flq | q.flw | q.popq | q.tmr) &
                        slot_first(i.cfg.nwarps);
        if (!idle)
            return;
        unsigned n = slot_count(idle), w = 0;
        for (unsigned j = r.below(n) + 1; j; j--, idle &= idle - 1)
            w = slot_ctz(idle);
        switch (r.below(3)) {
        case 0:                              /* on chip and in memory: full */
            q.cnt[w] = i.cfg.depth;
            q.nspill[w] = SIMT_MAX_SPILL;
            break;
        case 1:                              /* nothing saved, yet pc + 1 is the rpc */
            q.cnt[w] = 0;
            q.nspill[w] = 0;
            q.rpc[w] = q.pc[w] + 1u;
            q.alive[w] |= r.u32();
            break;
        default:                             /* nothing saved, yet a pop is due */
            q.cnt[w] = 0;
            q.nspill[w] = 0;
            q.popq |= slot_bit(w);
            if (r.chance(50))
                q.mask[w] = 0;
            break;
        }
        *i.d = *i.q;
        kRtl[k].poke(dut_->rootp, w, q);
        dr.derail(w);
        i.st.corners++;
        i.st.touched |= slot_bit(w);
    }

    static void deepest(CInst &i)
    {
        Stats &s = i.st;
        s.touched &= ~i.in.launch;
        if (i.in.restore_v)
            s.touched |= slot_bit(i.in.restore_slot);
        for (unsigned w = 0; w < i.cfg.nwarps; w++)
            if (!slot_has(s.touched, w))
                s.deepest = std::max<uint64_t>(s.deepest, simt_depth(i.q.get(), w));
    }

    static void check_cfg(const simt_cfg &c, const std::string &what)
    {
        char err[256];
        if (simt_cfg_check(&c, err, sizeof err))
            throw cosim::Error(what + ": " + err);
    }

    /* Instance k's slice of every input port of tb/simt_top.sv. */
    void drive(unsigned k, const simt_in &in)
    {
        Vdut &t = dut_.top();
        for (unsigned i = 0; i < kPorts; i++) {
            const simt_upd &u = in.upd[i];
            unsigned p = k * kPorts + i;
            pput(t.upd_v, p, 1, u.v);
            pput(t.upd_slot, p * 7, 7, u.slot);
            pput(t.upd_kind, p * 2, 2, u.kind);
            pput(t.upd_taken, p * 32, 32, u.taken);
            pput(t.upd_target, p * 32, 32, u.target);
            pput(t.upd_reconv, p * 32, 32, u.reconv);
            pput(t.upd_exited, p * 32, 32, u.exited);
            pput(t.upd_split_v, p, 1, u.split_v);
            pput(t.upd_split_slot, p * 7, 7, u.split_slot);
            pput(t.upd_split_img, p * 8, 8, u.split_img);
        }
        pput(t.split_v, k, 1, in.split.v);
        pput(t.split_src, k * 7, 7, in.split.src);
        pput(t.split_dst, k * 7, 7, in.split.dst);
        pput(t.split_lanes, k * 32, 32, in.split.lanes);
        pput(t.split_img, k * 8, 8, in.split.img);
        pput(t.merge_v, k, 1, in.merge.v);
        pput(t.merge_dst, k * 7, 7, in.merge.dst);
        pput(t.merge_src, k * 7, 7, in.merge.src);
        pput(t.rel_v, k, 1, in.rel.v);
        pput(t.rel_slot, k * 7, 7, in.rel.slot);
        pput(t.launch, k * kSlots, 64, (uint64_t)in.launch);
        pput(t.launch, k * kSlots + 64, 64, (uint64_t)(in.launch >> 64));
        for (unsigned w = 0; w < kSlots; w++) {
            pput(t.launch_mask, (k * kSlots + w) * 32, 32, in.launch_mask[w]);
            pput(t.launch_vwi, (k * kSlots + w) * 8, 8, in.launch_vwi[w]);
        }
        pput(t.save_v, k, 1, in.save_v);
        pput(t.save_slot, k * 7, 7, in.save_slot);
        const simt_state &r = in.restore;
        pput(t.restore_v, k, 1, in.restore_v);
        pput(t.restore_slot, k * 7, 7, in.restore_slot);
        pput(t.restore_pc, k * 32, 32, r.pc);
        pput(t.restore_mask, k * 32, 32, r.mask);
        pput(t.restore_rpc, k * 32, 32, r.rpc);
        pput(t.restore_alive, k * 32, 32, r.alive);
        pput(t.restore_vwi, k * 8, 8, r.vwi);
        pput(t.restore_fin, k, 1, r.fin);
        pput(t.restore_cnt, k * 6, 6, r.cnt);
        pput(t.restore_nspill, k * 7, 7, r.nspill);
        pput(t.restore_hold, k, 1, r.hold);
        pput(t.restore_hdepth, k * 7, 7, r.hdepth);
        for (unsigned e = 0; e < SIMT_MAX_DEPTH; e++)
            put_ent(t.restore_ent, (k * SIMT_MAX_DEPTH + e) * kEntBits, r.ent[e]);
        pput(t.req_ready, k, 1, in.req_ready);
        pput(t.fill_v, k, 1, in.fill_v);
        pput(t.fill_slot, k * 7, 7, in.fill_slot);
        for (unsigned e = 0; e < SIMT_MAX_CHUNK; e++)
            put_ent(t.fill_ent, (k * SIMT_MAX_CHUNK + e) * kEntBits, in.fill_ent[e]);
    }

    template <class P> static slotmask out_mask(const P &p, unsigned k)
    {
        return (slotmask)pget(p, k * kSlots, 64) | (slotmask)pget(p, k * kSlots + 64, 64) << 64;
    }

    /* Every output field of instance k (the request's, spill ports' and saved state's
       fields where they are valid). */
    void cmp_out(unsigned k, const simt_out &o, cosim::Checker &chk)
    {
        Vdut &t = dut_.top();
        const simt_cfg &c = inst_[k].cfg;
        for (unsigned w = 0; w < c.nwarps; w++) {
            chk.eq("out.pc", (int)w, o.pc[w], pget(t.pc, (k * kSlots + w) * 32, 32));
            chk.eq("out.mask", (int)w, o.mask[w], pget(t.mask, (k * kSlots + w) * 32, 32));
        }
        eq_mask(chk, "out.busy", o.busy, out_mask(t.busy, k));
        eq_mask(chk, "out.fin", o.fin, out_mask(t.fin, k));
        eq_mask(chk, "out.redirect", o.redirect, out_mask(t.redirect, k));
        eq_mask(chk, "out.lvl", o.lvl, out_mask(t.lvl, k));
        eq_mask(chk, "out.arr", o.arr, out_mask(t.arr, k));
        chk.eq("out.req_v", o.req_v, pget(t.req_v, k, 1));
        if (o.req_v) {
            chk.eq("out.req.addr", o.req.addr, pget(t.req_addr, k * 64, 64));
            chk.eq("out.req.bytes", o.req.bytes, pget(t.req_bytes, k * 32, 32));
            chk.eq("out.req.kind", o.req.kind, pget(t.req_kind, k * 8, 8));
            chk.eq("out.req.sm", o.req.sm, pget(t.req_sm, k * 8, 8));
            chk.eq("out.req.warp", o.req.warp, pget(t.req_warp, k * 8, 8));
            chk.eq("out.req.pad", o.req.pad, pget(t.req_pad, k * 8, 8));
            chk.eq("out.req.tag", o.req.tag, pget(t.req_tag, k * 32, 32));
            chk.eq("out.req.t_issue", o.req.t_issue, pget(t.req_t_issue, k * 64, 64));
        }
        for (unsigned i = 0; i < kPorts; i++) {
            const simt_spill &sp = o.spill[i];
            unsigned p = k * kPorts + i;
            chk.eq("out.spill.v", (int)i, sp.v, pget(t.spill_v, p, 1));
            if (!sp.v)
                continue;
            chk.eq("out.spill.vwi", (int)i, sp.vwi, pget(t.spill_vwi, p * 8, 8));
            chk.eq("out.spill.idx", (int)i, sp.idx, pget(t.spill_idx, p * 7, 7));
            for (unsigned e = 0; e < c.chunk; e++)
                cmp_ent(chk, "out.spill[" + std::to_string(i) + "].ent[" + std::to_string(e) +
                        "]", sp.ent[e], t.spill_ent, (p * SIMT_MAX_CHUNK + e) * kEntBits);
        }
        chk.eq("out.saved_v", o.saved_v, pget(t.saved_v, k, 1));
        if (o.saved_v)
            cmp_saved(k, o.saved, chk);
        chk.eq("out.ev_push", o.ev_push, pget(t.ev_push, k * 4, 4));
        chk.eq("out.ev_pop", o.ev_pop, pget(t.ev_pop, k * 8, 8));
        chk.eq("out.ev_spill", o.ev_spill, pget(t.ev_spill, k * 3, 3));
        chk.eq("out.ev_fill", o.ev_fill, pget(t.ev_fill, k * 2, 2));
        chk.eq("out.ev_depth", o.ev_depth, pget(t.ev_depth, k * 8, 8));
        chk.eq("out.err", o.err, pget(t.err, k * 16, 16));
        chk.eq("out.err_slot", o.err_slot, pget(t.err_slot, k * 7, 7));
    }

    void cmp_saved(unsigned k, const simt_state &s, cosim::Checker &chk)
    {
        Vdut &t = dut_.top();
        chk.eq("out.saved.pc", s.pc, pget(t.saved_pc, k * 32, 32));
        chk.eq("out.saved.mask", s.mask, pget(t.saved_mask, k * 32, 32));
        chk.eq("out.saved.rpc", s.rpc, pget(t.saved_rpc, k * 32, 32));
        chk.eq("out.saved.alive", s.alive, pget(t.saved_alive, k * 32, 32));
        chk.eq("out.saved.vwi", s.vwi, pget(t.saved_vwi, k * 8, 8));
        chk.eq("out.saved.fin", s.fin, pget(t.saved_fin, k, 1));
        chk.eq("out.saved.cnt", s.cnt, pget(t.saved_cnt, k * 6, 6));
        chk.eq("out.saved.nspill", s.nspill, pget(t.saved_nspill, k * 7, 7));
        chk.eq("out.saved.hold", s.hold, pget(t.saved_hold, k, 1));
        chk.eq("out.saved.hdepth", s.hdepth, pget(t.saved_hdepth, k * 7, 7));
        for (unsigned e = 0; e < SIMT_MAX_DEPTH; e++)
            cmp_ent(chk, "out.saved.ent[" + std::to_string(e) + "]", s.ent[e], t.saved_ent,
                    (k * SIMT_MAX_DEPTH + e) * kEntBits);
    }

    cosim::Dut<Vdut> dut_;
    CInst inst_[kInst];
    Driver drv_[kInst];
    std::vector<Prog> progs_;
    simt_cfg cfg0_{};
    bool random_ = true;
    uint64_t cycles_ = 0, phase_n_ = 0;     /* --cycles, and the cycles of this phase */
    bool quiet_ = false, failed_ = false;
};

} /* namespace */

int main(int argc, char **argv)
{
    return cosim::run<SimtHarness>(argc, argv);
}
