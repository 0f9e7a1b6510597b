// radixsort.cu -- the local stage of an LSD radix sort (the NVIDIA SDK's
// radixSort): each block sorts its RS_PER keys in shared memory by RS_BITS
// bits at a time with split passes (one bit: flag, prefix scan, scatter);
// each thread handles 4 keys.
#define RS_THREADS 256
#define RS_PER (RS_THREADS * 4)
__device__ unsigned rs_scan_block(unsigned v, unsigned *tmp)
{
    /* exclusive scan of one value per thread, Hillis-Steele in shared memory */
    int t = threadIdx.x;
    tmp[t] = v;
    __syncthreads();
    for (int off = 1; off < RS_THREADS; off <<= 1) {
        unsigned a = t >= off ? tmp[t - off] : 0;
        __syncthreads();
        tmp[t] += a;
        __syncthreads();
    }
    unsigned incl = tmp[t];
    __syncthreads();
    return incl - v;
}

extern "C" __global__ void __launch_bounds__(RS_THREADS)
radix_local(unsigned *keys, int startbit, int nbits)
{
    __shared__ unsigned sk[RS_PER];
    __shared__ unsigned tmp[RS_THREADS];
    __shared__ unsigned total;
    unsigned *g = keys + blockIdx.x * RS_PER;
    int t = threadIdx.x;
    unsigned k0 = g[4 * t], k1 = g[4 * t + 1], k2 = g[4 * t + 2], k3 = g[4 * t + 3];
    for (int b = startbit; b < startbit + nbits; b++) {
        /* keys whose bit is 0 keep their order first, then the ones */
        unsigned f0 = !((k0 >> b) & 1), f1 = !((k1 >> b) & 1), f2 = !((k2 >> b) & 1), f3 = !((k3 >> b) & 1);
        unsigned cnt = f0 + f1 + f2 + f3;
        unsigned pre = rs_scan_block(cnt, tmp);
        if (t == RS_THREADS - 1) total = pre + cnt;
        __syncthreads();
        unsigned zeros = total, i0 = 4 * t;
        unsigned p0 = pre, p1 = p0 + f0, p2 = p1 + f1, p3 = p2 + f2;
        unsigned d0 = f0 ? p0 : zeros + i0 - p0;
        unsigned d1 = f1 ? p1 : zeros + i0 + 1 - p1;
        unsigned d2 = f2 ? p2 : zeros + i0 + 2 - p2;
        unsigned d3 = f3 ? p3 : zeros + i0 + 3 - p3;
        sk[d0] = k0;
        sk[d1] = k1;
        sk[d2] = k2;
        sk[d3] = k3;
        __syncthreads();
        k0 = sk[4 * t];
        k1 = sk[4 * t + 1];
        k2 = sk[4 * t + 2];
        k3 = sk[4 * t + 3];
        __syncthreads();
    }
    g[4 * t] = k0;
    g[4 * t + 1] = k1;
    g[4 * t + 2] = k2;
    g[4 * t + 3] = k3;
}
