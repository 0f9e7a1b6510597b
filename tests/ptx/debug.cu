// debug.cu -- fixture compiled with -G: .file/.loc directives, labels for
// debug ranges, .weak functions, and .section .debug_* blocks.
__device__ __noinline__ int sq(int x) { return x * x; }
__global__ void dk(int *o, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) s += sq(i);
    o[threadIdx.x] = s;
}
