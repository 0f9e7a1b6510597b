// lavamd.cu -- Rodinia's lavaMD: particles in a 3D grid of boxes; every
// particle of a home box sums the potential and force of the particles of
// its box and its neighbour boxes (27 at most), staged in shared memory, with
// the interaction exp(-a2 r2).
#define LMD_PB 128            /* particles per box = threads per block */
extern "C" __global__ void __launch_bounds__(LMD_PB)
lavamd_kernel(int nb, float alpha, const float4 *rv, const float *qv, float4 *fv)
{
    __shared__ float4 srv[LMD_PB];
    __shared__ float sq[LMD_PB];
    int box = blockIdx.x, t = threadIdx.x;
    int bx = box % nb, by = (box / nb) % nb, bz = box / (nb * nb);
    float a2 = 2.0f * alpha * alpha;
    float4 ri = rv[box * LMD_PB + t];
    float4 fi = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k = 0; k < 27; k++) {
        int nx = bx + k % 3 - 1, ny = by + (k / 3) % 3 - 1, nz = bz + k / 9 - 1;
        if (nx < 0 || ny < 0 || nz < 0 || nx >= nb || ny >= nb || nz >= nb) continue;
        int nbox = (nz * nb + ny) * nb + nx;
        __syncthreads();
        srv[t] = rv[nbox * LMD_PB + t];
        sq[t] = qv[nbox * LMD_PB + t];
        __syncthreads();
        for (int j = 0; j < LMD_PB; j++) {
            float4 rj = srv[j];
            float r2 = ri.w + rj.w - (ri.x * rj.x + ri.y * rj.y + ri.z * rj.z);
            float u2 = a2 * r2, vij = __expf(-u2), fs = 2.0f * vij;
            float dx = ri.x - rj.x, dy = ri.y - rj.y, dz = ri.z - rj.z;
            float fxij = fs * dx, fyij = fs * dy, fzij = fs * dz;
            fi.w += sq[j] * vij;
            fi.x += sq[j] * fxij;
            fi.y += sq[j] * fyij;
            fi.z += sq[j] * fzij;
        }
    }
    fv[box * LMD_PB + t] = fi;
}
