/* capture.c -- stream capture.  (Capture is not begun by any entry point
** yet: cuStreamBeginCapture is a stub, so no stream ever captures.) */
#include "api.h"

CUresult api_capture_issue_check(api_ctx *c, api_stream *q) { (void)c; (void)q; return CUDA_SUCCESS; }
CUresult api_capture_add(api_stream *q, api_work *w, api_event *const *waits, uint32_t nwaits)
{
    (void)q; (void)w; (void)waits; (void)nwaits;
    return CUDA_ERROR_NOT_SUPPORTED;
}
CUresult api_capture_record(api_ctx *c, api_stream *s, api_event *e, unsigned flags)
{
    (void)c; (void)s; (void)e; (void)flags;
    return CUDA_ERROR_NOT_SUPPORTED;
}
CUresult api_capture_wait_event(api_ctx *c, api_stream *s, api_event *e, unsigned flags)
{
    (void)c; (void)s; (void)e; (void)flags;
    return CUDA_ERROR_NOT_SUPPORTED;
}
void api_capture_invalidate(api_capture *cap) { (void)cap; }
CUresult api_capture_unsafe(api_ctx *c, const char *what) { (void)c; (void)what; return CUDA_SUCCESS; }
CUresult api_capture_sync_check(api_ctx *c, api_stream *s) { (void)c; (void)s; return CUDA_SUCCESS; }
void api_capture_ctx_gone(api_ctx *c) { (void)c; }

static CUresult is_capturing(CUstream h, CUstreamCaptureStatus *st)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if (!st) return CUDA_ERROR_INVALID_VALUE;
    *st = CU_STREAM_CAPTURE_STATUS_NONE;
    return CUDA_SUCCESS;
}

CUresult cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
    API_LOCKED(is_capturing(hStream, captureStatus));
}
API_ALIAS(cuStreamIsCapturing, "cuStreamIsCapturing_ptsz");
