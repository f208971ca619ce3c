// histogram: 256-bin byte histogram. Each CTA clears a private histogram in shared memory,
// walks the input with a grid-stride loop doing one shared-memory atomicAdd per byte, then
// merges its 256 bins into the global histogram with one global atomicAdd per non-empty bin.
// Behaviour shown: atomic contention. The host skews the input so a few bins are hot: lanes of
// a warp that hit the same bin serialise on the shared atomic, and every CTA's merge of those
// bins collides in global memory. Also CTA barriers (clear / count / merge phases) and a
// data-dependent branch (empty bins skip the global atomic). Stands in for the histogram
// kernels of the CUDA SDK and Parboil (histo).
// Launch: blockDim.x == HIST_BINS (256); any grid size; bins must be zeroed before the launch.
#define HIST_BINS 256

extern "C" __global__ void histogram(const unsigned char *__restrict__ in, int n,
                                     unsigned *__restrict__ bins)
{
    __shared__ unsigned h[HIST_BINS];
    unsigned t = threadIdx.x;
    h[t] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * blockDim.x + t; i < (unsigned)n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[in[i]], 1u);
    __syncthreads();
    unsigned c = h[t];
    if (c != 0)
        atomicAdd(&bins[t], c);
}
