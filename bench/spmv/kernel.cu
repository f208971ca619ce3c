// spmv: y = A x for a CSR sparse matrix, one thread per row (the "scalar" CSR kernel; stands
// in for Parboil spmv and the irregular-gather kernels of seed 000 Table 1 / seed 002's
// gather examples).  Values and x are small integers stored as float, so every product and
// partial sum is an exactly representable integer (|sum| < 2^24): the result does not depend
// on rounding or on whether nvcc fuses the multiply-add.
//
// Divergence category: cycle divergence / memory-latency divergence, with instruction
// divergence from the row lengths.  Row lengths are skewed (most 1-8, a few hundreds), so the
// row loop's trip count differs between the lanes of a warp; the x[col] gathers go to random
// columns for half of the rows and to a band near the diagonal for the other half, mixed
// within each warp, so in one warp instruction some lanes hit in the cache and others miss
// (seed 002's memory-latency divergence), and warps of a CTA wait for very different times.
extern "C" __global__ void spmv_csr(const int *__restrict__ row_off, const int *__restrict__ col,
                                    const float *__restrict__ val, const float *__restrict__ x,
                                    float *__restrict__ y, int nrows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;
    float sum = 0.0f;
    int end = row_off[r + 1];
    for (int j = row_off[r]; j < end; j++)
        sum += val[j] * x[col[j]];
    y[r] = sum;
}
