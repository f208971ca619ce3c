// warpreduce: warp-level primitives, one warp = 32 consecutive int inputs.
// Per warp (8 words in wout): sum by a __shfl_down_sync tree, max by a __shfl_xor_sync
// butterfly, __ballot_sync of "value is odd", __any_sync(value > 900), __all_sync(value > -900),
// and, inside the data-dependent region `if (value is odd)`, the __activemask() seen there,
// a __ballot_sync over just those lanes (of "value > 0") and a __shfl_sync broadcast from
// the region's lowest lane (merged after reconvergence by an OR butterfly). Per thread (tout):
// inclusive prefix sum by __shfl_up_sync and the warp total broadcast by __shfl_sync from lane 0.
// Behaviour shown: SIMT lane exchange (shfl.sync up/down/bfly/idx), votes (vote.sync), and a
// divergent region whose active mask is exactly the lanes that took the branch -- as a
// stack-based SIMT machine (no independent thread scheduling) guarantees.
// The grid tail: lanes with i >= n take part with value 0 and "invalid" (never odd, never
// active in the region) so that full-mask intrinsics always see all 32 lanes.
// Launch: blockDim.x a multiple of 32.
#define FULL 0xffffffffu

extern "C" __global__ void warpreduce(const int *__restrict__ in, int n,
                                      unsigned *__restrict__ wout, int *__restrict__ tout)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31u, warp = i >> 5;
    bool valid = i < (unsigned)n;
    int v = valid ? in[i] : 0;

    int sum = v;
    for (int off = 16; off > 0; off >>= 1)
        sum += __shfl_down_sync(FULL, sum, off);
    int mx = valid ? v : -2147483647 - 1;
    for (int off = 16; off > 0; off >>= 1)
        mx = max(mx, __shfl_xor_sync(FULL, mx, off));
    unsigned odd = __ballot_sync(FULL, valid && (v & 1));
    int any_big = __any_sync(FULL, valid && v > 900);
    int all_gt = __all_sync(FULL, !valid || v > -900);

    unsigned amask = 0, pos = 0, first = 0;
    if (valid && (v & 1)) {                  // divergent: only the odd lanes
        amask = __activemask();
        pos = __ballot_sync(amask, v > 0);
        first = (unsigned)__shfl_sync(amask, v, __ffs(amask) - 1);
    }
    for (int off = 16; off > 0; off >>= 1) { // reconverged: share the region's results
        amask |= __shfl_xor_sync(FULL, amask, off);
        pos |= __shfl_xor_sync(FULL, pos, off);
        first |= __shfl_xor_sync(FULL, first, off);
    }

    int scan = v;
    for (int off = 1; off < 32; off <<= 1) {
        int up = __shfl_up_sync(FULL, scan, off);
        if (lane >= (unsigned)off)
            scan += up;
    }
    int total = __shfl_sync(FULL, sum, 0);

    if (valid) {
        tout[2 * i] = scan;
        tout[2 * i + 1] = total;
    }
    if (lane == 0) {
        unsigned *w = wout + 8u * warp;
        w[0] = (unsigned)sum;
        w[1] = (unsigned)mx;
        w[2] = odd;
        w[3] = (unsigned)any_big;
        w[4] = (unsigned)all_gt;
        w[5] = amask;
        w[6] = pos;
        w[7] = first;
    }
}
