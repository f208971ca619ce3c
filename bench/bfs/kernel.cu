// bfs: one level-synchronous step of breadth-first search over a CSR graph (Rodinia bfs
// Kernel / Lonestar BFS stand-in, seed 000 Table 1 rows "R.bfs Kernel" and "L.BFS Kernel").
// Thread v expands node v if level[v] == cur: for each out-edge (v, w) with level[w] unset
// (-1) at the start of the step it writes level[w] = cur + 1 and raises *changed.  Several
// threads may write the same w in one step, but always the same value, so the result is
// deterministic.  The guard also takes level[w] == cur + 1 -- a w that another thread of this
// step has just reached -- so that which threads take it does not depend on the order the
// threads run in: no level is cur + 1 before the step, so the guard is true exactly for the
// nodes unvisited at its start, in any interleaving, and the per-thread basic-block counts are
// the same in every model (docs/bbv.md; Rodinia's guard, level[w] < 0 alone, is a benign race
// whose branches are not).  The host launches one step per level until no thread raises
// *changed.
//
// Divergence category: instruction AND cycle divergence (set 1 of seed 000).
//  - instruction: only frontier nodes do any work, and the frontier is scattered over the
//    warps of a CTA; the out-degrees are skewed (most nodes have 1-6 edges, a few hubs have
//    hundreds), so the edge loop's trip count differs by two orders of magnitude between the
//    lanes of a warp and between the warps of a CTA;
//  - cycle: the neighbour look-ups level[col[e]] are irregular gathers (half of the edges go
//    to random nodes), so warps see very different memory latencies.
extern "C" __global__ void bfs_step(const int *__restrict__ row_off, const int *__restrict__ col,
                                    int *level, int *changed, int n, int cur)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || level[v] != cur)
        return;
    int end = row_off[v + 1];
    for (int e = row_off[v]; e < end; e++) {
        int w = col[e];
        int lw = level[w];
        if (lw < 0 || lw == cur + 1) {
            level[w] = cur + 1;
            *changed = 1;
        }
    }
}
