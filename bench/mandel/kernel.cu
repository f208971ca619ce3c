// mandel: escape-time iteration count of each pixel of a Mandelbrot image (stands in for the
// per-pixel/per-ray loops of the GPGPU-Sim RAY "render" and similar kernels, seed 000 Table 1).
// Pixel (px, py) of a W x H image, c = (x0 + px*dx, y0 + py*dx), iterates z = z^2 + c from 0
// until |z|^2 > 4 or maxit iterations; the output is the iteration count.  All float operations
// are the round-to-nearest intrinsics (__fmul_rn / __fadd_rn / __fsub_rn), which nvcc never
// contracts into fma, so the host reference doing the same IEEE binary32 operations in the
// same order gets bit-identical z values and therefore the same counts.
//
// Divergence category: instruction AND cycle divergence (set 1 of seed 000).  The loop trip
// count is 1 outside the disc |c| > 2, up to maxit inside the set, and anything in between
// near its boundary: lanes of a warp (32 horizontal pixels) exit the loop at different
// iterations, and the 8 warps of a 32 x 8 CTA (8 image rows) do very different amounts of
// work; no memory in the loop, so the cycle divergence is pure execution-time divergence.
extern "C" __global__ void mandel(unsigned *__restrict__ out, int w, int h, float x0, float y0,
                                  float dx, int maxit)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= w || py >= h)
        return;
    float cr = __fadd_rn(x0, __fmul_rn((float)px, dx));
    float ci = __fadd_rn(y0, __fmul_rn((float)py, dx));
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < maxit) {
        float zr2 = __fmul_rn(zr, zr), zi2 = __fmul_rn(zi, zi);
        if (__fadd_rn(zr2, zi2) > 4.0f)
            break;
        float t = __fmul_rn(zr, zi);
        zi = __fadd_rn(__fadd_rn(t, t), ci);
        zr = __fadd_rn(__fsub_rn(zr2, zi2), cr);
        it++;
    }
    out[py * w + px] = (unsigned)it;
}
