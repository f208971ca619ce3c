// pathfinder: dynamic programming down a grid of wall costs, in the manner of Rodinia's
// pathfinder: cost[r][c] = wall[r][c] + min(cost[r-1][c-1], cost[r-1][c], cost[r-1][c+1])
// (missing neighbours at the grid's left/right edge are left out).  One launch advances up to
// PH rows: each CTA keeps the previous row of BS columns in shared memory, and at every step
// the band of threads that can still compute a correct value shrinks by one on each side
// (a "pyramid" of ghost zones), so a CTA finalises the BS - 2*PH middle columns.
//
// Stands in for "Path Finder" (PF, Rodinia), a Type-S application of the Virtual Thread paper
// (004, Table II).
//
// Category: Type-S (scheduling limit binds).  CTA = 128 threads; shared memory per CTA =
// 2 rows * 128 * 4 = 1024 B; ptxas sm_75 reports 17 registers per thread.  Per GTX480 SM:
//   CTA-count limit : 8 CTAs                       -> 8 CTAs  (1024 threads)   <- binds
//   thread limit    : 1536 / 128        = 12 CTAs
//   register limit  : 32768 / (128*17)  = 15 CTAs  (>= 8 for any count <= 32)
//   shared memory   : 49152 / 1024      = 48 CTAs
// (gpusim's own PTX liveness estimate is 21 registers: same verdict, CTA-count limit.)
// So 8 KB of 48 KB shared memory and half the registers are used: the CTA-count limit binds.
//
// Divergence: at step i only threads i+1 .. BS-2-i compute (the edges of each CTA fall idle a
// lane at a time), threads outside the grid (first and last CTA) never compute, and the threads
// on the grid's first/last column take the two-neighbour path instead of the three-neighbour
// one.  All __syncthreads() are reached by every thread.
#define BS 128
#define PH 8

extern "C" __global__ void pathfinder(const int *__restrict__ wall, const int *__restrict__ src,
                                      int *__restrict__ dst, int cols, int start_row, int steps)
{
    __shared__ int prev[BS];
    __shared__ int res[BS];
    int tx = threadIdx.x;
    int xidx = blockIdx.x * (BS - 2 * PH) - PH + tx;    // grid column of this thread
    bool valid = xidx >= 0 && xidx < cols;

    if (valid)
        prev[tx] = src[xidx];
    __syncthreads();
    for (int i = 0; i < steps; i++) {
        bool comp = valid && tx >= i + 1 && tx <= BS - 2 - i;
        if (comp) {
            int best = prev[tx];
            if (xidx > 0)                    // left neighbour exists
                best = min(best, prev[tx - 1]);
            if (xidx < cols - 1)             // right neighbour exists
                best = min(best, prev[tx + 1]);
            res[tx] = best + wall[(start_row + i) * cols + xidx];
        }
        __syncthreads();
        if (comp)
            prev[tx] = res[tx];
        __syncthreads();
    }
    if (valid && tx >= PH && tx <= BS - 1 - PH)
        dst[xidx] = prev[tx];
}
