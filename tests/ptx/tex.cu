// tex.cu -- fixture: texture and surface instructions (tex.level/.grad,
// tld4, array and cube geometries, suld/sust, txq/suq).
__global__ void tk(float4 *o, cudaTextureObject_t t, cudaTextureObject_t t1, cudaTextureObject_t t3,
                   cudaSurfaceObject_t s, int *io)
{
    int i = threadIdx.x;
    float x = i * 0.5f;
    o[i] = tex2DLod<float4>(t, x, x, 1.5f);
    o[i + 1] = tex2DGrad<float4>(t, x, x, make_float2(1, 2), make_float2(3, 4));
    o[i + 2] = tex2Dgather<float4>(t, x, x, 2);
    io[i] = tex1Dfetch<int>(t1, i);
    o[i + 3] = tex3D<float4>(t3, x, x, x);
    o[i + 4] = texCubemap<float4>(t3, x, x, x);
    o[i + 5] = tex2DLayered<float4>(t, x, x, 3);
    surf1Dwrite(i, s, i * 4);
    io[i + 1] = surf1Dread<int>(s, i * 4, cudaBoundaryModeZero);
    surf3Dwrite(make_float4(1, 2, 3, 4), s, i * 16, 1, 2, cudaBoundaryModeClamp);
    unsigned w;
    asm("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(t));
    io[i + 2] = w;
    asm("suq.width.b32 %0, [%1];" : "=r"(w) : "l"(s));
    io[i + 3] = w;
}
