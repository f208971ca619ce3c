/*
 * simt_stim.h -- the random stimulus of tb/simt_cosim.cpp (included by it alone): random
 * programs with the model's own reconvergence pcs, and the Driver that plays the SM around
 * one SIMT stack instance (issue latch, launches with VWIs, the memory side with the spill
 * images, saves and restores of contexts, and inputs simt.h defines as errors).
 *
 * Port rules followed (model/sm/simt.h, model/sm/sm.c): the instruction issued in cycle t
 * for a warp that is live, not busy and not finished reaches the update ports in t+1; a
 * fill response comes after the request was accepted, with the chunk read from the image
 * at the request's address; a save names a live warp that was not busy and that no update
 * port names; a restore names a slot free at the start of the cycle, not launched in it.
 * Every context holds its own VWI (no two live or parked contexts share one), so every warp
 * keeps running its program across spills, fills and moves.
 */
#ifndef SIMT_STIM_H
#define SIMT_STIM_H
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "cosim.h"

extern "C" {
#include "sm/simt.h"
#include "ptx/ptx.h"
#include "ptx/flow.h"
}

namespace {

constexpr unsigned kPorts = SIMT_UPD_PORTS;

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
    unsigned chaos_pct = 5, bad_pct = 1, junk_pct = 50, save_pct = 0, restore_pct = 20;
    unsigned split_pct = 0, msplit_pct = 0, merge_pct = 50, rel_pct = 50;   /* DWS */
};

struct PendSplit {                 /* a split the driver asked for: adopted if it happened */
    uint8_t src, dst, img;
};

struct Fill {
    uint8_t warp;
    uint64_t due;
    mem_req req;                   /* the request as accepted: its address finds the data */
};

struct Parked {                    /* a saved context: its state and its program's progress */
    simt_state st;
    WarpDrv drv;
};

constexpr unsigned kMaxParked = 8;
constexpr int kChaosState = -2;          /* a restore of a random (legal) state */

class Driver {
public:
    void init(const simt_cfg &c, const std::vector<Prog> *progs, uint64_t seed)
    {
        c_ = c;
        progs_ = progs;
        rng_.reset(new cosim::Rng(seed));
        img_.assign(SM_MAX_CTX, simt_image{});
        reset();
    }
    void reset()
    {
        warps_.assign(c_.nwarps, WarpDrv{});
        fills_.clear();
        parked_.clear();
        slot_vwi_.assign(c_.nwarps, -1);
        group_.assign(c_.nwarps, -1);
        pend_.clear();
        pend_next_.clear();
        vwi_used_.assign(SM_MAX_CTX, 0);
        std::memset(latch_, 0, sizeof latch_);
        pat_ = Pattern{};
        now_ = 0;
        restore_j_ = -1;
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
        /* one fill response per cycle: the oldest that is due, with the image's data */
        auto f = std::min_element(fills_.begin(), fills_.end(),
                                  [](const Fill &a, const Fill &b) { return a.due < b.due; });
        if (f != fills_.end() && f->due <= now_) {
            in.fill_v = 1;
            in.fill_slot = f->warp;
            simt_image_read(&c_, img_.data(), SM_MAX_CTX, &f->req, in.fill_ent);
            fills_.erase(f);
        }
        launches(q, in);
        restore_j_ = -1;
        moves(q, in);
        pend_ = pend_next_;
        pend_next_.clear();
        dws_ports(q, in);
        if (r.chance(pat_.bad_pct))
            bad_input(q, in);
    }

    /* After the cycle: the images, memory handshake, moves, and the instructions issued now
       (the latch). */
    void observe(const simt_in &in, const simt_out &out, const simt_regs &q)
    {
        cosim::Rng &r = *rng_;
        simt_image_write(&c_, &out, img_.data(), SM_MAX_CTX);
        if (out.req_v && in.req_ready && out.req.kind == MK_FILL)
            fills_.push_back(Fill{out.req.warp, now_ + 1 + r.below(pat_.lat_max), out.req});
        moved(in, out);
        dws_moved(in, out, q);
        /* = live & ~out.fin & ~out.busy, but also right after a backdoor corner */
        slotmask ready = q.live & ~q.fin & ~(q.spq | q.flq | q.flw | q.popq | q.tmr) & all() &
                         ~arrived(q);
        std::vector<unsigned> cand;
        for (unsigned w = 0; w < c_.nwarps; w++)
            if (slot_has(ready, w))
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
    size_t parked() const { return parked_.size(); }

private:
    slotmask all() const { return slot_first(c_.nwarps); }

    void new_pattern()
    {
        static const unsigned ports[] = {1, 2, 2, 4};
        static const unsigned issue[] = {100, 80, 40};
        static const unsigned ready[] = {100, 90, 60, 25, 0};
        static const unsigned lat[] = {1, 4, 20, 60};
        static const unsigned save[] = {0, 0, 1, 5};
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
        pat_.save_pct = save[r.below(4)];
        pat_.restore_pct = r.chance(50) ? 10 : 50;
        static const unsigned split[] = {0, 20, 60};
        static const unsigned msplit[] = {0, 5, 20};
        pat_.split_pct = split[r.below(3)];
        pat_.msplit_pct = msplit[r.below(3)];
        pat_.merge_pct = r.chance(80) ? 60 : 5;
        pat_.rel_pct = r.chance(80) ? 60 : 5;
    }

    /* Inputs the block must ignore: fields of invalid ports, masks and VWIs of slots not
       launched, a state nobody restores, fill data nobody waits for. */
    void junk(simt_in &in)
    {
        cosim::Rng &r = *rng_;
        if (!r.chance(pat_.junk_pct))
            return;
        for (unsigned i = 0; i < kPorts; i++) {
            simt_upd &u = latch_[i];
            if (!u.v) {
                u.slot = (uint8_t)r.below(SM_MAX_SLOTS);
                u.kind = (uint8_t)r.below(4);
            }
            if (!u.v || u.kind != SIMT_BRANCH) {
                u.taken = r.u32();
                u.target = r.u32();
                u.reconv = r.u32();
            }
            if (!u.v || u.kind != SIMT_EXIT)
                u.exited = r.u32();
            if (!u.v) {
                u.split_v = (uint8_t)r.below(2);
                u.split_slot = (uint8_t)r.below(SM_MAX_SLOTS);
                u.split_img = (uint8_t)r.u32();
            }
        }
        in.split = simt_msplit{0, (uint8_t)r.below(SM_MAX_SLOTS), (uint8_t)r.below(SM_MAX_SLOTS),
                               r.u32(), (uint8_t)r.u32()};
        in.merge = simt_merge{0, (uint8_t)r.below(SM_MAX_SLOTS), (uint8_t)r.below(SM_MAX_SLOTS)};
        in.rel = simt_rel{0, (uint8_t)r.below(SM_MAX_SLOTS)};
        for (unsigned w = 0; w < SM_MAX_SLOTS; w++) {
            in.launch_mask[w] = r.u32();
            in.launch_vwi[w] = (uint8_t)r.u32();
        }
        in.fill_slot = (uint8_t)r.below(SM_MAX_SLOTS);
        in.save_slot = (uint8_t)r.below(SM_MAX_SLOTS);
        in.restore_slot = (uint8_t)r.below(SM_MAX_SLOTS);
        random_state(in.restore, true);
        for (simt_ent &e : in.fill_ent)
            random_ent(e);
    }

    void random_ent(simt_ent &e)
    {
        cosim::Rng &r = *rng_;
        e.pc = r.chance(50) ? r.below(24) : r.u32();
        e.rpc = r.chance(30) ? SIMT_NO_PC : r.chance(50) ? r.below(24) : r.u32();
        e.mask = r.chance(10) ? 0 : r.u32();
        e.type = (uint8_t)r.below(2);
    }

    /* Any state within the fields' widths; `legal`: one the restore port accepts. */
    void random_state(simt_state &s, bool legal)
    {
        cosim::Rng &r = *rng_;
        std::memset(&s, 0, sizeof s);
        s.pc = r.chance(70) ? r.below(24) : r.u32();
        s.mask = r.chance(10) ? 0 : r.u32();
        s.rpc = r.chance(20) ? s.pc : r.chance(30) ? SIMT_NO_PC : r.below(24);
        s.alive = s.mask | (r.chance(50) ? r.u32() : 0);
        s.vwi = (uint8_t)r.u32();
        s.fin = (uint8_t)r.chance(10);
        s.cnt = (uint8_t)r.below(c_.depth + 1u);
        s.nspill = (uint8_t)(c_.chunk * r.below(SIMT_MAX_SPILL / c_.chunk + 1u));
        s.hold = (uint8_t)r.chance(15);
        s.hdepth = (uint8_t)(r.chance(60) ? s.cnt + s.nspill : r.below(128));
        for (simt_ent &e : s.ent)
            random_ent(e);
        if (legal)
            return;
        switch (r.below(3)) {
        case 0:  s.cnt = (uint8_t)(c_.depth + 1u + r.below(63u - c_.depth)); break;
        case 1:  s.nspill = (uint8_t)(SIMT_MAX_SPILL + 1u + r.below(127u - SIMT_MAX_SPILL)); break;
        default: s.nspill = (uint8_t)(s.nspill ? s.nspill - 1u : 1u); break;
        }
    }

    /* A VWI no context holds (there are more VWIs than slots + parked contexts). */
    uint8_t new_vwi()
    {
        unsigned v = rng_->below(SM_MAX_CTX);
        while (vwi_used_[v])
            v = (v + 1) % SM_MAX_CTX;
        vwi_used_[v] = 1;
        return (uint8_t)v;
    }

    /* Slot w's context leaves it for good (relaunched, or restored over). */
    void drop_context(unsigned w)
    {
        if (slot_vwi_[w] >= 0)
            vwi_used_[(unsigned)slot_vwi_[w]] = 0;
        slot_vwi_[w] = -1;
    }

    /* Free slots (never launched, saved, or finished) get a new warp after a while. */
    void launches(const simt_regs &q, simt_in &in)
    {
        cosim::Rng &r = *rng_;
        slotmask issued = upd_slots(in) | dws_named(in);
        slotmask free = (~q.live | q.fin) & all() & ~issued;
        for (unsigned w = 0; w < c_.nwarps; w++) {
            if (!slot_has(free, w))
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
            drop_context(w);
            in.launch |= slot_bit(w);
            in.launch_mask[w] = lanes;
            in.launch_vwi[w] = new_vwi();
            slot_vwi_[w] = in.launch_vwi[w];
            group_[w] = (int)w;
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

    slotmask upd_slots(const simt_in &in) const
    {
        slotmask m = 0;
        for (const simt_upd &u : in.upd)
            if (u.v)
                m |= slot_bit(u.slot);
        return m;
    }

    /* Contexts leave their slots and come back in others: a save of a warp that was not
       busy and takes no update now; a restore of a parked context into a free slot. */
    void moves(const simt_regs &q, simt_in &in)
    {
        cosim::Rng &r = *rng_;
        slotmask busy = q.spq | q.flq | q.flw | q.popq | q.tmr;
        slotmask can_save = q.live & ~busy & all() & ~in.launch & ~upd_slots(in) &
                            ~dws_named(in) & ~q.hold & ~grouped(q);
        if (can_save && parked_.size() < kMaxParked && r.chance(pat_.save_pct)) {
            in.save_v = 1;
            in.save_slot = (uint8_t)pick_bit(can_save);
        }
        slotmask free = (~q.live | q.fin) & all() & ~in.launch & ~upd_slots(in) & ~dws_named(in);
        if (in.save_v)
            free &= ~slot_bit(in.save_slot);
        if (parked_.empty() || !free ||
            (parked_.size() < kMaxParked && !r.chance(pat_.restore_pct)))
            return;
        restore_j_ = (int)r.below((uint32_t)parked_.size());
        in.restore_v = 1;
        in.restore_slot = (uint8_t)pick_bit(free);
        in.restore = parked_[(size_t)restore_j_].st;
    }

    /* A save parks the context with its program; an accepted restore brings it back. */
    void moved(const simt_in &in, const simt_out &out)
    {
        if (in.save_v && out.saved_v) {
            unsigned w = in.save_slot;
            parked_.push_back(Parked{out.saved, warps_[w]});
            warps_[w] = WarpDrv{};
            warps_[w].wait = rng_->below(30);
            slot_vwi_[w] = -1;             /* the VWI goes with the parked context */
            group_[w] = -1;
        }
        if (in.restore_v && (out.err & SIMT_E_RESTORE) && restore_j_ == kChaosState)
            vwi_used_[in.restore.vwi] = 0;  /* refused after all */
        if (!in.restore_v || (out.err & SIMT_E_RESTORE))
            return;
        unsigned w = in.restore_slot;
        drop_context(w);                   /* a finished context restored over */
        group_[w] = (int)w;
        if (restore_j_ >= 0) {
            warps_[w] = parked_[(size_t)restore_j_].drv;
            slot_vwi_[w] = parked_[(size_t)restore_j_].st.vwi;
            parked_.erase(parked_.begin() + restore_j_);
        } else {                           /* a random state: chaos from now on */
            warps_[w] = WarpDrv{};
            if (restore_j_ == kChaosState)
                slot_vwi_[w] = in.restore.vwi;
        }
    }

    /* One cycle's worth of inputs that simt.h defines as errors (the block must flag and
       ignore them); never on a warp whose state could change before the update stage.
       Also, as a restore the block must take: a random legal state into a free slot. */
    void bad_input(const simt_regs &q, simt_in &in)
    {
        cosim::Rng &r = *rng_;
        int port = -1;
        for (unsigned i = 0; i < kPorts && port < 0; i++)
            if (!in.upd[i].v)
                port = (int)i;
        slotmask fill = in.fill_v ? slot_bit(in.fill_slot) : 0;
        slotmask asleep = (q.fin | ~q.live | q.spq | q.flq | (q.flw & ~fill)) & all() &
                          ~in.launch & ~upd_slots(in) & ~dws_named(in);
        if (in.restore_v)
            asleep &= ~slot_bit(in.restore_slot);
        switch (r.below(11)) {
        case 0:                                       /* a slot beyond nwarps */
            if (port >= 0 && c_.nwarps < SM_MAX_SLOTS)
                chaos_upd(in.upd[port], (uint8_t)(c_.nwarps + r.below(SM_MAX_SLOTS - c_.nwarps)),
                          0, 0);
            break;
        case 1:                                       /* a second port for the same warp */
            for (unsigned i = 0; i < kPorts; i++)
                if (in.upd[i].v)
                    for (unsigned j = i + 1; j < kPorts; j++)
                        if (!in.upd[j].v && !(in.save_v && in.upd[i].slot == in.save_slot)) {
                            chaos_upd(in.upd[j], in.upd[i].slot, 0, 0);
                            return;
                        }
            break;
        case 2:                                       /* a warp that cannot take it */
            if (port >= 0 && asleep) {
                unsigned w = pick_bit(asleep);
                if (!(in.save_v && w == in.save_slot))
                    chaos_upd(in.upd[port], (uint8_t)w, q.pc[w], q.mask[w]);
            }
            break;
        case 3:                                       /* a fill response nobody waits for */
            if (!in.fill_v) {
                slotmask idle = ~q.flw & all();
                in.fill_v = 1;
                in.fill_slot = (uint8_t)(idle && r.chance(70) ? pick_bit(idle)
                                                              : r.below(SM_MAX_SLOTS));
            }
            break;
        case 4:                                       /* a launch beyond nwarps */
            if (c_.nwarps < SM_MAX_SLOTS)
                in.launch |= slot_bit(c_.nwarps + r.below(SM_MAX_SLOTS - c_.nwarps));
            break;
        case 5:
            if (!in.save_v)
                bad_save(q, in);
            break;
        case 6:
            if (!in.restore_v)
                bad_restore(q, in);
            break;
        case 8:                                       /* DWS ports the block must refuse */
        case 9:
        case 10:
            bad_dws(q, in);
            break;
        default:                                      /* a random state into a free slot */
            if (!in.restore_v) {
                slotmask free = (~q.live | q.fin) & all() & ~in.launch & ~upd_slots(in) &
                                ~dws_named(in);
                if (in.save_v)
                    free &= ~slot_bit(in.save_slot);
                if (!free)
                    break;
                in.restore_v = 1;
                in.restore_slot = (uint8_t)pick_bit(free);
                random_state(in.restore, true);
                in.restore.vwi = new_vwi();
                restore_j_ = kChaosState;
            }
            break;
        }
    }

    /* A save the block must refuse: a slot not live, beyond nwarps, busy, or updated now. */
    void bad_save(const simt_regs &q, simt_in &in)
    {
        cosim::Rng &r = *rng_;
        slotmask busy = (q.spq | q.flq | q.flw | q.popq | q.tmr) & q.live & all();
        slotmask dead = ~q.live & all();
        slotmask upd = upd_slots(in) & all();
        unsigned k = r.below(4);
        if (k == 0 && dead)
            in.save_slot = (uint8_t)pick_bit(dead);
        else if (k == 1 && c_.nwarps < SM_MAX_SLOTS)
            in.save_slot = (uint8_t)(c_.nwarps + r.below(SM_MAX_SLOTS - c_.nwarps));
        else if (k == 2 && busy)
            in.save_slot = (uint8_t)pick_bit(busy);
        else if (k == 3 && upd)
            in.save_slot = (uint8_t)pick_bit(upd);
        else
            return;
        in.save_v = 1;
    }

    /* A restore the block must refuse: into a live unfinished slot, beyond nwarps, into a
       slot launched now, or of a state that does not fit. */
    void bad_restore(const simt_regs &q, simt_in &in)
    {
        cosim::Rng &r = *rng_;
        slotmask running = q.live & ~q.fin & all();
        slotmask free = (~q.live | q.fin) & all() & ~upd_slots(in) & ~dws_named(in);
        unsigned k = r.below(4);
        random_state(in.restore, k != 3);
        if (k == 0 && running)
            in.restore_slot = (uint8_t)pick_bit(running);
        else if (k == 1 && c_.nwarps < SM_MAX_SLOTS)
            in.restore_slot = (uint8_t)(c_.nwarps + r.below(SM_MAX_SLOTS - c_.nwarps));
        else if (k == 2 && (in.launch & all()))
            in.restore_slot = (uint8_t)pick_bit(in.launch & all());
        else if (k == 3 && free)
            in.restore_slot = (uint8_t)pick_bit(free);
        else
            return;
        in.restore_v = 1;
    }

    /* ---------------- DWS: splits, merges and releases as the SM and the wst make them */

    slotmask arrived(const simt_regs &q) const
    {
        slotmask m = 0;
        for (unsigned w = 0; w < c_.nwarps; w++)
            if (simt_arrived(&q, w))
                m |= slot_bit(w);
        return m;
    }
    slotmask at_lvl(const simt_regs &q) const
    {
        slotmask m = 0;
        for (unsigned w = 0; w < c_.nwarps; w++)
            if (simt_at_lvl(&q, w) && slot_has(q.live & ~q.fin, w))
                m |= slot_bit(w);
        return m;
    }
    /* Running slots of group g (a warp: its home and its splits). */
    slotmask members(const simt_regs &q, int g) const
    {
        slotmask m = 0;
        for (unsigned w = 0; w < c_.nwarps; w++)
            if (group_[w] == g && slot_has(q.live & ~q.fin, w))
                m |= slot_bit(w);
        return m;
    }
    /* Slots whose warp has another running slot. */
    slotmask grouped(const simt_regs &q) const
    {
        slotmask m = 0;
        for (unsigned w = 0; w < c_.nwarps; w++)
            if (group_[w] >= 0 && slot_count(members(q, group_[w])) > 1)
                m |= slot_bit(w);
        return m;
    }
    /* Slots the DWS ports name: branch-split slots of the update ports, split, merge, rel. */
    static slotmask dws_named(const simt_in &in)
    {
        slotmask m = 0;
        for (const simt_upd &u : in.upd)
            if (u.v && u.kind == SIMT_BRANCH && u.split_v)
                m |= slot_bit(u.split_slot);
        if (in.split.v)
            m |= slot_bit(in.split.src) | slot_bit(in.split.dst);
        if (in.merge.v)
            m |= slot_bit(in.merge.src) | slot_bit(in.merge.dst);
        if (in.rel.v)
            m |= slot_bit(in.rel.slot);
        return m;
    }
    /* Free, idle slots not promised to a split already. */
    slotmask split_free(const simt_regs &q) const
    {
        slotmask m = (~q.live | q.fin) & ~(q.spq | q.flq | q.flw | q.popq | q.tmr) & all();
        for (const PendSplit &p : pend_next_)
            m &= ~slot_bit(p.dst);
        return m;
    }
    uint8_t split_vwi()
    {
        return new_vwi();
    }

    /* A divergent branch of warp w splits (the wst had a free entry). */
    void try_bsplit(unsigned w, const simt_regs &q, simt_upd &u)
    {
        slotmask fr = split_free(q);
        if (!fr || !rng_->chance(pat_.split_pct) ||
            (slot_has(q.hold, w) && !simt_at_lvl(&q, w)))
            return;
        u.split_v = 1;
        u.split_slot = (uint8_t)pick_bit(fr);
        u.split_img = split_vwi();
        pend_next_.push_back(PendSplit{(uint8_t)w, u.split_slot, u.split_img});
    }

    /* A merge: two slots of one warp at their level, idle, at the same pc or one without
       lanes; into the home when it is one of them; the source's stack is empty. */
    void pick_merge(const simt_regs &q, simt_in &in, slotmask &named, slotmask lvl)
    {
        cosim::Rng &r = *rng_;
        unsigned n = c_.nwarps, a0 = r.below(n);
        if (!r.chance(pat_.merge_pct))
            return;
        for (unsigned k = 0; k < n; k++) {
            unsigned a = (a0 + k) % n, b = 0;
            if (!slot_has(lvl & ~named, a) || group_[a] < 0)
                continue;
            slotmask o = members(q, group_[a]) & lvl & ~named & ~slot_bit(a);
            for (; b < n; b++)
                if (slot_has(o, b) && (q.pc[a] == q.pc[b] || !q.mask[a] || !q.mask[b]))
                    break;
            if (b == n)
                continue;
            unsigned dst = (int)b == group_[a] ? b : a, src = dst == a ? b : a;
            if (simt_depth(&q, src) != 0)
                std::swap(dst, src);
            if (simt_depth(&q, src) != 0)
                continue;
            in.merge = simt_merge{1, (uint8_t)dst, (uint8_t)src};
            named |= slot_bit(dst) | slot_bit(src);
            return;
        }
    }

    /* A release: the last running slot of its warp (or the one merged into now). */
    void pick_rel(const simt_regs &q, simt_in &in, slotmask &named)
    {
        cosim::Rng &r = *rng_;
        unsigned n = c_.nwarps, a0 = r.below(n);
        if (!r.chance(pat_.rel_pct))
            return;
        for (unsigned k = 0; k < n; k++) {
            unsigned w = (a0 + k) % n;
            bool into = in.merge.v && in.merge.dst == w;
            if (!slot_has(q.live & ~q.fin & q.hold, w) || group_[w] < 0 ||
                (slot_has(named, w) && !into))
                continue;
            slotmask m = members(q, group_[w]);
            if (into)
                m &= ~slot_bit(in.merge.src);
            if (m != slot_bit(w))
                continue;
            in.rel = simt_rel{1, (uint8_t)w};
            named |= slot_bit(w);
            return;
        }
    }

    /* The memory split, merge and release ports of this cycle (legal ones). */
    void dws_ports(const simt_regs &q, simt_in &in)
    {
        cosim::Rng &r = *rng_;
        slotmask busy = q.spq | q.flq | q.flw | q.popq | q.tmr;
        slotmask named = upd_slots(in) | dws_named(in) | in.launch;
        slotmask lvl = at_lvl(q) & ~busy;
        if (in.save_v)
            named |= slot_bit(in.save_slot);
        if (in.restore_v)
            named |= slot_bit(in.restore_slot);
        pick_merge(q, in, named, lvl);
        pick_rel(q, in, named);
        /* memory split: run-ahead lanes of an idle slot (at its level or not holding) */
        if (!r.chance(pat_.msplit_pct))
            return;
        slotmask fr = split_free(q) & ~named;
        slotmask src = q.live & ~q.fin & ~busy & all() & ~named & (~q.hold | lvl);
        if (!fr || !src)
            return;
        unsigned s = pick_bit(src);
        uint32_t m = q.mask[s], l = r.u32() & m;
        if (l == 0 || l == m)
            return;
        unsigned t = pick_bit(fr);
        in.split = simt_msplit{1, (uint8_t)s, (uint8_t)t, l, split_vwi()};
        pend_.push_back(PendSplit{(uint8_t)s, (uint8_t)t, in.split.img});
    }

    /* After the cycle: splits that happened join their warp (the split runs the program on
       with its lanes); a merged-away slot is free; images of splits that did not happen go. */
    void dws_moved(const simt_in &in, const simt_out &out, const simt_regs &q)
    {
        for (const PendSplit &p : pend_) {
            bool done = slot_has(q.live & ~q.fin & q.hold, p.dst) && q.vwi[p.dst] == p.img &&
                        q.hdepth[p.dst] == 0 && simt_depth(&q, p.dst) == 0 &&
                        slot_vwi_[p.dst] != p.img;
            if (!done) {
                vwi_used_[p.img] = 0;
                continue;
            }
            drop_context(p.dst);
            warps_[p.dst] = warps_[p.src];
            group_[p.dst] = group_[p.src];
            slot_vwi_[p.dst] = p.img;
        }
        pend_.clear();
        if (in.merge.v && c_.dws && !(out.err & SIMT_E_MERGE)) {
            unsigned s = in.merge.src;
            drop_context(s);
            group_[s] = -1;
            warps_[s] = WarpDrv{};
            warps_[s].wait = rng_->below(30);
        }
    }

    /* DWS ports the block must refuse (and ignore). */
    void bad_dws(const simt_regs &q, simt_in &in)
    {
        cosim::Rng &r = *rng_;
        uint8_t a = (uint8_t)r.below(SM_MAX_SLOTS);   /* b: beyond nwarps (a if none is) */
        uint8_t b = c_.nwarps < SM_MAX_SLOTS
                        ? (uint8_t)(c_.nwarps + r.below(SM_MAX_SLOTS - c_.nwarps)) : a;
        switch (r.below(3)) {
        case 0:
            if (in.split.v)
                break;
            in.split = simt_msplit{1, a, r.chance(50) ? a : b, r.u32(), (uint8_t)r.u32()};
            if (r.chance(30)) {           /* no lanes */
                in.split.dst = (uint8_t)r.below(SM_MAX_SLOTS);
                in.split.lanes = 0;
            }
            break;
        case 1:
            if (!in.merge.v)
                in.merge = simt_merge{1, a, r.chance(50) ? a : b};
            break;
        default: {                        /* a slot not in the regime, or beyond nwarps */
            if (in.rel.v)
                break;
            slotmask nh = ~q.hold & all();
            if (!nh && c_.nwarps == SM_MAX_SLOTS)
                break;
            in.rel = simt_rel{1, nh && r.chance(70) ? (uint8_t)pick_bit(nh) : b};
            break;
        }
        }
    }

    unsigned pick_bit(slotmask m)
    {
        unsigned n = slot_count(m), k = rng_->below(n);
        for (; k; k--)
            m &= m - 1;
        return slot_ctz(m);
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
        u.split_v = (uint8_t)r.chance(10);     /* into itself: refused (SIMT_E_SPLIT) */
        u.split_slot = w;
        u.split_img = (uint8_t)r.u32();
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
            if (k == P_CBRA && dec != 0 && dec != mask)
                try_bsplit(w, q, u);
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
    std::vector<Parked> parked_;
    std::vector<simt_image> img_;          /* the spill images, by VWI (the SM's) */
    std::vector<int> slot_vwi_;            /* the VWI of each slot's context, -1 none */
    std::vector<uint8_t> vwi_used_;        /* held by a context in a slot or parked */
    std::vector<int> group_;               /* DWS: the home slot of each slot's warp, -1 */
    std::vector<PendSplit> pend_;          /* DWS: splits asked for in this cycle */
    std::vector<PendSplit> pend_next_;     /* ... and in the latch for the next */
    simt_upd latch_[kPorts];
    Pattern pat_;
    uint64_t now_ = 0;
    int restore_j_ = -1;                   /* this cycle's restore: parked index, kChaosState,
                                              or -1 (none, or one the block must refuse) */
};

} /* namespace */

#endif
