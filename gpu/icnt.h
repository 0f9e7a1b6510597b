/*
** icnt.h -- the interconnect: two crossbars, SM ports -> L2 slices
** (requests) and L2 slices -> SM ports (replies).  Prefix gpu_icnt_.
** Time is counted in interconnect cycles; `period` converts a cycle to the
** memory system's common time base, in which queue ready times are written.
**
**   SM --inject[sm]--> [request crossbar] --> slice_in[s] (the L2's queue)
**   L2 --reply_in[s]--> [reply crossbar]  --> eject[sm] --> SM
**
** The input queues (inject: cfg.queue packets per SM; reply_in: cfg.queue
** per slice) and the SM ejection queues (cfg.eject_queue) are owned here;
** the slices' input queues are not (gpu_icnt_new takes them).
**
** A packet of B bytes is F = ceil(B / flit_bytes) flits:
**   request: a load is ctrl_bytes; a store or atomic ctrl_bytes + bytes
**   reply:   a load or atomic ctrl_bytes + bytes; a store's ack ctrl_bytes
** Each cycle c, every input whose head packet is ready and whose port is
** free asks for the output it is routed to (requests: the slice of r->addr
** by the address map; replies: r->sm).  An output that is free and whose
** destination queue has room grants one asker, round robin from the input
** after the one it granted last.  The granted packet holds its input port
** and its output port for F cycles (one flit per port per cycle) and is
** pushed into the destination queue at once (it holds its slot from now:
** credit flow control), ready at
**     time(c + latency + F - 1)
** (the head flit takes `latency` cycles, the tail follows F - 1 later).
** A head that is ready, on a free input port and a free output port, but
** finds its destination queue full, waits; each such cycle counts in
** stall_cycles (and in the destination queue's full_cycles).  Inputs are
** FIFO: a blocked head blocks the packets behind it.
**
** Output buffers (cfg.out_buffer flits; 0: none).  "Free" above is, for an
** output, that at most out_buffer flits of the packets it granted earlier
** still wait for its link.  A granted packet leaves its input one flit per
** cycle from c (its input port is held F cycles, as before), and the
** output's link sends it after those waiting, from s = max(c, the cycle the
** link is free), so that it arrives at time(s + latency + F - 1).  With no
** buffer s = c, and a head whose output is still sending blocks its input
** and every packet behind it (head-of-line blocking); with buffers it moves
** into the output's buffer and the packets behind it go on.  GPGPU-Sim's
** GTX 480 crossbar (intersim2: one router, internal speedup 2, output
** buffers bounded only by the destination's 64-flit buffer) is the latter.
*/
#ifndef GPU_ICNT_H
#define GPU_ICNT_H

#include "mreq.h"
#include "addrmap.h"
#include "../mem/queue.h"

typedef struct gpu_icntcfg {
    uint32_t nsm, nslice;
    uint32_t latency, flit_bytes, ctrl_bytes;
    uint32_t queue, eject_queue;
    uint32_t out_buffer;          /* flits each output may hold waiting for its link (0: none) */
    uint64_t period;              /* time units per interconnect cycle */
    bool no_park;                 /* tests: heads waiting on a full slice queue looked at every cycle */
} gpu_icntcfg;

typedef struct gpu_icntstats {
    uint64_t packets, flits;      /* both directions */
    uint64_t req_packets, reply_packets;
    uint64_t stall_cycles;        /* input-cycles a head waited for room in its destination */
} gpu_icntstats;

typedef struct gpu_icnt gpu_icnt;

/* slice_in: cfg->nslice queues (the slices' inputs). */
gpu_icnt *gpu_icnt_new(const gpu_icntcfg *cfg, const gpu_addrmap *map, mem_queue *const *slice_in);
void gpu_icnt_free(gpu_icnt *n);

mem_queue *gpu_icnt_inject(gpu_icnt *n, uint32_t sm);
/* SM sm's injection port has room; a request enters it, seen from `ready` on. */
bool gpu_icnt_can_accept(const gpu_icnt *n, uint32_t sm);
void gpu_icnt_accept(gpu_icnt *n, gpu_mreq *r, uint64_t ready);
mem_queue *gpu_icnt_reply_in(gpu_icnt *n, uint32_t slice);
mem_queue *gpu_icnt_eject(gpu_icnt *n, uint32_t sm);
/* A bit per SM (words of 64), set when the reply crossbar pushes into its
** ejection queue: every non-empty ejection queue has its bit set; a reader
** may clear the bit of a queue it finds empty (a superset kept small, so
** that the SMs with replies are found without looking at every queue). */
uint64_t *gpu_icnt_eject_mask(gpu_icnt *n);
/* Flits of r as a request (reply false) or as a reply. */
uint32_t gpu_icnt_flits(const gpu_icnt *n, const gpu_mreq *r, bool reply);

void gpu_icnt_tick(gpu_icnt *n, uint64_t cycle);
/* gpu_icnt_tick of the crossbars in dirs only.  A crossbar whose next
** event (gpu_icnt_next_dir) is after the cycle's time may be left out: its
** tick would move nothing, count no stall (a head waiting on a full
** destination is an event in every cycle) and leave its next event as it
** was; its gpu_icnt_ticked_next is then not updated (the caller keeps its
** own, lowered by the new heads as before). */
enum { GPU_ICNT_REQ = 1, GPU_ICNT_REP = 2 };
void gpu_icnt_tick_dirs(gpu_icnt *n, uint64_t cycle, unsigned dirs);
/* The earliest time (time base) at which a tick can move a packet. */
uint64_t gpu_icnt_next(const gpu_icnt *n);
/* The same for one crossbar (reply: the slices' to the SMs; else the SMs'
** to the slices): gpu_icnt_next is the smaller of the two.  The request
** crossbar's changes only with its inputs' heads and its own tick, the reply
** crossbar's only with what the slices push and its own tick, so a caller
** may keep each and recompute only the one that can have moved. */
uint64_t gpu_icnt_next_dir(const gpu_icnt *n, bool reply);
/* gpu_icnt_next_dir as the crossbar's last tick left it (found by the tick
** itself): equal to it until a packet enters one of the crossbar's empty
** inputs, when gpu_icnt_head_next of that input lowers it to the smaller of
** the two (the other inputs' answers stay).  UINT64_MAX before any tick. */
uint64_t gpu_icnt_ticked_next(const gpu_icnt *n, bool reply);
/* The earliest time input i of a crossbar (an SM's injection queue, or a
** slice's reply queue) can move its head packet (UINT64_MAX: none);
** gpu_icnt_next_dir is the smallest of these over the crossbar's inputs. */
uint64_t gpu_icnt_head_next(const gpu_icnt *n, bool reply, uint32_t i);
/* A packet entered input i of a crossbar while it was empty: the crossbar
** looks at that input again from its next tick (gpu_icnt_tick_dirs visits
** only the inputs it has seen packets enter, and gpu_icnt_tick_dirs'
** caller must say so for every such packet; gpu_icnt_tick looks at all).
** Returns gpu_icnt_head_next's answer for it. */
uint64_t gpu_icnt_new_head(gpu_icnt *n, bool reply, uint32_t i);
/* Parking.  A request whose slice's input queue is full waits (a stall
** each cycle) until the slice takes from that queue, which only the
** slice's tick does (the crossbar alone pushes into it).  The request
** crossbar parks such a head: it is left out of the arbitration and of the
** next event, and its stalls and the queue's full cycles are counted in
** bulk, as if looked at in every cycle, when the queue has room again.  So
** whoever runs the slices must say when one takes from its input queue:
** gpu_icnt_room(n, s, t), with t the time it did, returns the time from
** which the heads parked on it may move (UINT64_MAX: none parked, or still
** full), which lowers the crossbar's next event; gpu_icnt_parked gives,
** per slice, how many heads are parked on it (0: no need to call).  When
** the queue has room, the crossbar looks at the one head the round robin
** would pick among those parked on it; the others stay parked (they would
** lose at that cycle and stall again at the next one while the queue is
** full again: gpu/icnt.c, unpark and settle).
** gpu_icnt_sync(n, c) counts the parked heads' stalls of the cycles before
** c (before statistics are read in the middle of a run). */
const uint32_t *gpu_icnt_parked(const gpu_icnt *n);
uint64_t gpu_icnt_room(gpu_icnt *n, uint32_t slice, uint64_t t);
void gpu_icnt_sync(gpu_icnt *n, uint64_t cycle);
/* The slices whose input queues the last tick pushed into (*slices, the
** count returned): only their next events can have moved by it. */
uint32_t gpu_icnt_req_pushed(const gpu_icnt *n, const uint32_t **slices);
/* No packet in an input queue (ejection queues are the SMs' to empty). */
bool gpu_icnt_idle(const gpu_icnt *n);
const gpu_icntstats *gpu_icnt_stats(const gpu_icnt *n);

#endif
