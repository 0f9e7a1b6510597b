// stream.cu -- DRAM bandwidth with streaming kernels (tpsim's
// microbenchmarks, see README.md).  Compiled with: nvcc -ptx -arch=sm_75 -O3.
//
// ub_copy:  b[i] = a[i] for i < n          (4 bytes read + 4 written per element)
// ub_read:  sum[t] = a[t] + a[t + T] + ...  (4 bytes read per element, 4 written per thread)
// Many CTAs of 256 threads, one full wave: the host launches as many as the
// device holds at once (multiprocessors x max threads per multiprocessor /
// 256; 15 x 6 = 90 on the GTX 480), with a grid-stride loop, so every warp
// load and store is 32 consecutive floats: one fully coalesced 128-byte line.
// The arrays are far larger than the L2 (the host streams 4 x L2 and 8 x L2
// bytes of input, see below), so the lines come from and go to DRAM.
//
// Timing: thread 0 of every CTA reads clock64 when the CTA starts and again
// after a barrier at its end, and folds them into span[0] = min(start) and
// span[1] = max(end) with 64-bit atomics.  span[1] - span[0] covers the
// streaming from the first CTA's start to the last CTA's end, whichever SM
// and order they ran in.  We measure on the device rather than reading the
// kernel's cycles from the statistics because the same program then works on
// a GPU (where only events or clocks exist) and leaves out launch overheads;
// tpsim's %clock64 is one simulated cycle count for the whole GPU, so starts
// and ends of different SMs compare.  Stores still in flight at the last
// CTA's end are not counted, and the ramp-up is: the host cancels both by
// running each kernel twice on the same grid, with n and 2n elements (every
// per-thread and per-CTA cost -- the trip-count division nvcc emits, the
// barrier, the atomics -- is then the same in both), and reporting
//   bandwidth = (bytes(2n) - bytes(n)) / (span(2n) - span(n))   bytes/cycle,
// the steady-state rate.  Each timed launch follows an identical untimed one,
// which leaves the caches as the timed one will leave them: a write-back L2
// then holds as many dirty lines at the timed run's start as at its end, so
// the run writes back what it writes and nothing else (without the untimed
// launch the n run also wrote back the host copy's dirty lines and the 2n
// run the n run's, the difference understated the time, and tpsim's rtx2060
// reported 205.7 and 240.8 bytes/cycle against a peak of 200).  The arrays
// are sized from the larger of --l2 and the device's own L2.
// A timing model's peak DRAM rate is, in core cycles,
//   dram.channels x dram.bus_bytes x dram.data_rate x clock.dram_mhz / clock.core_mhz
// = 6 x 8 x 4 x 924 / 700 = 253.4 bytes/cycle for the GTX 480, and
// bw_dram_read, bw_dram_copy must come out below it: by row switches
// (tRP + tRCD per new row, hidden by bank parallelism when FR-FCFS finds
// other banks' work), write-to-read turnarounds (tCDLR, tWL: copy only), and
// whatever the crossbar (icnt.flit_bytes per port per icnt cycle) and the L2
// slices deliver, and refresh (tRFC every tREFI).  On the rtx2060 model
// (GDDR6 at its data sheet's timings) expect read and copy at about 70-85%
// of the peak; a real Turing card streams at 60-70%.
// In functional mode %clock64 counts warp instructions, so the values are
// bytes per warp instruction (functional.expected).
// Results: b == a (copy) and sum[t] (read) are checked by the host exactly:
// the data are small integers, so the float sums are exact.
extern "C" __global__ void ub_copy(const float *a, float *b, int n, unsigned long long *span)
{
    unsigned long long t0 = clock64();
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) b[i] = a[i];
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicMin(&span[0], t0);
        atomicMax(&span[1], (unsigned long long)clock64());
    }
}

extern "C" __global__ void ub_read(const float *a, float *sum, int n, unsigned long long *span)
{
    unsigned long long t0 = clock64();
    int stride = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int i = t; i < n; i += stride) s += a[i];
    sum[t] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicMin(&span[0], t0);
        atomicMax(&span[1], (unsigned long long)clock64());
    }
}
