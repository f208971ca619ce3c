/*
 * gpu.c -- the GPU top of the timing model: one launch (see gpu.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cta.h"
#include "gpu.h"
#include "mem/l2copy.h"
#include "mem/mem_blocks.h"
#include "sm/sm.h"
#include "sm/vtc.h"
#include "sm/sm_limits.h"
#include "stats.h"

_Static_assert(SM_MAX_SCHED <= SM_MAX_CTAS, "one SM cycle's finished TBs fit tbs[]");

/* The GPU top's state for one launch: the SMs, the memory system, the CTA dispatcher, their
   ports, the finished TBs, the GPU-wide counter and phase bit the SMs' mechanisms share. */
struct gpu_state {
    const struct kernel_launch *l;
    const struct gpu_env *env;     /* never NULL (gpu_run's NULL: an empty one) */
    struct gs_stats *st;
    struct sm *sms;
    uint32_t nsms;
    struct msys *ms;
    struct msys_sm_in *min;
    struct msys_sm_out *mout;
    struct sm_io *io;
    struct cta_cfg cc;
    struct cta_regs cq, cd;
    struct cta_in ci;
    struct sm_tb tbs[SM_MAX_CTAS];       /* finished TBs of one SM's cycle (<= its CTA slots, or
                                            under VTW <= one logical TB per scheduler) */
    uint64_t tbs_done, tbs_for_dwr;
    uint32_t vtw_next;             /* VTW: the GPU-wide nextLogTbId (ntb.h; sm_io gnext) */
    struct gpu_config maxconf;     /* vt = max: the SMs' configuration (more scheduling slots) */
    struct sm_params p;            /* the SMs' launch parameters (id and bases set per SM) */
    uint8_t *live;                 /* [nsms] initialised: an SM is set up at its first CTA */
    uint8_t fresh_ready;           /* cta_ready of an SM that has never had a CTA */
    char *err; size_t errlen;
    char **whole;                  /* gpu_run's: the watchdog's message whole, or NULL */
    uint64_t lmem_held;            /* bytes of local memory the SMs reserved (exec.h) */
    uint64_t wd_mark, wd_cycle;    /* runaway watchdog: the GPU's warp instructions at the last
                                      progress of a warp (probe.h), and the check that saw it */
};

static void ts_free(struct gpu_state *t)
{
    uint32_t i;
    for (i = 0; t->sms && t->live && i < t->nsms; i++)
        if (t->live[i])
            sm_free(&t->sms[i]);
    free(t->sms);
    if (!t->env->ms_keep || *t->env->ms_keep != t->ms)  /* not kept for the next launch */
        msys_free(t->ms);
    free(t->min);
    free(t->mout);
    free(t->io);
    free(t->live);
}

/* VT's launch parameters of the SMs. on: at most the scheduling limit active, the context's
   port beats by eq. (2). max: every SM block sized for the capacity limit's warps and CTAs --
   "more scheduling hardware at no cost" (004 Sec. V) -- through a configuration of the launch
   (beyond the keys' ranges on purpose). */
static int vt_params(struct gpu_state *t, const struct cta_limits *lim, struct sm_params *p)
{
    const struct gpu_config *c = p->conf;
    uint32_t b = c->vt_swap_bits_per_cycle;
    p->cta_active = p->cta_limit;
    if (c->vt == VT_ON) {
        p->cta_active = lim->vt_active;
        p->ctx_bits = lim->ctx_bits;
        p->ctx_bytes = lim->ctx_bytes;
        p->ctx_beats = vtc_beats(lim->ctx_bits, b);
        if (p->ctx_beats > VTC_MAX_BEATS) {
            snprintf(t->err, t->errlen, "kernel %s: VT's context of %u bits takes %u port "
                     "cycles at vt_swap_bits_per_cycle = %u; the controller counts at most %u "
                     "(raise vt_swap_bits_per_cycle or lower simt_depth)", t->l->prog->name,
                     lim->ctx_bits, p->ctx_beats, b, VTC_MAX_BEATS);
            return -1;
        }
    } else if (c->vt == VT_MAX) {
        uint32_t warps = (p->block.x * p->block.y * p->block.z + 31) / 32;
        t->maxconf = *c;
        t->maxconf.max_ctas_per_sm = lim->vt > c->max_ctas_per_sm ? lim->vt : c->max_ctas_per_sm;
        t->maxconf.max_warps_per_sm = lim->vt * warps > c->max_warps_per_sm
                                          ? lim->vt * warps : c->max_warps_per_sm;
        p->conf = &t->maxconf;
    }
    return 0;
}

/* Set SM i up. With skip_idle an SM is set up when the dispatcher gives it its first CTA (a
   launch pays for the SMs it uses): until then it is an idle SM, whose only state change is
   its schedulers' "no warp" cycles, kept in its statistics and carried over here. */
static int sm_start(struct gpu_state *t, uint32_t i)
{
    struct sm *s = &t->sms[i];
    struct sm_stats idle = s->s;
    struct sm_params p = t->p;
    p.id = i;
    p.spill_base = sm_spill_base(i);
    p.local_base = sm_local_base(i);
    if (sm_init(s, &p, t->st, t->err, t->errlen)) {
        sm_free(s);
        return -1;
    }
    s->s = idle;
    t->live[i] = 1;
    t->io[i].cta_ready = s->cta_ready;
    return 0;
}

/* The memory system at its reset state: the kept one reset in proportion to what the last
   launch used, else a new one (kept from now on when the launch has a keeper). */
static int msys_start(struct gpu_state *t, const struct msys_cfg *mc)
{
    struct msys **keep = t->env->ms_keep;
    if (keep && *keep && msys_reuse(*keep, mc) == 0) {
        t->ms = *keep;
        return 0;
    }
    if (keep) {
        msys_free(*keep);
        *keep = NULL;
    }
    if (!(t->ms = msys_init(mc, t->err, t->errlen)))
        return -1;
    if (keep)
        *keep = t->ms;
    return 0;
}

static int ts_init(struct gpu_state *t, const struct kernel_launch *l)
{
    const struct gpu_config *c = l->conf;
    struct msys_cfg mc;
    struct sm_params p;
    struct cta_limits lim;
    uint32_t i, threads = l->block.x * l->block.y * l->block.z, per_sm;
    uint64_t n_tbs;
    cta_limits(c, threads, l->prog->regs_per_thread, fsim_shared_bytes(l->prog, l->dyn_smem), &lim);
    per_sm = lim.resident < sm_cta_slots(c) ? lim.resident : sm_cta_slots(c);
    if (c->vt != VT_OFF)
        per_sm = lim.vt;
    t->nsms = c->num_sms;
    if (per_sm == 0) {
        snprintf(t->err, t->errlen, "kernel %s: one CTA does not fit an SM", l->prog->name);
        return -1;
    }
    cta_cfg_from(c, 0, 0, &t->cc);
    t->cc.total = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    cta_reset(&t->cc, &t->cq);
    t->cd = t->cq;
    /* DWR and DWS over the first N - R finishing TBs; under vtw = hw N counts logical TBs */
    n_tbs = c->vtw == VTW_HW ? l->vtw_nlog : t->cc.total;
    t->tbs_for_dwr = n_tbs > (uint64_t)per_sm * t->nsms ? n_tbs - (uint64_t)per_sm * t->nsms
                                                        : n_tbs;
    mem_cfg_from(c, &mc);
    if (msys_start(t, &mc))
        return -1;
    l2copy_replay(t->env->l2_copied, t->ms);  /* before cycle 0: what the copies left */
    t->sms = calloc(t->nsms, sizeof *t->sms);
    t->min = calloc(t->nsms, sizeof *t->min);
    t->mout = calloc(t->nsms, sizeof *t->mout);
    t->io = calloc(t->nsms, sizeof *t->io);
    t->live = calloc(t->nsms, 1);
    if (!t->sms || !t->min || !t->mout || !t->io || !t->live) {
        snprintf(t->err, t->errlen, "out of host memory");
        return -1;
    }
    memset(&p, 0, sizeof p);
    p.conf = c; p.prog = l->prog; p.flow = l->flow; p.gmem = l->gmem; p.params = l->params; p.pf = l->pf;
    p.grid = l->grid; p.block = l->block; p.dyn_smem = l->dyn_smem; p.cta_limit = per_sm;
    p.sink = l->sink;
    p.lmem_held = &t->lmem_held;
    p.regs_cta = lim.regs_cta;
    if (vt_params(t, &lim, &p))
        return -1;
    t->p = p;
    if (sm_start(t, 0))
        return -1;
    t->fresh_ready = t->sms[0].cta_ready;
    t->sms[0].rec = t->env->rec;
    for (i = 1; i < t->nsms; i++) {
        t->io[i].cta_ready = t->fresh_ready;
        if (!c->skip_idle && sm_start(t, i))
            return -1;
    }
    return 0;
}

/* Dispatcher: at most one CTA per cycle, to an SM whose cta_ready output says it can take one
   (set up first if it has never had one). 0, or -1 when that set-up fails. */
static int dispatch(struct gpu_state *t, uint64_t now)
{
    struct cta_out o;
    for (uint32_t i = 0; i < t->nsms; i++)
        t->ci.ready[i] = t->io[i].cta_ready;
    cta_eval(&t->cc, &t->cq, &t->ci, &o, &t->cd);
    if (o.valid) {
        if (!t->live[o.sm] && sm_start(t, o.sm))
            return -1;
        if (sm_launch_cta(&t->sms[o.sm], o.cta, now)) {
            snprintf(t->err, t->errlen, "SM %u has no room for CTA %llu at cycle %llu though its "
                     "cta_ready output offered one (a model error: please report it)", o.sm,
                     (unsigned long long)o.cta, (unsigned long long)now);
            return -1;
        }
    }
    cta_commit(&t->cc, &t->cq, &t->cd);
    return 0;
}

/* An SM not yet set up, for one cycle: sm_skip_cycle's outputs and statistics of a fresh SM. */
static void unstarted_cycle(struct gpu_state *t, uint32_t i)
{
    t->sms[i].s.sched_cycles[ISS_NO_WARP] += t->p.conf->schedulers_per_sm;
    sm_idle_io(&t->io[i], t->fresh_ready, 1);
    t->min[i].valid = 0;
}

static void account_tb(struct gpu_state *t, const struct sm_tb *tb)
{
    struct gs_stats *st = t->st;
    gs_count_divergence(tb->min_warp_cycles, tb->max_warp_cycles, st->tb_cycle_div);
    if (t->tbs_done++ < t->tbs_for_dwr) {
        st->t.dwr_tbs++;
        if (tb->max_warp_cycles)
            st->t.dwr_sum += 1.0 - (double)tb->min_warp_cycles / (double)tb->max_warp_cycles;
        if (tb->stall_life)
            st->t.dws_sum += (double)tb->stall_dwr / (double)tb->stall_life;
    }
}

/* One GPU cycle. Returns 0, -1 on a fault; *issued says whether any SM issued. */
static int cycle(struct gpu_state *t, uint64_t now, int *issued)
{
    uint32_t i, k, n;
    uint8_t slow = t->vtw_next >= t->l->vtw_nlog;   /* registered: last cycle's counter */
    if (dispatch(t, now))
        return -1;
    *issued = 0;
    for (i = 0; i < t->nsms; i++) {
        struct sm_io *io = &t->io[i];
        if (!t->live[i]) {
            unstarted_cycle(t, i);
            continue;
        }
        io->fill_valid = t->mout[i].resp_valid;
        io->fill = t->mout[i].resp;
        io->gnext = t->vtw_next;          /* VTW: SMs take logical TB indices in SM order */
        io->gtake = 0;
        io->gphase = slow;
        if (t->l->conf->skip_idle && !io->fill_valid && sm_idle(&t->sms[i])) {
            sm_skip_cycle(&t->sms[i], io);
            t->min[i].valid = 0;
            continue;
        }
        if (sm_asleep(&t->sms[i], now, io)) {  /* time_skip: its last cycle's counts */
            sm_sleep_credit(&t->sms[i], 1);
            t->min[i].valid = 0;
            continue;
        }
        io->icnt_ready = (uint8_t)msys_sm_ready(t->ms, i);
        if (sm_cycle(&t->sms[i], now, io, t->tbs, &n)) {
            snprintf(t->err, t->errlen, "%s", t->sms[i].err);
            return -1;
        }
        t->vtw_next += io->gtake;
        t->min[i].valid = io->miss_valid;
        t->min[i].req = io->miss;
        for (k = 0; k < n; k++)
            account_tb(t, &t->tbs[k]);
        *issued |= io->issued;
        if (sm_busy(&t->sms[i]))
            t->sms[i].s.busy_cycles++;
    }
    msys_tick(t->ms, now, t->min, t->mout);
    if (msys_error(t->ms)) {
        snprintf(t->err, t->errlen, "kernel %s: %s", t->l->prog->name, msys_error(t->ms));
        return -1;
    }
    return 0;
}

/* time_skip: the cycle up to which nothing can change after the tick of cycle now - 1, or now
   when something can. Nothing can while every SM is idle, not set up or asleep (sm_sleep.c:
   until its wake cycle) with its fill port empty, no CTA is left to hand out and the memory
   system waits for its next event (msys_next_event). The jump stops at the cycle whose tick
   trips the deadlock watchdog, and before the cycle after which the runaway watchdog looks
   (every 1024), so that both stop a launch where ticking would. */
static uint64_t skip_to(const struct gpu_state *t, uint64_t now, uint64_t last_issue)
{
    uint64_t next, w = t->l->conf->watchdog_cycles;
    if (!t->l->conf->time_skip || !t->l->conf->skip_idle || t->cq.next < t->cc.total)
        return now;
    next = msys_next_event(t->ms, now - 1);
    for (uint32_t i = 0; i < t->nsms; i++) {
        const struct sm *s = &t->sms[i];
        if (t->mout[i].resp_valid)
            return now;
        if (!t->live[i] || sm_idle(s))
            continue;
        if (!sm_asleep(s, now, &t->io[i]))
            return now;
        if (s->sq_wake < next)
            next = s->sq_wake;
    }
    if (w && next > last_issue + w)
        next = last_issue + w;
    if ((t->l->conf->max_warp_age || t->l->conf->max_spin_insns) && next > (now | 1023u))
        next = now | 1023u;
    return next != UINT64_MAX && next > now ? next : now;
}

/* The cycles [now, now + span) skipped: what ticking them would have counted (each SM's
   schedulers' "no warp" cycles) and done (an idle SM's first skipped cycle). */
static void skip_span(struct gpu_state *t, uint64_t span)
{
    uint64_t nsched = t->p.conf->schedulers_per_sm;
    for (uint32_t i = 0; i < t->nsms; i++) {
        if (t->live[i] && !sm_idle(&t->sms[i])) {
            sm_sleep_credit(&t->sms[i], span);     /* asleep (skip_to) */
        } else if (t->live[i]) {
            sm_skip_cycle(&t->sms[i], &t->io[i]);
            t->sms[i].s.sched_cycles[ISS_NO_WARP] += nsched * (span - 1);
        } else {
            t->sms[i].s.sched_cycles[ISS_NO_WARP] += nsched * span;
        }
        t->min[i].valid = 0;
    }
}

static int finished(const struct gpu_state *t)
{
    uint32_t i;
    if (t->cq.next < t->cc.total || msys_busy(t->ms))
        return 0;
    for (i = 0; i < t->nsms; i++)
        if (t->live[i] && (sm_busy(&t->sms[i]) || t->mout[i].resp_valid))
            return 0;
    return 1;
}

static void collect(struct gpu_state *t, uint64_t cycles)
{
    struct gs_timing *g = &t->st->t;
    const struct msys_stats *m = msys_stats(t->ms);
    uint32_t i;
    t->st->cycles = cycles;
    g->nsms = t->nsms;
    g->sm_regs = t->l->conf->regs_per_sm;           /* utilisation denominators */
    g->sm_shared = t->l->conf->shared_per_sm;
    g->sm_mshrs = t->l->conf->l1_mshrs;
    for (i = 0; i < t->nsms; i++) {
        if (t->live[i])
            sm_sleep_settle(&t->sms[i]);
        gs_stats_add_sm(t->st, &t->sms[i].s, i);
    }
    g->l2_accesses = m->l2_access; g->l2_hits = m->l2_hit; g->l2_misses = m->l2_miss;
    g->l2_merges = m->l2_merge; g->l2_writebacks = m->l2_writeback;
    g->dram_channels = msys_get_cfg(t->ms)->n_chan;
    for (i = 0; i < g->dram_channels; i++) {
        g->dram_reads += m->dram_rd[i]; g->dram_writes += m->dram_wr[i];
        g->dram_row_hits += m->dram_row_hit[i]; g->dram_row_misses += m->dram_row_miss[i];
        g->dram_bytes += m->dram_bytes[i];
        g->dram_busy_cycles += m->dram_tick_per_cycle ? m->dram_bus_ticks[i] / m->dram_tick_per_cycle : 0;
    }
    if (g->simt_max_depth > t->st->max_stack_depth)
        t->st->max_stack_depth = g->simt_max_depth;
}

/* The watchdog's message: what stopped, then every busy SM's dump (sm_dump), in err as far as
   it fits and whole in *t->whole when asked for. */
static int deadlock(struct gpu_state *t, uint64_t now)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    uint32_t i;
    snprintf(t->err, t->errlen, "kernel %s: deadlock: no instruction issued for %llu cycles "
             "(cycle %llu; watchdog_cycles)", t->l->prog->name,
             (unsigned long long)t->l->conf->watchdog_cycles, (unsigned long long)now);
    if (f) {
        fprintf(f, "%s\n", t->err);
        for (i = 0; i < t->nsms; i++)
            if (t->live[i] && sm_busy(&t->sms[i]))
                sm_dump(&t->sms[i], f);
        if (fclose(f)) {
            free(buf);
            buf = NULL;
        }
    }
    if (buf) {
        if (len && buf[len - 1] == '\n')
            buf[len - 1] = 0;                 /* the message ends with its last line */
        snprintf(t->err, t->errlen, "%s", buf);
    }
    if (t->whole)
        *t->whole = buf;
    else
        free(buf);
    return -1;
}

/* The watchdog that stopped the launch and its figure: "N cycles (max_warp_age = M)" or
   "N warp instructions (max_spin_insns = M)"; its key. */
static const char *runaway_what(const struct gpu_state *t, uint64_t quiet, uint64_t cycles, char *buf,
                                size_t len)
{
    const struct gpu_config *c = t->l->conf;
    int by_age = c->max_warp_age && cycles > c->max_warp_age;
    if (by_age)
        snprintf(buf, len, "%llu cycles (and %llu warp instructions) without a warp storing, "
                 "exiting or beginning a logical TB (max_warp_age = %llu)", (unsigned long long)cycles,
                 (unsigned long long)quiet, (unsigned long long)c->max_warp_age);
    else
        snprintf(buf, len, "%llu warp instructions (in %llu cycles) without a warp storing, "
                 "exiting or beginning a logical TB (max_spin_insns = %llu)", (unsigned long long)quiet,
                 (unsigned long long)cycles, (unsigned long long)c->max_spin_insns);
    return by_age ? "max_warp_age" : "max_spin_insns";
}

/* The spinning warp: of the unfinished warps, the one that has issued the most instructions
   since it last made progress (a warp waiting at a barrier issues none). */
static void runaway_msg(struct gpu_state *t, uint64_t quiet, uint64_t cycles)
{
    const struct ptx_prog *p = t->l->prog;
    const struct sm *bs = NULL;
    uint32_t bx = 0;
    uint64_t most = 0;
    char what[300], where[320];
    for (uint32_t i = 0; i < t->nsms; i++)
        for (uint32_t x = 0; t->live[i] && x < t->sms[i].nctx; x++) {
            const struct sm_ctx *cx = &t->sms[i].ctx[x];
            const struct probe_warp *pw = &t->sms[i].pw[x];
            if (cx->valid && !cx->done && (!bs || pw->insns - pw->calm > most)) {
                most = pw->insns - pw->calm;
                bs = &t->sms[i];
                bx = x;
            }
        }
    const char *key = runaway_what(t, quiet, cycles, what, sizeof what);
    if (!bs) {                               /* (every warp finished: writebacks pending) */
        snprintf(t->err, t->errlen, "kernel %s: runaway watchdog: %s", p->name, what);
        return;
    }
    const struct sm_ctx *cx = &bs->ctx[bx];
    const struct sm_cta *k = &bs->ctas[cx->cta];
    uint32_t pc = bs->pw[bx].pc;
    snprintf(t->err, t->errlen, "kernel %s: runaway watchdog: %s; warp %u of CTA (%u,%u,%u) on "
             "SM %u spins: %llu warp instructions since it started or last made progress, at "
             "PC %u (%s) (if the kernel is only slow, raise %s; 0 turns it off)", p->name,
             what, cx->widx, k->ctaid[0], k->ctaid[1], k->ctaid[2], bs->p.id,
             (unsigned long long)most, pc, ptx_where(p, pc, where, sizeof where), key);
}

/* The runaway watchdog, every 1024 cycles: a warp makes progress when lanes of it store
   (st, red), exit or
   (VTW) it begins a logical TB at the wrapper's head (probe.h); when the GPU has run more
   than max_warp_age cycles, or issued more than max_spin_insns warp instructions, since the
   last progress of any warp, the launch stops naming the spinning warp. */
static int runaway(struct gpu_state *t, uint64_t now)
{
    uint64_t age = t->l->conf->max_warp_age, spin = t->l->conf->max_spin_insns, mark = 0, quiet;
    if ((!age && !spin) || (now & 1023u))
        return 0;
    for (uint32_t i = 0; i < t->nsms; i++)
        if (t->live[i] && t->sms[i].probe.mark > mark)
            mark = t->sms[i].probe.mark;
    if (mark != t->wd_mark) {
        t->wd_mark = mark;
        t->wd_cycle = now;
    }
    quiet = t->st->warp_insns - t->wd_mark;
    if ((!age || now - t->wd_cycle <= age) && (!spin || quiet <= spin))
        return 0;
    runaway_msg(t, quiet, now - t->wd_cycle);
    return -1;
}

int gpu_run(const struct kernel_launch *l, const struct gpu_env *env, struct gs_stats *st,
            char *err, size_t errlen, char **whole)
{
    static const struct gpu_env none;
    struct gpu_state t;
    uint64_t now = 0, last_issue = 0, skip;
    int rc = 0, issued;
    memset(&t, 0, sizeof t);
    t.l = l; t.env = env ? env : &none; t.st = st; t.err = err; t.errlen = errlen; t.whole = whole;
    if (whole)
        *whole = NULL;
    if (ts_init(&t, l)) {
        ts_free(&t);
        return -1;
    }
    for (;;) {
        if ((rc = cycle(&t, now, &issued)) != 0)
            break;
        now++;
        if (issued)
            last_issue = now;
        if (finished(&t))
            break;
        if (l->conf->watchdog_cycles && now - last_issue > l->conf->watchdog_cycles) {
            rc = deadlock(&t, now);
            break;
        }
        if ((rc = runaway(&t, now)) != 0)
            break;
        if (l->conf->max_warp_insns && st->warp_insns > l->conf->max_warp_insns) {
            snprintf(err, errlen, "kernel %s: watchdog: more warp instructions than "
                     "max_warp_insns (%llu)", l->prog->name,
                     (unsigned long long)l->conf->max_warp_insns);
            rc = -1;
            break;
        }
        if ((skip = skip_to(&t, now, last_issue)) > now) {
            skip_span(&t, skip - now);
            now = skip;
        }
    }
    collect(&t, now);
    ts_free(&t);
    return rc;
}
