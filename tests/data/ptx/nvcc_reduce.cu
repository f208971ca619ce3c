__device__ int helper(int a, int b) { return a > b ? a*3 : b+7; }
__device__ __noinline__ int helper2(int a, int b) { int s=0; for(int i=0;i<a;i++) s+= (i&1)? b : i; return s; }
extern "C" __global__ void reduce(const float *in, float *out, int n) {
  __shared__ float sdata[256];
  extern __shared__ int dyn[];
  int t = threadIdx.x; int i = blockIdx.x*blockDim.x + t;
  sdata[t] = i < n ? in[i] : 0.f;
  dyn[t] = helper2(t, i);
  __syncthreads();
  for (int s = blockDim.x/2; s>0; s>>=1) { if (t < s) sdata[t] += sdata[t+s]; __syncthreads(); }
  unsigned m = __ballot_sync(0xffffffff, sdata[t] > 1.0f);
  float v = __shfl_down_sync(0xffffffff, sdata[t], 4);
  if (t == 0) { out[blockIdx.x] = sdata[0] + v + m + dyn[3]; atomicAdd(out, 1.0f); }
  double d = sqrt((double)i);
  out[i] = (float)d + __sinf(v) + sinf(v);
}
