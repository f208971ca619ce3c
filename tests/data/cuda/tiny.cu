// tiny.cu -- the program whose fatbinary sections tests/test_fatbin.c reads
// (tests/data/cuda/make.sh compiles it in each form; the bytes are checked in).
__global__ void tiny(int *p) { p[threadIdx.x] = threadIdx.x * 3 + 1; }
int main() { return 0; }
