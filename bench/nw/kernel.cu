// nw: Needleman-Wunsch global alignment score matrix, one 32 x 32 tile per CTA (Rodinia nw
// needle_cuda_shared_1/2 stand-in, seed 000 Table 1).  P independent problems (blockIdx.y)
// each align seqa[p] with seqb[p] (length n, residues 0..NA-1) under the similarity table sim
// and a linear gap penalty:
//     S[i][j] = max(S[i-1][j-1] + sim[a[i-1]][b[j-1]], S[i-1][j] - gap, S[i][j-1] - gap)
// with S[0][j] = -j gap and S[i][0] = -i gap set by the host.  The host launches one kernel per
// anti-diagonal `diag` of tiles; block x handles the x-th tile of that tile diagonal.  The CTA
// (32 threads, thread t owns tile row t) stages the tile's top row, left column, its residues
// and the similarity table in shared memory, then sweeps the tile's 63 anti-diagonals: on
// diagonal m thread t computes cell (t, m - t) if that lies in the tile, followed by
// __syncthreads(); finally the tile is written back row by row (coalesced).
//
// Divergence category: instruction divergence with barriers, no cycle divergence to speak of
// (seed 000 Table 1 lists Rodinia nw in set 4: its CTA is one warp, as here, so the warps of a
// CTA cannot differ).  Inside the warp the active mask follows the wavefront: 1, 2, ..., 32, 31,
// ..., 1 lanes on consecutive diagonals, so half of the lane slots are idle and every diagonal
// is a divergent branch that reconverges right before a barrier.  All memory traffic is
// coalesced staging; the sweep itself is shared-memory only.
#define TS 32
#define NA 20

extern "C" __global__ void nw_tile(int *__restrict__ score, const unsigned char *__restrict__ seqa,
                                   const unsigned char *__restrict__ seqb,
                                   const int *__restrict__ sim, int n, int diag, int gap)
{
    __shared__ int s[TS + 1][TS + 1];
    __shared__ int tab[NA * NA];
    __shared__ int ra[TS], rb[TS];
    int t = threadIdx.x, p = blockIdx.y, nt = n / TS;
    int ti = max(0, diag - (nt - 1)) + blockIdx.x, tj = diag - ti;
    int ld = n + 1;
    int *sc = score + (size_t)p * ld * ld + (size_t)(ti * TS) * ld + tj * TS;  // tile's corner

    for (int i = t; i < NA * NA; i += TS)
        tab[i] = sim[i];
    if (t == 0)
        s[0][0] = sc[0];
    s[0][t + 1] = sc[t + 1];
    s[t + 1][0] = sc[(t + 1) * ld];
    ra[t] = seqa[p * n + ti * TS + t];
    rb[t] = seqb[p * n + tj * TS + t];
    __syncthreads();

    for (int m = 0; m < 2 * TS - 1; m++) {
        int j = m - t;
        if (j >= 0 && j < TS) {
            int diagv = s[t][j] + tab[ra[t] * NA + rb[j]];
            int gapv = max(s[t][j + 1], s[t + 1][j]) - gap;
            s[t + 1][j + 1] = max(diagv, gapv);
        }
        __syncthreads();
    }

    for (int r = 1; r <= TS; r++)
        sc[r * ld + t + 1] = s[r][t + 1];
}
