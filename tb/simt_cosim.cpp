/*
 * simt_cosim.cpp -- lockstep co-simulation of the SIMT reconvergence stack: model/sm/simt.c (from
 * libgpusim.a, the code the GPU model runs) against rtl/simt.sv, Verilated through
 * tb/simt_top.sv.
 *
 * The top holds three stacks, each with its own ports and its own stimulus: u0 is the
 * configuration's (parameters from gpusim_params.vh, generated from --config's file;
 * recordings drive it, with the recording's cfg), u1 (IPDOM, 8 warps, depth 4, chunk 2, pop
 * and fill latencies) and u2 (TOKEN, 10 warps, depth 3) spill, fill and wait all the time; in
 * a replay they idle.  Every cycle, for every instance: every output of struct simt_out after
 * the combinational settle (pc and mask of each warp slot, busy, fin, redirect, req_v, the
 * request's fields where req_v, the event counts, err, err_slot), then after the clock edge
 * every register of struct simt_regs: the per-warp registers and flags, rr, each warp's
 * on-chip ring stk[w][0..depth-1] and its memory image mem[w][0..111] (not on-chip storage,
 * compared like any register).
 *
 * Random stimulus follows the SM's port rules (model/sm/sm.c): every warp slot runs a small
 * random program (nop / bra / @p bra / exit / @p exit, loops included) whose reconvergence
 * pcs come from the real flow_build, exactly as tests/test_simt.c drives the block; the
 * instruction issued in cycle t for a warp that is live, not busy and not finished reaches
 * the update ports in t+1 (the issue latch), on up to four ports; lanes decide branches by a
 * hash or leave loops one by one (deep token stacks that spill); finished slots get new warps;
 * a memory model accepts requests when req_ready (a pattern that does not look at req_v) and
 * answers fills after 1..60 cycles, one per cycle.  A few warps run "chaos" updates instead
 * (any branch outcome, target and reconvergence pc, also none), and a few cycles carry inputs
 * simt.h defines as errors (slots >= nwarps, two ports naming one warp, updates for finished /
 * not launched / memory-waiting warps, stray fill responses, launches beyond nwarps).  Rarely,
 * a backdoor writes the same corner state into both sides (full stack and memory image, an
 * empty stack under an rpc): no input sequence reaches SIMT_E_OVERFLOW or SIMT_E_STACK.
 * After the random phase it prints what each instance did.  Usage: see cosim.h (--help).
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

extern "C" {
#include "sm/simt.h"
#include "ptx/ptx.h"
#include "ptx/flow.h"
}

namespace {

using Root = Vdut___024root;
constexpr unsigned kPorts = SIMT_UPD_PORTS;
constexpr unsigned kEntBits = 97;          /* {type, mask, rpc, pc} */

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

/* ------------------------------------------------------------------ RTL instances */

/* One instance uK of tb/simt_top.sv: its elaborated parameters and a register comparison. */
struct RtlInst {
    uint32_t nw, policy, depth, chunk, popc, fillc, eb, sm_id;
    uint64_t spill_base;
    uint32_t spill_stride;
    void (*cmp)(cosim::Checker &, const simt_regs &, const Root *);
    /* Backdoor: warp w's registers and every flag vector of the C block's q into the RTL. */
    void (*poke)(Root *, unsigned w, const simt_regs &);
};

/* Every register of simt_regs of one instance against the C block's q. */
template <class U32, class U8, class STK, class MEM>
void cmp_regs(cosim::Checker &chk, const simt_regs &c, unsigned nw, unsigned depth,
              const U32 &pc, const U32 &mask, const U32 &rpc, const U32 &alive, const U8 &cnt,
              const U8 &base, const U8 &nspill, const U8 &timer, uint64_t live, uint64_t fin,
              uint64_t spq, uint64_t flq, uint64_t flw, uint64_t popq, uint64_t tmr,
              uint32_t rr, const STK &stk, const MEM &mem)
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
    }
    chk.eq("regs.live", c.live, live);
    chk.eq("regs.fin", c.fin, fin);
    chk.eq("regs.spq", c.spq, spq);
    chk.eq("regs.flq", c.flq, flq);
    chk.eq("regs.flw", c.flw, flw);
    chk.eq("regs.popq", c.popq, popq);
    chk.eq("regs.tmr", c.tmr, tmr);
    chk.eq("regs.rr", c.rr, rr);
    for (unsigned w = 0; w < nw; w++) {
        const uint32_t *s = stk[w].data();
        for (unsigned k = 0; k < depth; k++) {
            const simt_ent &e = c.stk[w][k];
            unsigned lo = k * kEntBits;
            if (e.pc == wbits(s, lo, 32) && e.rpc == wbits(s, lo + 32, 32) &&
                e.mask == wbits(s, lo + 64, 32) && e.type == wbits(s, lo + 96, 1))
                continue;
            std::string f = "regs.stk[" + std::to_string(w) + "][" + std::to_string(k) + "]";
            chk.eq((f + ".pc").c_str(), e.pc, wbits(s, lo, 32));
            chk.eq((f + ".rpc").c_str(), e.rpc, wbits(s, lo + 32, 32));
            chk.eq((f + ".mask").c_str(), e.mask, wbits(s, lo + 64, 32));
            chk.eq((f + ".type").c_str(), e.type, wbits(s, lo + 96, 1));
        }
        for (unsigned i = 0; i < SIMT_MAX_SPILL; i++) {
            const simt_ent &e = c.mem[w][i];
            const uint32_t *m = mem[w][i].data();
            if (e.pc == m[0] && e.rpc == m[1] && e.mask == m[2] && e.type == (m[3] & 1u))
                continue;
            std::string f = "regs.mem[" + std::to_string(w) + "][" + std::to_string(i) + "]";
            chk.eq((f + ".pc").c_str(), e.pc, m[0]);
            chk.eq((f + ".rpc").c_str(), e.rpc, m[1]);
            chk.eq((f + ".mask").c_str(), e.mask, m[2]);
            chk.eq((f + ".type").c_str(), e.type, m[3] & 1u);
        }
    }
}

#define SIMT_U(k, sig) simt_top__DOT__u##k##__DOT__##sig
#define SIMT_INST(k)                                                                        \
    RtlInst{Root::SIMT_U(k, NW), Root::SIMT_U(k, POLICY), Root::SIMT_U(k, DEPTH),          \
            Root::SIMT_U(k, CHUNK), Root::SIMT_U(k, POPC), Root::SIMT_U(k, FILLC),         \
            Root::SIMT_U(k, EB), Root::SIMT_U(k, SIMT_SM_ID),                              \
            Root::SIMT_U(k, SIMT_SPILL_BASE), Root::SIMT_U(k, SIMT_SPILL_STRIDE),          \
            [](cosim::Checker &chk, const simt_regs &c, const Root *r) {                   \
                cmp_regs(chk, c, Root::SIMT_U(k, NW), Root::SIMT_U(k, DEPTH),              \
                         r->SIMT_U(k, pc_q), r->SIMT_U(k, mask_q), r->SIMT_U(k, rpc_q),    \
                         r->SIMT_U(k, alive_q), r->SIMT_U(k, cnt_q), r->SIMT_U(k, base_q), \
                         r->SIMT_U(k, nspill_q), r->SIMT_U(k, timer_q),                    \
                         r->SIMT_U(k, live_q), r->SIMT_U(k, fin_q), r->SIMT_U(k, spq_q),   \
                         r->SIMT_U(k, flq_q), r->SIMT_U(k, flw_q), r->SIMT_U(k, popq_q),   \
                         r->SIMT_U(k, tmr_q), r->SIMT_U(k, rr_q), r->SIMT_U(k, stk_q),     \
                         r->SIMT_U(k, mem_q));                                             \
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
                r->SIMT_U(k, live_q) = q.live;                                             \
                r->SIMT_U(k, fin_q) = q.fin;                                               \
                r->SIMT_U(k, spq_q) = q.spq;                                               \
                r->SIMT_U(k, flq_q) = q.flq;                                               \
                r->SIMT_U(k, flw_q) = q.flw;                                               \
                r->SIMT_U(k, popq_q) = q.popq;                                             \
                r->SIMT_U(k, tmr_q) = q.tmr;                                               \
            }}

const RtlInst kRtl[] = {SIMT_INST(0), SIMT_INST(1), SIMT_INST(2)};
constexpr unsigned kInst = sizeof kRtl / sizeof kRtl[0];

std::string cfg_text(const simt_cfg &c)
{
    char b[256];
    std::snprintf(b, sizeof b, "%s nwarps=%u depth=%u chunk=%u entry_bytes=%u pop=%u fill=%u "
                  "sm=%u spill_base=0x%llx stride=%u", simt_policy_name(c.policy), c.nwarps,
                  c.depth, c.chunk, c.entry_bytes, c.pop_cycles, c.fill_cycles, c.sm_id,
                  (unsigned long long)c.spill_base, c.spill_stride);
    return b;
}

bool same(const simt_cfg &a, const simt_cfg &b)
{
    return a.nwarps == b.nwarps && a.policy == b.policy && a.depth == b.depth &&
           a.chunk == b.chunk && a.entry_bytes == b.entry_bytes &&
           a.pop_cycles == b.pop_cycles && a.fill_cycles == b.fill_cycles &&
           a.sm_id == b.sm_id && a.spill_base == b.spill_base &&
           a.spill_stride == b.spill_stride;
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
    return c;
}

/* ------------------------------------------------------------------ programs */

enum { P_NOP, P_BRA, P_CBRA, P_EXIT, P_CEXIT };
constexpr unsigned kMaxPc = 64;

struct Prog {
    uint32_t n = 0;
    uint8_t kind[kMaxPc] = {};
    uint32_t target[kMaxPc] = {};
    uint32_t reconv[kMaxPc] = {};     /* flow_build's reconvergence pc of each @p bra */
};

/* The reconvergence pcs, from the model's own CFG / IPDOM analysis. */
void build_reconv(Prog &p)
{
    static const uint8_t ops[] = {OP_NOP, OP_BRA, OP_BRA, OP_EXIT, OP_EXIT};
    ptx_prog pp;
    flow c;
    char err[256] = "";
    std::vector<ptx_insn> insns(p.n);
    std::memset(&pp, 0, sizeof pp);
    std::memset(insns.data(), 0, insns.size() * sizeof(ptx_insn));
    std::snprintf(pp.name, sizeof pp.name, "cosim");
    pp.ninsns = p.n;
    pp.insns = insns.data();
    for (uint32_t i = 0; i < p.n; i++) {
        insns[i].op = ops[p.kind[i]];
        insns[i].guard = (p.kind[i] == P_CBRA || p.kind[i] == P_CEXIT) ? 1 : -1;
        if (insns[i].op == OP_BRA) {
            insns[i].nopd = 1;
            insns[i].opd[0].kind = OPD_LABEL;
            insns[i].opd[0].imm = p.target[i];
        }
    }
    if (flow_build(&pp, &c, err, sizeof err) != 0)
        throw cosim::Error(std::string("flow_build of a random program: ") + err);
    std::memcpy(p.reconv, c.reconv, p.n * sizeof(uint32_t));
    flow_free(&c);
}

/* Random program (as tests/test_simt.c): forward branches, conditional branches both ways
   (loops, irreducible regions too), guarded exits; the last instruction is exit. */
Prog random_prog(cosim::Rng &r, uint32_t n, bool structured)
{
    Prog p;
    p.n = n;
    for (uint32_t i = 0; i + 1 < n; i++) {
        unsigned k = r.below(10);
        if (k < 3) {
            p.kind[i] = P_CBRA;
            p.target[i] = (structured || r.chance(50)) ? i + 1 + r.below(n - i - 1)
                                                       : r.below(i + 1);
        } else if (k == 3) {
            p.kind[i] = P_BRA;
            p.target[i] = i + 1 + r.below(n - i - 1);
        } else if (k == 4 && r.chance(33)) {
            p.kind[i] = P_CEXIT;
        }
    }
    p.kind[n - 1] = P_EXIT;
    build_reconv(p);
    return p;
}

/* Loops whose lanes leave one by one (the paper's single loop, nested in an outer loop, with
   an if inside): deep token stacks. */
Prog loop_prog(cosim::Rng &r)
{
    Prog p;
    uint32_t i = 0, body = r.below(3);
    bool outer = r.chance(50);
    uint32_t otop = i;
    if (outer)
        p.kind[i++] = P_NOP;
    uint32_t top = i;
    for (uint32_t k = 0; k < body; k++)
        p.kind[i++] = P_NOP;
    if (r.chance(50)) {                         /* if inside the loop */
        p.kind[i] = P_CBRA;
        p.target[i] = i + 2;
        i++;
        p.kind[i++] = P_NOP;
    }
    p.kind[i] = P_CBRA;                         /* the loop-back branch: R = pc + 1 */
    p.target[i++] = top;
    if (outer) {
        p.kind[i] = P_CBRA;
        p.target[i++] = otop;
    }
    if (r.chance(30))
        p.kind[i++] = P_CEXIT;
    p.kind[i++] = P_NOP;
    p.kind[i++] = P_EXIT;
    p.n = i;
    build_reconv(p);
    return p;
}

uint32_t hash4(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    uint32_t h = a * 0x9e3779b1u ^ b * 0x85ebca77u ^ c * 0xc2b2ae3du ^ d * 0x27d4eb2fu;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return h;
}

/* ------------------------------------------------------------------ the stimulus of one stack */

struct WarpDrv {
    int prog = -1;                 /* index into the program pool; -1: chaos updates */
    uint32_t seed = 0, loop_max = 0;
    bool stair = false;            /* loops: lane l leaves after stairv[l] iterations */
    uint8_t stairv[32] = {};
    uint16_t visits[32][kMaxPc] = {};
    uint32_t wait = 0;             /* cycles before a free slot gets a new warp */
};

struct Pattern {                   /* changes every few hundred cycles */
    unsigned left = 0;
    unsigned ports = 2, issue_pct = 80, ready_pct = 90, lat_max = 10, launch_pct = 20;
    unsigned chaos_pct = 5, bad_pct = 1, junk_pct = 50;
};

struct Fill {
    uint8_t warp;
    uint64_t due;
};

class Driver {
public:
    void init(const simt_cfg &c, const std::vector<Prog> *progs, uint64_t seed)
    {
        c_ = c;
        progs_ = progs;
        rng_.reset(new cosim::Rng(seed));
        reset();
    }
    void reset()
    {
        warps_.assign(c_.nwarps, WarpDrv{});
        fills_.clear();
        std::memset(latch_, 0, sizeof latch_);
        pat_ = Pattern{};
        now_ = 0;
    }

    /* This cycle's inputs, from the state the block committed last cycle (q). */
    void make(const simt_regs &q, simt_in &in)
    {
        cosim::Rng &r = *rng_;
        if (pat_.left == 0)
            new_pattern();
        pat_.left--;
        std::memset(&in, 0, sizeof in);
        junk(in);
        std::memcpy(in.upd, latch_, sizeof in.upd);
        std::memset(latch_, 0, sizeof latch_);
        in.req_ready = r.chance(pat_.ready_pct);
        /* one fill response per cycle: the oldest that is due */
        auto f = std::min_element(fills_.begin(), fills_.end(),
                                  [](const Fill &a, const Fill &b) { return a.due < b.due; });
        if (f != fills_.end() && f->due <= now_) {
            in.fill_v = 1;
            in.fill_slot = f->warp;
            fills_.erase(f);
        }
        launches(q, in);
        if (r.chance(pat_.bad_pct))
            bad_input(q, in);
    }

    /* After the cycle: memory handshake, and the instructions issued now (the latch). */
    void observe(const simt_in &in, const simt_out &out, const simt_regs &q)
    {
        cosim::Rng &r = *rng_;
        if (out.req_v && in.req_ready && out.req.kind == MK_FILL)
            fills_.push_back(Fill{out.req.warp, now_ + 1 + r.below(pat_.lat_max)});
        /* = live & ~out.fin & ~out.busy, but also right after a backdoor corner */
        uint64_t ready = q.live & ~q.fin & ~(q.spq | q.flq | q.flw | q.popq | q.tmr) & all();
        std::vector<unsigned> cand;
        for (unsigned w = 0; w < c_.nwarps; w++)
            if (ready >> w & 1u)
                cand.push_back(w);
        unsigned ports[kPorts] = {0, 1, 2, 3};
        for (unsigned i = kPorts - 1; i > 0; i--)
            std::swap(ports[i], ports[r.below(i + 1)]);
        unsigned used = 0;
        while (!cand.empty() && used < pat_.ports) {
            unsigned j = r.below((uint32_t)cand.size());
            unsigned w = cand[j];
            cand.erase(cand.begin() + j);
            if (!r.chance(pat_.issue_pct))
                continue;
            issue(w, q, latch_[ports[used++]]);
        }
        now_++;
    }

    /* Warp w leaves its program (its state was changed behind the program's back). */
    void derail(unsigned w) { warps_[w].prog = -1; }
    cosim::Rng &rng() { return *rng_; }

private:
    uint64_t all() const { return c_.nwarps >= 64 ? ~0ull : (1ull << c_.nwarps) - 1ull; }

    void new_pattern()
    {
        static const unsigned ports[] = {1, 2, 2, 4};
        static const unsigned issue[] = {100, 80, 40};
        static const unsigned ready[] = {100, 90, 60, 25, 0};
        static const unsigned lat[] = {1, 4, 20, 60};
        cosim::Rng &r = *rng_;
        pat_.left = 50 + r.below(1500);
        pat_.ports = ports[r.below(4)];
        pat_.issue_pct = issue[r.below(3)];
        pat_.ready_pct = ready[r.below(r.chance(90) ? 4 : 5)];
        if (pat_.ready_pct == 0)
            pat_.left = std::min(pat_.left, 40u);
        pat_.lat_max = lat[r.below(4)];
        pat_.launch_pct = r.chance(70) ? 30 : 3;
        pat_.chaos_pct = r.chance(80) ? 3 : 30;
        pat_.bad_pct = r.chance(70) ? 1 : 8;
        pat_.junk_pct = r.below(100);
    }

    /* Inputs the block must ignore: fields of invalid ports, masks of slots not launched. */
    void junk(simt_in &in)
    {
        cosim::Rng &r = *rng_;
        if (!r.chance(pat_.junk_pct))
            return;
        for (unsigned i = 0; i < kPorts; i++) {
            simt_upd &u = latch_[i];
            if (!u.v) {
                u.slot = (uint8_t)r.below(64);
                u.kind = (uint8_t)r.below(4);
            }
            if (!u.v || u.kind != SIMT_BRANCH) {
                u.taken = r.u32();
                u.target = r.u32();
                u.reconv = r.u32();
            }
            if (!u.v || u.kind != SIMT_EXIT)
                u.exited = r.u32();
        }
        for (unsigned w = 0; w < 64; w++)
            in.launch_mask[w] = r.u32();
        in.fill_slot = (uint8_t)r.below(64);
    }

    /* Free slots (never launched, or finished) get a new warp after a while. */
    void launches(const simt_regs &q, simt_in &in)
    {
        cosim::Rng &r = *rng_;
        uint64_t issued = 0;
        for (const simt_upd &u : in.upd)
            if (u.v)
                issued |= 1ull << u.slot;
        uint64_t free = (~q.live | q.fin) & all() & ~issued;
        for (unsigned w = 0; w < c_.nwarps; w++) {
            if (!(free >> w & 1u))
                continue;
            WarpDrv &d = warps_[w];
            if (d.wait) {
                d.wait--;
                continue;
            }
            if (!r.chance(pat_.launch_pct))
                continue;
            unsigned m = r.below(100);
            uint32_t lanes = m < 70 ? 0xffffffffu : m < 96 ? (r.u32() | 1u << r.below(32)) : 0;
            in.launch |= 1ull << w;
            in.launch_mask[w] = lanes;
            d = WarpDrv{};
            d.wait = r.below(30);
            d.prog = r.chance(pat_.chaos_pct) ? -1 : (int)r.below((uint32_t)progs_->size());
            d.seed = r.u32();
            d.loop_max = 1 + r.below(r.chance(20) ? 40 : 5);
            d.stair = r.chance(50);
            unsigned lmax = r.chance(30) ? 31 : r.below(32);
            for (unsigned l = 0; l < 32; l++)
                d.stairv[l] = (uint8_t)(lmax ? (l * 7 + d.seed) % (lmax + 1) : 0);
        }
    }

    /* One cycle's worth of inputs that simt.h defines as errors (the block must flag and
       ignore them); never on a warp whose state could change before the update stage. */
    void bad_input(const simt_regs &q, simt_in &in)
    {
        cosim::Rng &r = *rng_;
        int port = -1;
        for (unsigned i = 0; i < kPorts && port < 0; i++)
            if (!in.upd[i].v)
                port = (int)i;
        uint64_t fill = in.fill_v ? 1ull << in.fill_slot : 0;
        uint64_t asleep = (q.fin | ~q.live | q.spq | q.flq | (q.flw & ~fill)) & all() &
                          ~in.launch;
        for (const simt_upd &u : in.upd)
            if (u.v)
                asleep &= ~(1ull << u.slot);
        switch (r.below(5)) {
        case 0:                                       /* a slot beyond nwarps */
            if (port >= 0 && c_.nwarps < 64)
                chaos_upd(in.upd[port], (uint8_t)(c_.nwarps + r.below(64 - c_.nwarps)), 0, 0);
            break;
        case 1:                                       /* a second port for the same warp */
            for (unsigned i = 0; i < kPorts; i++)
                if (in.upd[i].v)
                    for (unsigned j = i + 1; j < kPorts; j++)
                        if (!in.upd[j].v) {
                            chaos_upd(in.upd[j], in.upd[i].slot, 0, 0);
                            return;
                        }
            break;
        case 2:                                       /* a warp that cannot take it */
            if (port >= 0 && asleep) {
                unsigned w = pick_bit(asleep);
                chaos_upd(in.upd[port], (uint8_t)w, q.pc[w], q.mask[w]);
            }
            break;
        case 3:                                       /* a fill response nobody waits for */
            if (!in.fill_v) {
                uint64_t idle = ~q.flw & all();
                in.fill_v = 1;
                in.fill_slot = (uint8_t)(idle && r.chance(70) ? pick_bit(idle) : r.below(64));
            }
            break;
        default:                                      /* a launch beyond nwarps */
            if (c_.nwarps < 64)
                in.launch |= 1ull << (c_.nwarps + r.below(64 - c_.nwarps));
            break;
        }
    }

    unsigned pick_bit(uint64_t m)
    {
        unsigned n = (unsigned)__builtin_popcountll(m), k = rng_->below(n);
        for (; k; k--)
            m &= m - 1;
        return (unsigned)__builtin_ctzll(m);
    }

    /* Any update: a random kind and outcome, targets and reconvergence pcs mostly near pc. */
    void chaos_upd(simt_upd &u, uint8_t w, uint32_t pc, uint32_t mask)
    {
        cosim::Rng &r = *rng_;
        unsigned k = r.below(100);
        u.v = 1;
        u.slot = w;
        u.kind = k < 35 ? SIMT_NORMAL : k < 85 ? SIMT_BRANCH : k < 97 ? SIMT_EXIT : 3;
        u.taken = r.chance(50) ? (r.u32() & mask) : r.u32();
        unsigned t = r.below(100);
        u.target = t < 15 ? pc + 1 : t < 25 ? r.u32() : r.below(24);   /* (any 32-bit pc too) */
        unsigned rc = r.below(100);
        u.reconv = rc < 3 ? SIMT_NO_PC : rc < 25 ? pc + 1 : rc < 35 ? u.target
                 : rc < 40 ? r.u32() : r.below(24);
        u.exited = r.chance(40) ? mask : r.u32() & mask;
    }

    /* The instruction at warp w's pc, for its active lanes. */
    void issue(unsigned w, const simt_regs &q, simt_upd &u)
    {
        WarpDrv &d = warps_[w];
        uint32_t pc = q.pc[w], mask = q.mask[w];
        if (d.prog >= 0 && (pc >= (*progs_)[(size_t)d.prog].n || mask == 0))
            d.prog = -1;                       /* off its program (an ignored update) */
        if (d.prog < 0) {
            chaos_upd(u, (uint8_t)w, pc, mask);
            return;
        }
        const Prog &p = (*progs_)[(size_t)d.prog];
        uint8_t k = p.kind[pc];
        uint32_t dec = 0;
        for (unsigned l = 0; l < 32; l++) {
            if (!(mask >> l & 1u))
                continue;
            uint32_t v = d.visits[l][pc];
            if (v < 0xffff)
                d.visits[l][pc]++;
            uint32_t h = hash4(d.seed, l, pc, v);
            bool t;
            if (k == P_CEXIT)
                t = h % 23 == 0;
            else if (k == P_CBRA && p.target[pc] <= pc)          /* a loop back-edge */
                t = d.stair ? v < d.stairv[l] : (v < d.loop_max && (h >> 8) % 3 != 0);
            else
                t = (h >> 8) % 3 != 0;
            if (t)
                dec |= 1u << l;
        }
        u.v = 1;
        u.slot = (uint8_t)w;
        if (k == P_BRA || k == P_CBRA) {
            u.kind = SIMT_BRANCH;
            u.taken = k == P_BRA ? mask : dec;
            u.target = p.target[pc];
            u.reconv = p.reconv[pc];
        } else if (k == P_EXIT || k == P_CEXIT) {
            u.kind = SIMT_EXIT;
            u.exited = k == P_EXIT ? mask : dec;
        } else {
            u.kind = SIMT_NORMAL;
        }
    }

    simt_cfg c_{};
    const std::vector<Prog> *progs_ = nullptr;
    std::unique_ptr<cosim::Rng> rng_;
    std::vector<WarpDrv> warps_;
    std::vector<Fill> fills_;
    simt_upd latch_[kPorts];
    Pattern pat_;
    uint64_t now_ = 0;
};

/* ------------------------------------------------------------------ the harness */

/* What the stimulus made an instance do (printed at the end: the runs exercise the block). */
struct Stats {
    uint64_t cycles = 0, launches = 0, updates = 0, pushes = 0, pops = 0, spills = 0,
             fills = 0, reqs = 0, max_depth = 0, max_pop = 0, max_spill = 0, corners = 0,
             err[6] = {};
    uint64_t deepest = 0;          /* cnt + nspill of warps no backdoor corner touched */
    uint64_t touched = 0;          /* warps a corner touched since their launch */
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
                        "(warps no corner touched); errors slot %llu busy %llu overflow %llu "
                        "reconv %llu fill %llu stack %llu; %llu backdoor corners\n",
                        i.label.c_str(), (unsigned long long)s.cycles,
                        (unsigned long long)s.launches, (unsigned long long)s.updates,
                        (unsigned long long)s.pushes, (unsigned long long)s.pops,
                        (unsigned long long)s.spills, (unsigned long long)s.fills,
                        (unsigned long long)s.reqs, (unsigned long long)s.max_pop,
                        (unsigned long long)s.max_spill, (unsigned long long)s.max_depth,
                        (unsigned long long)s.deepest, (unsigned long long)s.err[0],
                        (unsigned long long)s.err[1], (unsigned long long)s.err[2],
                        (unsigned long long)s.err[3], (unsigned long long)s.err[4],
                        (unsigned long long)s.err[5], (unsigned long long)s.corners);
        }
    }

    static void count(CInst &i)
    {
        Stats &s = i.st;
        s.cycles++;
        s.launches += (unsigned)__builtin_popcountll(i.in.launch);
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
        for (unsigned b = 0; b < 6; b++)
            s.err[b] += i.out.err >> b & 1u;
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
        uint64_t idle = q.live & ~q.fin & ~(q.spq | q.flq | q.flw | q.popq | q.tmr);
        if (i.cfg.nwarps < 64)
            idle &= (1ull << i.cfg.nwarps) - 1ull;
        if (!idle)
            return;
        unsigned n = (unsigned)__builtin_popcountll(idle), w = 0;
        for (unsigned j = r.below(n) + 1; j; j--, idle &= idle - 1)
            w = (unsigned)__builtin_ctzll(idle);
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
            q.popq |= 1ull << w;
            if (r.chance(50))
                q.mask[w] = 0;
            break;
        }
        *i.d = *i.q;
        kRtl[k].poke(dut_->rootp, w, q);
        dr.derail(w);
        i.st.corners++;
        i.st.touched |= 1ull << w;
    }

    static void deepest(CInst &i)
    {
        Stats &s = i.st;
        s.touched &= ~i.in.launch;
        for (unsigned w = 0; w < i.cfg.nwarps; w++)
            if (!(s.touched >> w & 1u))
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
            pput(t.upd_slot, p * 6, 6, u.slot);
            pput(t.upd_kind, p * 2, 2, u.kind);
            pput(t.upd_taken, p * 32, 32, u.taken);
            pput(t.upd_target, p * 32, 32, u.target);
            pput(t.upd_reconv, p * 32, 32, u.reconv);
            pput(t.upd_exited, p * 32, 32, u.exited);
        }
        pput(t.launch, k * 64, 64, in.launch);
        for (unsigned w = 0; w < 64; w++)
            pput(t.launch_mask, (k * 64 + w) * 32, 32, in.launch_mask[w]);
        pput(t.req_ready, k, 1, in.req_ready);
        pput(t.fill_v, k, 1, in.fill_v);
        pput(t.fill_slot, k * 6, 6, in.fill_slot);
    }

    /* Every output field of instance k (the request's fields where req_v). */
    void cmp_out(unsigned k, const simt_out &o, cosim::Checker &chk)
    {
        Vdut &t = dut_.top();
        for (unsigned w = 0; w < inst_[k].cfg.nwarps; w++) {
            chk.eq("out.pc", (int)w, o.pc[w], pget(t.pc, (k * 64 + w) * 32, 32));
            chk.eq("out.mask", (int)w, o.mask[w], pget(t.mask, (k * 64 + w) * 32, 32));
        }
        chk.eq("out.busy", o.busy, pget(t.busy, k * 64, 64));
        chk.eq("out.fin", o.fin, pget(t.fin, k * 64, 64));
        chk.eq("out.redirect", o.redirect, pget(t.redirect, k * 64, 64));
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
        chk.eq("out.ev_push", o.ev_push, pget(t.ev_push, k * 4, 4));
        chk.eq("out.ev_pop", o.ev_pop, pget(t.ev_pop, k * 8, 8));
        chk.eq("out.ev_spill", o.ev_spill, pget(t.ev_spill, k * 3, 3));
        chk.eq("out.ev_fill", o.ev_fill, pget(t.ev_fill, k * 2, 2));
        chk.eq("out.ev_depth", o.ev_depth, pget(t.ev_depth, k * 8, 8));
        chk.eq("out.err", o.err, pget(t.err, k * 6, 6));
        chk.eq("out.err_slot", o.err_slot, pget(t.err_slot, k * 6, 6));
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
