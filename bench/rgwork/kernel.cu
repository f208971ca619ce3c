// rgwork: per-thread data-dependent work with the data indexed by the thread id -- the
// workload thread regrouping is for (001_8bf4399a5d1562fa.txt Sections VI-VII).  Thread i
// reads work[i] (an iteration count in bits 15..0, a path in bit 16) and seed[i], runs the
// count's iterations of one of two loop bodies (a multiplicative hash, or a shift-xor mix
// with more instructions per iteration) and writes the result to out[i].
//
// Behaviour shown: lanes of a warp run different trip counts and paths, so the warp lasts
// as long as its longest lane and the two bodies execute one after the other; the host part
// picks how the work is spread over the threads (bench/rgwork/host.c: four distributions,
// four kernels of the same PTX).  Every access is out[i]/work[i]/seed[i]: coalesced in the
// original order, and kept coalesced by the data-layout transformation (the host moves the
// data) but not by reference redirection (thread slot p reads logical thread D[p]'s data).
// Integer arithmetic only: exact.
extern "C" __global__ void rgwork(const unsigned *__restrict__ work,
                                  const unsigned *__restrict__ seed,
                                  unsigned *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned w = work[i], h = seed[i], k = w & 0xffffu;
    if (w & 0x10000u) {
        for (unsigned j = 0; j < k; j++) {       // path 1: shift-xor mix
            h ^= h << 13;
            h ^= h >> 17;
            h ^= h << 5;
            h += j;
        }
    } else {
        for (unsigned j = 0; j < k; j++)         // path 0: multiplicative hash
            h = h * 1664525u + 1013904223u;
    }
    out[i] = h;
}
