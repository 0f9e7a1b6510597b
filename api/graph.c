/* graph.c -- graphs (not yet: no graph is ever made). */
#include "api.h"
void api_gexec_unref(api_gexec *gx) { (void)gx; }
void api_gexec_events(api_gexec *gx, api_op *op, void (*fn)(api_event *, api_op *)) { (void)gx; (void)op; (void)fn; }
void api_gexec_run(api_ctx *c, api_gexec *gx, const uint64_t *gens, api_stream *s) { (void)c; (void)gx; (void)gens; (void)s; }
