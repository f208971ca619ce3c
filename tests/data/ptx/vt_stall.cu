// vt_stall.cu -- VT's effect test (tests/test_vt.c, test_vt_effect): each thread follows a
// chain of dependent global loads (i = next[i]), so every warp of a CTA soon waits on a
// long-latency load with nothing else to issue -- the condition on which 004 (Sec. IV) swaps
// the CTA out for an inactive one. Small CTAs with few registers: the CTA limit binds the
// baseline long before the register file does. kernel made with `nvcc -ptx -arch=sm_75 -O3`.
extern "C" __global__ void vt_chase(const unsigned *next, unsigned *out, int steps)
{
    unsigned g = blockIdx.x * blockDim.x + threadIdx.x, i = g;
#pragma unroll 1
    for (int s = 0; s < steps; s++)
        i = next[i];
    out[g] = i;
}
