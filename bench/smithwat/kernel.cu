// smithwat: Smith-Waterman local alignment scores, one thread per (query, target) pair, with
// linear gap penalty: H[i][j] = max(0, H[i-1][j-1] + s(a_i, b_j), H[i-1][j] - G, H[i][j-1] - G),
// s = +MATCH / -MISMATCH; the pair's score is the maximum H.  Queries (4..12 residues) and
// targets (4..24 residues) over a 4-letter alphabet, packed 2 bits per residue (a u32 per
// query, a u64 per target), have a different length for every thread; the DP column H[0..m]
// lives in a per-thread array indexed by the (data-dependent) loop counter, i.e. in local
// memory.
//
// Stands in for "Smith-Waterman (SW)" of Table I of 001 (thread regrouping: "divergences ...
// caused by diversity in ... sequence content being processed by threads").
//
// Category: per-thread data-dependent work (thread-regrouping candidate).  Thread p runs
// len(target_p) x len(query_p) inner iterations (16 .. 288): neighbours in a warp finish at
// very different times, the early finishers idle until the warp's longest pair is done.
// (Occupancy, for the record: 128-thread CTAs, no shared memory, 52 B of local memory per
// thread; ptxas sm_75 27 registers (gpusim's estimate 29) -> 9 (8) CTAs by registers: the
// CTA-count limit binds at 8 CTAs/SM.)
// Integer arithmetic only: exact.
#define QMAX 12          // longest query (12 x 2 bits packed in a u32)
#define MATCH 2
#define MISMATCH 1
#define GAP 1

extern "C" __global__ void smithwat(const unsigned *__restrict__ qseq,
                                    const int *__restrict__ qlen,
                                    const unsigned long long *__restrict__ tseq,
                                    const int *__restrict__ tlen, int *__restrict__ score,
                                    int npairs, int nq)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npairs)
        return;
    int q = p % nq, m = qlen[q], n = tlen[p];
    unsigned a = qseq[q];            // residue i at bits 2i+1..2i
    unsigned long long b = tseq[p];  // residue j at bits 2j+1..2j (up to 32 residues)
    int H[QMAX + 1];                 // H[i] = column j-1 on entry, column j on exit
    for (int i = 0; i <= m; i++)
        H[i] = 0;
    int best = 0;
    for (int j = 0; j < n; j++) {
        int bj = (int)(b >> (2 * j)) & 3, diag = 0, up = 0;   // H[i-1][j-1] and H[i-1][j] (row 0 is all zero)
        for (int i = 1; i <= m; i++) {
            int left = H[i];               // H[i][j-1]
            int ai = (int)(a >> (2 * (i - 1))) & 3;
            int h = diag + (ai == bj ? MATCH : -MISMATCH);
            h = max(h, left - GAP);
            h = max(h, up - GAP);
            h = max(h, 0);
            diag = left;
            up = h;
            H[i] = h;
            best = max(best, h);
        }
    }
    score[p] = best;
}
