// conv2d: out = in (*) filt, a 2-D convolution of a W x H float image with a 5x5 filter read
// from global memory (read-only, __restrict__), zero padding outside the image.
//
// Stands in for "2D Convolution" (2D) / "Convolution Separable" (CS), Type-S applications of
// the Virtual Thread paper (004, Table II).
//
// Category: Type-S (scheduling limit binds).  CTA = 16 x 8 = 128 threads, no shared memory,
// few registers (ptxas sm_75 reports 21 per thread; the arithmetic below holds for any count
// up to 32).  Per GTX480 SM:
//   CTA-count limit : 8 CTAs                       -> 8 CTAs  (1024 threads)   <- binds
//   thread limit    : 1536 / 128        = 12 CTAs
//   register limit  : 32768 / (128*21)  = 12 CTAs  (>= 8 for any count <= 32)
//   shared memory   : 0 B per CTA      -> unlimited
// (gpusim's own PTX liveness estimate is 17 registers: same verdict, CTA-count limit.)
// So an SM holds 8 CTAs = 1024 threads, two thirds of its thread contexts, with a third of the
// register file and all 48 KB of shared memory idle: the CTA-count limit binds.
//
// Divergence: border pixels skip the taps that fall outside the image (whole filter rows for
// the top/bottom two rows, single taps for the left/right two columns), and the grid tail
// (W, H not multiples of the CTA shape) leaves lanes idle.  Interior warps run converged.
// Values are small integers held in floats (pixels 0..15, taps -4..4), so every product and
// every partial sum is exact and the result does not depend on order or fma contraction.
#define FR 2
#define FW (2 * FR + 1)

extern "C" __global__ void conv2d(const float *__restrict__ in, const float *__restrict__ filt,
                                  float *__restrict__ out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float sum = 0.0f;
    for (int dy = -FR; dy <= FR; dy++) {
        int yy = y + dy;
        if (yy < 0 || yy >= h)
            continue;                       // top/bottom border: the whole filter row
        for (int dx = -FR; dx <= FR; dx++) {
            int xx = x + dx;
            if (xx < 0 || xx >= w)
                continue;                   // left/right border: one tap
            sum += filt[(dy + FR) * FW + (dx + FR)] * in[yy * w + xx];
        }
    }
    out[y * w + x] = sum;
}
