/*
 * gen.c -- the input generator of tools/suites/rodinia.sh, parboil.sh and ispass.sh: writes
 * the data files that the suites' programs read and their repositories do not ship (they are
 * in separate data downloads). Each kind is written from a fixed seed with the project's own
 * generator (a 64-bit xorshift), so the same command gives the same bytes on every machine.
 *
 *   gen graph N SEED           bfs: N nodes, each with 1..3 random edges both ways
 *   gen grid N LO HI SEED      hotspot, hotspot3D: N values in [LO, HI), one a line
 *   gen pgm ROWS COLS SEED     srad_v1: a plain (P2) grey image of smooth blobs and noise
 *   gen keys N SEED            b+tree: N, then N random keys, one a line
 *   gen records N SEED         nn: N hurricane records of 48 characters (lat at 28, long at 33)
 *   gen mesh W H SEED          cfd: a W x H torus of cells (area, 4 x (neighbour, normal));
 *                              the first row's lower faces are walls (-1), the last row's
 *                              upper faces far field (-2)
 *   gen bytes N SEED           huffman: N bytes of a skewed distribution
 *   gen idx3 N SEED            ISPASS NN: an MNIST-format image file (idx3: magic 2051, N, 28,
 *                              28 as big-endian 32-bit words, then N images of 28 x 28 bytes),
 *                              each two or three thick random strokes on a blank ground
 *
 * Parboil's formats (the binary ones little-endian on every machine):
 *   gen matrix R C SEED        sgemm: "R C", then R x C values in [-1, 1), one a line
 *                              (column-major: what io.cc reads)
 *   gen floats N SEED          stencil: N raw 32-bit floats in [0, 1)
 *   gen histo W H HW HH SEED   histo: the 32-bit words W, H, HW, HH, then a W x H image of
 *                              bin numbers in [0, HW x HH), gaussian about the middle
 *   gen mriq K X SEED          mri-q: the 32-bit K and X, then kx, ky, kz (K floats each in
 *                              [-16, 16)), x, y, z (X floats each in [-0.5, 0.5)), phiR, phiI
 *                              (K floats each in [-1, 1))
 *   gen pqr N LX LY LZ SEED    cutcp: N ATOM records (x y z in an LX x LY x LZ Angstrom box,
 *                              charge in [-1, 1))
 *   gen points N SEED          tpacf: N points uniform on the sky, "ra dec" in degrees a line
 *   gen obstacles X Y Z SEED   lbm: an X x Y x Z grid of '.' (fluid) and '#' (12 random balls
 *                              of radius 4 to 12), X characters a line, a blank line after
 *                              each of the Z slices of Y lines
 *   gen samples N SEED         mri-gridding (FILE.uks.data): N records of 6 floats: real and
 *                              imag in [-1, 1), kx, ky, kz in [-0.5, 0.5), sdc in [0, 1)
 *
 * Output goes to stdout. Exit status 2 with a usage line on bad arguments.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static void rng_seed(unsigned long seed)
{
    rng_state = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)seed * 0x2545f4914f6cdd1dULL);
    if (rng_state == 0)
        rng_state = 1;
}

static uint64_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A value in [0, n). */
static long rng_below(long n) { return (long)(rng_next() % (uint64_t)n); }

/* A value in [0, 1). */
static double rng_unit(void) { return (double)(rng_next() >> 11) / 9007199254740992.0; }

/* Each node's edges, both directions of every edge, in edge order (a node's list is filled
   edge by edge: the edges from it and to it as they come), weights from the ends. deg[] is
   each node's count; it becomes the start of its list. O(n + m). */
static int print_adjacency(long n, long m, long *from, long *to, long *deg)
{
    long *at = malloc((size_t)(2 * m + 1) * sizeof *at), start = 0;
    if (!at)
        return 1;
    for (long i = 0; i < n; i++) {
        long d = deg[i];
        deg[i] = start;
        start += d;
    }
    for (long e = 0; e < m; e++) {
        at[deg[from[e]]++] = 2 * e;         /* even: the edge from the node, odd: to it */
        at[deg[to[e]]++] = 2 * e + 1;
    }
    for (long k = 0; k < 2 * m; k++) {
        long e = at[k] / 2;
        printf("%ld %ld\n", at[k] % 2 ? from[e] : to[e], 1 + (long)((from[e] * 7 + to[e]) % 10));
    }
    free(at);
    free(deg);
    free(from);
    free(to);
    return 0;
}

static int gen_graph(const long *a)
{
    long n = a[0];
    long *deg = calloc((size_t)n, sizeof *deg), *from, *to, m = 0, cap = n * 3;
    from = malloc((size_t)cap * sizeof *from);
    to = malloc((size_t)cap * sizeof *to);
    if (!deg || !from || !to)
        return 1;
    for (long i = 0; i < n; i++) {
        long k = 1 + rng_below(3);
        for (long e = 0; e < k; e++, m++) {
            from[m] = i;
            to[m] = rng_below(n);
        }
    }
    for (long e = 0; e < m; e++) {
        deg[from[e]]++;
        deg[to[e]]++;
    }
    printf("%ld\n", n);
    long start = 0;
    for (long i = 0; i < n; i++) {
        printf("%ld %ld\n", start, deg[i]);
        start += deg[i];
    }
    printf("\n0\n\n%ld\n", start);
    return print_adjacency(n, m, from, to, deg);
}

static int gen_grid(long n, double lo, double hi)
{
    for (long i = 0; i < n; i++)
        printf("%.6f\n", lo + (hi - lo) * rng_unit());
    return 0;
}

static int gen_pgm(const long *a)
{
    long rows = a[0], cols = a[1];
    printf("P2\n%ld %ld\n255\n", cols, rows);
    for (long r = 0; r < rows; r++) {
        for (long c = 0; c < cols; c++) {
            double d = hypot((double)(r - rows / 2), (double)(c - cols / 3));
            long v = 128 + (long)(80.0 * cos(d / 9.0)) + rng_below(32) - 16;
            printf("%ld%c", v < 0 ? 0 : v > 255 ? 255 : v, c + 1 == cols ? '\n' : ' ');
        }
    }
    return 0;
}

static int gen_keys(const long *a)
{
    long n = a[0];
    printf("%ld\n", n);
    for (long i = 0; i < n; i++)
        printf("%ld\n", rng_below(1000000));
    return 0;
}

static int gen_records(const long *a)
{
    long n = a[0];
    static const char *names[] = {"ALBERTO", "BERYL", "CHRIS", "DEBBY", "ERNESTO", "GORDON"};
    for (long i = 0; i < n; i++)
        printf("%4ld %2ld %2ld %2ld %2ld %-10s %4.1f %5.1f %4ld %4ld\n", 1950 + rng_below(60),
               1 + rng_below(12), 1 + rng_below(28), rng_below(4) * 6, 1 + rng_below(30),
               names[rng_below(6)], 89.9 * rng_unit(), 359.9 * rng_unit(), rng_below(170),
               rng_below(1000));
    return 0;
}

/* One face of a mesh cell: its neighbour and an outward normal of about unit length. */
static void mesh_face(long nb, double nx, double ny)
{
    double p = 1.0 + 0.1 * (rng_unit() - 0.5);
    printf(" %ld %.6f %.6f 0.000000", nb, nx * p, ny * p);
}

static int gen_mesh(const long *a)
{
    long w = a[0], h = a[1];
    printf("%ld\n", w * h);
    for (long y = 0; y < h; y++)
        for (long x = 0; x < w; x++) {
            printf("%.6f", 0.9 + 0.2 * rng_unit());
            mesh_face(y * w + (x + 1) % w, 1, 0);
            mesh_face(y * w + (x + w - 1) % w, -1, 0);
            mesh_face(y + 1 < h ? (y + 1) * w + x : -2, 0, 1);
            mesh_face(y > 0 ? (y - 1) * w + x : -1, 0, -1);
            printf("\n");
        }
    return 0;
}

static int gen_bytes(const long *a)
{
    long n = a[0];
    for (long i = 0; i < n; i++) {
        /* a geometric-like distribution: symbol k with probability about 2^-(k+1) */
        int k = 0;
        while (k < 40 && (rng_next() & 1))
            k++;
        putchar('a' + k % 40);
    }
    return 0;
}

/* One 28 x 28 idx3 image: two or three strokes (segments between random points), 255 within
   1.2 pixels of a stroke, 128 within 2, else 0. */
static void idx3_image(unsigned char *img)
{
    double seg[3][4];
    int n = 2 + (int)rng_below(2);
    for (int s = 0; s < n; s++)
        for (int k = 0; k < 4; k++)
            seg[s][k] = 5 + 18 * rng_unit();
    for (int y = 0; y < 28; y++)
        for (int x = 0; x < 28; x++) {
            double best = 1e9;
            for (int s = 0; s < n; s++) {
                double dx = seg[s][2] - seg[s][0], dy = seg[s][3] - seg[s][1];
                double t = ((x - seg[s][0]) * dx + (y - seg[s][1]) * dy) /
                           (dx * dx + dy * dy + 1e-9);
                t = t < 0 ? 0 : t > 1 ? 1 : t;
                double d = hypot(x - seg[s][0] - t * dx, y - seg[s][1] - t * dy);
                best = d < best ? d : best;
            }
            img[y * 28 + x] = best < 1.2 ? 255 : best < 2.0 ? 128 : 0;
        }
}

static void put_be32(long v)
{
    for (int s = 24; s >= 0; s -= 8)
        putchar((int)((v >> s) & 0xff));
}

static int gen_idx3(const long *a)
{
    unsigned char img[28 * 28];
    put_be32(2051);
    put_be32(a[0]);
    put_be32(28);
    put_be32(28);
    for (long i = 0; i < a[0]; i++) {
        idx3_image(img);
        fwrite(img, 1, sizeof img, stdout);
    }
    return 0;
}

/* ---- Parboil's formats ---------------------------------------------------------------------- */

static void put_u32(uint32_t v)
{
    for (int i = 0; i < 4; i++)
        putchar((int)((v >> (8 * i)) & 0xff));
}

static void put_f32(float f)
{
    uint32_t v;
    memcpy(&v, &f, sizeof v);
    put_u32(v);
}

/* n floats in [lo, hi), raw. */
static void put_floats(long n, double lo, double hi)
{
    for (long i = 0; i < n; i++)
        put_f32((float)(lo + (hi - lo) * rng_unit()));
}

/* A standard normal value (Box-Muller). */
static double rng_normal(void)
{
    double u = 1.0 - rng_unit();
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * rng_unit());
}

static int gen_matrix(const long *a)
{
    printf("%ld %ld\n", a[0], a[1]);
    for (long i = 0; i < a[0] * a[1]; i++)
        printf("%.6f\n", 2.0 * rng_unit() - 1.0);
    return 0;
}

static int gen_floats(const long *a)
{
    put_floats(a[0], 0, 1);
    return 0;
}

static int gen_histo(const long *a)
{
    long bins = a[2] * a[3];
    for (int i = 0; i < 4; i++)
        put_u32((uint32_t)a[i]);
    for (long i = 0; i < a[0] * a[1]; i++) {
        long b = (long)floor((double)bins / 2 + (double)bins / 16 * rng_normal());
        put_u32((uint32_t)(b < 0 ? 0 : b >= bins ? bins - 1 : b));
    }
    return 0;
}

static int gen_mriq(const long *a)
{
    put_u32((uint32_t)a[0]);
    put_u32((uint32_t)a[1]);
    put_floats(3 * a[0], -16, 16);
    put_floats(3 * a[1], -0.5, 0.5);
    put_floats(2 * a[0], -1, 1);
    return 0;
}

static int gen_pqr(const long *a)
{
    for (long i = 0; i < a[0]; i++) {
        double x = (double)a[1] * rng_unit(), y = (double)a[2] * rng_unit();
        double z = (double)a[3] * rng_unit(), q = 2.0 * rng_unit() - 1.0;
        printf("ATOM  %5ld  O   WAT %5ld    %8.3f%8.3f%8.3f %7.4f 1.5000\n", i % 100000 + 1,
               i % 10000 + 1, x, y, z, q == 0 ? 0.5 : q);
    }
    return 0;
}

static int gen_points(const long *a)
{
    for (long i = 0; i < a[0]; i++) {
        double ra = 360.0 * rng_unit();
        printf("%.6f %.6f\n", ra, asin(2.0 * rng_unit() - 1.0) * 57.29577951308232);
    }
    return 0;
}

static int gen_obstacles(const long *a)
{
    double ball[12][4];
    for (int b = 0; b < 12; b++) {
        for (int i = 0; i < 3; i++)
            ball[b][i] = (double)a[i] * rng_unit();
        ball[b][3] = 4 + 8 * rng_unit();
    }
    for (long z = 0; z < a[2]; z++) {
        for (long y = 0; y < a[1]; y++) {
            for (long x = 0; x < a[0]; x++) {
                int in = 0;
                for (int b = 0; b < 12 && !in; b++)
                    in = hypot(hypot(x - ball[b][0], y - ball[b][1]), z - ball[b][2]) <
                         ball[b][3];
                putchar(in ? '#' : '.');
            }
            putchar('\n');
        }
        putchar('\n');
    }
    return 0;
}

static int gen_samples(const long *a)
{
    for (long i = 0; i < a[0]; i++) {
        put_floats(2, -1, 1);
        put_floats(3, -0.5, 0.5);
        put_floats(1, 0, 1);
    }
    return 0;
}

/* ---- the command line ------------------------------------------------------------------------ */

static const struct kind {
    const char *name;
    int nums; /* the numbers before SEED */
    int (*gen)(const long *a);
} kinds[] = {
    {"graph", 1, gen_graph},   {"pgm", 2, gen_pgm},         {"keys", 1, gen_keys},
    {"records", 1, gen_records}, {"mesh", 2, gen_mesh},     {"bytes", 1, gen_bytes},
    {"matrix", 2, gen_matrix}, {"floats", 1, gen_floats},   {"histo", 4, gen_histo},
    {"mriq", 2, gen_mriq},     {"pqr", 4, gen_pqr},         {"points", 1, gen_points},
    {"obstacles", 3, gen_obstacles}, {"samples", 1, gen_samples}, {"idx3", 1, gen_idx3},
};

static int usage(void)
{
    fprintf(stderr, "usage: gen graph N SEED | grid N LO HI SEED | pgm ROWS COLS SEED | "
                    "keys N SEED | records N SEED | mesh W H SEED | bytes N SEED | "
                    "matrix R C SEED | floats N SEED | histo W H HW HH SEED | mriq K X SEED | "
                    "pqr N LX LY LZ SEED | points N SEED | obstacles X Y Z SEED | "
                    "samples N SEED | idx3 N SEED\n");
    return 2;
}

/* The numeric argument i of argv, or -1 when it is not a positive number. */
static long arg_num(int argc, char **argv, int i)
{
    char *end;
    if (i >= argc)
        return -1;
    long v = strtol(argv[i], &end, 10);
    return *end || v <= 0 ? -1 : v;
}

int main(int argc, char **argv)
{
    long a[5];
    if (argc < 4)
        return usage();
    if (!strcmp(argv[1], "grid")) {
        if (argc != 6 || arg_num(argc, argv, 2) < 0 || arg_num(argc, argv, 5) < 0)
            return usage();
        rng_seed((unsigned long)arg_num(argc, argv, 5));
        return gen_grid(arg_num(argc, argv, 2), atof(argv[3]), atof(argv[4]));
    }
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        if (strcmp(argv[1], kinds[k].name))
            continue;
        if (argc != kinds[k].nums + 3)
            return usage();
        for (int i = 0; i <= kinds[k].nums; i++)
            if ((a[i] = arg_num(argc, argv, i + 2)) < 0)
                return usage();
        rng_seed((unsigned long)a[kinds[k].nums]);
        return kinds[k].gen(a);
    }
    return usage();
}
