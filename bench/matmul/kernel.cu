// matmul: C = A * B (M x K times K x N, row-major floats), tiled through shared memory.  A CTA
// of 16 x 16 threads computes a 32 x 32 tile of C (each thread a 2 x 2 set of outputs, rows
// ty, ty+16 and columns tx, tx+16), walking K in steps of TK = 56 with a 32 x 56 tile of A and
// a 56 x 32 tile of B in shared memory.  Edges (M, N, K not multiples of the tiles) load zeros.
//
// Stands in for "Matrix Multiplication" (MM, CUDA SDK), a Type-C application of the Virtual
// Thread paper (004, Table II), made deliberately shared-memory hungry as a control.
//
// Category: Type-C (capacity limit binds: shared memory).  CTA = 256 threads; shared memory
// per CTA = 32*56*4 + 56*32*4 = 7168 + 7168 = 14336 B; ptxas sm_75 reports 27 registers per
// thread (the load loop is kept rolled and the k loop unrolled only twice to keep the count
// low, so that registers do not bind first).  Per GTX480 SM:
//   shared memory   : 49152 / 14336     =  3 CTAs  (768 threads)   <- binds (a 4th needs 57344 B)
//   register limit  : 32768 / (256*27)  =  4 CTAs  (4 for any count <= 32)
//   thread limit    : 1536 / 256        =  6 CTAs
//   CTA-count limit : 8 CTAs
// (gpusim's own PTX liveness estimate is 31 registers: same verdict, shared memory.)
// So only half of the 1536 thread contexts are used: adding scheduling slots would not add a
// single CTA, the shared-memory capacity does.
//
// Divergence: none in the inner product; only the tile-loading guards on the matrix edges and
// the store guards of the edge CTAs.  Values are small integers in floats (-4..4) and K <= 1024,
// so every product and partial sum is an exact integer: fma contraction and order do not matter.
#define TM 32
#define TK 56
#define NT 256

extern "C" __global__ void matmul(const float *__restrict__ A, const float *__restrict__ B,
                                  float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[TM][TK];
    __shared__ float Bs[TK][TM];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
    int row0 = blockIdx.y * TM, col0 = blockIdx.x * TM;
    float c00 = 0.0f, c01 = 0.0f, c10 = 0.0f, c11 = 0.0f;

    for (int k0 = 0; k0 < K; k0 += TK) {
#pragma unroll 1
        for (int e = tid; e < TM * TK; e += NT) {       // 7 elements of each tile per thread
            int ar = e / TK, ak = e % TK;
            int bk = e / TM, bc = e % TM;
            As[ar][ak] = (row0 + ar < M && k0 + ak < K) ? A[(row0 + ar) * K + k0 + ak] : 0.0f;
            Bs[bk][bc] = (k0 + bk < K && col0 + bc < N) ? B[(k0 + bk) * N + col0 + bc] : 0.0f;
        }
        __syncthreads();
#pragma unroll 2
        for (int k = 0; k < TK; k++) {
            float a0 = As[ty][k], a1 = As[ty + 16][k];
            float b0 = Bs[k][tx], b1 = Bs[k][tx + 16];
            c00 += a0 * b0;
            c01 += a0 * b1;
            c10 += a1 * b0;
            c11 += a1 * b1;
        }
        __syncthreads();
    }
    int r0 = row0 + ty, r1 = r0 + 16, q0 = col0 + tx, q1 = q0 + 16;
    if (r0 < M && q0 < N) C[r0 * N + q0] = c00;
    if (r0 < M && q1 < N) C[r0 * N + q1] = c01;
    if (r1 < M && q0 < N) C[r1 * N + q0] = c10;
    if (r1 < M && q1 < N) C[r1 * N + q1] = c11;
}
