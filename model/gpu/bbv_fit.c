/*
 * bbv_fit.c -- BBV estimation by regression (bbv_fit.h, 001 Section IV-A, equation 1).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpu/bbv_fit.h"

#define NC (BBV_FIT_MAXP + 2)

/* The regressors of thread t: 1, its inputs, its grid index. */
static void row(const double *v, unsigned p, uint64_t t, double *x)
{
    x[0] = 1.0;
    for (unsigned i = 0; i < p; i++)
        x[1 + i] = v[t * p + i];
    x[1 + p] = (double)t;
}

/* Solve a x = y (n x n, in place) with partial pivoting; a pivot below eps drops its column
   (x = 0 there). */
static void solve(double a[NC][NC], double *y, unsigned n, double *x)
{
    int used[NC] = {0};
    unsigned piv[NC];
    for (unsigned c = 0, r = 0; c < n && r < n; c++) {
        unsigned best = r;
        for (unsigned i = r + 1; i < n; i++)
            if (fabs(a[i][c]) > fabs(a[best][c]))
                best = i;
        if (fabs(a[best][c]) < 1e-9 * (1.0 + fabs(a[c][c])))
            continue;                                  /* dependent column: dropped */
        for (unsigned j = 0; j < n; j++) {
            double t = a[r][j];
            a[r][j] = a[best][j];
            a[best][j] = t;
        }
        double ty = y[r];
        y[r] = y[best];
        y[best] = ty;
        for (unsigned i = 0; i < n; i++) {
            if (i == r || a[i][c] == 0)
                continue;
            double f = a[i][c] / a[r][c];
            for (unsigned j = 0; j < n; j++)
                a[i][j] -= f * a[r][j];
            y[i] -= f * y[r];
        }
        used[c] = 1;
        piv[c] = r++;
    }
    for (unsigned c = 0; c < n; c++)
        x[c] = used[c] ? y[piv[c]] / a[piv[c]][c] : 0.0;
}

static double predict(const double *beta, const double *x, unsigned n)
{
    double s = 0;
    for (unsigned i = 0; i < n; i++)
        s += beta[i] * x[i];
    return s;
}

static void fit_block(const struct bbv *b, const double *v, unsigned p, uint64_t train,
                      uint32_t k, struct bbv_fit_block *o)
{
    double a[NC][NC] = {{0}}, y[NC] = {0}, x[NC], se = 0, ae = 0, sum = 0;
    unsigned n = p + 2;
    uint64_t t0 = train * b->tpc, t1 = t0 + b->tpc, m = 0;
    memset(o, 0, sizeof *o);
    for (uint64_t t = t0; t < t1; t++) {
        double c = bbv_at(b, t, k);
        row(v, p, t, x);
        for (unsigned i = 0; i < n; i++) {
            for (unsigned j = 0; j < n; j++)
                a[i][j] += x[i] * x[j];
            y[i] += x[i] * c;
        }
    }
    solve(a, y, n, o->beta);
    for (uint64_t t = 0; t < b->nthreads; t++) {
        double c = bbv_at(b, t, k), d;
        row(v, p, t, x);
        d = predict(o->beta, x, n) - c;
        if (t >= t0 && t < t1) {
            se += d * d;
            continue;
        }
        ae += fabs(d);
        sum += c;
        m++;
    }
    o->train_rms = sqrt(se / (double)b->tpc);
    o->mae = m ? ae / (double)m : 0;
    o->mean = m ? sum / (double)m : 0;
}

int bbv_fit(const struct bbv *b, const double *v, unsigned p, uint64_t train,
            struct bbv_fit_block *out, char *err, size_t errlen)
{
    uint64_t nctas = b->tpc ? b->nthreads / b->tpc : 0;
    if (p > BBV_FIT_MAXP) {
        snprintf(err, errlen, "bbv fit: %u input variables, at most %d", p, BBV_FIT_MAXP);
        return -1;
    }
    if (nctas < 2 || train >= nctas) {
        snprintf(err, errlen, "bbv fit: %s: %llu CTAs; training on CTA %llu leaves none to "
                 "predict", b->kernel, (unsigned long long)nctas, (unsigned long long)train);
        return -1;
    }
    for (uint32_t k = 0; k < b->nblocks; k++)
        fit_block(b, v, p, train, k, &out[k]);
    return 0;
}
