/*
 * sm_mech.c -- the mechanism registry and the SM's calls of its hooks (sm_mech.h). Not a
 * block: the SM top's plumbing. The selected mechanisms' states lie in one zeroed allocation
 * (s->mstate, s->msize bytes), so that time_skip's CHECK=1 comparison covers them whole.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sm.h"

#define NBUILTIN 3
static const struct sm_mech *reg[SM_MECH_MAX] = { &sm_mech_vt, &sm_mech_dws, &sm_mech_vtw };
static unsigned nreg = NBUILTIN;

int sm_mech_register(const struct sm_mech *m)
{
    if (!m || !m->name || !m->name[0] || strchr(m->name, ',') || !strcmp(m->name, "none") ||
        nreg >= SM_MECH_MAX)
        return -1;
    for (unsigned i = 0; i < nreg; i++)
        if (!strcmp(reg[i]->name, m->name))
            return reg[i] == m ? 0 : -1;
    reg[nreg++] = m;
    return 0;
}

const struct sm_mech *const *sm_mech_list(unsigned *n)
{
    *n = nreg;
    return reg;
}

int sm_mech_named(const struct gpu_config *c, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = c->mechs; *p; p += strcspn(p, ","), p += *p == ',')
        if (strcspn(p, ",") == n && !strncmp(p, name, n))
            return 1;
    return 0;
}

int sm_mech_conf_check(const struct gpu_config *c, char *err, size_t errlen)
{
    const char *p = c->mechs;
    if (!strcmp(p, "none"))
        return 0;
    for (; *p; p += strcspn(p, ","), p += *p == ',') {
        int n = (int)strcspn(p, ","), found = 0;
        for (unsigned i = 0; i < nreg; i++)
            if ((int)strlen(reg[i]->name) == n && !strncmp(p, reg[i]->name, (size_t)n))
                found = i < NBUILTIN ? -1 : 1;
        if (found == 1)
            continue;
        if (found < 0)
            snprintf(err, errlen, "configuration: key 'mechs': '%.*s' is built in and switched on "
                     "by its own key (vt, dws, vtw)", n, p);
        else
            snprintf(err, errlen, "configuration: key 'mechs': no mechanism named '%.*s' is "
                     "registered (%u registered beside the built-in vt, dws, vtw: "
                     "sm_mech_register, docs/adding-a-mechanism.md)", n, p, nreg - NBUILTIN);
        return -1;
    }
    return 0;
}

#define ALIGN(n) (((n) + 15u) & ~(size_t)15u)

int sm_mech_init(struct sm *s, char *err, size_t errlen)
{
    size_t off[SM_MECH_MAX], size = 0;
    if (sm_mech_conf_check(s->p.conf, err, errlen))
        return -1;
    for (unsigned i = 0; i < nreg; i++)
        if (reg[i]->selected && reg[i]->selected(s->p.conf)) {
            off[s->nmech] = size;
            size += ALIGN(reg[i]->state_size ? reg[i]->state_size : 1);
            s->mech[s->nmech++] = reg[i];
        }
    if (!s->nmech)
        return 0;
    s->mstate = calloc(1, size);
    if (!s->mstate) {
        snprintf(err, errlen, "out of host memory for SM %u's mechanisms", s->p.id);
        return -1;
    }
    s->msize = size;
    for (unsigned i = 0; i < s->nmech; i++) {
        const struct sm_mech *m = s->mech[i];
        s->mst[i] = s->mstate + off[i];
        s->mflags |= m->flags;
        s->mdrift |= m->drift_blocks;
        if (m->init && m->init(s, s->mst[i], err, errlen))
            return -1;
    }
    return 0;
}

void sm_mech_free(struct sm *s)
{
    for (unsigned i = 0; i < s->nmech; i++)
        if (s->mech[i]->free)
            s->mech[i]->free(s, s->mst[i]);
    free(s->mstate);
}

/* Every selected mechanism with hook h: f(m, st). */
#define EACH(s, h, call)                                                                  \
    for (unsigned i_ = 0; i_ < (s)->nmech; i_++) {                                       \
        const struct sm_mech *m_ = (s)->mech[i_];                                        \
        void *st_ = (s)->mst[i_];                                                        \
        if (m_->h) { call; }                                                             \
    }

int sm_mech_admit(const struct sm *s)
{
    int act = 1;
    EACH(s, admit, act = act && m_->admit(s, st_))
    return act;
}

void sm_mech_cta_launched(struct sm *s, uint32_t c, int act)
{
    EACH(s, cta_launched, m_->cta_launched(s, st_, c, act))
}

void sm_mech_warp_started(struct sm *s, uint32_t w, uint32_t x)
{
    EACH(s, warp_started, m_->warp_started(s, st_, w, x))
}

void sm_mech_warp_done(struct sm *s, uint32_t w, uint32_t x)
{
    EACH(s, warp_done, m_->warp_done(s, st_, w, x))
}

void sm_mech_cta_done(struct sm *s, uint32_t c)
{
    EACH(s, cta_done, m_->cta_done(s, st_, c))
}

void sm_mech_tbs(struct sm *s, struct sm_tb *tbs, uint32_t *nfin)
{
    EACH(s, tbs, m_->tbs(s, st_, tbs, nfin))
}

void sm_mech_stall(struct sm *s, uint32_t c, uint64_t n)
{
    EACH(s, stall, m_->stall(s, st_, c, n))
}

void sm_mech_begin(struct sm *s)
{
    memset(&s->mport, 0, sizeof s->mport);
    EACH(s, begin, m_->begin(s, st_))
}

void sm_mech_route(struct sm *s, uint8_t vwi, uint32_t own, struct sb_rel *rel)
{
    EACH(s, route, m_->route(s, st_, vwi, own, rel))
}

void sm_mech_late_src(struct sm *s, struct sm_io *io)
{
    EACH(s, late_src, m_->late_src(s, st_, io))
}

void sm_mech_sb_ports(struct sm *s, struct sb_in *in)
{
    EACH(s, sb_ports, m_->sb_ports(s, st_, in))
}

slotmask sm_mech_hold(struct sm *s)
{
    slotmask h = 0;
    EACH(s, hold, h |= m_->hold(s, st_))
    return h;
}

void sm_mech_keys(struct sm *s, uint32_t k, struct ws_in *in)
{
    EACH(s, keys, m_->keys(s, st_, k, in))
}

void sm_mech_picked(struct sm *s, uint32_t k, const struct ws_in *in, const struct ws_out *out)
{
    EACH(s, picked, m_->picked(s, st_, k, in, out))
}

uint32_t sm_mech_lanes(struct sm *s, uint32_t w, uint32_t pc, uint32_t mask)
{
    EACH(s, lanes, mask = m_->lanes(s, st_, w, pc, mask))
    return mask;
}

uint32_t sm_mech_own(const struct sm *s, uint32_t w)
{
    uint32_t own = 0xFFFFFFFFu;
    EACH(s, own, own &= m_->own(s, st_, w))
    return own;
}

void sm_mech_issued(struct sm *s, uint32_t port, uint32_t w, uint32_t x, uint32_t pc)
{
    EACH(s, issued, m_->issued(s, st_, port, w, x, pc))
}

int sm_mech_late(struct sm *s, uint32_t sched, uint32_t x, const struct ptx_insn *in,
                 uint32_t mask)
{
    EACH(s, late, if (m_->late(s, st_, sched, x, in, mask)) return 1)
    return 0;
}

void sm_mech_after_issue(struct sm *s)
{
    EACH(s, after_issue, m_->after_issue(s, st_))
}

void sm_mech_end(struct sm *s)
{
    EACH(s, end, m_->end(s, st_))
}

int sm_mech_pending(const struct sm *s)
{
    EACH(s, pending, if (m_->pending(s, st_)) return 1)
    return 0;
}

int sm_mech_busy(const struct sm *s)
{
    EACH(s, busy, if (m_->busy(s, st_)) return 1)
    return 0;
}

int sm_mech_drift(const struct sm *s, uint8_t *step)
{
    *step = 0;
    EACH(s, drift, {
        int r = m_->drift(s, st_);
        if (r < 0)
            return -1;
        *step |= (uint8_t)(r ? 1u << i_ : 0);
    })
    return 0;
}

void sm_mech_skip(struct sm *s, uint8_t step, uint64_t n)
{
    EACH(s, skip, if (step >> i_ & 1) m_->skip(s, st_, n))
}

uint64_t sm_mech_next_event(const struct sm *s, uint64_t next)
{
    EACH(s, next_event, {
        uint64_t t = m_->next_event(s, st_, s->now);
        next = t < next ? t : next;
    })
    return next;
}

void sm_mech_neutral(const struct sm *s, void *copy)
{
    EACH(s, neutral, m_->neutral((char *)copy + ((char *)st_ - (char *)s->mstate)))
}
