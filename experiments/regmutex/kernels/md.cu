// md.cu -- Lennard-Jones forces over a neighbour list (SHOC's MD): each
// thread takes one atom and sums the force of its MD_NEIGH neighbours within
// the cutoff.
#define MD_NEIGH 32
extern "C" __global__ void __launch_bounds__(256)
md_kernel(float4 *force, const float4 *position, int natoms, const int *neighList, float cutsq, float lj1,
          float lj2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= natoms) return;
    float4 ipos = position[i];
    float4 f = {0.0f, 0.0f, 0.0f, 0.0f};
    int j = 0;
    while (j < MD_NEIGH) {
        int jidx = neighList[j * natoms + i];
        float4 jpos = position[jidx];
        float delx = ipos.x - jpos.x, dely = ipos.y - jpos.y, delz = ipos.z - jpos.z;
        float r2inv = delx * delx + dely * dely + delz * delz;
        if (r2inv < cutsq) {
            r2inv = 1.0f / r2inv;
            float r6inv = r2inv * r2inv * r2inv;
            float fmag = r2inv * r6inv * (lj1 * r6inv - lj2);
            f.x += delx * fmag;
            f.y += dely * fmag;
            f.z += delz * fmag;
        }
        j++;
    }
    force[i] = f;
}
