// bstsearch: key look-ups in a binary search tree stored as an array of int4 nodes
// {key, left child, right child, value} (child -1 = none), root at node 0.  Each thread
// answers the queries gid, gid + nthreads, ... (grid-stride loop): it walks from the root,
// stops at the node holding the key (output its value) or at a missing child (output -1),
// and also outputs the number of nodes visited.  Stands in for Rodinia b+tree findK /
// findRangeK and other pointer-chasing searches (seed 000 Table 1).
//
// Divergence category: instruction AND cycle divergence (set 1 of seed 000, tree search).
//  - instruction: the tree is deliberately unbalanced (random insertions plus runs of
//    consecutive keys inserted in order, which hang chains of up to ~100 nodes below
//    leaves), so the walk length ranges from 1 to ~200 nodes; a hit exits early; lanes and
//    warps therefore execute very different numbers of iterations;
//  - cycle: every step is a dependent load at a data-dependent address (pointer chasing):
//    the first levels are shared by all lanes and stay cached, deep levels miss.
extern "C" __global__ void bst_search(const int4 *__restrict__ nodes,
                                      const int *__restrict__ queries,
                                      int *__restrict__ out_val, int *__restrict__ out_depth,
                                      int nq)
{
    int stride = gridDim.x * blockDim.x;
    for (int q = blockIdx.x * blockDim.x + threadIdx.x; q < nq; q += stride) {
        int key = queries[q];
        int idx = 0, depth = 0, val = -1;
        while (idx >= 0) {
            int4 nd = nodes[idx];
            depth++;
            if (nd.x == key) {
                val = nd.w;
                break;
            }
            idx = key < nd.x ? nd.y : nd.z;
        }
        out_val[q] = val;
        out_depth[q] = depth;
    }
}
