/*
 * flow.c -- basic blocks, control-flow graph and immediate post-dominators of a linked kernel.
 *
 * Not a hardware block: a load-time analysis (runs once per kernel load, never in the cycle
 * loop).  It splits a ptx_prog into basic blocks, links them into a CFG whose every exit flows
 * to one virtual exit node (id = nblocks, PC = ninsns), computes the immediate post-dominator
 * (IPDOM) of every block with the Cooper-Harvey-Kennedy iterative algorithm run on the reverse
 * CFG, and records for every conditional branch its reconvergence PC: the first instruction of
 * the branch block's IPDOM (what the SIMT stack pushes, the SSY target of
 * 003_a1f13061b22d54a6.txt Section III).  Blocks that cannot reach the exit (infinite loops)
 * have no post-dominator; they get ipdom = exit node.  See docs/flow.md.
 */
#include "flow.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CFG_UNDEF UINT32_MAX

/* scratch arrays used only while building; freed before flow_build returns */
struct flow_work {
    uint32_t *pred_off;   /* CSR predecessor lists: preds of node n are               */
    uint32_t *pred;       /*   pred[pred_off[n] .. pred_off[n+1])  (nblocks+2 offsets) */
    uint32_t *po;         /* postorder number of node in the reverse-CFG DFS, or UNDEF */
    uint32_t *order;      /* nodes by postorder number (order[po[n]] = n)              */
    uint32_t *ipdom;      /* working ipdom per node (nblocks+1 entries)                */
    uint32_t *stk_node;   /* explicit DFS stack: node ...                              */
    uint32_t *stk_next;   /*   ... and the index of its next predecessor to visit      */
    uint32_t  nreached;   /* nodes reached from the exit in the reverse CFG            */
};

static int is_exit_op(uint8_t op)
{
    /* a ret left in a kernel body ends the thread exactly as exit does */
    return op == OP_EXIT || op == OP_RET;
}

/* Check every instruction; mark leaders (1 = first instruction of a block). */
static int mark_leaders(const struct ptx_prog *p, uint8_t *leader, char *err, size_t errlen)
{
    uint32_t n = p->ninsns;
    leader[0] = 1;
    for (uint32_t pc = 0; pc < n; pc++) {
        const struct ptx_insn *in = &p->insns[pc];
        if (in->op == OP_CALL) {
            if (err && errlen)
                snprintf(err, errlen, "kernel %s: PC %u: call in a linked program (calls "
                         "must be inlined)", p->name, pc);
            return -1;
        }
        if (in->op == OP_BRA) {
            int64_t t = in->opd[0].imm;
            if (t < 0 || t >= (int64_t)n) {
                if (err && errlen)
                    snprintf(err, errlen, "kernel %s: PC %u: branch target %lld out of range",
                             p->name, pc, (long long)t);
                return -1;
            }
            leader[t] = 1;
        }
        if ((in->op == OP_BRA || is_exit_op(in->op)) && pc + 1 < n)
            leader[pc + 1] = 1;
    }
    return 0;
}

static void add_succ(struct flow_block *b, uint32_t s)
{
    for (uint32_t i = 0; i < b->nsucc; i++)
        if (b->succ[i] == s)
            return;                       /* both edges to the same node: keep one */
    b->succ[b->nsucc++] = s;
}

/* Successors of block b from its last instruction. */
static void block_succs(const struct ptx_prog *p, struct flow *c, struct flow_block *b)
{
    const struct ptx_insn *in = &p->insns[b->last];
    uint32_t exit_id = c->nblocks;
    uint32_t fall = b->last + 1 < p->ninsns ? c->block_of[b->last + 1] : exit_id;
    int guarded = in->guard >= 0;
    b->nsucc = 0;
    b->succ[0] = b->succ[1] = exit_id;
    if (in->op == OP_BRA) {
        if (guarded)
            add_succ(b, fall);
        add_succ(b, c->block_of[(uint32_t)in->opd[0].imm]);
    } else if (is_exit_op(in->op)) {
        if (guarded)
            add_succ(b, fall);
        add_succ(b, exit_id);
    } else {
        add_succ(b, fall);
    }
}

static int build_blocks(const struct ptx_prog *p, struct flow *c, const uint8_t *leader)
{
    uint32_t n = p->ninsns, nb = 0;
    for (uint32_t pc = 0; pc < n; pc++)
        nb += leader[pc];
    c->blocks = calloc(nb ? nb : 1, sizeof *c->blocks);
    if (!c->blocks)
        return -1;
    c->nblocks = nb;
    uint32_t id = 0;
    for (uint32_t pc = 0; pc < n; pc++) {
        if (leader[pc] && pc > 0)
            id++;
        if (leader[pc])
            c->blocks[id].first = pc;
        c->blocks[id].last = pc;
        c->block_of[pc] = id;
    }
    for (uint32_t b = 0; b < nb; b++)
        block_succs(p, c, &c->blocks[b]);
    return 0;
}

/* CSR predecessor lists over nodes 0..nblocks (the exit node has no successors). */
static void build_preds(const struct flow *c, struct flow_work *w)
{
    uint32_t nn = c->nblocks + 1;
    memset(w->pred_off, 0, (nn + 1) * sizeof *w->pred_off);
    for (uint32_t b = 0; b < c->nblocks; b++)
        for (uint32_t i = 0; i < c->blocks[b].nsucc; i++)
            w->pred_off[c->blocks[b].succ[i] + 1]++;
    for (uint32_t v = 0; v < nn; v++)
        w->pred_off[v + 1] += w->pred_off[v];
    /* fill using stk_next as a per-node cursor */
    memcpy(w->stk_next, w->pred_off, nn * sizeof *w->pred_off);
    for (uint32_t b = 0; b < c->nblocks; b++)
        for (uint32_t i = 0; i < c->blocks[b].nsucc; i++)
            w->pred[w->stk_next[c->blocks[b].succ[i]]++] = b;
}

/* Iterative DFS from the exit node along reversed edges: postorder numbers. */
static void reverse_postorder(const struct flow *c, struct flow_work *w)
{
    uint32_t nn = c->nblocks + 1, sp = 0, num = 0;
    for (uint32_t v = 0; v < nn; v++)
        w->po[v] = CFG_UNDEF;
    w->stk_node[sp] = c->nblocks;
    w->stk_next[sp++] = w->pred_off[c->nblocks];
    w->po[c->nblocks] = CFG_UNDEF - 1;     /* "on stack" marker: visited, not yet numbered */
    while (sp) {
        uint32_t v = w->stk_node[sp - 1];
        if (w->stk_next[sp - 1] < w->pred_off[v + 1]) {
            uint32_t u = w->pred[w->stk_next[sp - 1]++];
            if (w->po[u] == CFG_UNDEF) {
                w->po[u] = CFG_UNDEF - 1;
                w->stk_node[sp] = u;
                w->stk_next[sp++] = w->pred_off[u];
            }
        } else {
            w->order[num] = v;
            w->po[v] = num++;
            sp--;
        }
    }
    w->nreached = num;
}

static uint32_t intersect(const struct flow_work *w, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (w->po[a] < w->po[b])
            a = w->ipdom[a];
        while (w->po[b] < w->po[a])
            b = w->ipdom[b];
    }
    return a;
}

/* Cooper-Harvey-Kennedy on the reverse CFG: a node's "predecessors" there are its CFG
   successors; the root is the exit node. */
static void compute_ipdom(struct flow *c, struct flow_work *w)
{
    uint32_t exit_id = c->nblocks;
    for (uint32_t v = 0; v <= exit_id; v++)
        w->ipdom[v] = CFG_UNDEF;
    w->ipdom[exit_id] = exit_id;
    int changed = 1;
    while (changed) {
        changed = 0;
        /* reverse postorder, skipping the root (highest number) */
        for (uint32_t k = w->nreached - 1; k-- > 0;) {
            uint32_t v = w->order[k], nd = CFG_UNDEF;
            const struct flow_block *b = &c->blocks[v];
            for (uint32_t i = 0; i < b->nsucc; i++) {
                uint32_t s = b->succ[i];
                if (w->ipdom[s] == CFG_UNDEF)
                    continue;             /* not processed yet, or cannot reach the exit */
                nd = nd == CFG_UNDEF ? s : intersect(w, s, nd);
            }
            if (nd != w->ipdom[v]) {
                w->ipdom[v] = nd;
                changed = 1;
            }
        }
    }
    for (uint32_t v = 0; v < exit_id; v++)
        c->blocks[v].ipdom = w->ipdom[v] == CFG_UNDEF ? exit_id : w->ipdom[v];
}

static void fill_reconv(const struct ptx_prog *p, struct flow *c)
{
    for (uint32_t pc = 0; pc < p->ninsns; pc++) {
        const struct ptx_insn *in = &p->insns[pc];
        c->reconv[pc] = UINT32_MAX;
        if (in->op == OP_BRA && in->guard >= 0) {
            uint32_t d = c->blocks[c->block_of[pc]].ipdom;
            c->reconv[pc] = d == c->nblocks ? p->ninsns : c->blocks[d].first;
        }
    }
}

static void work_free(struct flow_work *w)
{
    free(w->pred_off); free(w->pred); free(w->po); free(w->order);
    free(w->ipdom); free(w->stk_node); free(w->stk_next);
    memset(w, 0, sizeof *w);
}

static int work_alloc(const struct flow *c, struct flow_work *w)
{
    size_t nn = (size_t)c->nblocks + 1;
    memset(w, 0, sizeof *w);
    w->pred_off = malloc((nn + 1) * sizeof *w->pred_off);
    w->pred = malloc((2 * nn) * sizeof *w->pred);
    w->po = malloc(nn * sizeof *w->po);
    w->order = malloc(nn * sizeof *w->order);
    w->ipdom = malloc(nn * sizeof *w->ipdom);
    w->stk_node = malloc(nn * sizeof *w->stk_node);
    w->stk_next = malloc(nn * sizeof *w->stk_next);
    if (!w->pred_off || !w->pred || !w->po || !w->order || !w->ipdom || !w->stk_node ||
        !w->stk_next) {
        work_free(w);
        return -1;
    }
    return 0;
}

static int fail_oom(struct flow *c, const char *kname, char *err, size_t errlen)
{
    flow_free(c);
    if (err && errlen)
        snprintf(err, errlen, "kernel %s: out of memory building the CFG", kname);
    return -1;
}

int flow_build(const struct ptx_prog *prog, struct flow *c, char *err, size_t errlen)
{
    if (!c || !prog || (prog->ninsns && !prog->insns)) {
        if (err && errlen)
            snprintf(err, errlen, "flow_build: no program");
        return -1;
    }
    memset(c, 0, sizeof *c);
    uint32_t n = prog->ninsns;
    c->ninsns = n;
    if (n == 0)
        return 0;                         /* empty program: no blocks, only the exit node */
    uint8_t *leader = calloc(n, 1);
    c->block_of = malloc((size_t)n * sizeof *c->block_of);
    c->reconv = malloc((size_t)n * sizeof *c->reconv);
    if (!leader || !c->block_of || !c->reconv) {
        free(leader);
        return fail_oom(c, prog->name, err, errlen);
    }
    if (mark_leaders(prog, leader, err, errlen) < 0) {
        free(leader);
        flow_free(c);
        return -1;
    }
    int rc = build_blocks(prog, c, leader);
    free(leader);
    struct flow_work w;
    if (rc < 0 || work_alloc(c, &w) < 0)
        return fail_oom(c, prog->name, err, errlen);
    build_preds(c, &w);
    reverse_postorder(c, &w);
    compute_ipdom(c, &w);
    work_free(&w);
    fill_reconv(prog, c);
    return 0;
}

void flow_free(struct flow *c)
{
    if (!c)
        return;
    free(c->blocks);
    free(c->block_of);
    free(c->reconv);
    memset(c, 0, sizeof *c);
}
