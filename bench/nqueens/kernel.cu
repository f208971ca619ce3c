// nqueens: counts the solutions of the N-queens problem below each prefix. Thread t places
// the first `plen` queens (rows 0..plen-1) at the columns given by the base-N digits of t,
// most significant digit first, so neighbouring lanes differ in the last prefix queen; a
// prefix that already attacks itself counts 0 and the thread ends at once. Otherwise the
// thread searches the remaining rows by iterative backtracking over bitmasks (columns and
// both diagonals) with an explicit stack in local memory -- no recursion.
// Behaviour shown: irregular, data-dependent control flow. Lanes of a warp run searches of
// very different lengths (0 to thousands of nodes) and, node by node, take different paths
// (backtrack / count a solution / descend), so the warp diverges at every step and stays
// as long as its slowest lane: the branchy-search case of the divergence studies (seeds 000,
// 001: tree search / backtracking kernels). Also local-memory loads and stores.
// Launch: any grid with >= nthreads threads; nthreads = N^plen; 1 <= plen <= N <= NQ_MAXN.
#define NQ_MAXN 16

extern "C" __global__ void nqueens(int n, int plen, unsigned nthreads,
                                   unsigned *__restrict__ counts)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nthreads)
        return;
    if (n < 1 || n > NQ_MAXN || plen < 1 || plen > n) {
        counts[t] = 0;
        return;
    }
    unsigned all = (1u << n) - 1u, col = 0, ld = 0, rd = 0, p = 1, count = 0;
    bool ok = true;
    for (int r = 1; r < plen; r++)
        p *= (unsigned)n;
    for (int r = 0; r < plen && ok; r++, p /= (unsigned)n) {   // place the prefix queens
        unsigned bit = 1u << ((t / p) % (unsigned)n);
        ok = ((col | ld | rd) & bit) == 0;
        col |= bit;
        ld = ((ld | bit) << 1) & all;
        rd = (rd | bit) >> 1;
    }
    int rem = n - plen;
    if (ok && rem == 0)
        count = 1;
    if (ok && rem > 0) {
        unsigned sc[NQ_MAXN], sl[NQ_MAXN], sr[NQ_MAXN], sa[NQ_MAXN];  // explicit stack
        int d = 0;
        sc[0] = col; sl[0] = ld; sr[0] = rd;
        sa[0] = all & ~(col | ld | rd);
        while (d >= 0) {
            unsigned a = sa[d];
            if (a == 0) {                    // no free square left in this row: backtrack
                d--;
                continue;
            }
            unsigned bit = a & (0u - a);     // lowest free column
            sa[d] = a ^ bit;
            if (d == rem - 1) {              // last row filled: a solution
                count++;
                continue;
            }
            unsigned c = sc[d] | bit, l = ((sl[d] | bit) << 1) & all, r = (sr[d] | bit) >> 1;
            d++;                             // descend one row
            sc[d] = c; sl[d] = l; sr[d] = r;
            sa[d] = all & ~(c | l | r);
        }
    }
    counts[t] = count;
}
