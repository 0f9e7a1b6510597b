// cutcp.cu -- cutoff Coulombic potential (Parboil's cutcp): atoms sorted into
// cubic bins; each thread block covers a cube of grid points, loops over the
// neighbourhood of bins (a fixed list of offsets), stages each bin's atoms in
// shared memory, and every thread accumulates the potential of CUTCP_PTS
// points inside the cutoff with the smooth switching function
// s(r2) = (1 - r2 / c2)^2.
#define CUTCP_BIN 8          /* atoms per bin (padded with q = 0) */
#define CUTCP_PTS 8          /* grid points per thread, along z */
#define CUTCP_NB 27          /* neighbour bins: 3 x 3 x 3 */
extern "C" __global__ void __launch_bounds__(128)
cutcp_kernel(const float4 *bins, int nbx, float h, float c2, float *grid)
{
    __shared__ float4 sb[CUTCP_BIN];
    /* block = 8 x 4 x 4 threads, each CUTCP_PTS points along z: an 8 x 4 x 16 cube */
    int bx = blockIdx.x % nbx, by = (blockIdx.x / nbx) % nbx, bz = blockIdx.x / (nbx * nbx);
    int tx = threadIdx.x & 7, ty = (threadIdx.x >> 3) & 3, tz = threadIdx.x >> 5;
    float px = (bx * 8 + tx) * h, py = (by * 8 + ty * 2) * h, pz0 = (bz * 8 + tz * 2) * h;
    float e[CUTCP_PTS];
#pragma unroll
    for (int k = 0; k < CUTCP_PTS; k++) e[k] = 0.0f;
    for (int nb = 0; nb < CUTCP_NB; nb++) {
        int ox = bx + nb % 3 - 1, oy = by + (nb / 3) % 3 - 1, oz = bz + nb / 9 - 1;
        bool ok = ox >= 0 && oy >= 0 && oz >= 0 && ox < nbx && oy < nbx && oz < nbx;
        __syncthreads();
        if (threadIdx.x < CUTCP_BIN)
            sb[threadIdx.x] = ok ? bins[((oz * nbx + oy) * nbx + ox) * CUTCP_BIN + threadIdx.x]
                                 : make_float4(1e10f, 1e10f, 1e10f, 0.0f); /* beyond every cutoff */
        __syncthreads();
        for (int a = 0; a < CUTCP_BIN; a++) {
            float4 at = sb[a];
            float dx = px - at.x, dy = py - at.y, dxy2 = dx * dx + dy * dy;
            float dz = pz0 - at.z;
#pragma unroll
            for (int k = 0; k < CUTCP_PTS; k++) {
                float r2 = dxy2 + dz * dz;
                if (r2 < c2) {
                    float s = 1.0f - r2 / c2;
                    e[k] += at.w * rsqrtf(r2) * s * s;
                }
                dz += 0.25f * h;
            }
        }
    }
    int gx = nbx * 8;
#pragma unroll
    for (int k = 0; k < CUTCP_PTS; k++) {
        int x = bx * 8 + tx, y = by * 8 + ty * 2, z = bz * 8 + tz * 2;
        grid[((z * gx + y) * gx + x) * CUTCP_PTS + k] = e[k];
    }
}
