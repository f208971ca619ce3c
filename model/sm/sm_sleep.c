/*
 * sm_sleep.c -- time_skip inside an SM: a resident SM whose cycles change nothing but its
 * counters is not evaluated until its next event; each cycle it sleeps through is credited with
 * what the last evaluated cycle counted. No hardware block: simulation bookkeeping of the SM
 * top (sm.h), part of issue 17's time skipping (docs/timing.md "Time skipping").
 *
 * A cycle t is quiet when
 *   - it began with nothing the last cycle left to consume (an issue's latches, a launch, a
 *     residency change, a late write, a fill, a barrier release, a writeback, a queued request)
 *     and ended with no issue, no retired warp or CTA, no request accepted by the L1 or sent
 *     to the interconnect, no L1 response, no writeback, no barrier release, no late-write
 *     request (a LD/ST line the L1 turns away, MSHRs full, may wait: that is a quiet cycle);
 *   - fetch, the SIMT stack, the scoreboard, the issue stage, the LD/ST unit and the L1 are
 *     idle by those signals (no lookup, nothing in decode, no request, no push or pop, nothing
 *     issued or written back), and the other blocks (the schedulers, fu, bar, smem, kgen and
 *     the mechanisms' blocks: a few KB each) left their registers as they were
 *     (d == q before commit);
 *   - the outputs of fu and ldst that the next cycle reads are those the cycle nsched before
 *     left, and no statistic that takes a maximum moved.
 * Its evaluation then depends on the cycle number only through results and busy units falling
 * due (fu_next_event), the L1's hit queue draining (l1_next_event) and a shared unit's turn
 * (cycle mod nsched). So after a run of nsched quiet cycles (every turn seen) that counted the
 * same statistics and saw the same next event W > t + 1, the SM sleeps: it is evaluated again
 * at W, at a fill, a late write or a CTA launch (sm_sleep_wake), whichever comes first.
 * Asleep, a cycle adds the run's statistics (and each resident CTA's stall cycles,
 * sm_charge_stall's) and presents the last cycle's outputs: no request, no issue, the same
 * ready bits. The cycles are owed while it sleeps and added at once when it wakes or its
 * statistics are read (sm_sleep_settle). The cycles slept are the statistic
 * host_sm_cycles_asleep.
 *
 * With mechanisms (sm_mech.h) the same rule holds. In addition:
 *   - a cycle that applies a command a mechanism registered the cycle before is not quiet (its
 *     pending hook); deciding a command changes the mechanism's block's registers, so that
 *     cycle is not quiet either. While a context beat waits for the shared-memory port, the
 *     port's grant (smem_next_event) is a next event;
 *   - a mechanism's block may hold a free-running pointer that a cycle changing nothing else
 *     still moves (drift_blocks): it is compared but for it (the drift hook: the same drift in
 *     every cycle of the run), and the next evaluation after a sleep moves it on by the cycles
 *     slept (catch_up, the skip hook);
 *   - a mechanism's next event (next_event) ends a sleep; a change of the GPU's phase bit
 *     (sm_io gphase) ends a run and wakes the SM.
 * Each mechanism's own file says what it adds.
 * The watch is off while a block's inputs are recorded, and with time_skip or skip_idle 0.
 * After a failed register comparison the next ones wait (1, 3, 7 .. 63 cycles).
 *
 * CHECK=1 builds evaluate every cycle and check each prediction instead: a cycle predicted
 * asleep must be quiet, count what the run counted, leave every block's registers as they were
 * (the drifting ones but for the run's drift) and leave the SM top as the cycle nsched before
 * it did (the whole struct sm and the mechanisms' states; counters, the CTAs' stall cycles,
 * the cycle number and what a mechanism's neutral hook clears aside); a mismatch stops the
 * run and names the byte.
 */
#include <stdlib.h>
#include <string.h>
#include "sm.h"

#define Q_WORDS (sizeof(struct sm_stats) / sizeof(uint64_t))
#define Q_BACKOFF_MAX 63u
/* The blocks whose registers are not compared (the large ones): quiet_events reads their
   idleness from their outputs; CHECK=1 compares them too. */
#define BIG (1ull << BLKID_fetch | 1ull << BLKID_iss | 1ull << BLKID_sb | 1ull << BLKID_simt | \
             1ull << BLKID_ldst | 1ull << BLKID_l1)

_Static_assert(sizeof(struct sm_stats) % sizeof(uint64_t) == 0, "sm_stats is all u64");

/* Which words of struct sm_stats take a maximum (they may not change in a quiet cycle). */
#define SQ_MAX_SUM 0
#define SQ_MAX_MAX 1
#define SQ_MAX_GEOM 0
#define SQ_MARK(sc, ty, f, dim, merge, ...) SQ_MARK_##sc(f, merge)
#define SQ_MARK_G(f, merge)
#define SQ_MARK_T(f, merge)
#define SQ_MARK_S(f, merge) SQ_MARK_SI(f, merge)
#define SQ_MARK_I(f, merge) SQ_MARK_SI(f, merge)
#define SQ_MARK_SI(f, merge)                                                              \
    if (SQ_MAX_##merge)                                                                   \
        for (size_t w = 0; w < sizeof(((struct sm_stats *)0)->f) / 8; w++)                \
            m[offsetof(struct sm_stats, f) / 8 + w] = 1;

static const uint8_t *max_words(void)
{
    static uint8_t m[Q_WORDS];
    static int done;
    if (!done) {
        GS_STAT_LIST(SQ_MARK, GS_NONE)
        done = 1;
    }
    return m;
}

static void words(const struct sm_stats *a, uint64_t *w)
{
    memcpy(w, a, sizeof *a);
}

int sm_sleep_init(struct sm *s)
{
#ifdef GPUSIM_CHECK
    s->sq_shadow = malloc(s->nsched * sizeof *s);  /* one per grant phase */
    s->sq_tmp = malloc(sizeof *s);
    s->sq_mshadow = calloc(s->nsched, s->msize + 1);
    s->sq_mtmp = calloc(1, s->msize + 1);
    return s->sq_shadow && s->sq_tmp && s->sq_mshadow && s->sq_mtmp ? 0 : -1;
#else
    (void)s;
    return 0;
#endif
}

void sm_sleep_free(struct sm *s)
{
    free(s->sq_shadow);
    free(s->sq_tmp);
    free(s->sq_mshadow);
    free(s->sq_mtmp);
}

/* time_skip applies: the switches, and no block's inputs being recorded. */
static int sleep_on(const struct sm *s)
{
    const struct gpu_config *c = s->p.conf;
    return c->time_skip && c->skip_idle && !s->rec;
}

/* Before its wake cycle, with no fill or late write arriving and the GPU's phase bit as it
   was (a launch wakes it at once). */
static int asleep_at(const struct sm *s, uint64_t now, const struct sm_io *io)
{
    return s->sq_wake > now && !io->fill_valid && !io->late.v && io->gphase == s->gphase;
}

/* The cycles between the last evaluation and this one were slept: the drifting pointers move
   on as those cycles' evaluations would have moved them (the mechanisms' skip hooks). */
static void catch_up(struct sm *s)
{
    sm_mech_skip(s, s->sq_drift, s->now - s->sq_last - 1);
    s->sq_drift = 0;
}

void sm_sleep_begin(struct sm *s, const struct sm_io *io)
{
    s->sq_check = 0;
    if (s->sq_drift)
        catch_up(s);
    if (s->sq_wake) {                      /* woken (CHECK=1: or predicted asleep) */
        if (asleep_at(s, s->now, io))
            s->sq_check = 1;
        else
            sm_sleep_wake(s);
    }
    s->sq_before = s->s;
    s->sq_events = s->sq_issued || s->launch_pending || s->cta_launched || s->ready_dirty ||
                  s->lateq_n || io->late.v || io->fill_valid || s->bar_release ||
                  s->fu_o->nrel || s->ldst_o->nrel || s->fq.n || s->sq.n ||
                  io->gphase != s->gphase || sm_mech_pending(s);
}

void sm_sleep_wake(struct sm *s)
{
    sm_sleep_settle(s);
    s->sq_wake = 0;
    s->sq_run = 0;
}

/* The cycle's counts into d; 0 when a maximum moved. */
static int cycle_delta(const struct sm *s, uint64_t *d)
{
    uint64_t a[Q_WORDS], b[Q_WORDS];
    words(&s->sq_before, b);
    words(&s->s, a);
    for (size_t i = 0; i < Q_WORDS; i++) {
        d[i] = a[i] - b[i];
        if (d[i] && max_words()[i])
            return 0;
    }
    return 1;
}

/* Nothing consumed, issued, retired, requested, returned or written back; the blocks that are
   not compared (BIG) idle by their outputs. */
static int quiet_events(const struct sm *s, uint32_t issued, uint32_t nfin, const struct sm_io *io,
                        int src, const struct l1_out *lo)
{
    return !issued && !nfin && !s->ndone && !s->sq_events && !io->miss_valid &&
           !io->late_req.v && !s->bar_release && !s->fq.n && !s->sq.n && !s->lateq_n &&
           !s->fu_o->nrel && !s->ldst_o->nrel && !src &&
           !lo->resp_valid && !s->fetch_o->ev_fetch && !s->fetch_o->req_v &&
           fetch_decode_empty(s->fetch_c, s->fetch_d) && !s->simt_o->req_v && !s->simt_o->busy &&
           !s->simt_o->ev_push && !s->simt_o->ev_pop;
}

/* The registered outputs this cycle left for the next (fu's unit grants, ldst's ready) are
   those the cycle nsched before it left; records them. */
static int outputs_repeat(struct sm *s)
{
    struct sm_sqout o, *p = &s->sq_out[s->now % s->nsched];
    int same;
    memset(&o, 0, sizeof o);
    o.cycle = s->now;
    memcpy(o.uf, s->fu_o->unit_free, sizeof o.uf);
    o.full = s->fu_o->full;
    o.can_issue = s->ldst_o->can_issue;
    o.nact = s->ldst_o->nact;
    o.ninact = s->ldst_o->ninact;
    same = p->cycle + s->nsched == s->now && !memcmp(o.uf, p->uf, sizeof o.uf) &&
           o.full == p->full && o.can_issue == p->can_issue && o.nact == p->nact &&
           o.ninact == p->ninact;
    *p = o;
    return same;
}

/* Every block's registers as they were (those in skip aside), the drifting ones but for their
   pointers; *step: the mechanisms whose blocks drifted (bit per mechanism). */
static int blocks_still(const struct sm *s, uint64_t skip, uint8_t *step)
{
    if (!sm_blocks_unchanged(s, skip | s->mdrift))
        return 0;
    return sm_mech_drift(s, step) == 0;
}

/* The quiet cycle's next event: a result or a unit of fu, the L1's hit queue, a mechanism's
   event, and, while a context beat waits for the shared-memory port, the port's grant. */
static uint64_t next_event(const struct sm *s)
{
    uint64_t next = fu_next_event(s->fu_c, s->fu_q, s->now), t;
    if ((t = l1_next_event(s->l1_c, s->l1_q, s->now)) < next)
        next = t;
    next = sm_mech_next_event(s, next);
    if (s->io.sh.ctx_v && (t = smem_next_event(s->smem_c, s->smem_q, s->now)) < next)
        next = t;
    return next;
}

/* The run goes on, restarts or ends with this cycle; 1 when the cycle was quiet. */
static int watch(struct sm *s, uint32_t issued, uint32_t nfin, const struct sm_io *io, int src,
                 const struct l1_out *lo)
{
    uint64_t d[Q_WORDS], next;
    uint8_t step = 0;
    if (!outputs_repeat(s) || !quiet_events(s, issued, nfin, io, src, lo)) {
        s->sq_run = 0;
        return 0;
    }
    if (s->sq_hold) {
        s->sq_hold--;
        s->sq_run = 0;
        return 0;
    }
    if (!blocks_still(s, BIG, &step) || !cycle_delta(s, d)) {
        s->sq_run = 0;
        s->sq_hold = s->sq_backoff;
        s->sq_backoff = s->sq_backoff * 2 + 1 > Q_BACKOFF_MAX ? Q_BACKOFF_MAX : s->sq_backoff * 2 + 1;
        return 0;
    }
    next = next_event(s);
    if (s->sq_run && next == s->sq_next && step == s->sq_step && !memcmp(d, &s->sq_delta, sizeof d)) {
        s->sq_run++;
    } else {
        s->sq_run = 1;
        s->sq_next = next;
        s->sq_step = step;
        memcpy(&s->sq_delta, d, sizeof d);
    }
    s->sq_backoff = 0;
    return 1;
}

#ifdef GPUSIM_CHECK
/* The SM top without what a quiet cycle may change: counters, stall cycles, the cycle, the
   watch's own state; and the mechanisms' states (mt) without what their neutral hooks clear. */
static void neutral(const struct sm *s, struct sm *t, uint8_t *mt)
{
    memcpy(mt, s->mstate ? s->mstate : mt, s->msize);
    sm_mech_neutral(s, mt);
    memcpy(t, s, sizeof *t);
    memset(&t->s, 0, sizeof t->s);
    memset(&t->sq_before, 0, sizeof t->sq_before);
    memset(&t->sq_delta, 0, sizeof t->sq_delta);
    t->sq_next = t->sq_wake = t->sq_owed = t->sq_last = 0;
    t->sq_run = t->sq_hold = t->sq_backoff = 0;
    t->sq_events = t->sq_check = t->sq_busy = t->sq_step = t->sq_drift = 0;
    t->still = 0;
    memset(t->sq_out, 0, sizeof t->sq_out);
    t->now = 0;
    t->io.fu.now = t->io.ld.now = t->io.sh.now = 0;
    for (uint32_t c = 0; c < SM_MAX_CTAS; c++)
        t->ctas[c].stall_life = t->ctas[c].stall_dwr = 0;
}

/* The cycle predicted asleep against the run's prediction: quiet, counting d_run (d: what it
   counted), the registers still but for the run's drift, the SM top as nsched cycles before. */
static int check_prediction(struct sm *s, int quiet, const uint64_t *d, const uint64_t *d_run,
                            uint8_t step_run)
{
    const char *what = NULL;
    size_t b = 0;
    uint8_t step = 0;
    uint8_t *ms = s->sq_mshadow + (s->now % s->nsched) * (s->msize + 1);
    neutral(s, s->sq_tmp, s->sq_mtmp);
    if (!quiet)
        what = "the cycle was not quiet";
    else if (memcmp(d, d_run, sizeof s->sq_delta))
        what = "the cycle counted other statistics";
    else if (!blocks_still(s, 0, &step) || step != step_run)
        what = "a block's registers changed";
    else if (memcmp(s->sq_tmp, &s->sq_shadow[s->now % s->nsched], sizeof *s)) {
        const uint8_t *x = (const uint8_t *)s->sq_tmp;
        const uint8_t *y = (const uint8_t *)&s->sq_shadow[s->now % s->nsched];
        while (x[b] == y[b])
            b++;
        what = "the SM top changed";
    } else if (memcmp(s->sq_mtmp, ms, s->msize)) {
        while (s->sq_mtmp[b] == ms[b])
            b++;
        what = "a mechanism's state changed";
    }
    if (!what)
        return 0;
    snprintf(s->err, sizeof s->err, "SM %u cycle %llu: time_skip predicted a quiet cycle, but "
             "%s (byte %zu of the state; CHECK=1)", s->p.id, (unsigned long long)s->now,
             what, b);
    s->failed = 1;
    return -1;
}
#endif

/* After the cycle's evaluation, before commit: watch it; fall asleep after a run. Returns -1
   when CHECK=1 found a wrong prediction. */
int sm_sleep_end(struct sm *s, uint32_t issued, uint32_t nfin, const struct sm_io *io, int src,
                 const struct l1_out *lo)
{
    int quiet;
#ifdef GPUSIM_CHECK
    uint64_t d_prev[Q_WORDS];
    uint8_t step_prev = s->sq_step;
    int predicted = s->sq_check;
    memcpy(d_prev, &s->sq_delta, sizeof d_prev);
#endif
    s->sq_issued = issued != 0;
    s->sq_last = s->now;
    if (!sleep_on(s))
        return 0;
    quiet = watch(s, issued, nfin, io, src, lo);
#ifdef GPUSIM_CHECK
    if (predicted) {
        uint64_t d[Q_WORDS];
        if (check_prediction(s, quiet && cycle_delta(s, d), d, d_prev, step_prev))
            return -1;
    }
    if (quiet)
        neutral(s, &s->sq_shadow[s->now % s->nsched],
                s->sq_mshadow + (s->now % s->nsched) * (s->msize + 1));
#endif
    if (quiet && s->sq_run >= s->nsched && s->sq_next > s->now + 1) {
        s->sq_wake = s->sq_next;
        s->sq_busy = (uint8_t)sm_busy(s);
        s->sq_drift = s->sq_step;
    }
    return 0;
}

int sm_asleep(const struct sm *s, uint64_t now, const struct sm_io *io)
{
#ifdef GPUSIM_CHECK
    (void)s; (void)now; (void)io;
    return 0;
#else
    return asleep_at(s, now, io);
#endif
}

/* Asleep n more cycles: owed until the SM is evaluated again or its statistics are read
   (sm_sleep_settle), so that a long sleep costs the GPU's loop one addition a cycle. */
void sm_sleep_credit(struct sm *s, uint64_t n)
{
    s->sq_owed += n;
}

void sm_sleep_settle(struct sm *s)
{
    uint64_t a[Q_WORDS], d[Q_WORDS], n = s->sq_owed;
    if (!n)
        return;
    s->sq_owed = 0;
    words(&s->s, a);
    words(&s->sq_delta, d);
    for (size_t i = 0; i < Q_WORDS; i++)
        a[i] += n * d[i];
    memcpy(&s->s, a, sizeof a);
    s->st->t.sm_cycles_asleep += n;
    if (s->sq_busy)
        s->s.busy_cycles += n;
    sm_charge_stall(s, 0, n);
}
