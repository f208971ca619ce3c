/*
 * flow.c -- basic blocks, control-flow graph and immediate post-dominators of a linked kernel.
 *
 * Not a hardware block: a load-time analysis (runs once per kernel load, never in the cycle
 * loop).  It splits a ptx_prog into basic blocks, links them into a CFG whose every exit flows
 * to one virtual exit node (id = nblocks, PC = ninsns), computes the immediate post-dominator
 * (IPDOM) of every block with the Lengauer-Tarjan algorithm (path compression: O(E log N))
 * run on the reverse CFG, and records for every conditional branch its reconvergence PC: the
 * first instruction of the branch block's IPDOM (what the SIMT stack pushes, the SSY target of
 * 003_a1f13061b22d54a6.txt Section III).  Blocks that cannot reach the exit (infinite loops)
 * have no post-dominator; they get ipdom = exit node.  See docs/flow.md.
 */
#include "flow.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CFG_UNDEF UINT32_MAX

/* scratch arrays used only while building; freed before flow_build returns.  Nodes are
   blocks and the exit node; the Lengauer-Tarjan arrays are indexed by DFS preorder number. */
struct flow_work {
    uint32_t *pred_off;   /* CSR predecessor lists: preds of node n are               */
    uint32_t *pred;       /*   pred[pred_off[n] .. pred_off[n+1])  (nblocks+2 offsets) */
    uint32_t *num;        /* DFS preorder number of a node in the reverse CFG, or UNDEF */
    uint32_t *vertex;     /* node by number (vertex[num[n]] = n)                       */
    uint32_t *parent;     /* number of the DFS tree parent, by number                  */
    uint32_t *semi;       /* semidominator (a number), by number                       */
    uint32_t *idom;       /* immediate dominator (a number), by number                 */
    uint32_t *anc, *label;/* the forest of eval/link: ancestor (UNDEF: a root), label  */
    uint32_t *bucket;     /* numbers whose semidominator is k: a list from bucket[k]  */
    uint32_t *bnext;      /*   ... through bnext                                       */
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

/* Iterative DFS from the exit node along reversed edges: preorder numbers and tree parents. */
static void reverse_dfs(const struct flow *c, struct flow_work *w)
{
    uint32_t nn = c->nblocks + 1, sp = 0, num = 0;
    for (uint32_t v = 0; v < nn; v++)
        w->num[v] = CFG_UNDEF;
    w->num[c->nblocks] = num;
    w->vertex[num] = c->nblocks;
    w->parent[num++] = 0;
    w->stk_node[sp] = c->nblocks;
    w->stk_next[sp++] = w->pred_off[c->nblocks];
    while (sp) {
        uint32_t v = w->stk_node[sp - 1];
        if (w->stk_next[sp - 1] < w->pred_off[v + 1]) {
            uint32_t u = w->pred[w->stk_next[sp - 1]++];
            if (w->num[u] == CFG_UNDEF) {
                w->num[u] = num;
                w->vertex[num] = u;
                w->parent[num++] = w->num[v];
                w->stk_node[sp] = u;
                w->stk_next[sp++] = w->pred_off[u];
            }
        } else {
            sp--;
        }
    }
    w->nreached = num;
}

/* Path compression of the eval/link forest from number x (iterative: chains can be as long
   as the program); the label with the smallest semidominator on the way up. */
static uint32_t eval(struct flow_work *w, uint32_t x)
{
    if (w->anc[x] == CFG_UNDEF)
        return x;
    uint32_t n = 0;
    for (uint32_t y = x; w->anc[w->anc[y]] != CFG_UNDEF; y = w->anc[y])
        w->stk_node[n++] = y;
    while (n-- > 0) {
        uint32_t y = w->stk_node[n], a = w->anc[y];
        if (w->semi[w->label[a]] < w->semi[w->label[y]])
            w->label[y] = w->label[a];
        w->anc[y] = w->anc[a];
    }
    return w->label[x];
}

/* Lengauer-Tarjan on the reverse CFG rooted at the exit node: a node's predecessors there are
   its CFG successors.  Nodes the DFS did not reach (they cannot reach the exit) keep no IPDOM. */
static void compute_ipdom(struct flow *c, struct flow_work *w)
{
    uint32_t k = w->nreached;
    for (uint32_t i = 0; i < k; i++) {
        w->semi[i] = w->label[i] = i;
        w->anc[i] = w->bucket[i] = CFG_UNDEF;
    }
    for (uint32_t i = k; i-- > 1;) {
        const struct flow_block *b = &c->blocks[w->vertex[i]];
        for (uint32_t j = 0; j < b->nsucc; j++) {
            uint32_t s = w->num[b->succ[j]];
            uint32_t u = s == CFG_UNDEF ? i : eval(w, s);
            if (w->semi[u] < w->semi[i])
                w->semi[i] = w->semi[u];
        }
        w->bnext[i] = w->bucket[w->semi[i]];
        w->bucket[w->semi[i]] = i;
        uint32_t p = w->parent[i];
        w->anc[i] = p;
        for (uint32_t v = w->bucket[p]; v != CFG_UNDEF; v = w->bnext[v]) {
            uint32_t u = eval(w, v);
            w->idom[v] = w->semi[u] < w->semi[v] ? u : p;
        }
        w->bucket[p] = CFG_UNDEF;
    }
    w->idom[0] = 0;
    for (uint32_t i = 1; i < k; i++)
        if (w->idom[i] != w->semi[i])
            w->idom[i] = w->idom[w->idom[i]];
    for (uint32_t v = 0; v < c->nblocks; v++)
        c->blocks[v].ipdom = w->num[v] == CFG_UNDEF ? c->nblocks : w->vertex[w->idom[w->num[v]]];
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
    free(w->pred_off); free(w->pred); free(w->num); free(w->vertex); free(w->parent);
    free(w->semi); free(w->idom); free(w->anc); free(w->label); free(w->bucket); free(w->bnext);
    free(w->stk_node); free(w->stk_next);
    memset(w, 0, sizeof *w);
}

static int work_alloc(const struct flow *c, struct flow_work *w)
{
    size_t nn = (size_t)c->nblocks + 1;
    memset(w, 0, sizeof *w);
    w->pred_off = malloc((nn + 1) * sizeof *w->pred_off);
    w->pred = malloc((2 * nn) * sizeof *w->pred);
    uint32_t **per_node[] = {&w->num, &w->vertex, &w->parent, &w->semi, &w->idom, &w->anc,
                             &w->label, &w->bucket, &w->bnext, &w->stk_node, &w->stk_next};
    int ok = w->pred_off && w->pred;
    for (size_t i = 0; i < sizeof per_node / sizeof per_node[0]; i++)
        ok &= (*per_node[i] = malloc(nn * sizeof **per_node[i])) != NULL;
    if (!ok) {
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
    reverse_dfs(c, &w);
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
