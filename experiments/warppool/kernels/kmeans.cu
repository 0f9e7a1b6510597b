// kmeans.cu -- the first kernel of Rodinia's k-means (invert_mapping): the
// feature matrix, point-major (npoints x nfeatures), is transposed to
// feature-major so that the clustering kernel reads it coalesced:
//   out[i * npoints + p] = in[p * nfeatures + i].
// A thread per point: each load of a warp touches a line per lane (the
// rows are nfeatures floats apart) and the next features reuse those lines
// if the L1 keeps them.  Blocks of 256.
extern "C" __global__ void kmeans_invert(int npoints, int nfeatures, const float *in, float *out)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints) return;
    for (int i = 0; i < nfeatures; i++) out[i * npoints + p] = in[p * nfeatures + i];
}
