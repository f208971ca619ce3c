/*
 * regroup.c -- the thread regrouping algorithms of 001_8bf4399a5d1562fa.txt Section V
 * (regroup.h): the classes of identical BBVs, Sorting, Greedy, Greedy-Max and the entry.
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/regroup.h"

#define NONE UINT32_MAX

/* The threads sorted by BBV and the classes of identical BBVs. */
struct classes {
    uint32_t n;                    /* distinct BBVs */
    uint32_t *ord;                 /* [nthreads] threads in lexicographic order, ties by id */
    uint32_t *start;               /* [n + 1] class k = ord[start[k], start[k + 1]) */
    double *lat;                   /* [n] Lat_t of its threads, equation (11) */
};

static const uint32_t *row_of(const struct bbv *b, uint32_t t)
{
    return b->count + (uint64_t)t * b->nblocks;
}

static const char *const names[RG_NALGS] = {"sorting", "greedy", "greedy-max"};

const char *rg_name(enum rg_alg a)
{
    return (unsigned)a < RG_NALGS ? names[a] : "?";
}

int rg_parse(const char *name, enum rg_alg *a)
{
    for (unsigned i = 0; i < RG_NALGS; i++)
        if (!strcmp(name, names[i])) {
            *a = (enum rg_alg)i;
            return 0;
        }
    return -1;
}

/* Lexicographic comparison of threads x and y's BBVs (block 0 first). */
static int row_cmp(const struct bbv *b, uint32_t x, uint32_t y)
{
    const uint32_t *p = row_of(b, x), *q = row_of(b, y);
    for (uint32_t k = 0; k < b->nblocks; k++)
        if (p[k] != q[k])
            return p[k] < q[k] ? -1 : 1;
    return 0;
}

/* Stable bottom-up merge sort of ids[0, n) by BBV (tmp: n entries): equal BBVs keep their
   order, so threads given in ascending id stay so. */
static void sort_rows(const struct bbv *b, uint32_t *ids, uint32_t *tmp, uint32_t n)
{
    uint32_t *src = ids, *dst = tmp, *t;
    for (uint64_t w = 1; w < n; w *= 2) {
        for (uint64_t lo = 0; lo < n; lo += 2 * w) {
            uint64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            uint64_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                dst[o++] = row_cmp(b, src[j], src[i]) < 0 ? src[j++] : src[i++];
            while (i < mid)
                dst[o++] = src[i++];
            while (j < hi)
                dst[o++] = src[j++];
        }
        t = src;
        src = dst;
        dst = t;
    }
    if (src != ids)
        memcpy(ids, src, (size_t)n * sizeof *ids);
}

static double thread_lat(const struct bbv *b, const double *lat, uint32_t t)
{
    const uint32_t *r = row_of(b, t);
    double s = 0;
    for (uint32_t k = 0; k < b->nblocks; k++)
        s += lat[k] * r[k];
    return s;
}

/* Gain (10) of the union of envelopes [mn1, mx1] and [mn2, mx2] (a thread: its BBV as both). */
static double gain(const double *lat, uint32_t nb, const uint32_t *mn1, const uint32_t *mx1,
               const uint32_t *mn2, const uint32_t *mx2)
{
    double s = 0;
    for (uint32_t k = 0; k < nb; k++) {
        double lo = mn1[k] < mn2[k] ? mn1[k] : mn2[k], hi = mx1[k] > mx2[k] ? mx1[k] : mx2[k];
        s += lat[k] * (2.0 * lo - hi);     /* Benefit lat x Min, Cost lat x (Max - Min) */
    }
    return s;
}

static void classes_free(struct classes *c)
{
    free(c->ord);
    free(c->start);
    free(c->lat);
    memset(c, 0, sizeof *c);
}

/* Sort b's threads and collapse identical BBVs (lat: block latencies). 0, or -1 if out of
   memory. */
static int classes_build(const struct bbv *b, const double *lat, struct classes *c)
{
    uint32_t n = (uint32_t)b->nthreads, *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
    memset(c, 0, sizeof *c);
    c->ord = malloc(((size_t)n + 1) * sizeof *c->ord);
    c->start = malloc(((size_t)n + 2) * sizeof *c->start);
    if (!tmp || !c->ord || !c->start) {
        free(tmp);
        classes_free(c);
        return -1;
    }
    for (uint32_t t = 0; t < n; t++)
        c->ord[t] = t;
    sort_rows(b, c->ord, tmp, n);
    free(tmp);
    for (uint32_t i = 0; i < n; i++)
        if (i == 0 || row_cmp(b, c->ord[i - 1], c->ord[i]))
            c->start[c->n++] = i;
    c->start[c->n] = n;
    c->lat = malloc(((size_t)c->n + 1) * sizeof *c->lat);
    if (!c->lat) {
        classes_free(c);
        return -1;
    }
    for (uint32_t k = 0; k < c->n; k++)
        c->lat[k] = thread_lat(b, lat, c->ord[c->start[k]]);
    return 0;
}

struct lkey {
    double lat;
    uint32_t first, k;
};

static int lkey_cmp(const void *pa, const void *pb)
{
    const struct lkey *a = pa, *b = pb;
    if (a->lat != b->lat)
        return a->lat > b->lat ? -1 : 1;
    return a->first < b->first ? -1 : a->first > b->first;
}

/* The classes in descending Lat, ties by their lowest thread id, into out[n]. 0 or -1. */
static int by_latency(const struct classes *c, uint32_t *out)
{
    struct lkey *key = malloc(((size_t)c->n + 1) * sizeof *key);
    if (!key)
        return -1;
    for (uint32_t k = 0; k < c->n; k++)
        key[k] = (struct lkey){c->lat[k], c->ord[c->start[k]], k};
    qsort(key, c->n, sizeof *key, lkey_cmp);
    for (uint32_t k = 0; k < c->n; k++)
        out[k] = key[k].k;
    free(key);
    return 0;
}

/* A window: what budget allows when one more candidate costs per_candidate, at least
   RG_WINDOW_MIN, at most every candidate. */
static uint32_t window_for(uint64_t budget, uint64_t per_candidate, uint32_t candidates)
{
    uint64_t w = per_candidate ? budget / per_candidate : candidates;
    if (w < RG_WINDOW_MIN)
        w = RG_WINDOW_MIN;
    return w > candidates ? candidates : (uint32_t)w;
}

/* ---- Greedy-Max (Algorithm 2) ---- */

/* The remaining classes in descending Lat (ties: lowest thread id), a list over ranks. */
struct gmax {
    const struct bbv *b;
    const struct classes *c;
    const double *lat;
    uint32_t gs, w;
    uint32_t *cls;                 /* [n] class of each rank */
    uint32_t *next, *prev;         /* [n] the list of ranks with threads left */
    uint32_t *taken;               /* [n] threads of the class already placed, by class */
    uint32_t head;                 /* the remaining class of largest Lat, NONE when done */
    uint32_t *mn, *mx;             /* [nblocks] the group's envelope, equations (6), (7) */
    uint32_t *perm;
    uint64_t out;                  /* next slot */
};

static void gm_unlink(struct gmax *s, uint32_t r)
{
    if (s->prev[r] != NONE)
        s->next[s->prev[r]] = s->next[r];
    else
        s->head = s->next[r];
    if (s->next[r] != NONE)
        s->prev[s->next[r]] = s->prev[r];
}

/* Place up to want threads of rank r's class (lowest ids first) into the group; how many. */
static uint32_t gm_take(struct gmax *s, uint32_t r, uint32_t want)
{
    uint32_t k = s->cls[r], first = s->c->start[k] + s->taken[k];
    uint32_t left = s->c->start[k + 1] - first, n = want < left ? want : left;
    const uint32_t *row = row_of(s->b, s->c->ord[first]);
    memcpy(s->perm + s->out, s->c->ord + first, (size_t)n * sizeof *s->perm);
    s->out += n;
    s->taken[k] += n;
    if (n == left)
        gm_unlink(s, r);
    for (uint32_t j = 0; j < s->b->nblocks; j++) {
        s->mn[j] = s->mn[j] < row[j] ? s->mn[j] : row[j];
        s->mx[j] = s->mx[j] > row[j] ? s->mx[j] : row[j];
    }
    return n;
}

/* The candidate (among the first w remaining) of largest gain with the group; ties: lowest
   remaining thread id. */
static uint32_t gm_best(const struct gmax *s)
{
    uint32_t best = NONE, bid = 0, i = 0;
    double bg = 0;
    for (uint32_t r = s->head; r != NONE && i < s->w; r = s->next[r], i++) {
        uint32_t k = s->cls[r], id = s->c->ord[s->c->start[k] + s->taken[k]];
        const uint32_t *row = row_of(s->b, id);
        double g = gain(s->lat, s->b->nblocks, s->mn, s->mx, row, row);
        if (best == NONE || g > bg || (g == bg && id < bid)) {
            best = r;
            bg = g;
            bid = id;
        }
    }
    return best;
}

/* One group: the seed's class, then identical threads, then the best gain, until full. */
static void gm_group(struct gmax *s)
{
    uint32_t size;
    for (uint32_t j = 0; j < s->b->nblocks; j++) {
        s->mn[j] = UINT32_MAX;
        s->mx[j] = 0;
    }
    size = gm_take(s, s->head, s->gs);     /* the seed and every thread identical to it */
    while (size < s->gs && s->head != NONE)
        size += gm_take(s, gm_best(s), s->gs - size);
}

static int greedy_max(const struct bbv *b, const double *lat, const struct classes *c,
                      uint32_t gs, uint32_t *perm, struct rg_info *info)
{
    uint32_t n = c->n, nb = b->nblocks;
    uint64_t groups = (b->nthreads + gs - 1) / gs;
    struct gmax s = {.b = b, .c = c, .lat = lat, .gs = gs, .perm = perm};
    int rc = -1;
    s.cls = malloc(((size_t)n + 1) * sizeof *s.cls);
    s.next = malloc(((size_t)n + 1) * sizeof *s.next);
    s.prev = malloc(((size_t)n + 1) * sizeof *s.prev);
    s.taken = calloc((size_t)n + 1, sizeof *s.taken);
    s.mn = malloc(((size_t)nb + 1) * sizeof *s.mn);
    s.mx = malloc(((size_t)nb + 1) * sizeof *s.mx);
    if (s.cls && s.next && s.prev && s.taken && s.mn && s.mx && !by_latency(c, s.cls)) {
        s.w = window_for(RG_BUDGET_GMAX, (groups + n) * (nb + RG_STEP), n);
        info->window = s.w;
        info->exact = s.w >= n;
        for (uint32_t r = 0; r < n; r++) {
            s.next[r] = r + 1 < n ? r + 1 : NONE;
            s.prev[r] = r ? r - 1 : NONE;
        }
        s.head = n ? 0 : NONE;
        while (s.head != NONE)
            gm_group(&s);
        rc = 0;
    }
    free(s.cls);
    free(s.next);
    free(s.prev);
    free(s.taken);
    free(s.mn);
    free(s.mx);
    return rc;
}

/* ---- Greedy (Algorithm 1) ----
   The classes' remainders are the groups in play. Each keeps its best partners in its window
   (every group when the window holds them all); a heap holds every group's best pair, so its
   top is the pair Algorithm 1 merges next. After a merge the group that stays searches its
   window and is offered to each partner there; a group whose best partner merged takes its
   next kept partner unless something it no longer keeps may gain as much (its floor), else
   it searches again -- the same choice as a new search, made cheaper. */

#define GR_KEEP 4                  /* partners a group keeps from its searches, best first */

/* A partner a group has seen: valid while that partner is alive at the same version. */
struct gcand {
    double gain;                   /* Gain(group, partner), equation (10) */
    uint32_t id, ver, minid;       /* the partner, its version and lowest thread id then */
};

/* A group in play: a class's remainder, or what merges of them left. */
struct ggrp {
    uint32_t head, tail, size;     /* its threads: a list through link[], in the order added */
    uint32_t minid;                /* its lowest thread id */
    uint32_t prev, next;           /* neighbours in the window order, NONE at an end */
    uint32_t hpos, ver;            /* heap place (NONE: out); bumped when its threads change */
    uint32_t best, plo, phi;       /* best partner (NONE: none); the pair's lowest ids, in order */
    double gain;                   /* Gain(it, best) */
    double floor;                  /* no partner outside its candidates gains more than this */
    uint8_t ncand, alive, dirty;   /* dirty: its best partner merged */
};

/* A heap entry: a group's best pair. */
struct hent {
    double gain;
    uint32_t plo, phi, id;         /* the pair's lowest thread ids; the group */
};

struct greedy {
    const struct bbv *b;
    const struct classes *c;
    const double *lat;
    uint32_t nb, gs, w;            /* blocks, group size, partners searched each side */
    struct ggrp *g;
    uint32_t ng;
    struct gcand *cand;            /* [ng x GR_KEEP] each group's kept partners, best first */
    uint32_t *mn, *mx;             /* [ng x nb] envelopes, equations (6), (7) */
    uint32_t *link;                /* [nthreads] the next thread of its group, NONE at the end */
    struct hent *heap;             /* groups with a partner, best pair first */
    uint32_t nheap;
    uint32_t *win;                 /* [2 w] a window being searched */
    uint32_t *dirty, ndirty;       /* [ng] groups whose best partner merged */
    uint32_t *perm;
    uint64_t out;                  /* next slot */
};

/* Entry a's pair comes before b's: larger gain, then lower thread ids. */
static int h_before(const struct hent *a, const struct hent *b)
{
    if (a->gain != b->gain)
        return a->gain > b->gain;
    return a->plo != b->plo ? a->plo < b->plo : a->phi != b->phi ? a->phi < b->phi : a->id < b->id;
}

static void h_put(struct greedy *s, uint32_t p, const struct hent *e)
{
    s->heap[p] = *e;
    s->g[e->id].hpos = p;
}

/* Entry e into place p of the heap, moved up or down to where it belongs. */
static void h_sift(struct greedy *s, uint32_t p, struct hent e)
{
    while (p && h_before(&e, &s->heap[(p - 1) / 2])) {
        h_put(s, p, &s->heap[(p - 1) / 2]);
        p = (p - 1) / 2;
    }
    for (;;) {
        uint32_t l = 2 * p + 1, r = l + 1, m = l;
        if (l >= s->nheap)
            break;
        if (r < s->nheap && h_before(&s->heap[r], &s->heap[l]))
            m = r;
        if (!h_before(&s->heap[m], &e))
            break;
        h_put(s, p, &s->heap[m]);
        p = m;
    }
    h_put(s, p, &e);
}

/* Group i's heap entry after its pair changed: in while it has a partner. */
static void h_set(struct greedy *s, uint32_t i)
{
    struct ggrp *g = &s->g[i];
    uint32_t p = g->hpos;
    struct hent e = {g->gain, g->plo, g->phi, i};
    if (g->best != NONE) {
        if (p == NONE)
            p = s->nheap++;
        h_sift(s, p, e);
    } else if (p != NONE) {
        g->hpos = NONE;
        if (p < --s->nheap)
            h_sift(s, p, s->heap[s->nheap]);
    }
}

/* The groups within w places of group i in the window order, into s->win; how many. */
static uint32_t gr_window(struct greedy *s, uint32_t i)
{
    uint32_t n = 0, j, k;
    for (j = s->g[i].prev, k = 0; j != NONE && k < s->w; j = s->g[j].prev, k++)
        s->win[n++] = j;
    for (j = s->g[i].next, k = 0; j != NONE && k < s->w; j = s->g[j].next, k++)
        s->win[n++] = j;
    return n;
}

static double gr_gain(const struct greedy *s, uint32_t i, uint32_t j)
{
    size_t a = (size_t)i * s->nb, c = (size_t)j * s->nb;
    return gain(s->lat, s->nb, s->mn + a, s->mx + a, s->mn + c, s->mx + c);
}

static int cand_before(const struct gcand *a, const struct gcand *b)
{
    return a->gain > b->gain || (a->gain == b->gain && a->minid < b->minid);
}

static int gr_valid(const struct greedy *s, const struct gcand *c)
{
    return s->g[c->id].alive && s->g[c->id].ver == c->ver;
}

/* Offer partner j at gain v to group i's kept partners: it takes its place in order; the
   last beyond GR_KEEP goes and, if still valid, raises the floor. Invalid ones stay until
   gr_pick clears them (checking each offer's would cost a cache miss apiece). */
static void gr_offer(struct greedy *s, uint32_t i, uint32_t j, double v)
{
    struct ggrp *g = &s->g[i];
    struct gcand *c = s->cand + (size_t)i * GR_KEEP, e = {v, j, s->g[j].ver, s->g[j].minid};
    uint32_t n = g->ncand, p;
    for (p = n; p > 0 && cand_before(&e, &c[p - 1]); p--)
        ;
    if (p == GR_KEEP) {
        g->floor = v > g->floor ? v : g->floor;
        return;
    }
    if (n == GR_KEEP && gr_valid(s, &c[--n]))
        g->floor = c[n].gain > g->floor ? c[n].gain : g->floor;
    memmove(c + p + 1, c + p, (n - p) * sizeof *c);
    c[p] = e;
    g->ncand = (uint8_t)(n + 1);
}

/* Group i's best partner: its first kept one (valid); its heap entry follows. */
static void gr_use_first(struct greedy *s, uint32_t i)
{
    struct ggrp *g = &s->g[i];
    const struct gcand *c = s->cand + (size_t)i * GR_KEEP;
    uint32_t best = g->ncand ? c->id : NONE, id = g->ncand ? c->minid : NONE;
    uint32_t lo = g->minid < id ? g->minid : id, hi = g->minid < id ? id : g->minid;
    double v = g->ncand ? c->gain : 0;
    if (best == g->best && v == g->gain && lo == g->plo && hi == g->phi)
        return;
    g->best = best;
    g->gain = v;
    g->plo = lo;
    g->phi = hi;
    h_set(s, i);
}

/* Search group i's window: its kept partners anew; offer: i (new) offered to each partner
   too (a dirty partner's heap entry waits for gr_pick). */
static void gr_search(struct greedy *s, uint32_t i, int offer)
{
    uint32_t n = gr_window(s, i);
    s->g[i].ncand = 0;
    s->g[i].floor = -DBL_MAX;
    for (uint32_t q = 0; q < n; q++) {
        uint32_t j = s->win[q];
        double v = gr_gain(s, i, j);
        gr_offer(s, i, j, v);
        if (offer) {
            gr_offer(s, j, i, v);
            if (!s->g[j].dirty)
                gr_use_first(s, j);
        }
    }
    gr_use_first(s, i);
}

/* A dirty group's best partner: its first valid kept one, unless something it no longer
   keeps may gain as much (the floor): then a new search. */
static void gr_pick(struct greedy *s, uint32_t i)
{
    struct ggrp *g = &s->g[i];
    struct gcand *c = s->cand + (size_t)i * GR_KEEP;
    uint32_t n = 0;
    for (uint32_t q = 0; q < g->ncand; q++)
        if (gr_valid(s, &c[q]))
            c[n++] = c[q];
    g->ncand = (uint8_t)n;
    if (!n || c->gain <= g->floor)
        gr_search(s, i, 0);
    else
        gr_use_first(s, i);
}

/* Groups near x or y whose best partner is one of them: to be searched again. */
static void gr_mark(struct greedy *s, uint32_t x, uint32_t y)
{
    uint32_t c[2] = {x, y};
    for (int h = 0; h < 2; h++) {
        uint32_t n = gr_window(s, c[h]);
        for (uint32_t q = 0; q < n; q++) {
            uint32_t j = s->win[q];
            struct ggrp *g = &s->g[j];
            if (j != x && j != y && !g->dirty && (g->best == x || g->best == y)) {
                g->dirty = 1;
                s->dirty[s->ndirty++] = j;
            }
        }
    }
}

/* Group i out of play: out of the window order and the heap. */
static void gr_remove(struct greedy *s, uint32_t i)
{
    struct ggrp *g = &s->g[i];
    if (g->prev != NONE)
        s->g[g->prev].next = g->next;
    if (g->next != NONE)
        s->g[g->next].prev = g->prev;
    g->alive = 0;
    g->best = NONE;
    h_set(s, i);
}

/* The first n threads of the list from head into the next slots; the thread after them. */
static uint32_t gr_emit(struct greedy *s, uint32_t head, uint32_t n)
{
    while (n--) {
        s->perm[s->out++] = head;
        head = s->link[head];
    }
    return head;
}

/* Group i's envelope and lowest id from its threads. */
static void gr_envelope(struct greedy *s, uint32_t i)
{
    struct ggrp *g = &s->g[i];
    uint32_t *mn = s->mn + (size_t)i * s->nb, *mx = s->mx + (size_t)i * s->nb;
    for (uint32_t k = 0; k < s->nb; k++) {
        mn[k] = UINT32_MAX;
        mx[k] = 0;
    }
    g->minid = NONE;
    for (uint32_t t = g->head; t != NONE; t = s->link[t]) {
        const uint32_t *r = row_of(s->b, t);
        for (uint32_t k = 0; k < s->nb; k++) {
            mn[k] = r[k] < mn[k] ? r[k] : mn[k];
            mx[k] = r[k] > mx[k] ? r[k] : mx[k];
        }
        g->minid = t < g->minid ? t : g->minid;
    }
}

/* x's envelope and lowest id joined with y's. */
static void gr_union(struct greedy *s, uint32_t x, uint32_t y)
{
    uint32_t *mn = s->mn + (size_t)x * s->nb, *mx = s->mx + (size_t)x * s->nb;
    const uint32_t *yn = s->mn + (size_t)y * s->nb, *yx = s->mx + (size_t)y * s->nb;
    for (uint32_t k = 0; k < s->nb; k++) {
        mn[k] = yn[k] < mn[k] ? yn[k] : mn[k];
        mx[k] = yx[k] > mx[k] ? yx[k] : mx[k];
    }
    s->g[x].minid = s->g[y].minid < s->g[x].minid ? s->g[y].minid : s->g[x].minid;
}

/* Algorithm 1's Merge of x and y: the larger group's threads first (on equal sizes the one
   holding the lower id); past groupsize the first groupsize threads are a finished group (a
   group of exactly groupsize is finished at once). x's place keeps what stays in play; 1 if
   anything does. */
static int gr_merge(struct greedy *s, uint32_t x, uint32_t y)
{
    struct ggrp *a = &s->g[x], *c = &s->g[y];
    int xfirst = a->size > c->size || (a->size == c->size && a->minid < c->minid);
    const struct ggrp *f = xfirst ? a : c, *l = xfirst ? c : a;
    uint32_t head = f->head, tail = l->tail, size = a->size + c->size;
    s->link[f->tail] = l->head;
    gr_remove(s, y);
    a->head = head;
    a->tail = tail;
    a->size = size;
    if (size < s->gs) {
        gr_union(s, x, y);
        return 1;
    }
    a->head = gr_emit(s, head, s->gs);
    a->size -= s->gs;
    if (!a->size) {
        gr_remove(s, x);
        return 0;
    }
    gr_envelope(s, x);
    return 1;
}

/* One iteration of Algorithm 1: the best pair merges, the bests it touches are renewed. */
static void gr_step(struct greedy *s)
{
    uint32_t x = s->heap[0].id, y = s->g[x].best;
    gr_mark(s, x, y);
    if (gr_merge(s, x, y)) {
        s->g[x].ver++;
        gr_search(s, x, 1);
    }
    while (s->ndirty) {
        uint32_t j = s->dirty[--s->ndirty];
        s->g[j].dirty = 0;
        if (s->g[j].alive)
            gr_pick(s, j);
    }
}

/* The classes' remainders (their last count mod groupsize threads) as groups in the
   lexicographic order of the classes. 0, or -1 if out of memory. */
static int gr_setup(struct greedy *s)
{
    const struct classes *c = s->c;
    uint32_t n = 0;
    for (uint32_t k = 0; k < c->n; k++)
        n += (c->start[k + 1] - c->start[k]) % s->gs != 0;
    s->ng = n;
    s->w = window_for(RG_BUDGET_GREEDY, (uint64_t)n * (s->nb + RG_STEP), n ? n - 1 : 0);
    s->g = calloc((size_t)n + 1, sizeof *s->g);
    s->cand = malloc(((size_t)n * GR_KEEP + 1) * sizeof *s->cand);
    s->mn = malloc(((size_t)n * s->nb + 1) * sizeof *s->mn);
    s->mx = malloc(((size_t)n * s->nb + 1) * sizeof *s->mx);
    s->link = malloc(((size_t)s->b->nthreads + 1) * sizeof *s->link);
    s->heap = malloc(((size_t)n + 1) * sizeof *s->heap);
    s->win = malloc((2 * (size_t)s->w + 1) * sizeof *s->win);
    s->dirty = malloc(((size_t)n + 1) * sizeof *s->dirty);
    if (!s->g || !s->cand || !s->mn || !s->mx || !s->link || !s->heap || !s->win || !s->dirty)
        return -1;
    n = 0;
    for (uint32_t k = 0; k < c->n; k++) {
        uint32_t first = c->start[k + 1] - (c->start[k + 1] - c->start[k]) % s->gs;
        struct ggrp *g = &s->g[n];
        if (first == c->start[k + 1])
            continue;
        for (uint32_t i = first; i < c->start[k + 1]; i++)
            s->link[c->ord[i]] = i + 1 < c->start[k + 1] ? c->ord[i + 1] : NONE;
        *g = (struct ggrp){.head = c->ord[first], .tail = c->ord[c->start[k + 1] - 1],
                           .size = c->start[k + 1] - first, .prev = n ? n - 1 : NONE,
                           .next = n + 1 < s->ng ? n + 1 : NONE, .best = NONE,
                           .hpos = NONE, .alive = 1};
        gr_envelope(s, n++);
    }
    for (uint32_t i = 0; i < s->ng; i++)
        gr_search(s, i, 0);
    return 0;
}

/* Class k's full groups come before the best pair: its merges gain Lat_k (ties: lower id). */
static int gr_event_first(const struct greedy *s, uint32_t k)
{
    const struct hent *top = s->nheap ? &s->heap[0] : NULL;
    if (!top || s->c->lat[k] != top->gain)
        return !top || s->c->lat[k] > top->gain;
    return s->c->ord[s->c->start[k]] < top->plo;
}

/* Class k's full groups (its first count - count mod groupsize threads) into the slots. */
static void gr_class_groups(struct greedy *s, uint32_t k)
{
    uint32_t n = s->c->start[k + 1] - s->c->start[k];
    n -= n % s->gs;
    memcpy(s->perm + s->out, s->c->ord + s->c->start[k], (size_t)n * sizeof *s->perm);
    s->out += n;
}

static void gr_free(struct greedy *s)
{
    free(s->g);
    free(s->cand);
    free(s->mn);
    free(s->mx);
    free(s->link);
    free(s->heap);
    free(s->win);
    free(s->dirty);
}

static int greedy(const struct bbv *b, const double *lat, const struct classes *c, uint32_t gs,
                  uint32_t *perm, struct rg_info *info)
{
    struct greedy s = {.b = b, .c = c, .lat = lat, .nb = b->nblocks, .gs = gs, .perm = perm};
    uint32_t *evt = malloc(((size_t)c->n + 1) * sizeof *evt), ne = 0, ei = 0;
    int rc = -1;
    if (evt && !gr_setup(&s) && !by_latency(c, evt)) {
        info->groups = s.ng;
        info->window = s.w;
        info->exact = s.w + 1 >= s.ng;
        for (uint32_t i = 0; i < c->n; i++)      /* the classes with full groups, by Lat */
            if (c->start[evt[i] + 1] - c->start[evt[i]] >= gs)
                evt[ne++] = evt[i];
        while (s.nheap) {
            while (ei < ne && gr_event_first(&s, evt[ei]))
                gr_class_groups(&s, evt[ei++]);
            gr_step(&s);
        }
        while (ei < ne)
            gr_class_groups(&s, evt[ei++]);
        for (uint32_t i = 0; i < s.ng; i++)       /* the short group left in play, last */
            if (s.g[i].alive)
                gr_emit(&s, s.g[i].head, s.g[i].size);
        rc = 0;
    }
    free(evt);
    gr_free(&s);
    return rc;
}

/* ---- entry ---- */

static int check_args(enum rg_alg a, const struct bbv *b, uint32_t gs, char *err,
                      size_t errlen)
{
    if ((unsigned)a >= RG_NALGS)
        snprintf(err, errlen, "regroup: no algorithm %d (sorting, greedy, greedy-max)", (int)a);
    else if (gs == 0 || gs % 32)
        snprintf(err, errlen, "regroup: group size %u is not a positive multiple of 32 (the "
                 "warp size)", gs);
    else if (b->nthreads > UINT32_MAX - 1)
        snprintf(err, errlen, "regroup: %llu threads: at most 2^32 - 2",
                 (unsigned long long)b->nthreads);
    else
        return 0;
    return -1;
}

int rg_regroup_info(enum rg_alg a, const struct bbv *b, const double *lat, uint32_t groupsize,
                    uint32_t *perm, struct rg_info *info, char *err, size_t errlen)
{
    struct classes c;
    struct rg_info dummy;
    int rc = 0;
    info = info ? info : &dummy;
    memset(info, 0, sizeof *info);
    if (check_args(a, b, groupsize, err, errlen))
        return -1;
    if (classes_build(b, lat, &c)) {
        snprintf(err, errlen, "regroup: out of memory (%llu threads)",
                 (unsigned long long)b->nthreads);
        return -1;
    }
    info->classes = c.n;
    if (a == RG_SORT)
        memcpy(perm, c.ord, (size_t)b->nthreads * sizeof *perm);
    else if (a == RG_GREEDY)
        rc = greedy(b, lat, &c, groupsize, perm, info);
    else
        rc = greedy_max(b, lat, &c, groupsize, perm, info);
    classes_free(&c);
    if (rc)
        snprintf(err, errlen, "regroup: %s: out of memory (%llu threads, %u distinct BBVs)",
                 rg_name(a), (unsigned long long)b->nthreads, info->classes);
    return rc;
}

int rg_regroup(enum rg_alg a, const struct bbv *b, const double *lat, uint32_t groupsize,
               uint32_t *perm, char *err, size_t errlen)
{
    return rg_regroup_info(a, b, lat, groupsize, perm, NULL, err, errlen);
}
