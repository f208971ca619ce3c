// kmeans: the assignment step of k-means (Rodinia kmeans kmeansPoint stand-in, seed 000
// Table 1), here for a mini-batch: thread t takes point p = sel[t] and writes the index of
// its nearest centroid (squared Euclidean distance; ties go to the lowest index, strict <) to
// member[p].  Features are stored feature-major, feat[f * npoints + p], as in Rodinia, and are
// re-read inside the centroid loop as there; the k x nf centroids are staged in dynamic
// shared memory (k * nf ints) behind one __syncthreads().  Coordinates are small integers, so
// distances are exact and ties (frequent by construction) resolve identically everywhere.
//
// Divergence category: memory-latency divergence (seed 002) / cycle divergence, little
// instruction divergence (set 2 of seed 000).  Every thread runs the same k x nf loop; only
// the "new best" update differs.  But the batch indices come in three kinds of warps: a run
// of 32 consecutive points (each feature load is one coalesced line), 32 random points (each
// load touches 32 lines, stride npoints between features), or alternating lanes of both, so
// in one load instruction some lanes hit and others miss, and warps of a CTA wait very
// different times.
extern "C" __global__ void kmeans_assign(const int *__restrict__ feat, const int *__restrict__ sel,
                                         const int *__restrict__ cent, int *__restrict__ member,
                                         int nsel, int npoints, int nf, int k)
{
    extern __shared__ int cs[];
    for (int i = threadIdx.x; i < k * nf; i += blockDim.x)
        cs[i] = cent[i];
    __syncthreads();

    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nsel)
        return;
    int p = sel[t];
    int best = 0, bestd = 0x7fffffff;
    for (int c = 0; c < k; c++) {
        int d = 0;
        for (int f = 0; f < nf; f++) {
            int diff = feat[f * npoints + p] - cs[c * nf + f];
            d += diff * diff;
        }
        if (d < bestd) {
            bestd = d;
            best = c;
        }
    }
    member[p] = best;
}
