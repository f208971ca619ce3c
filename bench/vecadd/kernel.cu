// vecadd: c[i] = a[i] + b[i]. Dense, regular, no divergence but the grid tail; few registers and
// no shared memory, so the thread/CTA limits (not capacity) bound occupancy (Type-S).
extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
