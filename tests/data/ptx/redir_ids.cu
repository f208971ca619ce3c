// redir_ids.cu -- reference redirection's split of D[] (tests/test_redir.c, test_forms): every
// thread writes its %tid and %ctaid components at its linear index in the launch (the
// index computed from the same components), so that under any permutation D[] the output is
// each linear index's components -- exactly when the redirected kernel splits D[p] right.
// kernel made with `nvcc -ptx -arch=sm_75 -O3`.
extern "C" __global__ void redir_ids(unsigned *out)
{
    unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    unsigned c = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    unsigned *o = out + 6 * (c * blockDim.x * blockDim.y * blockDim.z + t);
    o[0] = threadIdx.x;
    o[1] = threadIdx.y;
    o[2] = threadIdx.z;
    o[3] = blockIdx.x;
    o[4] = blockIdx.y;
    o[5] = blockIdx.z;
}
