/*
 * bbv_est.c -- the BBV-weighted and BBV-weighted-scheduled estimates of a launch (bbv_est.h,
 * 001_8bf4399a5d1562fa.txt Section IV-B, equations 2-5).
 */
#include <stdlib.h>
#include "gpu/bbv_est.h"

static double ratio(uint32_t ppm, double unknown)
{
    return ppm == BBV_UNKNOWN ? unknown : ppm / 1e6;
}

double bbv_global_latency(const struct gpu_config *c, const struct bbv *b)
{
    double h1 = ratio(b->l1_ppm, 0.0), h2 = ratio(b->l2_ppm, 1.0);
    double dram = (double)c->dram_latency + c->dram_tRCD + c->dram_tCL;
    return c->l1_hit_latency +
           (1.0 - h1) * (2.0 * c->icnt_latency + c->l2_latency + (1.0 - h2) * dram);
}

void bbv_block_latency(const struct gpu_config *c, const struct bbv *b, double *lat)
{
    double lg = bbv_global_latency(c, b);
    for (uint32_t k = 0; k < b->nblocks; k++)
        lat[k] = b->blk[k].fixed + b->blk[k].gmem * lg;
}

/* Equations (2)-(3) for the warp of threads [t0, t1) (slots; perm maps them), and whether
   it diverges. */
static double warp_time(const struct bbv *b, const double *lat, const uint32_t *perm,
                        uint64_t t0, uint64_t t1, int *div)
{
    double tw = 0;
    *div = 0;
    for (uint32_t k = 0; k < b->nblocks; k++) {
        uint32_t hi = 0, lo = UINT32_MAX;
        for (uint64_t t = t0; t < t1; t++) {
            uint32_t x = bbv_at(b, perm ? perm[t] : t, k);
            hi = x > hi ? x : hi;
            lo = x < lo ? x : lo;
        }
        *div |= hi != lo;
        tw += lat[k] * hi;
    }
    return tw;
}

/* Dynamic round robin: each CTA (in order) to the slot that frees first. */
static double schedule(const double *ttb, uint64_t nctas, uint32_t nslots)
{
    double *free_at = calloc(nslots ? nslots : 1, sizeof *free_at), end = 0;
    if (!free_at)
        return -1;
    for (uint64_t i = 0; i < nctas; i++) {
        uint32_t s = 0;
        for (uint32_t j = 1; j < nslots; j++)
            if (free_at[j] < free_at[s])
                s = j;
        free_at[s] += ttb[i];
        end = free_at[s] > end ? free_at[s] : end;
    }
    free(free_at);
    return end;
}

int bbv_estimate(const struct gpu_config *c, const struct bbv *b, const uint32_t *perm,
                 struct bbv_est *e)
{
    uint64_t nctas = b->tpc ? b->nthreads / b->tpc : 0;
    double *lat = malloc((b->nblocks + 1) * sizeof *lat), *ttb = calloc(nctas + 1, sizeof *ttb);
    double sum = 0;
    uint32_t nsms = b->nsms ? b->nsms : 1, occ = b->occupancy ? b->occupancy : 1;
    if (!lat || !ttb) {
        free(lat);
        free(ttb);
        return -1;
    }
    *e = (struct bbv_est){.lat_global = bbv_global_latency(c, b)};
    bbv_block_latency(c, b, lat);
    for (uint64_t i = 0; i < nctas; i++) {
        for (uint32_t w0 = 0; w0 < b->tpc; w0 += 32) {
            uint64_t t0 = i * b->tpc + w0, t1 = t0 + (b->tpc - w0 < 32 ? b->tpc - w0 : 32);
            int div;
            ttb[i] += warp_time(b, lat, perm, t0, t1, &div);
            e->warps++;
            e->div_warps += (uint64_t)div;
        }
        sum += ttb[i];
    }
    e->weighted = sum / nsms;
    e->scheduled = schedule(ttb, nctas, nsms * occ);
    free(lat);
    free(ttb);
    return e->scheduled < 0 ? -1 : 0;
}
