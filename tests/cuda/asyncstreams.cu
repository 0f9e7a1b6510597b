// asyncstreams.cu -- device work runs while the host goes on: queries say
// cudaErrorNotReady while work is pending, host functions and stream
// callbacks run on another thread than the program's and may not wait for
// the device, and the CPU works while kernels run.  (It needs the device
// thread: under stream.async=0 its host function would wait forever.)
#include "check.h"
#include <atomic>
#include <cstring>
#include <thread>
#include <unistd.h>

__global__ void inc(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

static std::atomic<int> gate;
static std::thread::id main_id, fn_id, cb_id;
static cudaError_t cb_status = cudaErrorUnknown, cb_sync = cudaSuccess;

static void CUDART_CB wait_gate(void *)
{
    fn_id = std::this_thread::get_id();
    while (!gate.load()) usleep(1000);
}

static void CUDART_CB callback(cudaStream_t s, cudaError_t status, void *)
{
    cb_id = std::this_thread::get_id();
    cb_status = status;
    cb_sync = cudaStreamSynchronize(s);   // not permitted in a callback
}

int main()
{
    ck_start("asyncstreams");
    main_id = std::this_thread::get_id();
    const int n = 1 << 16;
    int *d, *h;
    CK(cudaMalloc(&d, n * sizeof(int)));
    CK(cudaMallocHost(&h, n * sizeof(int)));
    CK(cudaMemset(d, 0, n * sizeof(int)));
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    cudaEvent_t ev;
    CK(cudaEventCreate(&ev));

    // Load inc's module first: CUDA loads modules lazily, at a kernel's first
    // launch, and on a real GPU that launch waits for the stream's running
    // host function (an H200 hung in the launch below without this).
    inc<<<1, 32>>>(d, 0);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());

    // work held back by a host function: pending until the host lets it go
    CK(cudaLaunchHostFunc(s, wait_gate, NULL));
    inc<<<n / 256, 256, 0, s>>>(d, n);
    CK_LAUNCH();
    CK(cudaEventRecord(ev, s));
    CK(cudaStreamAddCallback(s, callback, NULL, 0));
    EXPECT(cudaStreamQuery(s) == cudaErrorNotReady, "stream query while work is pending");
    EXPECT(cudaEventQuery(ev) == cudaErrorNotReady, "event query while work is pending");
    gate.store(1);
    CK(cudaStreamSynchronize(s));
    CK(cudaStreamQuery(s));
    CK(cudaEventQuery(ev));
    EXPECT(fn_id != main_id && cb_id != main_id, "host function or callback ran on the program's thread");
    EXPECT(cb_status == cudaSuccess, "callback status %d", (int)cb_status);
    EXPECT(cb_sync == cudaErrorNotPermitted, "cudaStreamSynchronize in a callback returned %s",
           cudaGetErrorName(cb_sync));

    // the CPU works while a long kernel runs
    for (int r = 0; r < 20; r++) {
        inc<<<n / 256, 256, 0, s>>>(d, n);
        CK_LAUNCH();
    }
    CK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    CK(cudaEventRecord(ev, s));
    unsigned long counter = 0;
    while (cudaEventQuery(ev) == cudaErrorNotReady) counter++;
    cudaGetLastError();
    int bad = 0;
    for (int i = 0; i < n; i++) bad += h[i] != 21;
    EXPECT(bad == 0, "%d wrong values", bad);
    printf("CPU iterations while waiting: %s\n", counter > 0 ? "some" : "none");

    CK(cudaStreamDestroy(s));
    return ck_finish();
}
