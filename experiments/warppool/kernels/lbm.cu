// lbm.cu -- one step of a lattice-Boltzmann fluid simulation (the algorithm
// of Parboil's lbm: D3Q19, BGK collision, then streaming), on an nx x ny x nz
// periodic grid.  Cells are stored cell-major (array of structures): the 19
// distributions of cell c are f[c * 20 + e] (20 floats per cell, the last
// unused), so a warp's load of direction e touches 32 x 80 bytes = 20 lines,
// which its loads of the other directions reuse if the L1 keeps them.  Each
// thread collides its cell and writes each post-collision value to the
// neighbour the direction points to: dst[neighbour * 20 + e].  Blocks of
// 128 along x.
__constant__ int lbm_ex[19] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
__constant__ int lbm_ey[19] = {0, 0, 0, 1, -1, 0, 0, 1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
__constant__ int lbm_ez[19] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};
__constant__ float lbm_w[19] = {1.0f / 3,  1.0f / 18, 1.0f / 18, 1.0f / 18, 1.0f / 18, 1.0f / 18, 1.0f / 18,
                                1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36,
                                1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36};

extern "C" __global__ void lbm_step(int nx, int ny, int nz, float omega, const float *src, float *dst)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
    if (x >= nx) return;
    int c = (z * ny + y) * nx + x;
    float f[19], rho = 0.0f, ux = 0.0f, uy = 0.0f, uz = 0.0f;
    for (int e = 0; e < 19; e++) {
        f[e] = src[c * 20 + e];
        rho += f[e];
        ux += f[e] * lbm_ex[e];
        uy += f[e] * lbm_ey[e];
        uz += f[e] * lbm_ez[e];
    }
    ux /= rho;
    uy /= rho;
    uz /= rho;
    float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
    for (int e = 0; e < 19; e++) {
        float eu = 3.0f * (lbm_ex[e] * ux + lbm_ey[e] * uy + lbm_ez[e] * uz);
        float feq = lbm_w[e] * rho * (1.0f + eu + 0.5f * eu * eu - u2);
        int xn = (x + lbm_ex[e] + nx) % nx, yn = (y + lbm_ey[e] + ny) % ny, zn = (z + lbm_ez[e] + nz) % nz;
        dst[((zn * ny + yn) * nx + xn) * 20 + e] = f[e] + omega * (feq - f[e]);
    }
}
