// scanlarge: exclusive prefix sum (Blelloch work-efficient up-sweep / down-sweep) of segments
// of 4096 unsigned ints, one segment per CTA, done entirely in shared memory; also writes each
// segment's total.  Shared indices are padded by one word per 32 (i + i/32) to spread the
// strided tree accesses over the banks.
//
// Stands in for large-block scans such as the CUDA SDK "scan"/"Sorting Networks" building
// blocks, here deliberately made a Type-C control of the Virtual Thread paper (004).
//
// Category: Type-C (capacity limit binds: shared memory).  CTA = 256 threads, each owning 16
// elements; shared memory per CTA = (4096 + 4096/32) * 4 = 4224 * 4 = 16896 B; ptxas sm_75
// reports 32 registers per thread (loops kept rolled).  Per GTX480 SM:
//   shared memory   : 49152 / 16896     =  2 CTAs  (512 threads)   <- binds (a 3rd needs 50688 B)
//   register limit  : 32768 / (256*32)  =  4 CTAs  (>= 2 for any count <= 64)
//   thread limit    : 1536 / 256        =  6 CTAs
//   CTA-count limit : 8 CTAs
// (gpusim's own PTX liveness estimate is 25 registers: same verdict, shared memory.)
// So only a third of the thread contexts are used, because shared memory (33 KB used, 15 KB
// left) cannot take a third CTA.
//
// Divergence: the tree levels with fewer than 256 active pairs (d = 128 .. 1 in each sweep)
// leave whole warps idle and, for d < 32, split the last active warp (j < d); the last CTA's
// tail (n not a multiple of 4096) loads zeros and stores nothing past n.  Thirteen barriers
// per sweep separate the levels.  Integer arithmetic: exact (wraps mod 2^32 like the reference).
#define NE 4096
#define NT 256
#define PAD(i) ((i) + ((i) >> 5))

extern "C" __global__ void scanlarge(const unsigned *__restrict__ in, unsigned *__restrict__ out,
                                     unsigned *__restrict__ sums, int n)
{
    __shared__ unsigned s[NE + NE / 32];
    int tid = threadIdx.x;
    int base = blockIdx.x * NE;

#pragma unroll 1
    for (int i = tid; i < NE; i += NT)
        s[PAD(i)] = base + i < n ? in[base + i] : 0u;
    int off = 1;
#pragma unroll 1
    for (int d = NE >> 1; d > 0; d >>= 1) {          // up-sweep: build partial sums
        __syncthreads();
#pragma unroll 1
        for (int j = tid; j < d; j += NT) {
            int ai = off * (2 * j + 1) - 1, bi = off * (2 * j + 2) - 1;
            s[PAD(bi)] += s[PAD(ai)];
        }
        off <<= 1;
    }
    __syncthreads();
    if (tid == 0) {
        sums[blockIdx.x] = s[PAD(NE - 1)];
        s[PAD(NE - 1)] = 0u;
    }
#pragma unroll 1
    for (int d = 1; d < NE; d <<= 1) {               // down-sweep: distribute prefixes
        off >>= 1;
        __syncthreads();
#pragma unroll 1
        for (int j = tid; j < d; j += NT) {
            int ai = off * (2 * j + 1) - 1, bi = off * (2 * j + 2) - 1;
            unsigned t = s[PAD(ai)];
            s[PAD(ai)] = s[PAD(bi)];
            s[PAD(bi)] += t;
        }
    }
    __syncthreads();
#pragma unroll 1
    for (int i = tid; i < NE; i += NT)
        if (base + i < n)
            out[base + i] = s[PAD(i)];
}
