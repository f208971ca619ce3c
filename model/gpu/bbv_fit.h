/*
 * bbv_fit.h -- BBV estimation by regression (001_8bf4399a5d1562fa.txt Section IV-A, equation
 * 1): per basic block b, BBV_t[b] = beta_0 + beta_1 I_t[1] + ... + beta_p I_t[p] +
 * beta_{p+1} tid, fitted by least squares on the threads of one thread block ("we train the
 * model based on the observations of the threads in one thread block and predict the BBV for
 * the threads in other thread blocks") and scored on all the others.
 *
 * The input variables I_t are the ones the kernel's host part names (bench_note_inputs); the
 * paper finds them by a data-flow analysis, which the model does not do. tid is the thread's
 * index in the grid. The normal equations are solved by Gaussian elimination with partial
 * pivoting; a column that is constant over the training CTA (or a combination of others) is
 * dropped (its coefficient 0), as a least-squares solver of minimum norm would.
 */
#ifndef BBV_FIT_H
#define BBV_FIT_H
#include "gpu/bbv.h"

#define BBV_FIT_MAXP 4                /* input variables */

struct bbv_fit_block {
    double beta[BBV_FIT_MAXP + 2];    /* beta_0, inputs, tid */
    double train_rms;                 /* root-mean-square error on the training CTA */
    double mae;                       /* mean absolute error on the other CTAs' threads */
    double mean;                      /* mean count on those threads */
};

/* Fit every block of launch b on CTA `train` with p inputs per thread (v: [nthreads][p],
   grid order); out: nblocks entries. 0, or -1 with a message (p too large, no other CTA,
   out of memory). */
int bbv_fit(const struct bbv *b, const double *v, unsigned p, uint64_t train,
            struct bbv_fit_block *out, char *err, size_t errlen);

#endif
