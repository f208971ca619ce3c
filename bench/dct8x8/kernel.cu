// dct8x8: forward 8x8 DCT of a grey image in integer fixed point (coefficients scaled by 2^12,
// products summed exactly in 32-bit ints, rounded by an arithmetic shift), followed by
// JPEG-like quantisation (divide by a per-coefficient step, rounding half away from zero).
//
// Stands in for "Discrete Cosine Transform" (DC, CUDA SDK dct8x8), a Type-S application of the
// Virtual Thread paper (004, Table II).
//
// Work split: a CTA of 64 threads handles 8 consecutive 8x8 blocks; thread t works on block
// t/8 and row (then column) t%8: row pass -> shared buffer -> __syncthreads -> column pass.
//
// Category: Type-S (scheduling limit binds).  CTA = 64 threads; shared memory per CTA =
// coefficient table 64*4 + quantisation table 64*4 + 8 blocks * 8 rows * 9 (padded) * 4
// = 256 + 256 + 2304 = 2816 B; ptxas sm_75 reports 26 registers per thread.  Per GTX480 SM:
//   CTA-count limit : 8 CTAs                       -> 8 CTAs  (512 threads)   <- binds
//   thread limit    : 1536 / 64         = 24 CTAs
//   register limit  : 32768 / (64*26)   = 19 CTAs  (>= 8 for any count <= 64)
//   shared memory   : 49152 / 2816      = 17 CTAs
// (gpusim's own PTX liveness estimate is 23 registers: same verdict, CTA-count limit.)
// So only 512 of 1536 thread contexts, 41% of the registers and 22 KB of the 48 KB shared memory
// are used: the CTA-count limit binds.
//
// Divergence: quantisation branches on the sign of each coefficient (data-dependent), and the
// last CTA of the grid may hold fewer than 8 blocks: its idle threads skip the work but still
// reach every __syncthreads().
#define NB 8                 // blocks per CTA
#define SHIFT 12             // fixed-point scale of the coefficient table

extern "C" __global__ void dct8x8(const int *__restrict__ img, const int *__restrict__ coef,
                                  const int *__restrict__ qtab, int *__restrict__ out,
                                  int width, int nblocks)
{
    __shared__ int s_coef[64];
    __shared__ int s_q[64];
    __shared__ int s_blk[NB][8][9];
    int t = threadIdx.x, b = t >> 3, r = t & 7;
    int blk = blockIdx.x * NB + b;
    int bpr = width >> 3;                       // blocks per image row
    int bx = (blk % bpr) * 8, by = (blk / bpr) * 8;
    bool live = blk < nblocks;

    s_coef[t] = coef[t];
    s_q[t] = qtab[t];
    __syncthreads();
    if (live) {                                 // row pass: thread = row r of its block
        int x[8];
        for (int n = 0; n < 8; n++)
            x[n] = img[(by + r) * width + bx + n] - 128;
        for (int k = 0; k < 8; k++) {
            int acc = 0;
            for (int n = 0; n < 8; n++)
                acc += s_coef[k * 8 + n] * x[n];
            s_blk[b][r][k] = (acc + (1 << (SHIFT - 1))) >> SHIFT;
        }
    }
    __syncthreads();
    if (live) {                                 // column pass: thread = column r
        int c = r, y[8];
        for (int n = 0; n < 8; n++)
            y[n] = s_blk[b][n][c];
        for (int k = 0; k < 8; k++) {
            int acc = 0;
            for (int n = 0; n < 8; n++)
                acc += s_coef[k * 8 + n] * y[n];
            int v = (acc + (1 << (SHIFT - 1))) >> SHIFT;
            int q = s_q[k * 8 + c];
            if (v >= 0)
                v = (v + (q >> 1)) / q;
            else
                v = -((-v + (q >> 1)) / q);
            out[(by + k) * width + bx + c] = v;
        }
    }
}
