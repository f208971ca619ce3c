/*
 * simt_tb.h -- the test bench of model/sm/simt.c shared by tests/test_simt.c and
 * tests/test_simt_ctx.c (header-only, as testutil.h).
 *
 * Programs are tiny kernels of nop / bra / @p bra / exit / @p exit whose reconvergence PCs
 * come from the real flow_build (model/ptx/flow.c).  The bench plays the SM around the block:
 * it owns the spill images (one per context, written from the spill ports, read back at the
 * address of each accepted fill request when its response is presented), and run_prog issues
 * one instruction per warp per cycle whenever the stack says the warp is not busy, presents
 * the outcome on the update port in the next cycle (the SM's issue latch), answers spill/fill
 * requests as a memory would, and checks that every lane executes exactly the instruction
 * sequence it would execute alone (its scalar trace).  With move_every it also moves the
 * warps between slots (save, then restore into another slot) and logs what each warp did,
 * so that a run with moves can be compared with one without.
 */
#ifndef SIMT_TB_H
#define SIMT_TB_H
#include "testutil.h"
#include "sm/simt.h"
#include "ptx/flow.h"

/* ---------------- programs ---------------- */

enum { K_NOP, K_BRA, K_CBRA, K_EXIT, K_CEXIT };
struct spec { uint8_t k; uint32_t t; };
#define NOP      {K_NOP, 0}
#define BRA(x)   {K_BRA, x}
#define CBRA(x)  {K_CBRA, x}
#define EXIT     {K_EXIT, 0}
#define CEXIT    {K_CEXIT, 0}
#define MAXPC    256

struct prog { struct spec s[MAXPC]; uint32_t n; uint32_t reconv[MAXPC]; };

static inline void build(struct prog *p, const struct spec *s, uint32_t n)
{
    struct ptx_prog pp;
    struct flow c;
    char err[256] = "";
    assert_true(n <= MAXPC);
    memset(&pp, 0, sizeof pp);
    strcpy(pp.name, "t");
    pp.ninsns = n;
    pp.insns = calloc(n, sizeof *pp.insns);
    assert_non_null(pp.insns);
    for (uint32_t i = 0; i < n; i++) {
        static const uint8_t ops[] = {OP_NOP, OP_BRA, OP_BRA, OP_EXIT, OP_EXIT};
        pp.insns[i].op = ops[s[i].k];
        pp.insns[i].guard = (s[i].k == K_CBRA || s[i].k == K_CEXIT) ? 1 : -1;
        if (pp.insns[i].op == OP_BRA) {
            pp.insns[i].nopd = 1;
            pp.insns[i].opd[0].kind = OPD_LABEL;
            pp.insns[i].opd[0].imm = s[i].t;
        }
        p->s[i] = s[i];
    }
    p->n = n;
    if (flow_build(&pp, &c, err, sizeof err) != 0)
        fail_msg("flow_build: %s", err);
    memcpy(p->reconv, c.reconv, n * sizeof(uint32_t));
    flow_free(&c);
    free(pp.insns);
}

/* Per-lane outcome of a guarded instruction: 1 = branch taken / lane exits. */
typedef int (*decide_fn)(const void *arg, unsigned lane, uint32_t pc, uint32_t visit);

/* ---------------- the block under test and its memory side ---------------- */

struct tb {
    struct simt_cfg c;
    struct simt_regs q, d;
    struct simt_in in;
    struct simt_out o;
    struct simt_image img[SM_MAX_CTX];        /* the spill images, by VWI */
    struct mem_req fillreq[SM_MAX_SLOTS];     /* the last fill request accepted per slot */
};

static inline struct tb *tb_new(unsigned policy, unsigned depth, unsigned chunk)
{
    char err[160];
    struct tb *t = calloc(1, sizeof *t);
    assert_non_null(t);
    simt_cfg_default(&t->c);
    t->c.policy = (uint8_t)policy;
    t->c.depth = (uint8_t)depth;
    t->c.chunk = (uint8_t)chunk;
    t->c.sm_id = 3;
    if (simt_cfg_check(&t->c, err, sizeof err))
        fail_msg("%s", err);
    simt_reset(&t->c, &t->q);
    t->d = t->q;
    return t;
}

/* Entry i (0 = bottom) of warp w's whole stack: in its image, then on chip. */
static inline const struct simt_ent *tb_entry(const struct tb *t, unsigned w, unsigned i)
{
    const struct simt_regs *r = &t->q;
    return i < r->nspill[w] ? &t->img[r->vwi[w]].e[i]
                            : &r->stk[w][(r->base[w] + i - r->nspill[w]) % t->c.depth];
}

/* rpc chain invariant: every entry's rpc (and the warp's rpc) is the pc of the nearest SYNC
   entry below it, or none.  This is why the 64-bit token (no rpc field) is enough in memory. */
static inline void check_invariant(const struct tb *t, unsigned w)
{
    const struct simt_regs *r = &t->q;
    uint32_t sync = SIMT_NO_PC;
    unsigned n = simt_depth(r, w);
    for (unsigned i = 0; i < n; i++) {
        const struct simt_ent *e = tb_entry(t, w, i);
        if (e->rpc != sync)
            fail_msg("warp %u entry %u: rpc %u, nearest SYNC below at %u", w, i, e->rpc, sync);
        if (e->type == SIMT_SYNC)
            sync = e->pc;
    }
    if (!slot_has(r->fin, w) && r->rpc[w] != sync)
        fail_msg("warp %u: rpc %u, topmost SYNC at %u", w, r->rpc[w], sync);
}

/* One cycle: the fill data of a response from the image, eval, the spills into the image,
   commit (which must leave q == d), the accepted fill requests noted. */
static inline void step(struct tb *t)
{
    if (t->in.fill_v && t->in.fill_slot < SM_MAX_SLOTS)
        simt_image_read(&t->c, t->img, SM_MAX_CTX, &t->fillreq[t->in.fill_slot],
                        t->in.fill_ent);
    simt_eval(&t->c, &t->q, &t->in, &t->o, &t->d);
    if (simt_image_write(&t->c, &t->o, t->img, SM_MAX_CTX))
        fail_msg("a spill beyond the images");
    if (t->o.req_v && t->in.req_ready && t->o.req.kind == MK_FILL)
        t->fillreq[t->o.req.warp] = t->o.req;
    simt_commit(&t->c, &t->q, &t->d);
    if (memcmp(&t->q, &t->d, sizeof t->q))
        fail_msg("commit left q != d");
    memset(&t->in, 0, sizeof t->in);
}

/* Slot w gets a warp of these lanes; its context's VWI is vwi. */
static inline void launch_vwi(struct tb *t, unsigned w, uint32_t lanes, unsigned vwi)
{
    t->in.launch |= slot_bit(w);
    t->in.launch_mask[w] = lanes;
    t->in.launch_vwi[w] = (uint8_t)vwi;
}

/* ... with VWI = slot, as the SM launches today. */
static inline void launch(struct tb *t, unsigned w, uint32_t lanes)
{
    launch_vwi(t, w, lanes, w);
}

static inline void upd(struct tb *t, unsigned port, unsigned w, unsigned kind, uint32_t taken,
                       uint32_t target, uint32_t reconv, uint32_t exited)
{
    t->in.upd[port] = (struct simt_upd){1, (uint8_t)w, (uint8_t)kind, taken, target, reconv,
                                        exited, 0, 0, 0};
}

/* Step until warp w is not busy, accepting requests and answering fills at once. */
static inline void drain(struct tb *t, unsigned w)
{
    for (unsigned k = 0; k < 100 && slot_has(t->o.busy, w); k++) {
        t->in.req_ready = 1;
        if (slot_has(t->q.flw, w)) {
            t->in.fill_v = 1;
            t->in.fill_slot = (uint8_t)w;
        }
        step(t);
    }
    assert_false(slot_has(t->o.busy, w));
}

/* The loop by hand: warp w jumps to the branch at 100 (reconvergence 101, body at 90), then
   n times: the branch diverges (one more lane leaves), the body jumps back to 100. */
static inline void build_loop(struct tb *t, unsigned w, unsigned n, int drain_each)
{
    uint32_t mask = t->o.mask[w];
    upd(t, 1, w, SIMT_BRANCH, mask, 100, 0, 0);
    step(t);
    for (unsigned i = 0; i < n; i++) {
        upd(t, 1, w, SIMT_BRANCH, mask >> 1 & mask, 90, 101, 0);
        step(t);
        if (drain_each)
            drain(t, w);
        mask = t->o.mask[w];
        assert_int_equal(t->o.pc[w], 90);
        if (i + 1 < n || drain_each) {
            upd(t, 1, w, SIMT_BRANCH, mask, 100, 0, 0);
            step(t);
        }
    }
}

/* ---------------- the driver ---------------- */

#define MAXTRACE 20000      /* instructions per lane */

struct run_log {            /* what one warp did, in order (FNV-1a hashes and counts) */
    uint64_t issue;         /* (pc, mask) of every instruction issued */
    uint64_t req;           /* (kind, addr, tag, bytes) of every request accepted */
    uint64_t spill;         /* (vwi, idx, entries) of every chunk spilled */
    unsigned nissue, nreq, nspill;
};

struct run {
    const struct prog *p;
    decide_fn dec;
    const void *arg;
    unsigned nwarps;               /* warps driven (1 or 2) */
    uint32_t lanes[2];
    int placed;                    /* 1: slot[] and vwi[] set; 0: warp w in slot w, VWI w */
    unsigned slot[2];
    uint8_t vwi[2];
    int mem_random;                /* random req_ready and fill latency */
    unsigned fill_lat;
    unsigned move_every;           /* > 0: every so many cycles a warp moves to another slot */
    /* results */
    unsigned cycles, max_depth, pushes, pops, spills, fills, issued, moves;
    unsigned moves_spilled;        /* moves of a warp with entries in its image */
    struct mem_req reqs[64];
    unsigned nreqs;
    struct run_log log[2];
};

static inline void fnv(uint64_t *h, uint64_t v)
{
    if (!*h)
        *h = 0xcbf29ce484222325ull;
    for (unsigned i = 0; i < 8; i++, v >>= 8)
        *h = (*h ^ (v & 0xff)) * 0x100000001b3ull;
}

/* scalar execution of one lane: its pc trace */
static inline unsigned scalar_trace(const struct prog *p, decide_fn dec, const void *arg,
                                    unsigned lane, uint32_t *tr, unsigned max)
{
    static uint32_t visits[MAXPC];
    unsigned n = 0;
    uint32_t pc = 0;
    memset(visits, 0, sizeof visits);
    while (pc < p->n) {
        assert_true(n < max);
        tr[n++] = pc;
        const struct spec *s = &p->s[pc];
        uint32_t v = visits[pc]++;
        if (s->k == K_EXIT || (s->k == K_CEXIT && dec(arg, lane, pc, v)))
            break;
        if (s->k == K_BRA || (s->k == K_CBRA && dec(arg, lane, pc, v)))
            pc = s->t;
        else
            pc++;
    }
    return n;
}

struct run_state {                 /* run_prog's working state */
    uint32_t exp[2][32][MAXTRACE];
    unsigned explen[2][32], pos[2][32];
    uint32_t visits[2][32][MAXPC];
    struct simt_upd latch[2];
    unsigned fill_due[SM_MAX_SLOTS];
    int fill_pending[SM_MAX_SLOTS];
    unsigned slot[2];
    int phase[2];                  /* 0 in a slot, 1 save next cycle, 2 restore next cycle */
    unsigned to;                   /* the slot a saved warp goes to */
    struct simt_state held;        /* the saved state */
};

/* Issue the instruction at warp w's pc (slot sl) for its active lanes into the latch. */
static inline void run_issue(struct tb *t, struct run *r, struct run_state *z, unsigned w)
{
    unsigned sl = z->slot[w];
    uint32_t pc = t->o.pc[sl], mask = t->o.mask[sl], taken = 0;
    assert_true(pc < r->p->n);
    assert_true(mask != 0);
    for (unsigned l = 0; l < 32; l++) {
        if (!(mask >> l & 1u))
            continue;
        if (z->pos[w][l] >= z->explen[w][l] || z->exp[w][l][z->pos[w][l]] != pc)
            fail_msg("warp %u lane %u step %u: at pc %u, expected %d", w, l, z->pos[w][l], pc,
                     z->pos[w][l] < z->explen[w][l] ? (int)z->exp[w][l][z->pos[w][l]] : -1);
        z->pos[w][l]++;
        if (r->dec(r->arg, l, pc, z->visits[w][l][pc]++))
            taken |= 1u << l;
    }
    fnv(&r->log[w].issue, (uint64_t)pc << 32 | mask);
    r->log[w].nissue++;
    const struct spec *s = &r->p->s[pc];
    struct simt_upd *u = &z->latch[w];
    u->v = 1;
    u->slot = (uint8_t)sl;
    r->issued++;
    if (s->k == K_BRA || s->k == K_CBRA) {
        u->kind = SIMT_BRANCH;
        u->taken = s->k == K_BRA ? mask : taken;
        u->target = s->t;
        u->reconv = r->p->reconv[pc];
    } else if (s->k == K_EXIT || s->k == K_CEXIT) {
        u->kind = SIMT_EXIT;
        u->exited = s->k == K_EXIT ? mask : taken;
    } else {
        u->kind = SIMT_NORMAL;
    }
}

/* The inputs of a move: the save, then the restore into a free slot >= the other warp's. */
static inline void run_move_inputs(struct tb *t, struct run *r, struct run_state *z)
{
    for (unsigned w = 0; w < r->nwarps; w++) {
        if (z->phase[w] == 1) {
            t->in.save_v = 1;
            t->in.save_slot = (uint8_t)z->slot[w];
        } else if (z->phase[w] == 2) {
            t->in.restore_v = 1;
            t->in.restore_slot = (uint8_t)z->to;
            t->in.restore = z->held;
        }
    }
}

/* After the cycle: a save's state is held; a restored warp lives in its new slot. */
static inline void run_move_outputs(struct tb *t, struct run *r, struct run_state *z)
{
    for (unsigned w = 0; w < r->nwarps; w++) {
        if (z->phase[w] == 1) {
            assert_true(t->o.saved_v);
            z->held = t->o.saved;
            z->phase[w] = 2;
            r->moves_spilled += z->held.nspill > 0;
            do {                   /* a slot no warp holds, also above 64 */
                z->to = (unsigned)rand() % t->c.nwarps;
            } while (z->to == z->slot[w] || (r->nwarps > 1 && z->to == z->slot[!w]));
        } else if (z->phase[w] == 2) {
            z->slot[w] = z->to;
            z->phase[w] = 0;
            r->moves++;
        }
    }
}

/* What each warp did this cycle: requests accepted, chunks spilled (by slot / VWI). */
static inline void run_log_cycle(struct tb *t, struct run *r, struct run_state *z, int ready)
{
    for (unsigned w = 0; w < r->nwarps; w++) {
        struct run_log *g = &r->log[w];
        uint8_t vwi = r->placed ? r->vwi[w] : (uint8_t)w;
        unsigned sl = z->phase[w] == 2 ? z->to : z->slot[w];   /* (restored this cycle) */
        if (t->o.req_v && ready && t->o.req.warp == sl) {
            fnv(&g->req, (uint64_t)t->o.req.kind << 56 ^ t->o.req.addr);
            fnv(&g->req, (uint64_t)t->o.req.tag << 32 | t->o.req.bytes);
            g->nreq++;
        }
        for (unsigned i = 0; i < SIMT_UPD_PORTS; i++) {
            const struct simt_spill *sp = &t->o.spill[i];
            if (!sp->v || sp->vwi != vwi)
                continue;
            fnv(&g->spill, sp->idx);
            for (unsigned k = 0; k < t->c.chunk; k++) {
                fnv(&g->spill, (uint64_t)sp->ent[k].pc << 32 | sp->ent[k].rpc);
                fnv(&g->spill, (uint64_t)sp->ent[k].mask << 8 | sp->ent[k].type);
            }
            g->nspill++;
        }
    }
}

/* This cycle's memory side: the fill responses that are due, the requests accepted. */
static inline void run_memory(struct tb *t, struct run_state *z, unsigned cyc)
{
    for (unsigned s = 0; s < SM_MAX_SLOTS; s++)
        if (z->fill_pending[s] && z->fill_due[s] <= cyc && !t->in.fill_v) {
            t->in.fill_v = 1;
            t->in.fill_slot = (uint8_t)s;
            z->fill_pending[s] = 0;
        }
}

static inline void run_prog(struct tb *t, struct run *r)
{
    static struct run_state z;
    memset(&z, 0, sizeof z);
    memset(r->log, 0, sizeof r->log);
    for (unsigned w = 0; w < r->nwarps; w++) {
        z.slot[w] = r->placed ? r->slot[w] : w;
        for (unsigned l = 0; l < 32; l++)
            z.explen[w][l] = (r->lanes[w] >> l & 1u)
                ? scalar_trace(r->p, r->dec, r->arg, l, z.exp[w][l], MAXTRACE) : 0;
        launch_vwi(t, z.slot[w], r->lanes[w], r->placed ? r->vwi[w] : w);
    }
    step(t);
    for (unsigned cyc = 1; ; cyc++) {
        if (cyc > 400000)
            fail_msg("no progress after %u cycles", cyc);
        /* present last cycle's issue, this cycle's memory handshake and responses */
        memcpy(t->in.upd, z.latch, sizeof z.latch);
        memset(z.latch, 0, sizeof z.latch);
        t->in.req_ready = r->mem_random ? (rand() % 3 != 0) : 1;
        run_memory(t, &z, cyc);
        run_move_inputs(t, r, &z);
        uint8_t ready = t->in.req_ready;
        step(t);
        if (t->o.err)
            fail_msg("cycle %u: err %#x slot %u", cyc, t->o.err, t->o.err_slot);
        r->pushes += t->o.ev_push;
        r->pops += t->o.ev_pop;
        r->spills += t->o.ev_spill;
        r->fills += t->o.ev_fill;
        run_log_cycle(t, r, &z, ready);
        if (t->o.req_v && ready) {
            if (r->nreqs < 64)
                r->reqs[r->nreqs++] = t->o.req;
            if (t->o.req.kind == MK_FILL) {
                z.fill_pending[t->o.req.warp] = 1;
                z.fill_due[t->o.req.warp] = cyc + (r->mem_random ? 1 + (unsigned)rand() % 30
                                                                 : r->fill_lat);
            }
        }
        run_move_outputs(t, r, &z);
        unsigned alldone = 1;
        for (unsigned w = 0; w < r->nwarps; w++) {
            unsigned sl = z.slot[w];
            if (z.phase[w]) {                  /* between two slots */
                alldone = 0;
                continue;
            }
            check_invariant(t, sl);
            if (simt_depth(&t->q, sl) > r->max_depth)
                r->max_depth = simt_depth(&t->q, sl);
            if (slot_has(t->o.fin, sl))
                continue;
            alldone = 0;
            if (slot_has(t->o.busy, sl))
                continue;
            if (r->move_every && cyc % r->move_every == w && z.phase[!w] == 0) {
                z.phase[w] = 1;                /* not issued now: saved next cycle */
                continue;
            }
            run_issue(t, r, &z, w);
        }
        if (alldone) {
            r->cycles = cyc;
            break;
        }
    }
    for (unsigned w = 0; w < r->nwarps; w++)
        for (unsigned l = 0; l < 32; l++)
            if (z.pos[w][l] != z.explen[w][l])
                fail_msg("warp %u lane %u executed %u of %u instructions", w, l, z.pos[w][l],
                         z.explen[w][l]);
}

/* ---------------- decision functions ---------------- */

struct lanes_arg { uint32_t taken_at[MAXPC]; };   /* lane mask taking the branch at pc */
static inline int dec_lanes(const void *a, unsigned lane, uint32_t pc, uint32_t visit)
{
    (void)visit;
    return ((const struct lanes_arg *)a)->taken_at[pc] >> lane & 1u;
}

struct rnd_arg { uint32_t seed; uint32_t loop_max; const struct prog *p; };
static inline uint32_t hash4(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    uint32_t h = a * 0x9e3779b1u ^ b * 0x85ebca77u ^ c * 0xc2b2ae3du ^ d * 0x27d4eb2fu;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return h;
}
static inline int dec_rnd(const void *a, unsigned lane, uint32_t pc, uint32_t visit)
{
    const struct rnd_arg *ra = a;
    const struct spec *s = &ra->p->s[pc];
    uint32_t h = hash4(ra->seed, lane, pc, visit);
    if (s->k == K_CEXIT)
        return h % 23 == 0;
    if (s->k == K_CBRA && s->t <= pc && visit >= ra->loop_max)
        return 0;                     /* loops end */
    return (h >> 8) % 3 != 0;
}

/* Random program: forward unconditional branches, conditional branches both ways (loops,
   irreducible regions included), guarded exits; the last instruction is exit. */
static inline void random_prog(struct prog *p, uint32_t n, int structured_only)
{
    struct spec s[MAXPC];
    for (uint32_t i = 0; i < n; i++) {
        int r = rand() % 10;
        s[i].k = K_NOP;
        s[i].t = 0;
        if (i + 1 == n) {
            s[i].k = K_EXIT;
        } else if (r < 3) {
            s[i].k = K_CBRA;
            if (structured_only || rand() % 2)
                s[i].t = i + 1 + (uint32_t)rand() % (n - i - 1);    /* forward */
            else
                s[i].t = (uint32_t)rand() % (i + 1);                 /* backward: a loop */
        } else if (r == 3) {
            s[i].k = K_BRA;
            s[i].t = i + 1 + (uint32_t)rand() % (n - i - 1);
        } else if (r == 4 && rand() % 3 == 0) {
            s[i].k = K_CEXIT;
        }
    }
    build(p, s, n);
}

#endif
