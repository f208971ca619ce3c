// meshgather: unstructured-mesh gather, as in Rodinia cfd compute_flux (seed 000 Table 1):
// element e reads the values of its NB = 6 neighbours through an index list stored
// neighbour-major (nbr[k * n + e], so the index loads themselves are coalesced) and writes
//     out[e] = sum_k (k + 1) * (val[nbr] - val[e]),  a missing neighbour (index -1, a boundary
// face) contributing as if it held val[e] (zero-gradient boundary).
// Values are small integers stored as float, so every term and sum is exact (|out| < 2^24).
//
// Divergence category: memory-latency divergence (seed 002) / cycle divergence, very little
// instruction divergence (set 2 of seed 000).  The mesh has "structured" elements, whose
// neighbours are e +- 1, e +- 64, e +- 4096 (near in index space: the lanes of a warp share
// cache lines and mostly hit), and "unstructured" ones, whose neighbours are random
// anywhere in the mesh (each a likely miss); the fraction of
// unstructured elements changes from region to region (0, 25, 50 or 100%) and the kind is
// drawn per element, so in one gather instruction some lanes of a warp hit and others miss,
// and whole warps differ in how long they wait.  The only branch is the rare boundary face.
#define NB 6

extern "C" __global__ void meshgather(const int *__restrict__ nbr, const float *__restrict__ val,
                                      float *__restrict__ out, int n)
{
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= n)
        return;
    float me = val[e];
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < NB; k++) {
        int j = nbr[k * n + e];
        float v = j >= 0 ? val[j] : me;
        acc += (float)(k + 1) * (v - me);
    }
    out[e] = acc;
}
