// mrig.cu -- the gridding step of non-Cartesian MRI reconstruction (the
// algorithm of Parboil's mri-gridding, its third kernel, in two dimensions):
// k-space samples (x, y, re, im), already sorted into the g x g bins of the
// grid (bin b holds samples start[b] .. start[b + 1] - 1), are interpolated
// onto the grid: each grid point (a thread) visits the bins within `w` of
// its own and adds every sample closer than r with the weight
// (1 - d^2 / r^2)^2 (a smooth, compact kernel standing in for Kaiser-Bessel).
// Neighbouring points read the same bins' samples: the lanes of a warp
// read several bins (memory-divergent) that neighbouring warps read too.
// Blocks of 32 x 8, grid (g/32, g/8).
extern "C" __global__ void mrig_gridding(int g, int w, float r, const int *start, const float4 *samples, float2 *grid)
{
    int gx = blockIdx.x * blockDim.x + threadIdx.x;
    int gy = blockIdx.y * blockDim.y + threadIdx.y;
    if (gx >= g || gy >= g) return;
    float re = 0.0f, im = 0.0f, r2 = r * r;
    for (int by = max(gy - w, 0); by <= min(gy + w, g - 1); by++)
        for (int bx = max(gx - w, 0); bx <= min(gx + w, g - 1); bx++) {
            int b = by * g + bx;
            for (int s = start[b]; s < start[b + 1]; s++) {
                float4 q = samples[s];
                float dx = q.x - (float)gx, dy = q.y - (float)gy, d2 = dx * dx + dy * dy;
                if (d2 < r2) {
                    float t = 1.0f - d2 / r2;
                    re += t * t * q.z;
                    im += t * t * q.w;
                }
            }
        }
    grid[gy * g + gx] = make_float2(re, im);
}
