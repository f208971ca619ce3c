// dloop: the double-loop divergence micro-benchmark of "Benchmarking the cost of thread
// divergence in CUDA" (seed 003, Section II-B, Listing 2). One warp; thread t runs two nested
// loops whose bounds are both bounds[t]:
//     for (i = 0; i < n; i++) for (j = 0; j < n; j++) acc = acc * 3 + j;   then acc += i
// With M divergent lanes (Table I pattern) the inner loop's exit diverges on every pass of the
// outer loop and the outer loop's exit diverges too, so the SIMT stack is pushed and unwound
// many more times than in sloop and grows deeper (the paper's stack history, Figure 5).
// The body is a counter increment and a dependent multiply-add (no closed form exists, so the
// compiler keeps the loops); `#pragma unroll 1` keeps one loop-back branch per iteration.
// M reaches the kernel only through the bounds array; nothing else diverges.
// Launch: 1 CTA of 32 threads (one warp) per value of M.
extern "C" __global__ void dloop(const int *__restrict__ bounds, unsigned *__restrict__ out)
{
    unsigned t = threadIdx.x;
    int n = bounds[t];
    unsigned acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
#pragma unroll 1
        for (int j = 0; j < n; j++)
            acc = acc * 3u + (unsigned)j;
        acc += (unsigned)i;
    }
    out[t] = acc;
}
