// stencil2d: one time step of a 2-D 9-point integer stencil on a W x H grid with small
// shared-memory tiles (Rodinia hotspot calculate_temp / pathfinder, Parboil stencil stand-in,
// seed 000 Table 1 set 3).  A CTA of 16 x 8 threads owns a 16 x 8 tile and stages it in shared
// memory with a one-cell halo: every thread its own cell, tile-edge threads also the halo cell
// next to them (tx == 0 left, tx == 15 right, ty == 0 top, ty == 7 bottom) and the four corner
// threads one diagonal halo cell.  A cell outside the grid comes from the boundary rule, each
// case its own code path in fetch():
//   left/right border (x < 0 or x >= W): reflection, x = -1 reads x = 1, x = W reads x = W-2;
//   top/bottom border (y < 0 or y >= H): the Dirichlet value `edge` (no load);
//   outside on both axes (grid corner): (reflected cell of the nearest row + edge) / 2.
// After __syncthreads() each grid cell computes
//   interior and the 4 grid corners: (4c + 2(n + s + e + w) + (ne + nw + se + sw) + 8) >> 4
//   other border cells:              (2c + n + s + e + w + 3) / 6
// Values stay in [0, 1023], so every operation is exact integer arithmetic.
//
// Divergence category: instruction divergence, little cycle divergence (set 3 of seed 000).
// The tile is 128 threads (4 warps): warps 0 and 3 hold the top/bottom tile rows and run the
// extra halo loads, warps 1 and 2 only the left/right ones; within every warp the edge lanes
// take branches the other lanes skip, and CTAs on the grid border take the boundary paths.
// Warps that diverged meet again at the __syncthreads() between staging and compute.  The
// grid is not a multiple of the tile, so tail CTAs have threads outside the grid that only
// stage the halo.  All loads are coalesced row segments: little cycle divergence.
#define TX 16
#define TY 8

__device__ __forceinline__ int reflect_x(int x, int w)
{
    return x < 0 ? -x : (x >= w ? 2 * w - 2 - x : x);
}

// Value of cell (x, y), x in [-1, w], y in [-1, h], under the boundary rule above.
__device__ __forceinline__ int fetch(const int *__restrict__ in, int x, int y, int w, int h,
                                     int edge)
{
    if (y < 0 || y >= h) {
        if (x < 0 || x >= w) {
            int yc = y < 0 ? 0 : h - 1;
            return (in[yc * w + reflect_x(x, w)] + edge) >> 1;
        }
        return edge;
    }
    return in[y * w + reflect_x(x, w)];
}

extern "C" __global__ void stencil2d(const int *__restrict__ in, int *__restrict__ out,
                                     int w, int h, int edge)
{
    __shared__ int t[TY + 2][TX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * TX + tx, y = blockIdx.y * TY + ty;
    // Tail threads (x >= w or y >= h) stage the cell just outside the grid (x = w / y = h),
    // which is the halo of the last column / row.  Every shared cell has exactly one writer;
    // the right halo column is not needed (nor staged) when the tile's last thread is outside.
    int xr = min(x, w), yr = min(y, h);
    bool right = tx == TX - 1 && x < w;

    t[ty + 1][tx + 1] = fetch(in, xr, yr, w, h, edge);
    if (tx == 0)
        t[ty + 1][0] = fetch(in, xr - 1, yr, w, h, edge);
    if (right)
        t[ty + 1][TX + 1] = fetch(in, xr + 1, yr, w, h, edge);
    if (ty == 0)
        t[0][tx + 1] = fetch(in, xr, yr - 1, w, h, edge);
    if (ty == TY - 1)
        t[TY + 1][tx + 1] = fetch(in, xr, yr + 1, w, h, edge);
    if ((tx == 0 || right) && (ty == 0 || ty == TY - 1)) {
        int dx = tx == 0 ? -1 : 1, dy = ty == 0 ? -1 : 1;
        t[ty + 1 + dy][tx + 1 + dx] = fetch(in, xr + dx, yr + dy, w, h, edge);
    }
    __syncthreads();

    if (x >= w || y >= h)
        return;
    int c = t[ty + 1][tx + 1];
    int n = t[ty][tx + 1], s = t[ty + 2][tx + 1], wv = t[ty + 1][tx], e = t[ty + 1][tx + 2];
    bool xb = x == 0 || x == w - 1, yb = y == 0 || y == h - 1;
    int r;
    if (xb != yb) {
        r = (2 * c + n + s + e + wv + 3) / 6;
    } else {
        int d = t[ty][tx] + t[ty][tx + 2] + t[ty + 2][tx] + t[ty + 2][tx + 2];
        r = (4 * c + 2 * (n + s + e + wv) + d + 8) >> 4;
    }
    out[y * w + x] = r;
}
