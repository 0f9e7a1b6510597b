// coop.cu -- cooperative groups inside a block.
//
// Covers: this_thread_block (group_index, thread_rank, size, sync),
// tiled_partition<32>, <16>, <8>, <4> (static tiles: thread_rank,
// meta_group_rank/size, shfl, shfl_down, shfl_xor, ballot, any, all,
// match_any),
// tiled_partition(block, 4) (a dynamic thread_group), cg::reduce with
// cg::plus, cg::greater (a max) and cg::bit_xor on tiles, cg::inclusive_scan
// and cg::exclusive_scan on a warp tile, coalesced_threads() inside a
// divergent branch (size, thread_rank, reduce, inclusive_scan over the
// active lanes), labeled_partition and binary_partition.  Every result is
// computed again on the CPU from the definitions.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <algorithm>
#include <cstdint>
#include <vector>

#include "check.h"

namespace cg = cooperative_groups;

struct Out {
    int sum32, max8, xor16, sum4;          // reductions over tiles
    int incl, excl;                        // scans over the warp
    int down, bfly, bcast;                 // shuffles in a 16-tile
    unsigned ballot;                       // 8-tile ballot of v odd
    int any, all;                          // 8-tile any(v > 450), all(v > -460)
    unsigned match8;                       // 8-tile match_any(v & 3)
    int meta_rank, meta_size;              // of the 16-tile
    int dyn_rank, dyn_size;                // of tiled_partition(block, 4)
    int co_size, co_rank, co_sum, co_scan; // coalesced_threads() where v % 3 == 0
    int lab_size, lab_rank, lab_sum;       // labeled_partition(warp, v & 3)
    int bin_size, bin_rank;                // binary_partition(warp, v < 0)
    int block_sum;                         // the whole block's sum
};

__global__ void groups(const int *in, Out *out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
    cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(block);
    cg::thread_group dyn = cg::tiled_partition(block, 4);
    int gid = block.group_index().x * block.size() + block.thread_rank();
    int v = in[gid];
    Out o;

    o.sum32 = cg::reduce(warp, v, cg::plus<int>());
    o.max8 = cg::reduce(t8, v, cg::greater<int>());
    o.xor16 = cg::reduce(t16, v, cg::bit_xor<int>());
    o.sum4 = cg::reduce(t4, v, cg::plus<int>());
    o.incl = cg::inclusive_scan(warp, v);
    o.excl = cg::exclusive_scan(warp, v);
    o.down = t16.shfl_down(v, 3);  // lanes 13..15 get their own value
    o.bfly = t16.shfl_xor(v, 5);
    o.bcast = t16.shfl(v, 7);
    o.ballot = t8.ballot(v & 1);
    // Predicates chosen so that tiles of one warp often differ.
    o.any = t8.any(v > 450);
    o.all = t8.all(v > -460);
    o.match8 = t8.match_any(v & 3);
    o.meta_rank = (int)t16.meta_group_rank();
    o.meta_size = (int)t16.meta_group_size();
    o.dyn_rank = (int)dyn.thread_rank();
    o.dyn_size = (int)dyn.size();
    dyn.sync();

    o.co_size = o.co_rank = o.co_sum = o.co_scan = -1;
    if (v % 3 == 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        o.co_size = (int)active.size();
        o.co_rank = (int)active.thread_rank();
        o.co_sum = cg::reduce(active, v, cg::plus<int>());
        o.co_scan = cg::inclusive_scan(active, v);
    }

    cg::coalesced_group lab = cg::labeled_partition(warp, v & 3);
    o.lab_size = (int)lab.size();
    o.lab_rank = (int)lab.thread_rank();
    o.lab_sum = cg::reduce(lab, v, cg::plus<int>());
    cg::coalesced_group bin = cg::binary_partition(warp, v < 0);
    o.bin_size = (int)bin.size();
    o.bin_rank = (int)bin.thread_rank();

    // Block sum: warp sums through shared memory, then one warp reduces.
    __shared__ int partial[32];
    if (warp.thread_rank() == 0)
        partial[warp.meta_group_rank()] = o.sum32;
    block.sync();
    int total = 0;
    if (warp.meta_group_rank() == 0) {
        int x = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0;
        total = cg::reduce(warp, x, cg::plus<int>());
        if (warp.thread_rank() == 0)
            partial[0] = total;
    }
    block.sync();
    o.block_sum = partial[0];
    out[gid] = o;
}

int main() {
    ck_start("coop");
    const int blocks = 5, bs = 256, n = blocks * bs;
    std::vector<int> in(n);
    uint32_t s = 2024;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        in[i] = (int)(s >> 22) - 512;  // [-512, 511]
    }
    int *d_in;
    Out *d_out;
    CK(cudaMalloc(&d_in, n * sizeof(int)));
    CK(cudaMalloc(&d_out, n * sizeof(Out)));
    CK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    groups<<<blocks, bs>>>(d_in, d_out);
    CK_LAUNCH();
    std::vector<Out> got(n);
    CK(cudaMemcpy(got.data(), d_out, n * sizeof(Out), cudaMemcpyDeviceToHost));

    // Mismatches are counted per field; the first of each field is shown.
    const int nfields = 32;
    const char *fname[nfields];
    int fbad[nfields] = {0}, nf = 0, bad = 0;
    auto field_slot = [&](const char *f) {
        for (int k = 0; k < nf; k++)
            if (fname[k] == f)
                return k;
        fname[nf] = f;
        return nf++;
    };
#define CHECK_FIELD(f, want)                                                                              \
    do {                                                                                                  \
        long long w_ = (long long)(want), g_ = (long long)o.f;                                            \
        if (g_ != w_) {                                                                                   \
            static const char fn_[] = #f;                                                                 \
            int k_ = field_slot(fn_);                                                                     \
            if (fbad[k_]++ == 0)                                                                          \
                EXPECT(false, "thread %d (block %d, lane %d): %s = %lld, expected %lld", i, i / bs, i % 32, \
                       fn_, g_, w_);                                                                      \
            bad++;                                                                                        \
        }                                                                                                 \
    } while (0)
    for (int i = 0; i < n; i++) {
        const Out &o = got[i];
        int lane = i % 32, w0 = i - lane;  // first thread of the warp
        int b0 = i - i % bs;
        auto tile_base = [&](int size) { return i - i % size; };
        int sum32 = 0, incl = 0, excl = 0;
        for (int k = 0; k < 32; k++) {
            sum32 += in[w0 + k];
            if (k <= lane)
                incl += in[w0 + k];
            if (k < lane)
                excl += in[w0 + k];
        }
        int max8 = INT32_MIN, xor16 = 0, sum4 = 0;
        for (int k = 0; k < 8; k++)
            max8 = std::max(max8, in[tile_base(8) + k]);
        for (int k = 0; k < 16; k++)
            xor16 ^= in[tile_base(16) + k];
        for (int k = 0; k < 4; k++)
            sum4 += in[tile_base(4) + k];
        CHECK_FIELD(sum32, sum32);
        CHECK_FIELD(max8, max8);
        CHECK_FIELD(xor16, xor16);
        CHECK_FIELD(sum4, sum4);
        CHECK_FIELD(incl, incl);
        CHECK_FIELD(excl, excl);
        int r16 = i % 16, t16 = tile_base(16);
        CHECK_FIELD(down, r16 + 3 < 16 ? in[t16 + r16 + 3] : in[i]);
        CHECK_FIELD(bfly, in[t16 + (r16 ^ 5)]);
        CHECK_FIELD(bcast, in[t16 + 7]);
        unsigned ballot = 0, match8 = 0;
        bool any = false, all = true;
        for (int k = 0; k < 8; k++) {
            int x = in[tile_base(8) + k];
            if (x & 1)
                ballot |= 1u << k;
            if ((x & 3) == (in[i] & 3))
                match8 |= 1u << k;
            any = any || x > 450;
            all = all && x > -460;
        }
        CHECK_FIELD(ballot, ballot);
        CHECK_FIELD(any, any);
        CHECK_FIELD(all, all);
        CHECK_FIELD(match8, match8);
        CHECK_FIELD(meta_rank, (i % bs) / 16);
        CHECK_FIELD(meta_size, bs / 16);
        CHECK_FIELD(dyn_rank, i % 4);
        CHECK_FIELD(dyn_size, 4);

        // The coalesced group: the lanes of this warp with v % 3 == 0.
        if (in[i] % 3 == 0) {
            int size = 0, rank = 0, sum = 0, scan = 0;
            for (int k = 0; k < 32; k++) {
                int x = in[w0 + k];
                if (x % 3 != 0)
                    continue;
                size++;
                sum += x;
                if (k < lane)
                    rank++;
                if (k <= lane)
                    scan += x;
            }
            CHECK_FIELD(co_size, size);
            CHECK_FIELD(co_rank, rank);
            CHECK_FIELD(co_sum, sum);
            CHECK_FIELD(co_scan, scan);
        } else {
            CHECK_FIELD(co_size, -1);
        }
        int lsize = 0, lrank = 0, lsum = 0, bsize = 0, brank = 0;
        for (int k = 0; k < 32; k++) {
            int x = in[w0 + k];
            if ((x & 3) == (in[i] & 3)) {
                lsize++;
                lsum += x;
                lrank += k < lane;
            }
            if ((x < 0) == (in[i] < 0)) {
                bsize++;
                brank += k < lane;
            }
        }
        CHECK_FIELD(lab_size, lsize);
        CHECK_FIELD(lab_rank, lrank);
        CHECK_FIELD(lab_sum, lsum);
        CHECK_FIELD(bin_size, bsize);
        CHECK_FIELD(bin_rank, brank);
        int bsum = 0;
        for (int k = 0; k < bs; k++)
            bsum += in[b0 + k];
        CHECK_FIELD(block_sum, bsum);
    }
    for (int k = 0; k < nf; k++)
        printf("%s: %d of %d threads wrong\n", fname[k], fbad[k], n);
    printf("cooperative groups: %d blocks of %d threads, %zu results each: %s\n", blocks, bs,
           sizeof(Out) / sizeof(int), bad ? "wrong" : "ok");
    CK(cudaFree(d_in));
    CK(cudaFree(d_out));
    return ck_finish();
}
