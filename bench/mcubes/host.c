/*
 * mcubes host part: a field of 8-bit values on (nx+1)(ny+1)(nz+1) grid points (a smooth
 * random field plus noise), iso level 128.  The C reference classifies every cube, derives
 * its triangle count from the cut-edge rule (so it also checks the kernel's constant table)
 * and hashes every fan triangle like the kernel; every per-cube count and every triangle slot
 * (5 per cube, unused ones stay 0) is checked exactly.
 * test: 12 x 10 x 9 cubes -> 9 CTAs of 128 threads;
 * default: 48 x 48 x 48 cubes -> 864 CTAs (110592 threads, 4.8 GTX480 fills).
 */
#include <stdlib.h>
#include "bench.h"

#define MAXTRI 5
#define ISO 128
#define NOISE 32              /* field noise amplitude (peak to peak) */
#define LAT 4                 /* coarse lattice spacing of the smooth field */

static int edge_lo(int e)
{
    int axis = e >> 2, combo = e & 3;
    int o1 = axis == 0 ? 1 : 0, o2 = axis == 2 ? 1 : 2;
    return ((combo & 1) << o1) | ((combo >> 1) << o2);
}

static uint32_t vertex_hash(int e, const int *f, int x, int y, int z)
{
    int axis = e >> 2, a = edge_lo(e), b = a | (1 << axis);
    int frac = (ISO - f[a]) * 256 / (f[b] - f[a]);
    int p[3] = { (x + (a & 1)) * 256, (y + ((a >> 1) & 1)) * 256, (z + (a >> 2)) * 256 };
    p[axis] += frac;
    return (uint32_t)p[0] * 73856093u ^ (uint32_t)p[1] * 19349663u ^ (uint32_t)p[2] * 83492791u;
}

/* Cut edges of a case, triangle count by the rule, the fan of hashes (cut edges ascending). */
static void cube_ref(const int *f, int x, int y, int z, uint32_t *ntri, uint32_t *tri)
{
    int cube = 0, e, n = 0, edges[12];
    for (int c = 0; c < 8; c++)
        cube |= (f[c] < ISO) << c;
    for (e = 0; e < 12; e++) {
        int a = edge_lo(e), b = a | (1 << (e >> 2));
        if (((cube >> a) ^ (cube >> b)) & 1)
            edges[n++] = e;
    }
    *ntri = n >= 3 ? (uint32_t)(n - 2 < MAXTRI ? n - 2 : MAXTRI) : 0;
    for (uint32_t t = 0; t < *ntri; t++)
        tri[t] = vertex_hash(edges[0], f, x, y, z) * 3u +
                 vertex_hash(edges[t + 1], f, x, y, z) * 5u +
                 vertex_hash(edges[t + 2], f, x, y, z) * 7u + t;
}

static void mcubes_ref(const uint8_t *vol, uint32_t *ntri, uint32_t *tri, int nx, int ny, int nz)
{
    int px = nx + 1, pxy = (nx + 1) * (ny + 1);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                int f[8], id = (z * ny + y) * nx + x;
                for (int c = 0; c < 8; c++)
                    f[c] = vol[(z + (c >> 2)) * pxy + (y + ((c >> 1) & 1)) * px + x + (c & 1)];
                cube_ref(f, x, y, z, &ntri[id], &tri[(size_t)id * MAXTRI]);
            }
}

/* Smooth random field: random bytes on a coarse lattice every LAT points, trilinear
   interpolation, plus noise -NOISE/2..NOISE/2-1, clamped to a byte.  About half the cubes are
   cut by the iso surface, with 1..5 triangles; every warp mixes empty and busy cubes. */
static int make_field(uint8_t *vol, int nx, int ny, int nz, struct bench_rng *rng)
{
    int cx = nx / LAT + 2, cy = ny / LAT + 2, cz = nz / LAT + 2;
    int *c = malloc(sizeof(int) * (size_t)cx * cy * cz);
    if (!c)
        return -1;
    for (int i = 0; i < cx * cy * cz; i++)
        c[i] = (int)(bench_rng_u32(rng) % 256);
    for (int z = 0; z <= nz; z++)
        for (int y = 0; y <= ny; y++)
            for (int x = 0; x <= nx; x++) {
                int X = x / LAT, Y = y / LAT, Z = z / LAT, fx = x % LAT, fy = y % LAT;
                int fz = z % LAT, acc = 0, v;
                for (int k = 0; k < 8; k++) {
                    int wx = (k & 1) ? fx : LAT - fx, wy = (k & 2) ? fy : LAT - fy;
                    int wz = (k & 4) ? fz : LAT - fz;
                    acc += wx * wy * wz *
                           c[((Z + (k >> 2)) * cy + Y + ((k >> 1) & 1)) * cx + X + (k & 1)];
                }
                v = acc / (LAT * LAT * LAT) + (int)(bench_rng_u32(rng) % NOISE) - NOISE / 2;
                vol[(z * (ny + 1) + y) * (nx + 1) + x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
    free(c);
    return 0;
}

static int mcubes_device(struct bench_ctx *ctx, const uint8_t *vol, size_t npts, uint32_t *ntri,
                         uint32_t *tri, int nx, int ny, int nz)
{
    int ncubes = nx * ny * nz, iso = ISO;
    size_t nb = (size_t)ncubes * 4, tb = nb * MAXTRI;
    uint64_t d[3] = { 0, 0, 0 };
    struct gs_module *mod = NULL;
    int rc = -1;

    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[0], npts), "malloc vol") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[1], nb), "malloc ntri") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[2], tb), "malloc tri") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[0], vol, npts), "copy vol") ||
        bench_api(ctx, gs_memset(ctx->gpu, d[2], 0, tb), "clear tri"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(d[0]), GS_ARG(d[1]), GS_ARG(d[2]), GS_ARG(nx),
                                       GS_ARG(ny), GS_ARG(nz), GS_ARG(iso) };
        struct gs_dim3 grid = { (uint32_t)(ncubes + 127) / 128, 1, 1 }, block = { 128, 1, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "mcubes", grid, block, 0, args, 7), "launch") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, ntri, d[1], nb), "copy ntri") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, tri, d[2], tb), "copy tri"))
            goto out;
    }
    rc = 0;
out:
    for (int i = 0; i < 3; i++)
        if (d[i])
            gs_free(ctx->gpu, d[i]);
    return rc;
}

/* 001 equation (1)'s input variables of thread id (its cube): the triangle count the cube's
   corner values give through the case table (the loop's trip count; computed from the input
   field as the reference does, the data flow from vol to the loop bound done by hand) and
   whether the cube is cut at all (the early exit). */
static void note_inputs(struct bench_ctx *ctx, const uint32_t *nref, size_t nc)
{
    static const char *const names[2] = {"ntri", "cut"};
    uint64_t nthreads = (nc + 127) / 128 * 128;
    double *v;
    if (!ctx->inputs || !(v = calloc(nthreads * 2, sizeof *v)))
        return;
    for (size_t t = 0; t < nc; t++) {
        v[t * 2] = nref[t];
        v[t * 2 + 1] = nref[t] > 0;
    }
    bench_note_inputs(ctx, 2, names, nthreads, v);
    free(v);
}

static int mcubes_run(struct bench_ctx *ctx)
{
    int test = ctx->size == BENCH_TEST;
    int nx = test ? 12 : 48, ny = test ? 10 : 48, nz = test ? 9 : 48;
    size_t npts = (size_t)(nx + 1) * (ny + 1) * (nz + 1), nc = (size_t)nx * ny * nz;
    uint8_t *vol = malloc(npts);
    uint32_t *ntri = malloc(nc * 4), *nref = malloc(nc * 4);
    uint32_t *tri = malloc(nc * 4 * MAXTRI), *tref = calloc(nc * MAXTRI, 4);
    struct bench_rng rng;
    int rc = -1;

    if (!vol || !ntri || !nref || !tri || !tref)
        goto done;
    bench_rng_seed(&rng, 17);
    if (make_field(vol, nx, ny, nz, &rng))
        goto done;
    mcubes_ref(vol, nref, tref, nx, ny, nz);
    note_inputs(ctx, nref, nc);
    rc = mcubes_device(ctx, vol, npts, ntri, tri, nx, ny, nz);
    if (rc == 0) {
        uint64_t bad = bench_check_u32(ctx, "ntri", ntri, nref, nc);
        bad += bench_check_u32(ctx, "tri", tri, tref, nc * MAXTRI);
        rc = bad ? 1 : 0;
    }
done:
    free(vol); free(ntri); free(nref); free(tri); free(tref);
    return rc;
}

const struct bench bench_mcubes = {
    "mcubes", "marching-cubes-like: 0..5 triangles per cube by case, interpolation per edge "
    "(per-thread data-dependent work)", mcubes_run, NULL, 0
};
