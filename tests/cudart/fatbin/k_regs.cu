// k_regs.cu -- kernels whose register counts differ, for the cubin reader
// (t_fatbin's fatbin_cubin_regs; regen.sh makes k_regs*.fatbin from it).
extern "C" __global__ void r_small(float *a) { a[threadIdx.x] += 1.0f; }

// 24 loads kept live together: ptxas gives this one many more registers
extern "C" __global__ void r_wide(float *a, int n)
{
    float v[24];
    for (int i = 0; i < 24; i++) v[i] = a[i * n + threadIdx.x];
    float s = 0;
    for (int i = 0; i < 24; i++) s += v[i] * v[(i * 7) % 24];
    a[threadIdx.x] = s;
}
