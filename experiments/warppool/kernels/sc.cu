// sc.cu -- the gain computation of online clustering (the algorithm of
// Rodinia's streamcluster, pgain): for a candidate centre x, each point p (a
// thread) computes what reassigning it to x would save:
//   d = weight[p] * |coord(p) - coord(x)|^2  (coordinates dimension-major:
//       coord[i * num + p], so the warp's loads are coalesced);
//   if d < cost[p]:  switch[p] = 1, work[p * (k + 1) + k] = d - cost[p]
//   else:            work[p * (k + 1) + center[assign[p]]] = cost[p] - d
// The work rows are k + 1 floats per point: a warp's stores and the
// center[] gathers touch a line per lane or nearly (memory-divergent).
// Blocks of 256.
extern "C" __global__ void sc_pgain(int num, int dim, int k, int x, const float *coord, const float *weight,
                                    const float *cost, const int *assign, const int *center, int *sw, float *work)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= num) return;
    float d = 0.0f;
    for (int i = 0; i < dim; i++) {
        float t = coord[i * num + p] - coord[i * num + x];
        d += t * t;
    }
    d *= weight[p];
    float c = cost[p];
    if (d < c) {
        sw[p] = 1;
        work[p * (k + 1) + k] = d - c;
    } else {
        work[p * (k + 1) + center[assign[p]]] = c - d;
    }
}
