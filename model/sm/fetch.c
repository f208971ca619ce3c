/*
 * fetch.c -- instruction fetch, I-cache (LRU), decode pipe and I-buffers (see fetch.h,
 * docs/fetch.md).
 *
 * eval order (d == q on entry; d is the next state under construction):
 *   1. consumes, 2. flushes, 3. the I-cache fill, 4. each port's decode pipe advances (its
 *   last stage enters the I-buffer), 5. each port in turn chooses one of its slots and looks
 *   it up, 6. the memory request, 7. outputs from d.
 */
#include <stdio.h>
#include <string.h>
#include "fetch.h"
#include "sm_limits.h"
#include "base/cost.h"

void fetch_cfg_default(struct fetch_cfg *c)
{
    c->nslots = 48;
    c->ibuf_entries = 2;
    c->width = 1;
    c->ports = 1;
    c->decode_cycles = 1;
    c->ic_sets = 4;                /* GPGPU-Sim gtx480: -gpgpu_cache:il1 4:128:4 */
    c->ic_ways = 4;
    c->insn_bytes = 8;
    c->mshrs = 2;
    c->sm_id = 0;
    c->code_base = 0x100000000ull;
}

static int pow2(unsigned v) { return v && !(v & (v - 1u)); }

int fetch_cfg_check(const struct fetch_cfg *c, char *err, size_t errlen)
{
    if (c->nslots < 1 || c->nslots > FETCH_MAX_SLOTS)
        snprintf(err, errlen, "fetch: nslots %u out of range 1..%u", c->nslots, FETCH_MAX_SLOTS);
    else if (c->ibuf_entries < 1 || c->ibuf_entries > FETCH_MAX_IBUF)
        snprintf(err, errlen, "fetch: ibuf_entries %u out of range 1..%u", c->ibuf_entries,
                 FETCH_MAX_IBUF);
    else if (c->width < 1 || c->width > c->ibuf_entries)
        snprintf(err, errlen, "fetch: width %u out of range 1..ibuf_entries (%u)", c->width,
                 c->ibuf_entries);
    else if (c->ports < 1 || c->ports > FETCH_MAX_PORTS || c->ports > c->nslots)
        snprintf(err, errlen, "fetch: ports %u out of range 1..%u and 1..nslots (%u)", c->ports,
                 FETCH_MAX_PORTS, c->nslots);
    else if (c->decode_cycles > FETCH_MAX_DECODE)
        snprintf(err, errlen, "fetch: decode_cycles %u out of range 0..%u", c->decode_cycles,
                 FETCH_MAX_DECODE);
    else if (!pow2(c->ic_sets) || c->ic_sets > FETCH_MAX_SETS)
        snprintf(err, errlen, "fetch: ic_sets %u must be a power of two in 1..%u", c->ic_sets,
                 FETCH_MAX_SETS);
    else if (c->ic_ways < 1 || c->ic_ways > FETCH_MAX_WAYS)
        snprintf(err, errlen, "fetch: ic_ways %u out of range 1..%u", c->ic_ways, FETCH_MAX_WAYS);
    else if (!pow2(c->insn_bytes) || c->insn_bytes > MEM_LINE_BYTES)
        snprintf(err, errlen, "fetch: insn_bytes %u must be a power of two in 1..%u",
                 c->insn_bytes, MEM_LINE_BYTES);
    else if (c->mshrs < 1 || c->mshrs > FETCH_MAX_MSHR)
        snprintf(err, errlen, "fetch: mshrs %u out of range 1..%u", c->mshrs, FETCH_MAX_MSHR);
    else if (c->code_base % MEM_LINE_BYTES || c->code_base >= (1ull << 38))
        snprintf(err, errlen, "fetch: code_base 0x%llx must be 128-byte aligned and < 2^38",
                 (unsigned long long)c->code_base);
    else
        return 0;
    return -1;
}

void fetch_reset(const struct fetch_cfg *c, struct fetch_regs *r)
{
    (void)c;
    memset(r, 0, sizeof *r);
    for (unsigned p = 0; p < FETCH_MAX_PORTS; p++)
        r->rr[p] = SM_MAX_SLOTS - 1;   /* so that the first choice starts at the lowest slot */
    for (unsigned s = 0; s < FETCH_MAX_SETS; s++)
        for (unsigned w = 0; w < FETCH_MAX_WAYS; w++)
            r->ic_age[s][w] = (uint8_t)w;
}

static slotmask slots_all(const struct fetch_cfg *c)
{
    return slot_first(c->nslots);
}

/* The slots of port p: p, p + ports, p + 2 ports, ... below nslots. */
static slotmask port_slots(const struct fetch_cfg *c, unsigned p)
{
    slotmask m = slot_bit(p);
    if (c->ports == 1)
        return slots_all(c);
    for (unsigned step = c->ports; step < SM_MAX_SLOTS; step *= 2)
        m |= m << step;
    return m & slots_all(c);
}

static void set_flags(const struct fetch_cfg *c, struct fetch_regs *d, unsigned s)
{
    slotmask b = slot_bit(s);
    d->hv = d->ibuf_n[s] ? d->hv | b : d->hv & ~b;
    d->full = d->ibuf_n[s] + d->nfl[s] >= c->ibuf_entries ? d->full | b : d->full & ~b;
}

static void do_consume(const struct fetch_cfg *c, const struct fetch_in *in,
                       struct fetch_regs *d, struct fetch_out *out)
{
    for (unsigned i = 0; i < FETCH_CONSUME_PORTS; i++) {
        unsigned s = in->consume[i].slot;
        if (!in->consume[i].v)
            continue;
        if (s >= c->nslots || d->ibuf_n[s] == 0) {
            out->err |= s >= c->nslots ? FETCH_E_SLOT : FETCH_E_EMPTY;
            continue;
        }
        for (unsigned k = 1; k < d->ibuf_n[s]; k++)
            d->ibuf_pc[k - 1][s] = d->ibuf_pc[k][s];
        d->ibuf_n[s]--;
        set_flags(c, d, s);
    }
}

static void do_flush(const struct fetch_cfg *c, slotmask fl, struct fetch_regs *d)
{
    slotmask tmp;
    unsigned s;
    for (SLOT_EACH(s, fl, tmp)) {
        d->ibuf_n[s] = 0;
        d->nfl[s] = 0;
    }
    d->npc_v &= ~fl;
    d->hv &= ~fl;
    d->full &= ~fl;
    d->wait &= ~fl;
    for (unsigned i = 0; i < c->mshrs; i++)
        if ((d->ms_v >> i & 1u) && (d->ms_wait[i] & fl))
            d->ms_wait[i] &= ~fl;
    for (unsigned p = 0; p < c->ports; p++)
        for (unsigned k = 0; k <= c->decode_cycles; k++)
            if ((d->dq_v[p] >> k & 1u) && slot_has(fl, d->dq_slot[p][k]))
                d->dq_v[p] &= (uint8_t)~(1u << k);
}

/* LRU: way h becomes the most recent. */
static void touch(const struct fetch_cfg *c, struct fetch_regs *d, unsigned set, unsigned h)
{
    uint8_t a = d->ic_age[set][h];
    for (unsigned w = 0; w < c->ic_ways; w++)
        if (d->ic_age[set][w] < a)
            d->ic_age[set][w]++;
    d->ic_age[set][h] = 0;
}

static int lookup(const struct fetch_cfg *c, const struct fetch_regs *d, uint32_t line)
{
    unsigned set = line & (c->ic_sets - 1u);
    for (unsigned w = 0; w < c->ic_ways; w++)
        if ((d->ic_v[set] >> w & 1u) && d->ic_tag[set][w] == line)
            return (int)w;
    return -1;
}

static void install(const struct fetch_cfg *c, struct fetch_regs *d, uint32_t line)
{
    unsigned set = line & (c->ic_sets - 1u), v = 0;
    if (lookup(c, d, line) >= 0)
        return;
    for (unsigned w = 0; w < c->ic_ways; w++) {
        if (!(d->ic_v[set] >> w & 1u)) {
            v = w;
            break;
        }
        if (d->ic_age[set][w] > d->ic_age[set][v])
            v = w;
    }
    d->ic_tag[set][v] = line;
    d->ic_v[set] |= (uint8_t)(1u << v);
    touch(c, d, set, v);
}

static void do_fill(const struct fetch_cfg *c, const struct fetch_in *in, struct fetch_regs *d,
                    struct fetch_out *out)
{
    unsigned t = in->fill_tag;
    if (t >= c->mshrs || !(d->ms_v >> t & 1u) || !(d->ms_sent >> t & 1u)) {
        out->err |= FETCH_E_FILL;
        return;
    }
    install(c, d, d->ms_line[t]);
    d->wait &= ~d->ms_wait[t];
    d->ms_wait[t] = 0;
    d->ms_v &= (uint8_t)~(1u << t);
    d->ms_sent &= (uint8_t)~(1u << t);
}

/* Port p's decode pipe moves one stage; its last stage enters the I-buffer. */
static void advance_decode(const struct fetch_cfg *c, struct fetch_regs *d, unsigned p)
{
    unsigned last = c->decode_cycles;
    if (d->dq_v[p] >> last & 1u) {
        unsigned s = d->dq_slot[p][last], n = d->dq_n[p][last];
        for (unsigned i = 0; i < n; i++)
            d->ibuf_pc[d->ibuf_n[s] + i][s] = d->dq_pc[p][last] + i;
        d->ibuf_n[s] = (uint8_t)(d->ibuf_n[s] + n);
        d->nfl[s] = (uint8_t)(d->nfl[s] - n);
        set_flags(c, d, s);
    }
    for (unsigned k = last; k > 0; k--) {
        d->dq_slot[p][k] = d->dq_slot[p][k - 1];
        d->dq_n[p][k] = d->dq_n[p][k - 1];
        d->dq_pc[p][k] = d->dq_pc[p][k - 1];
    }
    d->dq_v[p] = (uint8_t)((d->dq_v[p] << 1) & ((1u << (last + 1u)) - 1u));
}

static void miss(const struct fetch_cfg *c, struct fetch_regs *d, struct fetch_out *out,
                 unsigned s, uint32_t line)
{
    slotmask b = slot_bit(s);
    int freei = -1;
    out->ev_miss++;
    for (unsigned i = 0; i < c->mshrs; i++) {
        if ((d->ms_v >> i & 1u) && d->ms_line[i] == line) {
            d->ms_wait[i] |= b;        /* merge with the miss already outstanding */
            d->wait |= b;
            return;
        }
        if (!(d->ms_v >> i & 1u) && freei < 0)
            freei = (int)i;
    }
    if (freei < 0) {
        out->ev_mshr_full++;
        return;
    }
    d->ms_v |= (uint8_t)(1u << freei);
    d->ms_sent &= (uint8_t)~(1u << freei);
    d->ms_line[freei] = line;
    d->ms_wait[freei] = b;
    d->wait |= b;
}

static void hit(const struct fetch_cfg *c, struct fetch_regs *d, struct fetch_out *out,
                unsigned p, unsigned s, uint32_t fpc, uint32_t pc_end)
{
    unsigned per_line = MEM_LINE_BYTES / c->insn_bytes;
    unsigned n = c->width;
    unsigned room = c->ibuf_entries - d->ibuf_n[s] - d->nfl[s];
    unsigned in_line = per_line - (unsigned)(fpc % per_line);
    if (n > room)
        n = room;
    if (n > in_line)
        n = in_line;
    if (n > pc_end - fpc)
        n = pc_end - fpc;
    out->ev_hit++;
    out->ev_insn = (uint8_t)(out->ev_insn + n);
    d->dq_v[p] |= 1u;
    d->dq_slot[p][0] = (uint8_t)s;
    d->dq_pc[p][0] = fpc;
    d->dq_n[p][0] = (uint8_t)n;
    d->nfl[s] = (uint8_t)(d->nfl[s] + n);
    d->npc[s] = fpc + n;
    d->npc_v |= slot_bit(s);
    set_flags(c, d, s);
}

/* Port p: one of its slots, round robin from after the last it chose, is looked up. */
static void do_fetch(const struct fetch_cfg *c, const struct fetch_regs *q,
                     const struct fetch_in *in, struct fetch_regs *d, struct fetch_out *out,
                     unsigned p)
{
    slotmask elig = in->pc_v & port_slots(c, p) & ~d->full & ~d->wait;
    unsigned start = (q->rr[p] + 1u) % SM_MAX_SLOTS;
    while (elig) {
        slotmask hi = elig & ~slot_first(start);
        unsigned s = slot_ctz(hi ? hi : elig);
        uint32_t fpc = slot_has(d->npc_v, s) ? d->npc[s] : in->pc[s];
        if (fpc >= in->pc_end) {           /* nothing left to fetch for this slot */
            elig &= ~slot_bit(s);
            continue;
        }
        uint64_t addr = c->code_base + (uint64_t)fpc * c->insn_bytes;
        uint32_t line = (uint32_t)(addr / MEM_LINE_BYTES);
        int way = lookup(c, d, line);
        d->rr[p] = (uint8_t)s;
        out->ev_fetch++;
        if (way >= 0) {
            touch(c, d, line & (c->ic_sets - 1u), (unsigned)way);
            hit(c, d, out, p, s, fpc, in->pc_end);
        } else {
            miss(c, d, out, s, line);
        }
        return;
    }
}

static void do_request(const struct fetch_cfg *c, const struct fetch_in *in,
                       struct fetch_regs *d, struct fetch_out *out)
{
    uint8_t cand = (uint8_t)(d->ms_v & ~d->ms_sent);
    out->req_v = 0;
    if (!cand)
        return;
    unsigned i = (unsigned)__builtin_ctz(cand);
    memset(&out->req, 0, sizeof out->req);
    out->req.addr = (uint64_t)d->ms_line[i] * MEM_LINE_BYTES;
    out->req.bytes = MEM_LINE_BYTES;
    out->req.kind = MK_IFETCH;
    out->req.sm = c->sm_id;
    out->req.warp = d->ms_wait[i] ? (uint8_t)slot_ctz(d->ms_wait[i]) : 0;
    out->req.tag = i;
    out->req_v = 1;
    if (in->req_ready)
        d->ms_sent |= (uint8_t)(1u << i);
}

/* The slots of m whose entries of a and b are equal (a 64-slot half at a time, cheaper than
   walking a 128-bit mask). */
static slotmask same_pc(slotmask m, const uint32_t *a, const uint32_t *b)
{
    uint64_t eq[2] = {0, 0};
    for (unsigned h = 0; h < 2; h++)
        for (uint64_t x = (uint64_t)(m >> 64 * h); x; x &= x - 1) {
            unsigned i = 64 * h + (unsigned)__builtin_ctzll(x);
            if (a[i] == b[i])
                eq[h] |= x & -x;
        }
    return (slotmask)eq[1] << 64 | eq[0];
}

void fetch_eval(const struct fetch_cfg *c, const struct fetch_regs *q, const struct fetch_in *in,
                struct fetch_out *out, struct fetch_regs *d)
{
    slotmask fl = in->flush & slots_all(c);
    out->ev_fetch = out->ev_hit = out->ev_miss = out->ev_mshr_full = out->ev_insn = 0;
    out->err = (in->flush & ~slots_all(c)) ? FETCH_E_SLOT : 0;
    do_consume(c, in, d, out);
    if (fl)
        do_flush(c, fl, d);
    if (in->fill_v)
        do_fill(c, in, d, out);
    for (unsigned p = 0; p < c->ports; p++)
        if (d->dq_v[p])
            advance_decode(c, d, p);
    for (unsigned p = 0; p < c->ports; p++)
        do_fetch(c, q, in, d, out, p);
    do_request(c, in, d, out);
    out->head_v = d->hv;
    memcpy(out->head_pc, d->ibuf_pc[0], sizeof(uint32_t) * c->nslots);
    out->head_ok = same_pc(d->hv, d->ibuf_pc[0], in->pc);
}

int fetch_decode_empty(const struct fetch_cfg *c, const struct fetch_regs *q)
{
    for (unsigned p = 0; p < c->ports; p++)
        if (q->dq_v[p])
            return 0;
    return 1;
}

int fetch_still(const struct fetch_cfg *c, const struct fetch_regs *q, const struct fetch_in *in,
                const struct fetch_out *out)
{
    for (unsigned i = 0; i < FETCH_CONSUME_PORTS; i++)
        if (in->consume[i].v)
            return 0;
    return !(in->flush & slots_all(c)) && !in->fill_v && fetch_decode_empty(c, q) &&
           !out->ev_fetch && !(out->req_v && in->req_ready);
}

void fetch_commit(const struct fetch_cfg *c, struct fetch_regs *q, const struct fetch_regs *d)
{
    unsigned n = c->ic_sets, ns = c->nslots;
    for (unsigned k = 0; k < c->ibuf_entries; k++)
        memcpy(q->ibuf_pc[k], d->ibuf_pc[k], ns * sizeof q->ibuf_pc[k][0]);
    memcpy(q->ibuf_n, d->ibuf_n, ns);
    memcpy(q->nfl, d->nfl, ns);
    memcpy(q->npc, d->npc, ns * sizeof q->npc[0]);
    memcpy(&q->npc_v, &d->npc_v, offsetof(struct fetch_regs, ic_v) - offsetof(struct fetch_regs, npc_v));
    memcpy(q->ic_v, d->ic_v, n);
    memcpy(q->ic_age, d->ic_age, n * sizeof q->ic_age[0]);
    memcpy(q->ic_tag, d->ic_tag, n * sizeof q->ic_tag[0]);
}

uint32_t fetch_instances(const struct gpu_config *c)
{
    (void)c;
    return 1;
}

void fetch_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct fetch_cfg *out)
{
    (void)inst;
    fetch_cfg_default(out);
    out->nslots = (uint8_t)sm_slots(c);
    out->ibuf_entries = (uint8_t)c->ibuf_entries;
    out->decode_cycles = (uint8_t)c->decode_cycles;
    out->width = (uint8_t)c->fetch_width;
    out->ports = (uint8_t)c->fetch_warps;
    out->ic_sets = (uint8_t)c->icache_sets;
    out->ic_ways = (uint8_t)c->icache_ways;
    out->sm_id = (uint8_t)sm;
}

/* Storage for the cost estimator (cost.h): per slot the I-buffer (ibuf_entries pcs, read at
   the head) with its counters and flags, the next fetch pc (read by every port); per port
   the round-robin pointer and the decode pipe (decode_cycles + 1 stages); the MSHRs (line,
   waiting slots); the I-cache tag array, one row per set, with a read port per fetch port and
   an LRU update per port (the instruction bytes themselves are not modelled: timing only). */
void fetch_storage(const struct fetch_cfg *c, struct cost_list *l)
{
    const char *ib = "I-buffer", *fd = "fetch/decode", *ms = "I-cache MSHRs",
               *ic = "I-cache tags";
    uint64_t n = c->nslots, np = c->ports, st = (c->decode_cycles + 1u) * np, w = c->ic_ways;
    cost_begin(l, "fetch");
    cost_add(l, (struct cost_item){.name = "ibuf_pc", .mech = ib, .entries = n * c->ibuf_entries,
                                   .bits = 32, .banks = (uint32_t)n, .rports = 1, .wports = 1,
                                   .onchip = 1, .note = "[31:0] per entry"});
    cost_add(l, (struct cost_item){.name = "ibuf_n", .mech = ib, .entries = n, .bits = 3,
                                   .rports = COST_PAR, .onchip = 1, .note = "[2:0]"});
    cost_add(l, (struct cost_item){.name = "hv", .mech = ib, .entries = n, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "full", .mech = ib, .entries = n, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "npc", .mech = fd, .entries = n, .bits = 32,
                                   .rports = c->ports, .onchip = 1, .note = "[31:0]"});
    cost_add(l, (struct cost_item){.name = "npc_v", .mech = fd, .entries = n, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "nfl", .mech = fd, .entries = n, .bits = 3,
                                   .rports = COST_PAR, .onchip = 1, .note = "[2:0]"});
    cost_add(l, (struct cost_item){.name = "rr", .mech = fd, .entries = np, .bits = 7,
                                   .rports = COST_PAR, .onchip = 1, .note = "[6:0]"});
    cost_add(l, (struct cost_item){.name = "dq.v", .mech = fd, .entries = st, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "dq.slot", .mech = fd, .entries = st, .bits = 7,
                                   .rports = COST_PAR, .onchip = 1, .note = "[6:0]"});
    cost_add(l, (struct cost_item){.name = "dq.n", .mech = fd, .entries = st, .bits = 3,
                                   .rports = COST_PAR, .onchip = 1, .note = "[2:0]"});
    cost_add(l, (struct cost_item){.name = "dq.pc", .mech = fd, .entries = st, .bits = 32,
                                   .rports = COST_PAR, .onchip = 1, .note = "[31:0]"});
    cost_add(l, (struct cost_item){.name = "wait", .mech = ms, .entries = n, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "ms.v", .mech = ms, .entries = c->mshrs, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "ms.sent", .mech = ms, .entries = c->mshrs, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "ms.line", .mech = ms, .entries = c->mshrs, .bits = 32,
                                   .rports = COST_PAR, .onchip = 1, .note = "[31:0]"});
    cost_add(l, (struct cost_item){.name = "ms.wait", .mech = ms, .entries = c->mshrs,
                                   .bits = (uint32_t)n, .rports = COST_PAR, .onchip = 1,
                                   .note = "a bit per slot"});
    cost_add(l, (struct cost_item){.name = "ic.v", .mech = ic, .entries = c->ic_sets,
                                   .bits = (uint32_t)w, .rports = c->ports, .wports = 1,
                                   .onchip = 1, .note = "[ways-1:0] per set"});
    cost_add(l, (struct cost_item){.name = "ic.age", .mech = ic, .entries = c->ic_sets,
                                   .bits = (uint32_t)(3 * w), .rports = c->ports,
                                   .wports = c->ports, .onchip = 1, .note = "[2:0] per way"});
    cost_add(l, (struct cost_item){.name = "ic.tag", .mech = ic, .entries = c->ic_sets,
                                   .bits = (uint32_t)(32 * w), .rports = c->ports, .wports = 1,
                                   .onchip = 1, .note = "[31:0] per way"});
}
