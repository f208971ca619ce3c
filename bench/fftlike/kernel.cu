// fftlike: batched radix-2 decimation-in-time number-theoretic transform (an FFT over the
// integers mod P = 40961 = 5 * 2^13 + 1, so every result is exact), N = 1024 points per row,
// one CTA per row, working directly in global memory: a bit-reversed gather from the input,
// then log2(N) = 10 butterfly stages separated by __syncthreads(); stage s pairs elements
// 2^s apart and reads the twiddle w^(k * N / 2^(s+1)) from a table in global memory.
//
// Stands in for "Fast Fourier Transform" (FT) in the Virtual Thread paper (004, Table II), and
// for the scatter/gather kernels of Dynamic Warp Subdivision (002: "memory latency
// divergence ... threads from a single warp experience different memory-reference latencies
// caused by cache misses").
//
// Category: memory-latency divergence.  No shared memory on purpose.  In the bit-reversed
// gather the 32 lanes of a warp read 32 different cache lines of the input row (lane i reads
// word bitrev(i)); each of those lines holds words that lanes of 31 other warp-loads want
// too, so whichever load touches a line first misses and later ones hit: a warp's gather
// completes partly from lines already present and partly from lines still missing (hit/miss
// masks that differ lane by lane).  In the stages, a warp's twiddle gather touches
// min(2^s, 32) distinct words N/2^(s+1) apart, i.e. 1, 2, 4, 8, 16, 16, 8, 4, 2, 1 lines for
// s = 0..9 (the 2 KB table is shared by every CTA on an SM, so some of them hit and some do
// not), while the data loads (stride-2 pairs in stage 0, contiguous halves later) touch 1-2
// lines; stage boundaries are __syncthreads().  Branch divergence is minor: the conditional
// subtraction of the modular add/sub becomes selects (selp), the element loops are uniform.
// (Occupancy, for the record: 256-thread CTAs, no shared memory, ptxas sm_75 25 registers
// (gpusim's estimate 24) -> 32768 / (256*25) = 5 CTAs/SM by registers; the thread limit
// would allow 6.)
// Exact integer arithmetic (operands < P < 2^16, so products fit in 32 bits).
#define P 40961u
#define LOGN 10
#define N (1 << LOGN)
#define NT 256

extern "C" __global__ void fftlike(const unsigned *__restrict__ x, unsigned *y,
                                   const unsigned *__restrict__ tw)
{
    const unsigned *xr = x + (size_t)blockIdx.x * N;
    unsigned *yr = y + (size_t)blockIdx.x * N;
    int tid = threadIdx.x;

#pragma unroll 1
    for (int i = tid; i < N; i += NT)                   // bit-reversed gather
        yr[i] = xr[__brev((unsigned)i) >> (32 - LOGN)];
    __syncthreads();
#pragma unroll 1
    for (int s = 0; s < LOGN; s++) {
        int h = 1 << s, tstep = N >> (s + 1);
#pragma unroll 1
        for (int j = tid; j < N / 2; j += NT) {
            int k = j & (h - 1);
            int i0 = ((j - k) << 1) + k, i1 = i0 + h;
            unsigned w = tw[k * tstep];
            unsigned u = yr[i0], v = yr[i1] * w % P;    // both < P < 2^16: no overflow
            unsigned sum = u + v, dif = u + P - v;
            yr[i0] = sum >= P ? sum - P : sum;
            yr[i1] = dif >= P ? dif - P : dif;
        }
        __syncthreads();
    }
}
