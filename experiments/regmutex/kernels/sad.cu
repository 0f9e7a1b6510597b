// sad.cu -- sums of absolute differences for motion estimation (Parboil's
// sad): for every 4 x 4 block of the current frame and every displacement
// of a +-SAD_R search window in the reference frame, the SAD; a warp takes
// one block, each thread (27 of 32) SAD_PER consecutive displacements of a
// row, keeping the block's 16 pixels in registers; SAD_BPC blocks per CTA.
#define SAD_R 4
#define SAD_W (2 * SAD_R + 1)
#define SAD_PER 3
#define SAD_BPC 4
extern "C" __global__ void __launch_bounds__(32 * SAD_BPC)
sad_kernel(const unsigned short *cur, const unsigned short *ref, int width, int height, unsigned short *sads)
{
    int blk = blockIdx.x * SAD_BPC + threadIdx.x / 32, bw = width / 4;
    int bx = (blk % bw) * 4, by = (blk / bw) * 4;
    int t = threadIdx.x % 32;                 /* 0 .. SAD_W * SAD_W / SAD_PER - 1: 27 of 32 threads */
    if (t >= SAD_W * SAD_W / SAD_PER) return;
    int dy = t / (SAD_W / SAD_PER) - SAD_R, dx0 = (t % (SAD_W / SAD_PER)) * SAD_PER - SAD_R;
    unsigned c[16];
#pragma unroll
    for (int i = 0; i < 16; i++) c[i] = cur[(by + i / 4) * width + bx + i % 4];
#pragma unroll
    for (int d = 0; d < SAD_PER; d++) {
        int dx = dx0 + d;
        unsigned s = 0;
#pragma unroll
        for (int i = 0; i < 16; i++) {
            int yy = by + i / 4 + dy, xx = bx + i % 4 + dx;
            yy = yy < 0 ? 0 : yy >= height ? height - 1 : yy;
            xx = xx < 0 ? 0 : xx >= width ? width - 1 : xx;
            int r = ref[yy * width + xx];
            s += (unsigned)abs((int)c[i] - r);
        }
        sads[blk * SAD_W * SAD_W + (dy + SAD_R) * SAD_W + dx + SAD_R] = (unsigned short)s;
    }
}
