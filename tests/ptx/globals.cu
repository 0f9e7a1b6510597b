// globals.cu -- fixture: module variables and their initializers (arrays,
// floats, symbol addresses with generic() and offsets, byte masks of
// addresses in packed structs, function-pointer tables).
struct P { int a; int *p; char c; float *q; };
struct __attribute__((packed)) Q { char c; int *p; };
__device__ int xs[4];
__device__ float ys[2][3] = {{1, 2, 3}, {4, 5, 6}};
__device__ P pp = {3, xs + 1, 'x', 0};
__device__ Q q = {'a', xs + 1};
__device__ int *ptr = xs + 3;
__device__ double dd = 1.5;
__device__ long long ll = -5;
__device__ char str[] = "hi";
__constant__ unsigned long long big = 0xFFFFFFFFFFFFFFFFull;
__device__ short sh = -3;
__device__ void *vp = (void *)&dd;
__device__ __managed__ int managed_x = 7;
__device__ int g(int x) { return x + 1; }
__device__ int (*fp)(int) = g;

__global__ void gk(long long *o)
{
    o[0] = *ptr + pp.a + (int)dd + ll + str[0] + big + sh + (long long)vp + *q.p + fp(1) + managed_x +
           (int)ys[1][2];
}
