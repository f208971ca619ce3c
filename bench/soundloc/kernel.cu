// soundloc: sound-localisation-like delay-and-sum search.  Each thread owns one time frame of
// a MICS-microphone recording and a frame-specific number of candidate directions (how many
// 3-D angles it was assigned).  For candidate k it steers the array by the candidate's
// per-microphone delays, sums the delayed samples over a WIN-sample window and takes the
// energy of the sum (steered response power); it keeps the best candidate and stops early as
// soon as a candidate's energy reaches the detection threshold ("source found").
//
// Stands in for "3-D Sound Localization (SL)" of Table I of 001 (thread regrouping: "different
// threads are assigned with different workload (e.g., different number of 3-D angles)").
//
// Category: per-thread data-dependent work (thread-regrouping candidate).  A thread evaluates
// between 1 and ncand[i] (4..48) candidates: both the assigned count and the early exit (a
// data-dependent break taken by ~3% of candidate evaluations) differ across the lanes of a
// warp, so a warp runs as long as its slowest lane.  The delayed loads gather from four
// channels at data-dependent offsets.  (Occupancy, for the record: 128-thread CTAs, no shared
// memory, ptxas sm_75 38 registers (gpusim's estimate 34) -> 6 (7) CTAs/SM by registers,
// below the CTA-count limit of 8.)
// Integer arithmetic only: exact.
#define MICS 4
#define WIN 4

extern "C" __global__ void soundloc(const int *__restrict__ sig, const int *__restrict__ delay,
                                    const int *__restrict__ ncand, int *__restrict__ best_k,
                                    int *__restrict__ best_e, int *__restrict__ nevals,
                                    int nframes, int hop, int len, int thresh)
{
    int f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= nframes)
        return;
    int t0 = f * hop, nc = ncand[f];
    int bk = -1, be = -1, nev = 0;
    for (int k = 0; k < nc; k++) {
        int e = 0;
        for (int w = 0; w < WIN; w++) {
            int s = 0;
            for (int m = 0; m < MICS; m++)
                s += sig[m * len + t0 + w + delay[k * MICS + m]];
            e += s * s;
        }
        nev = k + 1;
        if (e > be) {
            be = e;
            bk = k;
        }
        if (e >= thresh)
            break;                  // source detected: stop searching this frame
    }
    best_k[f] = bk;
    best_e[f] = be;
    nevals[f] = nev;
}
