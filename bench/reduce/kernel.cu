// reduce: per-CTA sum of 32-bit integers by a shared-memory tree with __syncthreads() (bar.sync)
// after every level -- the classic CUDA SDK reduction (first add during the load, then halving
// strides). Each CTA of B threads sums 2*B consecutive inputs and writes its partial sum;
// integer adds make the result exact and order-independent.
// Behaviour shown: CTA-wide barriers inside a (uniform) loop, and shrinking activity --
// `if (t < stride)` leaves fewer warps busy at each level and, once stride < 32, diverges
// inside warp 0 (lane utilisation 16, 8, 4, 2, 1 of 32): the barrier-bound pattern of the
// reduction kernels in the SDK/Rodinia suites. The grid tail (n not a multiple of 2*B) reads 0.
// Launch: B = blockDim.x a power of two, dynamic shared memory B*4 bytes,
// grid = ceil(n / (2*B)) CTAs.
extern "C" __global__ void reduce(const int *__restrict__ in, int *__restrict__ partial, int n)
{
    extern __shared__ int s[];
    unsigned t = threadIdx.x, b = blockDim.x;
    unsigned i = blockIdx.x * (2u * b) + t;
    int v = 0;
    if (i < (unsigned)n)
        v = in[i];
    if (i + b < (unsigned)n)
        v += in[i + b];
    s[t] = v;
    __syncthreads();
    for (unsigned stride = b / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}
