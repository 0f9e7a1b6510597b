// pf.cu -- the likelihood step of a particle filter tracking an object in a
// video (the algorithm of Rodinia's particlefilter): each particle (a
// thread) looks at the pixels of a disk around its estimated position in
// frame k and scores them:
//   likelihood[p] = sum over the disk's offsets (dx, dy) of
//                   ((I - 100)^2 - (I - 228)^2) / 50,  I = video[(x, y, k)],
//   x = round(px[p]) + dx, y = round(py[p]) + dy (clamped to the frame),
// divided by the disk's size.  The video is ix x iy pixels x nfr frames,
// stored pixel-major (frame fastest): the pixel (x, y, k) is at
// (x iy + y) nfr + k.  Particles are scattered around one position, so
// the lanes of a warp read different pixels (memory-divergent) that other
// warps read too.  Blocks of 256.
extern "C" __global__ void pf_likelihood(int np, int ndisk, int ix, int iy, int nfr, int k, const float *px,
                                         const float *py, const int *disk, const float *video, float *likelihood)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= np) return;
    int x0 = (int)roundf(px[p]), y0 = (int)roundf(py[p]);
    float s = 0.0f;
    for (int d = 0; d < ndisk; d++) {
        int x = min(max(x0 + disk[2 * d], 0), ix - 1);
        int y = min(max(y0 + disk[2 * d + 1], 0), iy - 1);
        float v = video[(x * iy + y) * nfr + k];
        s += ((v - 100.0f) * (v - 100.0f) - (v - 228.0f) * (v - 228.0f)) / 50.0f;
    }
    likelihood[p] = s / (float)ndisk;
}
