// mergepass: one pass of a bottom-up natural merge sort (Rodinia hybridsort mergeSortPass /
// mergepack stand-in, seed 000 Table 1).  The input holds sorted runs of random, skewed
// lengths; original run boundaries are off0[0..nruns0], and at pass `shift` run r spans the
// original runs [r << shift, (r + 1) << shift).  Each thread owns one element of run r and
// places it in the merge of runs r and r^1 (left = even run):
//     pos = start(r & ~1) + (i - start(r)) + rank of the key in run r^1
// where the rank is found by binary search (lower bound for a left-run key, upper bound for
// a right-run key, so equal keys keep their order: the merge is stable).  Keys, payloads and
// the next pass's run ids (r >> 1) are scattered to pos.
//
// Divergence category: instruction AND cycle divergence (set 1 of seed 000).
//  - instruction: the binary search runs about log2(len) + 1 iterations over the partner run,
//    and run lengths are log-uniform from 1 to 512 (growing with each pass), so lanes of one
//    warp (a warp often straddles several short runs) and different warps of a CTA (inside
//    one long run vs. among many short ones) run very different trip counts; left and right
//    runs take different compare directions, and an unpaired last run skips the search;
//  - cycle: the probes of the search and the scattered stores are data-dependent addresses.
extern "C" __global__ void merge_pass(const unsigned *__restrict__ keys_in,
                                      const unsigned *__restrict__ vals_in,
                                      const int *__restrict__ run_in,
                                      unsigned *__restrict__ keys_out,
                                      unsigned *__restrict__ vals_out,
                                      int *__restrict__ run_out,
                                      const int *__restrict__ off0, int nruns0, int shift, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned key = keys_in[i];
    int r = run_in[i];
    int p = r ^ 1;
    int my_start = off0[min(r << shift, nruns0)];
    int lo = off0[min(p << shift, nruns0)];
    int hi = off0[min((p + 1) << shift, nruns0)];
    int pbase = lo;
    bool right = (r & 1) != 0;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        unsigned k = keys_in[mid];
        if (right ? k <= key : k < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    int pair_start = right ? pbase : my_start;
    int pos = pair_start + (i - my_start) + (lo - pbase);
    keys_out[pos] = key;
    vals_out[pos] = vals_in[i];
    run_out[pos] = r >> 1;
}
