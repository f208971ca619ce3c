// backprop: the forward pass of one neural-network layer in the manner of Rodinia's backprop
// (bpnn_layerforward): a CTA takes a 16x16 tile of the weight matrix (16 input units x 16
// hidden units), multiplies each weight by its input unit's activation in shared memory, then
// reduces the 16 rows with a tree of __syncthreads()-separated steps.  Outputs: the partial
// dot products (one per hidden unit per CTA) and, as Rodinia does, the tile written back in
// its half-reduced state.
//
// Stands in for "Back Propagation" (BP, Rodinia), a Type-S application of the Virtual Thread
// paper (004, Table II).
//
// Category: Type-S (scheduling limit binds: the thread-count limit).  CTA = 16 x 16 = 256
// threads; shared memory per CTA = 16*4 (inputs) + 16*16*4 (tile) = 1088 B; ptxas sm_75
// reports 14 registers per thread.  Per GTX480 SM:
//   thread limit    : 1536 / 256        =  6 CTAs  (1536 threads)            <- binds
//   CTA-count limit : 8 CTAs
//   register limit  : 32768 / (256*14)  =  9 CTAs  (>= 6 for any count <= 21)
//   shared memory   : 49152 / 1088      = 45 CTAs
// (gpusim's own PTX liveness estimate is 18 registers: same verdict, thread limit.)
// So 6 CTAs fill all 1536 thread contexts while 6.4 KB of the 48 KB shared memory and 66% of
// the registers are used: the thread-count limit binds.
//
// Divergence: only the tx == 0 column loads the input activations; the reduction step s keeps
// the rows with ty % 2^s == 0, so with two 16-wide rows per warp, half of every warp idles at
// s = 1 and whole warps idle afterwards; rows past the input count (last CTA) are zero.
// Values are small integers held in floats (inputs 0..7, weights -8..8): exact in any order.
#define TILE 16

extern "C" __global__ void backprop(const float *__restrict__ input,
                                    const float *__restrict__ weights,
                                    float *__restrict__ partial, float *__restrict__ wout,
                                    int n_in)
{
    __shared__ float s_in[TILE];
    __shared__ float s_w[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y, by = blockIdx.x;
    int row = by * TILE + ty;                     // input unit of this thread's weight
    bool live = row < n_in;

    if (tx == 0)
        s_in[ty] = live ? input[row] : 0.0f;
    s_w[ty][tx] = live ? weights[row * TILE + tx] : 0.0f;
    __syncthreads();
    s_w[ty][tx] *= s_in[ty];
    __syncthreads();
    for (int s = 1; s <= 4; s++) {
        int p = 1 << s;
        if (ty % p == 0)
            s_w[ty][tx] += s_w[ty + p / 2][tx];
        __syncthreads();
    }
    if (live)
        wout[row * TILE + tx] = s_w[ty][tx];
    if (ty == 0)
        partial[by * TILE + tx] = s_w[0][tx];
}
