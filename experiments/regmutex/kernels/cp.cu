// cp.cu -- direct Coulombic potential on a 2D slice of a grid (Parboil's cp):
// every thread computes the potential at CP_UNROLL grid points of a row from
// all atoms, which sit in constant memory as (x, y, z^2 precomputed, q).
#define CP_UNROLL 8
#define CP_MAXATOMS 1000
__constant__ float4 cp_atoms[CP_MAXATOMS];

extern "C" __global__ void __launch_bounds__(128)
cp_kernel(int natoms, float spacing, float *grid, int width)
{
    int xi = (blockIdx.x * blockDim.x + threadIdx.x) * CP_UNROLL;
    int yi = blockIdx.y;
    float y = spacing * yi, x0 = spacing * xi;
    float e[CP_UNROLL];
#pragma unroll
    for (int k = 0; k < CP_UNROLL; k++) e[k] = 0.0f;
    for (int a = 0; a < natoms; a++) {
        float4 at = cp_atoms[a];
        float dy = y - at.y, dyz2 = dy * dy + at.z;
        float dx = x0 - at.x;
#pragma unroll
        for (int k = 0; k < CP_UNROLL; k++) {
            e[k] += at.w * rsqrtf(dx * dx + dyz2);
            dx += spacing;
        }
    }
#pragma unroll
    for (int k = 0; k < CP_UNROLL; k++) grid[yi * width + xi + k] += e[k];
}
