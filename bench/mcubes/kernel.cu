// mcubes: marching-cubes-like surface extraction over an nx x ny x nz grid of cubes whose
// corners hold 8-bit field values.  One thread per cube: read the 8 corner values, classify
// them against the iso level into an 8-bit case index, look up how many triangles the case
// makes (c_ntri, a 256-entry table in constant memory), and for each triangle compute its three
// vertices by fixed-point (8.8) linear interpolation along the cut edges and store a hash of
// the triangle.  Triangles fan over the case's cut edges in edge-number order (edge e joins
// corners differing in axis e/4; c_ntri[case] = min(#cut edges - 2, 5), 0 for no cut), a
// simplified but self-consistent stand-in for the real marching-cubes triangle table.
//
// Stands in for "Marching Cubes" (MC, CUDA SDK), the first benchmark of Table I of 001 (thread
// regrouping: "different threads calculating different number of vertices").
//
// Category: per-thread data-dependent work (thread-regrouping candidate).  A thread's loop runs
// 0..5 times depending on its cube's case; cubes away from the surface do nothing, cubes on it
// 1..5 iterations, each with data-dependent edge selection (bit scan) and interpolation branch
// (which axis), so the lanes of a warp run very different instruction counts; the early exit
// for empty cubes splits warps too.  (Occupancy, for the record: 128-thread CTAs, no shared
// memory; ptxas sm_75 uses 33 registers -> 32768 / (128*33) = 7 CTAs/SM by registers, while
// gpusim's PTX liveness estimate, 26, gives 8 CTAs/SM by the CTA-count limit: on the edge.)
// Integer arithmetic only: exact.
#define MAXTRI 5

__constant__ unsigned char c_ntri[256] = {
    0, 1, 1, 2, 1, 2, 4, 3, 1, 4, 2, 3, 2, 3, 3, 2, 1, 2, 4, 3, 4, 3, 5, 4, 4, 5, 5, 4, 5, 4, 5, 3,
    1, 4, 2, 3, 4, 5, 5, 4, 4, 5, 3, 4, 5, 5, 4, 3, 2, 3, 3, 2, 5, 4, 5, 3, 5, 5, 4, 3, 5, 5, 5, 2,
    1, 4, 4, 5, 2, 3, 5, 4, 4, 5, 5, 5, 3, 4, 4, 3, 2, 3, 5, 4, 3, 2, 5, 3, 5, 5, 5, 5, 4, 3, 5, 2,
    4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 4, 3, 4, 4, 3, 4, 3, 5, 2, 5, 5, 5, 4, 5, 4, 4, 1,
    1, 4, 4, 5, 4, 5, 5, 5, 2, 5, 3, 4, 3, 4, 4, 3, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 4,
    2, 5, 3, 4, 5, 5, 5, 5, 3, 5, 2, 3, 4, 5, 3, 2, 3, 4, 4, 3, 5, 5, 5, 4, 4, 5, 3, 2, 5, 4, 4, 1,
    2, 5, 5, 5, 3, 4, 5, 5, 3, 5, 4, 5, 2, 3, 3, 2, 3, 4, 5, 5, 4, 3, 5, 4, 4, 5, 5, 4, 3, 2, 4, 1,
    3, 5, 4, 5, 4, 5, 5, 4, 4, 5, 3, 4, 3, 4, 2, 1, 2, 3, 3, 2, 3, 2, 4, 1, 3, 4, 2, 1, 2, 1, 1, 0,
};

// corner c of a cube sits at (c & 1, (c >> 1) & 1, c >> 2); edge e runs along axis e >> 2 from
// corner edge_lo(e), the other two axes' bits taken from e & 3.
__device__ __forceinline__ int edge_lo(int e)
{
    int axis = e >> 2, combo = e & 3;
    int o1 = axis == 0 ? 1 : 0, o2 = axis == 2 ? 1 : 2;
    return ((combo & 1) << o1) | ((combo >> 1) << o2);
}

__device__ __forceinline__ unsigned vertex_hash(int e, unsigned long long f, int x, int y, int z,
                                                int iso)
{
    int axis = e >> 2, a = edge_lo(e), b = a | (1 << axis);
    int fa = (int)((f >> (8 * a)) & 255), fb = (int)((f >> (8 * b)) & 255);
    int frac = (iso - fa) * 256 / (fb - fa);           // 0..256: where the edge is cut
    int px = (x + (a & 1)) * 256, py = (y + ((a >> 1) & 1)) * 256, pz = (z + (a >> 2)) * 256;
    if (axis == 0)
        px += frac;
    else if (axis == 1)
        py += frac;
    else
        pz += frac;
    return (unsigned)px * 73856093u ^ (unsigned)py * 19349663u ^ (unsigned)pz * 83492791u;
}

extern "C" __global__ void mcubes(const unsigned char *__restrict__ vol,
                                  unsigned *__restrict__ ntri_out, unsigned *__restrict__ tri_out,
                                  int nx, int ny, int nz, int iso)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= nx * ny * nz)
        return;
    int x = id % nx, yz = id / nx, y = yz % ny, z = yz / ny;
    int px = nx + 1, pxy = (nx + 1) * (ny + 1);
    unsigned long long f = 0;
    unsigned cube = 0;
    for (int c = 0; c < 8; c++) {
        unsigned v = vol[(z + (c >> 2)) * pxy + (y + ((c >> 1) & 1)) * px + x + (c & 1)];
        f |= (unsigned long long)v << (8 * c);
        cube |= (v < (unsigned)iso ? 1u : 0u) << c;
    }
    unsigned cut = 0;                                   // bit e: edge e crosses the surface
    for (int e = 0; e < 12; e++) {
        int a = edge_lo(e), b = a | (1 << (e >> 2));
        cut |= ((cube >> a ^ cube >> b) & 1u) << e;
    }
    int nt = c_ntri[cube];
    ntri_out[id] = nt;
    if (nt == 0)
        return;
    int e0 = __ffs(cut) - 1;
    cut &= cut - 1;
    unsigned h0 = vertex_hash(e0, f, x, y, z, iso);
    int e1 = __ffs(cut) - 1;
    cut &= cut - 1;
    unsigned h1 = vertex_hash(e1, f, x, y, z, iso);
#pragma unroll 1
    for (int t = 0; t < nt; t++) {                      // fan: (e0, e_{t+1}, e_{t+2})
        int e2 = __ffs(cut) - 1;
        cut &= cut - 1;
        unsigned h2 = vertex_hash(e2, f, x, y, z, iso);
        tri_out[id * MAXTRI + t] = h0 * 3u + h1 * 5u + h2 * 7u + (unsigned)t;
        h1 = h2;
    }
}
