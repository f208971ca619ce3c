// sloop: the single-loop divergence micro-benchmark of "Benchmarking the cost of thread
// divergence in CUDA" (seed 003, Section II-A, Listing 1). One warp; thread t runs
//     for (i = 0; i < bounds[t]; i++) acc = acc * 3 + i;
// so a warp whose bounds differ in M lanes (Table I: 32 for t <= 31-M, 32-(t-(31-M)) above)
// takes M divergent loop-exit branches, one per iteration once the shortest lane finishes:
// each one pushes a DIV entry on the SIMT reconvergence stack, and all of them unwind after the
// loop, so the stack depth grows to M+1 (beyond 16 entries it spills on Kepler/Maxwell).
// The body is a counter increment and one dependent multiply-add: the recurrence is not a
// polynomial in i, so the compiler can neither replace the loop by a closed form nor drop it,
// and `#pragma unroll 1` keeps one loop-back branch per iteration, as in the paper's SASS.
// M reaches the kernel only through the bounds array; nothing else diverges.
// Launch: 1 CTA of 32 threads (one warp) per value of M.
extern "C" __global__ void sloop(const int *__restrict__ bounds, unsigned *__restrict__ out)
{
    unsigned t = threadIdx.x;
    int n = bounds[t];
    unsigned acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++)
        acc = acc * 3u + (unsigned)i;
    out[t] = acc;
}
