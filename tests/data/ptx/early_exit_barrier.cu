// early_exit_barrier.cu -- threads at or past n return at once; the others meet at
// __syncthreads and read a neighbour's value from shared memory. With n a multiple of 32,
// whole warps exit while the rest wait at the barrier: the barrier must learn of the exits
// (tests/test_sm.c; kernel.ptx made with `nvcc -ptx -arch=sm_75 -O3`).
extern "C" __global__ void early_exit_barrier(const int *in, int *out, int n)
{
    __shared__ int s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x >= n)
        return;
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[(threadIdx.x + 1) % n];
}
