// mergesort.cu -- the block stage of the NVIDIA SDK's mergeSort: each block
// sorts MS_N keys (with values) in shared memory by merging runs of 1, 2,
// 4 ... elements; every thread places two elements per step by a binary
// search of its element's rank in the partner run.
#define MS_N 512
__device__ __forceinline__ unsigned ms_rank_incl(unsigned v, const unsigned *run, unsigned len)
{
    unsigned lo = 0, hi = len;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (run[mid] <= v) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}
__device__ __forceinline__ unsigned ms_rank_excl(unsigned v, const unsigned *run, unsigned len)
{
    unsigned lo = 0, hi = len;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (run[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

extern "C" __global__ void __launch_bounds__(MS_N / 2)
merge_block(unsigned *keys, unsigned *vals)
{
    __shared__ unsigned sk[MS_N], sv[MS_N];
    unsigned *gk = keys + blockIdx.x * MS_N, *gv = vals + blockIdx.x * MS_N;
    int t = threadIdx.x;
    sk[t] = gk[t];
    sv[t] = gv[t];
    sk[t + MS_N / 2] = gk[t + MS_N / 2];
    sv[t + MS_N / 2] = gv[t + MS_N / 2];
    for (unsigned stride = 1; stride < MS_N; stride <<= 1) {
        unsigned lpos = t & (stride - 1);
        unsigned *bk = sk + 2 * (t - lpos), *bv = sv + 2 * (t - lpos);
        __syncthreads();
        unsigned ka = bk[lpos], va = bv[lpos], kb = bk[lpos + stride], vb = bv[lpos + stride];
        unsigned pa = ms_rank_excl(ka, bk + stride, stride) + lpos;
        unsigned pb = ms_rank_incl(kb, bk, stride) + lpos;
        __syncthreads();
        bk[pa] = ka;
        bv[pa] = va;
        bk[pb] = kb;
        bv[pb] = vb;
    }
    __syncthreads();
    gk[t] = sk[t];
    gv[t] = sv[t];
    gk[t + MS_N / 2] = sk[t + MS_N / 2];
    gv[t + MS_N / 2] = sv[t + MS_N / 2];
}
