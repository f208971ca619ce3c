#include <cstdint>
struct S { int a; float b; double c; };
__device__ __noinline__ int sq(int x) { return x * x + 1; }
__device__ __noinline__ float fs(S s, float y) { return s.a + s.b * y + (float)s.c; }
__device__ __noinline__ void nothing(int *p) { if (p) *p = 3; }
__constant__ float cvals[16] = {1.0f, 2.0f};
__device__ int gcount = 5;
__global__ void __launch_bounds__(256, 2) k1(const float4 *__restrict__ in, float4 *out, unsigned char *bytes, short *sh, long long *ll, double *d, int n, S s)
{
    __shared__ int sm[64];
    __shared__ double smd[32];
    extern __shared__ float dyn[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = in[i];
    v.x += cvals[i & 15];
    out[i] = v;
    bytes[i] = bytes[i] + 1;
    sh[i] = sh[i] * 3;
    ll[i] = ll[i] / (i + 1) + ll[i] % 7;
    d[i] = sqrt(d[i]) + exp(d[i]) ;
    sm[threadIdx.x & 63] = sq(i) + sq(i + 1);
    smd[threadIdx.x & 31] = d[i];
    dyn[threadIdx.x] = fs(s, v.y);
    __syncthreads();
    atomicAdd(&sm[0], 1);
    atomicMax(&sm[1], i);
    atomicCAS(&sm[2], 0, i);
    atomicExch((unsigned*)&sm[3], 5u);
    atomicAdd((unsigned long long*)ll, 1ull);
    atomicAdd(&gcount, 1);
    atomicInc((unsigned*)&sm[4], 10u);
    atomicAdd(d, 1.0);
    nothing(&sm[5]);
    unsigned m = __activemask();
    int x = __shfl_xor_sync(m, i, 1);
    x += __shfl_up_sync(m, i, 2);
    x += __shfl_sync(m, i, 3);
    x += __popc(x) + __clz(x) + __brev(x) + __ffs(x) + __byte_perm(x, i, 0x3210);
    x += __all_sync(m, x > 0) + __any_sync(m, x < 0) + __uni_sync(m, x);
    x += __mul24(x, i) + __umulhi(x, i) + __sad(x, i, 3) + __hadd(x, i);
    x = min(x, i) + max(x, 3) + abs(x);
    __threadfence();
    __threadfence_block();
    out[i].w = __fdividef(v.x, v.y) + __sinf(v.x) + __cosf(v.y) + __expf(v.z) + __logf(v.w) + rsqrtf(v.x) + tanhf(v.y) + copysignf(v.x, v.y) + (float)x + sm[0] + smd[i&31];
    __syncwarp();
    float y = v.x; 
    y = fminf(y, v.y); y = fmaxf(y, v.z); y = floorf(y) + ceilf(y) + truncf(y) + roundf(y) + rintf(y);
    out[i].z = y / v.z;
    d[i] += (double)y / d[i];
    unsigned u = (unsigned)y; long long q = (long long)d[i]; unsigned long long uq = (unsigned long long)d[i];
    ll[i] = q + uq + u + (ll[i] >> 3) + ((unsigned long long)ll[i] >> 5);
    bool b = (v.x < v.y) || (v.z != v.z);
    out[i].y = b ? 1.0f : 2.0f;
}
