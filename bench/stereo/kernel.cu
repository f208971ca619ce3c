// stereo: block-matching stereo disparity search.  One thread per left-image pixel searches
// the disparities d in its own range [dlo, dhi] (a per-pixel search window, as handed down by
// a coarser pyramid level), computing the 3x3 sum of absolute differences between the left
// window at x and the right window at x - d (coordinates clamped at the image border); it
// keeps the lowest cost and stops as soon as a cost is at or below the acceptance threshold.
//
// Stands in for "Stereo Matcher (SM)" of Table I of 001 (thread regrouping: "the ... kernel
// selects global maxima based on the cost value which differs among threads").
//
// Category: per-thread data-dependent work (thread-regrouping candidate).  The range length
// (1..17 disparities) and the early-termination point (where the true disparity lies in the
// range, if it does; textured pixels stop there, others search the whole range) differ per
// pixel, so lanes of a warp run different trip counts (nvcc turns the "new best" update into
// selects, so the divergence is all in the loop exit).  (Occupancy, for the record: 16 x 8 =
// 128-thread CTAs, no shared memory, ptxas sm_75 43 registers (gpusim's estimate 37) -> 5 (6)
// CTAs/SM by registers, below the CTA-count limit of 8.)
// Integer arithmetic only: exact.

__device__ __forceinline__ int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

extern "C" __global__ void stereo(const unsigned char *__restrict__ left,
                                  const unsigned char *__restrict__ right,
                                  const unsigned char *__restrict__ dlo,
                                  const unsigned char *__restrict__ dhi,
                                  int *__restrict__ disp, int *__restrict__ cost,
                                  int w, int h, int thresh)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    int lo = dlo[y * w + x], hi = dhi[y * w + x];
    int bestd = lo, bestc = 0x7fffffff;
    for (int d = lo; d <= hi; d++) {
        int c = 0;
        for (int dy = -1; dy <= 1; dy++) {
            int yy = clampi(y + dy, 0, h - 1);
            for (int dx = -1; dx <= 1; dx++) {
                int xl = clampi(x + dx, 0, w - 1), xr = clampi(x + dx - d, 0, w - 1);
                c += abs((int)left[yy * w + xl] - (int)right[yy * w + xr]);
            }
        }
        if (c < bestc) {
            bestc = c;
            bestd = d;
        }
        if (c <= thresh)
            break;                  // good enough: accept this disparity
    }
    disp[y * w + x] = bestd;
    cost[y * w + x] = bestc;
}
