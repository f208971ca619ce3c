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

static int gen_graph(long n)
{
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

static int gen_pgm(long rows, long cols)
{
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

static int gen_keys(long n)
{
    printf("%ld\n", n);
    for (long i = 0; i < n; i++)
        printf("%ld\n", rng_below(1000000));
    return 0;
}

static int gen_records(long n)
{
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

static int gen_mesh(long w, long h)
{
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

static int gen_bytes(long n)
{
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

static int gen_idx3(long n)
{
    unsigned char img[28 * 28];
    put_be32(2051);
    put_be32(n);
    put_be32(28);
    put_be32(28);
    for (long i = 0; i < n; i++) {
        idx3_image(img);
        fwrite(img, 1, sizeof img, stdout);
    }
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: gen graph N SEED | grid N LO HI SEED | pgm ROWS COLS SEED | "
                    "keys N SEED | records N SEED | mesh W H SEED | bytes N SEED | "
                    "idx3 N SEED\n");
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
    if (argc < 4)
        return usage();
    const char *k = argv[1];
    long a = arg_num(argc, argv, 2), b = arg_num(argc, argv, 3);
    int two = !strcmp(k, "pgm") || !strcmp(k, "mesh");
    if (!strcmp(k, "grid")) {
        if (argc != 6 || a < 0 || arg_num(argc, argv, 5) < 0)
            return usage();
        rng_seed((unsigned long)arg_num(argc, argv, 5));
        return gen_grid(a, atof(argv[3]), atof(argv[4]));
    }
    if (argc != (two ? 5 : 4) || a < 0 || b < 0 || (two && arg_num(argc, argv, 4) < 0))
        return usage();
    rng_seed((unsigned long)(two ? arg_num(argc, argv, 4) : b));
    if (!strcmp(k, "graph"))
        return gen_graph(a);
    if (!strcmp(k, "pgm"))
        return gen_pgm(a, b);
    if (!strcmp(k, "keys"))
        return gen_keys(a);
    if (!strcmp(k, "records"))
        return gen_records(a);
    if (!strcmp(k, "mesh"))
        return gen_mesh(a, b);
    if (!strcmp(k, "bytes"))
        return gen_bytes(a);
    if (!strcmp(k, "idx3"))
        return gen_idx3(a);
    return usage();
}
