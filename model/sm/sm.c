/*
 * sm.c -- one SM of the timing model: the blocks wired together (see sm.h). This file is the
 * top: set-up and the cycle. The CTA path and the slot table are in sm_cta.c, the execution
 * of what the schedulers pick in sm_issue.c, the L1's request queues in sm_port.c, the
 * registry-driven allocation, reset, commit and checks in sm_blocks.c, the dump in sm_dump.c.
 *
 * Per cycle t, in this order (each block evaluated once, then every block commits):
 *   1. l1     request = the head of one of the SM's three request queues (fetch misses, SIMT
 *             spills/fills, the LD/ST line queue: fixed priority in that order), fill = the
 *             interconnect's response; its response is routed by kind to fetch, simt or ldst.
 *   2. simt   the control outcome of the instructions issued in t-1 (the issue latch).
 *   3. fetch  flushes where simt redirected, consumes what issued in t-1.
 *   4. sb     reserves of t-1's issues, releases of the results written back in t-1 (fu,
 *             ldst) and of late writes, routed by VWI, and the hazard check of every I-buffer
 *             head.
 *   5. iss    readiness of every slot; kgen the priority keys (keyed policies).
 *   6. ws     per scheduler, then issue: the chosen instruction executes functionally
 *             (func/exec.c) with the SIMT mask (sm_issue.c).
 *   7. retire: finished warps leave, their exits reach the barrier unit, CTAs complete.
 *   8. smem, fu, ldst, bar with this cycle's issues, exits and launches.
 * The mechanisms a configuration selects (sm_mech.h) come in at declared points: before step 1
 * (begin: last cycle's decisions applied), in step 4 (writeback routing, their late values,
 * their sb ports), in step 5 (hold) and 6 (keys, lanes, each issue), after step 6
 * (after_issue) and after step 8 (end); their own blocks are evaluated there.
 * The request queues in front of the L1 are small skid buffers, so that the SIMT stack's and
 * fetch's valid/ready handshakes never depend on the request itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sm.h"
#include "sm_limits.h"
#include "func/funcsim.h"

/* ------------------------------------------------------------------ set-up */

static int alloc_functional(struct sm *s)
{
    const struct ptx_prog *p = s->p.prog;
    size_t nregs = p->nregs ? p->nregs : 1;
    /* a mechanism may give the SM many more contexts than warp slots (most of them unused by
       a launch): contexts are allocated lowest first and at most cta_limit x W are held at
       once, so none above that is used */
    size_t nctx = s->nctx, used = (size_t)s->p.cta_limit * s->nwarps_per_cta;
    if (nctx > s->nwslots && used < nctx)
        nctx = used;
    s->smem_size = fsim_shared_bytes(p, s->p.dyn_smem);
    s->regs = calloc(nctx * nregs * EX_WARP, sizeof(uint64_t));
    s->smem = calloc(s->nctas, s->smem_size ? s->smem_size : 1);
    s->lmem = calloc(nctx, sizeof *s->lmem);
    s->nlmem = s->lmem ? (uint32_t)nctx : 0;
    for (uint32_t x = 0; x < s->nlmem; x++)
        if (ex_lmem_init(&s->lmem[x], p->local_size, s->p.lmem_held)) {
            s->nlmem = x;                 /* sm_free frees the ones made */
            return -1;
        }
    s->pscratch = calloc(nctx * EX_WARP, p->pscratch_size ? p->pscratch_size : 1);
    s->dec = calloc(p->ninsns ? p->ninsns : 1, sizeof *s->dec);
    s->simt_img = calloc(s->nimg, sizeof *s->simt_img);
    return s->regs && s->smem && s->lmem && s->pscratch && s->dec && s->simt_img ? 0 : -1;
}

/* Why set-up failed: what the SM holds for its contexts up front (local memory is reserved
   later, as warps store to it). */
static void oom_message(const struct sm *s, char *err, size_t errlen)
{
    const struct ptx_prog *p = s->p.prog;
    uint64_t n = s->nctx, regs = n * (p->nregs ? p->nregs : 1) * EX_WARP * 8;
    uint64_t ps = n * EX_WARP * p->pscratch_size, sh = (uint64_t)s->nctas * s->smem_size;
    snprintf(err, errlen, "out of host memory for SM %u: its %u contexts hold %llu MB of "
             "registers (%u per thread, kept as 64-bit values) and %llu MB of parameter scratch, "
             "its %u CTA slots %llu MB of shared memory (max_warps_per_sm, max_ctas_per_sm and "
             "the kernel bound these; local memory is reserved as warps store to it)", s->p.id,
             s->nctx, (unsigned long long)(regs >> 20), p->nregs,
             (unsigned long long)(ps >> 20), s->nctas, (unsigned long long)(sh >> 20));
}

static void init_exec(struct sm *s)
{
    const struct sm_params *p = &s->p;
    struct ex_ctx *x = &s->ex;
    x->prog = p->prog;
    x->gmem = p->gmem;
    x->smem_size = s->smem_size;
    x->lmem_size = p->prog->local_size;
    x->pscratch_stride = p->prog->pscratch_size;
    x->params = p->params;
    x->pf = p->pf;
    x->ntid[0] = p->block.x; x->ntid[1] = p->block.y; x->ntid[2] = p->block.z;
    x->nctaid[0] = p->grid.x; x->nctaid[1] = p->grid.y; x->nctaid[2] = p->grid.z;
    x->nthreads = p->block.x * p->block.y * p->block.z;
    x->nwarpid = p->conf->max_warps_per_sm;
    x->smid = p->id;
    x->nsmid = p->conf->num_sms;
}

int sm_regs_check(const struct ptx_prog *p, char *err, size_t errlen)
{
    int32_t defs[PTX_INSN_MAX_REGS], uses[PTX_INSN_MAX_REGS];
    int nd, nu;
    if (p->nregs <= SM_MAX_REG + 1u)
        return 0;
    for (uint32_t pc = 0; pc < p->ninsns; pc++) {
        ptx_insn_regs(&p->insns[pc], defs, &nd, uses, &nu);
        for (int k = 0; k < nd + nu; k++) {
            int32_t r = k < nd ? defs[k] : uses[k - nd];
            if (r < 0 || (uint32_t)r <= SM_MAX_REG)
                continue;
            snprintf(err, errlen, "kernel %s: register %s at PC %u (%s:%u) is number %u of the "
                     "kernel's %u; the timing model's SM keeps register numbers in 16 bits: "
                     "at most %u registers (model = functional has no such limit)", p->name,
                     p->reg_name ? p->reg_name[r] : "?", pc,
                     p->mod && p->mod->filename[0] ? p->mod->filename : "?", p->insns[pc].line,
                     (unsigned)r, p->nregs, SM_MAX_REG + 1u);
            return -1;
        }
    }
    return 0;
}

int sm_init(struct sm *s, const struct sm_params *p, struct gs_stats *st, char *err, size_t errlen)
{
    uint32_t i;
    memset(s, 0, sizeof *s);
    s->p = *p;
    s->st = st;
    if (sm_regs_check(p->prog, err, errlen))
        return -1;
    s->nsched = p->conf->schedulers_per_sm;
    s->nslots = sm_slots(p->conf);
    s->nctx = sm_contexts(p->conf);
    s->nimg = s->nctx;
    s->nwslots = sm_warp_slots(p->conf);
    s->nctas = sm_cta_slots(p->conf);
    s->nwarps_per_cta = (p->block.x * p->block.y * p->block.z + 31) / 32;
    for (i = 0; i < SM_MAX_SLOTS; i++)
        s->slot_ctx[i] = SM_NO_CTX;
    memset(s->iss_in.ctx_cta, ISS_NO_CTX, sizeof s->iss_in.ctx_cta);
    if (sm_blocks_init(s, err, errlen) || sm_mech_init(s, err, errlen))
        return -1;
    if (alloc_functional(s) || sm_sleep_init(s)) {
        oom_message(s, err, errlen);
        return -1;
    }
    for (i = 0; i < p->prog->ninsns; i++)
        iss_decode(p->conf, &p->prog->insns[i], &s->dec[i]);
    sm_blocks_reset(s);
    init_exec(s);
    probe_init(&s->probe, st, s->pw, s->nctx, &s->s.warp_insns, p->sink);
    s->cta_ready = (uint8_t)sm_can_launch(s);
    return 0;
}

void sm_free(struct sm *s)
{
    sm_blocks_free(s);
    for (uint32_t x = 0; x < s->nlmem; x++)
        ex_lmem_free(&s->lmem[x]);
    free(s->regs); free(s->smem); free(s->lmem); free(s->pscratch); free(s->dec);
    free(s->simt_img);
    sm_mech_free(s);
    sm_sleep_free(s);
    memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------------ idle */

/* Nothing resident, in flight or about to arrive: a cycle would change no state. */
int sm_idle(const struct sm *s)
{
    return !s->nctas_res && !s->launch_pending && !s->fu_o->nrel && !s->ldst_o->nrel &&
           !s->bar_release && !s->fu_q->count && !s->lateq_n && !sm_mech_busy(s) && !sm_busy(s);
}

void sm_skip_cycle(struct sm *s, struct sm_io *io)
{
    s->s.sched_cycles[ISS_NO_WARP] += s->nsched;
    s->ndone = 0;
    if (s->ready_dirty) {
        s->cta_ready = (uint8_t)sm_can_launch(s);
        s->ready_dirty = 0;
    }
    sm_idle_io(io, s->cta_ready, s->lateq_n < SM_LATEQ);
}

void sm_idle_io(struct sm_io *io, uint8_t cta_ready, uint8_t late_ready)
{
    io->cta_ready = cta_ready;
    io->late_ready = late_ready;
    io->miss_valid = 0;
    io->issued = 0;
    io->late_req.v = 0;
}

int sm_busy(const struct sm *s)
{
    return s->nctas_res || s->ldst_q->count || s->fq.n || s->sq.n ||
           l1_busy(s->l1_c, s->l1_q);
}

/* ------------------------------------------------------------------ the cycle */

/* The SM's spill images and the SIMT stack disagree: stop the run (checked after commit). */
static void image_error(struct sm *s, const char *what, uint64_t addr)
{
    if (s->failed)
        return;
    snprintf(s->err, sizeof s->err, "SM %u cycle %llu: SIMT spill image: %s (address 0x%llx)",
             s->p.id, (unsigned long long)s->now, what, (unsigned long long)addr);
    s->failed = 1;
}

/* Step 2: the SIMT stack with the control outcomes latched at the last issue. Its spill
   images (global memory, one per context) are the SM's: spills are written into them, a fill
   response brings the chunk at the request's address. */
static void simt_step(struct sm *s, uint64_t now, const struct l1_out *lo)
{
    struct simt_in *in = &s->simt_in;
    slotmask tmp;
    unsigned w;
    memcpy(in->upd, s->upd_latch, sizeof in->upd);
    in->launch = s->launch_pending;
    for (SLOT_EACH(w, s->launch_pending, tmp)) {
        in->launch_mask[w] = s->launch_mask[w];
        in->launch_vwi[w] = (uint8_t)s->slot_ctx[w];
    }
    in->fill_v = 0;
    in->req_ready = s->sq.n < SM_MEMQ;
    if (lo->resp_valid && lo->resp.kind == MK_FILL) {
        in->fill_v = 1;
        in->fill_slot = lo->resp.warp;
        if (simt_image_read(s->simt_c, s->simt_img, s->nimg, &lo->resp, in->fill_ent))
            image_error(s, "a fill response outside the spill images", lo->resp.addr);
    }
    sm_rec(s, BLKID_simt, 0, in, sizeof *in);
    if (simt_still(s->simt_c, s->simt_q, in))
        s->still |= 1ull << BLKID_simt;
    simt_eval(s->simt_c, s->simt_q, in, s->simt_o, s->simt_d);
    in->save_v = in->restore_v = 0;
    if (simt_image_write(s->simt_c, s->simt_o, s->simt_img, s->nimg))
        image_error(s, "a spill for a context without an image", 0);
    if (s->simt_o->req_v && in->req_ready)
        sm_memq_push(&s->sq, &s->simt_o->req, now);
    s->s.simt_pushes += s->simt_o->ev_push;
    s->s.simt_pops += s->simt_o->ev_pop;
    s->s.simt_spills += s->simt_o->ev_spill;
    s->s.simt_fills += s->simt_o->ev_fill;
    if (s->simt_o->ev_depth > s->s.simt_max_depth)
        s->s.simt_max_depth = s->simt_o->ev_depth;
}

/* Step 3: fetch and the I-buffers. */
static void fetch_step(struct sm *s, uint64_t now, const struct l1_out *lo)
{
    struct fetch_in in;
    in.pc_v = s->live & ~s->simt_o->fin & ~s->mport.fence;
    in.fill_v = 0;
    memcpy(in.pc, s->simt_o->pc, s->nslots * sizeof in.pc[0]);
    in.pc_end = s->p.prog->ninsns;
    in.flush = s->simt_o->redirect | s->launch_pending | s->mport.flush;
    memcpy(in.consume, s->cons_latch, sizeof in.consume);
    in.req_ready = s->fq.n < SM_MEMQ;
    if (lo->resp_valid && lo->resp.kind == MK_IFETCH) {
        in.fill_v = 1;
        in.fill_tag = (uint8_t)lo->resp.tag;
    }
    fetch_eval(s->fetch_c, s->fetch_q, &in, s->fetch_o, s->fetch_d);
    if (fetch_still(s->fetch_c, s->fetch_q, &in, s->fetch_o))
        s->still |= 1ull << BLKID_fetch;
    if (s->fetch_o->req_v && in.req_ready)
        sm_memq_push(&s->fq, &s->fetch_o->req, now);
    s->s.icache_hits += s->fetch_o->ev_hit;
    s->s.icache_misses += s->fetch_o->ev_miss;
}

/* One writeback: to the scoreboard of the context's current slot (if it holds one; a
   mechanism may route it, sm_mech_route) and to the issue stage's counters of the context. */
static void writeback(struct sm *s, uint32_t *n, uint8_t vwi, uint16_t reg, uint8_t load,
                      uint32_t own)
{
    struct sb_in *sb = &s->sb_in;
    struct iss_in *is = &s->iss_in;
    uint8_t slot = s->ctx[vwi].slot;
    if (*n >= SB_MAX_REL)
        return;
    sb->rel[*n] = sm_sb_rel(slot, vwi, reg);
    sm_mech_route(s, vwi, own, &sb->rel[*n]);
    is->rel[*n].v = 1;
    is->rel[*n].ctx = vwi;
    is->rel[*n].load = load;
    (*n)++;
}

/* The I-buffer heads that are new or at another pc than sb's check last saw; their decoded
   registers, unit and path go to sb's check port and the issue stage. */
static slotmask heads_changed(struct sm *s)
{
    struct sb_in *in = &s->sb_in;
    slotmask head = s->fetch_o->head_v, changed = head & ~s->hd_v, same = head & s->hd_v, tmp;
    unsigned w;
    for (unsigned h = 0; h < 2; h++)
        for (uint64_t x = (uint64_t)(same >> 64 * h); x; x &= x - 1) {
            w = 64 * h + (unsigned)__builtin_ctzll(x);
            if (s->fetch_o->head_pc[w] != s->hd_pc[w])
                changed |= slot_bit(w);
        }
    s->iss_in.head_mem &= head & ~changed;
    for (SLOT_EACH(w, changed, tmp)) {
        const struct iss_dec *d = &s->dec[s->fetch_o->head_pc[w]];
        s->hd_pc[w] = s->fetch_o->head_pc[w];
        in->chk_n[w] = d->nchk;
        memcpy(in->chk_reg[w], d->chk, sizeof d->chk);
        s->iss_in.head_unit[w] = d->unit;
        if (d->path == ISS_PATH_MEM)
            s->iss_in.head_mem |= slot_bit(w);
    }
    s->hd_v = head;
    return changed;
}

#ifdef GPUSIM_CHECK
/* CHECK=1: every head is checked; the heads the incremental check would have skipped must
   keep last cycle's hazard. */
static void hazard_check(struct sm *s, slotmask skip, slotmask hazard)
{
    if (((hazard ^ s->hd_hazard) & skip) && !s->failed) {
        snprintf(s->err, sizeof s->err, "SM %u cycle %llu: a scoreboard check skipped as "
                 "unchanged would have changed (slot %u; CHECK=1)", s->p.id,
                 (unsigned long long)s->now, slot_ctz((hazard ^ s->hd_hazard) & skip));
        s->failed = 1;
    }
}
#endif

/* Step 4: the scoreboard. Only the heads that changed, or whose pending row changes this
   cycle, are presented to its check port; the others keep last cycle's hazard, which is a
   function of the same head and row. CHECK=1 builds and recordings check every head (CHECK=1
   compares the skipped ones with last cycle's). */
static slotmask sb_step(struct sm *s, struct sm_io *io)
{
    struct sb_in *in = &s->sb_in;
    struct sb_out out;
    slotmask tmp, head, skip, written;
    uint32_t i, n = 0;
    unsigned w;
    memset(in->rel, 0, sizeof in->rel);
    memset(s->iss_in.rel, 0, sizeof s->iss_in.rel);
    in->setvwi = s->launch_pending;
    for (SLOT_EACH(w, s->launch_pending, tmp))
        in->setvwi_vwi[w] = (uint8_t)s->slot_ctx[w];
    for (i = 0; i < s->fu_o->nrel; i++)
        writeback(s, &n, s->fu_o->rel[i].vwi, s->fu_o->rel[i].reg, 0, s->fu_o->rel[i].own);
    for (i = 0; i < s->ldst_o->nrel; i++)
        writeback(s, &n, s->ldst_o->rel[i].vwi, s->ldst_o->rel[i].reg, 1,
                  s->ldst_o->rel[i].own);
    io->gtake = 0;
    s->gphase = io->gphase;
    sm_mech_late_src(s, io);
    sm_late_writes(s, io, in, &s->iss_in, &n);
    memcpy(in->res, s->res_latch, sizeof in->res);
    in->mchk = (struct sb_mchk){ 0 };
    in->cnt_v = 0;
    sm_mech_sb_ports(s, in);               /* set-VWI, merge check, count port */
    head = s->fetch_o->head_v;
    written = sb_rows_written(in);
    skip = head & ~(heads_changed(s) | written);
    if (!written)
        s->still |= 1ull << BLKID_sb;
#ifdef GPUSIM_CHECK
    in->chk_v = head;
#else
    in->chk_v = s->rec ? head : head & ~skip;   /* a recording keeps every check for cosim */
#endif
    sm_rec(s, BLKID_sb, 0, in, sizeof *in);
    sb_eval(s->sb_c, s->sb_q, in, &out, s->sb_d);
#ifdef GPUSIM_CHECK
    hazard_check(s, skip, out.hazard);
#endif
    out.hazard = (out.hazard & ~skip) | (s->hd_hazard & skip);
    s->hd_hazard = out.hazard;
    *s->sb_o = out;
    return out.hazard;
}

/* Step 5: the issue stage's inputs, then iss and kgen. */
static void iss_step(struct sm *s, slotmask hazard)
{
    struct iss_in *in = &s->iss_in;
    unsigned k;
    in->valid = s->live & ~s->simt_o->fin & ~s->mport.fence;
    in->fresh = s->launch_pending | s->mport.fresh;
    in->head_ok = s->fetch_o->head_ok;
    in->busy = s->simt_o->busy;
    in->hazard = hazard;                  /* head_unit, head_mem: filled by sb_step */
    in->hold = sm_mech_hold(s);
    for (k = 0; k < s->nsched; k++)
        in->unit_free[k] = s->fu_o->unit_free[k];
    in->fu_full = s->fu_o->full;
    in->ldst_ready = s->ldst_o->can_issue;
    memcpy(in->issued, s->iss_latch, sizeof in->issued);
    in->bar_release = s->bar_release;
    in->cta_launch = s->cta_launched;
    iss_eval(s->iss_c, s->iss_q, in, s->iss_o, s->iss_d);
    if (!s->kgen_n)
        return;
    for (k = 0; k < s->nsched; k++)
        s->kgen_in.fresh[k] = s->iss_o->s[k].fresh;
    if (s->kgen_c->policy == KGEN_WIDEST)  /* each slot's active lanes */
        for (unsigned w = 0; w < s->nslots; w++)
            s->kgen_in.width[w % s->nsched][w / s->nsched] =
                (uint8_t)bit_pop32(s->simt_o->mask[w]);
    kgen_eval(s->kgen_c, s->kgen_q, &s->kgen_in, s->kgen_o, s->kgen_d);
}

/* Step 8: the shared-memory port, the execution units, the LD/ST unit and the barrier unit. */
static void units_step(struct sm *s, uint64_t now, int l1_src, const struct l1_out *lo)
{
    struct sm_issue_out *io = &s->io;
    struct ldst_in *li = &io->ld;
    struct bar_out bo;
    io->sh.now = now;
    smem_eval(s->smem_c, s->smem_q, &io->sh, s->smem_o, s->smem_d);
    if (io->sh.dem_v) {
        io->fu.issue[io->sh_sched].lat = s->smem_o->lat;
        io->fu.issue[io->sh_sched].ii = s->smem_o->ii;
        s->s.shared_conflict_cycles += s->smem_o->deg - 1u;
    }
    io->fu.now = now;
    fu_eval(s->fu_c, s->fu_q, &io->fu, s->fu_o, s->fu_d);
    li->now = now;
    li->accepted = l1_src == 3;
    li->hit_valid = li->accepted && lo->acc_hit;
    li->hit_tag = lo->acc_tag;
    li->hit_lanes = lo->acc_lanes;
    li->resp_valid = 0;
    li->resp_tag = 0;
    li->resp_lanes = 0;
    if (lo->resp_valid && (lo->resp.kind == MK_LOAD || lo->resp.kind == MK_ATOMIC)) {
        li->resp_valid = 1;
        li->resp_tag = lo->resp.tag;
        li->resp_lanes = lo->resp.lanes;
    }
    ldst_eval(s->ldst_c, s->ldst_q, li, s->ldst_o, s->ldst_d);
    s->st->t.ldst_partials += s->ldst_o->ev_part;
    s->st->t.ldst_partials_mixed += s->ldst_o->ev_part_mixed;
    bar_eval(s->bar_c, s->bar_q, &io->bar, &bo, s->bar_d);
    io->bar.launch_valid = 0;          /* set by sm_launch_cta before the cycle */
    s->bar_release = bo.release;
}

/* Clear what every cycle reads of the issue outputs (the LD/ST and shared-memory addresses
   are read only for issued lanes; the bar's exit masks only where exit_ctas is set; its
   launch port is set before the cycle by sm_launch_cta and cleared once bar has seen it). */
static void issue_out_clear(struct sm_issue_out *io)
{
    memset(&io->fu, 0, sizeof io->fu);
    io->ld.issue.valid = 0;
    io->ld.issue.mask = 0;
    io->sh.dem_v = 0;
    io->sh.ctx_v = 0;
    io->ld.swap.v = 0;
    memset(io->bar.arrive, 0, sizeof io->bar.arrive);
    io->bar.exit_ctas = 0;
    io->nbar = 0;
    io->sh_sched = -1;
    io->mem_taken = 0;
    io->late_req.v = 0;
}

/* Registers and shared memory allocated this cycle (004 Fig. 12's utilisation). */
static void alloc_stats(struct sm *s, const struct l1_out *lo)
{
    s->s.l1_mshr_busy_sum += lo->mshr_used;
    s->s.ldq_active_sum += s->ldst_o->nact;
    s->s.rf_alloc_sum += (uint64_t)s->nctas_res * s->p.regs_cta;
    s->s.smem_alloc_sum += (uint64_t)s->nctas_res * (s->smem_size + s->p.ctx_bytes);
    s->s.smem_ctx_sum += (uint64_t)s->nctas_res * s->p.ctx_bytes;
}

int sm_cycle(struct sm *s, uint64_t now, struct sm_io *sio, struct sm_tb *tbs, uint32_t *nfin)
{
    struct l1_out lo;
    slotmask hazard;
    uint32_t issued;
    int src;
    s->now = now;
    s->still = 0;
    sm_sleep_begin(s, sio);
    sio->miss_valid = 0;
    sio->late_req.v = 0;
    *nfin = 0;
    s->ndone = 0;
    issue_out_clear(&s->io);
    sm_mech_begin(s);
    src = sm_l1_step(s, now, sio, &lo);
    simt_step(s, now, &lo);
    fetch_step(s, now, &lo);
    hazard = sb_step(s, sio);
    iss_step(s, hazard);
    if (sm_schedule(s, now, &issued))
        return -1;
    sio->late_req = s->io.late_req;
    sm_mech_after_issue(s);
    s->launch_pending = 0;
    s->cta_launched = 0;
    sm_retire(s, now, tbs, nfin);
    units_step(s, now, src, &lo);
    sm_mech_end(s);
    sm_charge_stall(s, issued, 1);
    alloc_stats(s, &lo);
    if (sm_blocks_errors(s) || sm_sleep_end(s, issued, *nfin, sio, src, &lo))
        return -1;
    sm_blocks_commit(s, s->still);
    if (s->failed)
        return -1;                         /* an image error, or CHECK=1: commit left q != d */
    if (s->ready_dirty) {                  /* residency changed in this or the last cycle */
        s->cta_ready = (uint8_t)sm_can_launch(s);
        s->ready_dirty = s->ndone != 0;
    }
    sio->cta_ready = s->cta_ready;
    sio->late_ready = s->lateq_n < SM_LATEQ;
    sio->issued = issued > 0;
    return 0;
}
