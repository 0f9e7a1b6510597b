#!/usr/bin/env python3
"""gen_inputs.py -- inputs for the public suites' programs whose data sets
are not in their repositories (experiments/suites.md): generated here,
deterministically (fixed seeds), in the file formats the programs read.
Our own generators; no suite data is copied.

  gen_inputs.py hotspot N DIR    DIR/temp_N, DIR/power_N: N*N values, one per line
                                 (Rodinia hotspot's readinput), temperatures
                                 323-343 K, power 0-1e-3 W per cell
  gen_inputs.py bfs N DEG DIR    DIR/graphN.txt in Rodinia bfs's format (node count;
                                 per node "first-edge count"; source; edge count;
                                 per edge "dest cost"): every node joined to DEG
                                 random others (undirected, so about 2*DEG edges
                                 each), source 0; DIR/graphN.expected: the BFS
                                 depth of every node, as bfs writes result.txt
  gen_inputs.py kmeans N F DIR   DIR/kmeansN.txt: N lines "id f1 ... fF" (Rodinia
                                 kmeans' text input), features 0-1 in 5 clusters
  gen_inputs.py spmv N DIR       DIR/spmvN.mtx: a symmetric N x N matrix, its lower
                                 triangle in Matrix Market coordinate form (Parboil
                                 spmv mirrors it): diagonal 4-5, 1-19 entries per
                                 row left of it (80% within 256 columns), values
                                 -1..1; DIR/spmvN.vec: N floats 0-1 (raw, as its
                                 input_vec reads); DIR/spmvN.expected: A x in
                                 spmv's output format (uint32 N, N floats)
  gen_inputs.py compare OUT EXP TOL   exit 0 when OUT and EXP (uint32 count, then
                                 floats: Parboil's outputs) hold the same values
                                 within TOL times EXP's largest magnitude
"""
import collections
import os
import random
import struct
import sys


def hotspot(n, d):
    rnd = random.Random(21)
    with open(os.path.join(d, "temp_%d" % n), "w") as f:
        for _ in range(n * n):
            f.write("%.6f\n" % (323.0 + 20.0 * rnd.random()))
    with open(os.path.join(d, "power_%d" % n), "w") as f:
        for _ in range(n * n):
            f.write("%.9f\n" % (1e-3 * rnd.random()))


def bfs(n, deg, d):
    rnd = random.Random(21)
    adj = [[] for _ in range(n)]
    for u in range(n):
        for _ in range(deg):
            v = rnd.randrange(n)
            adj[u].append(v)
            adj[v].append(u)
    with open(os.path.join(d, "graph%d.txt" % n), "w") as f:
        f.write("%d\n" % n)
        start = 0
        for u in range(n):
            f.write("%d %d\n" % (start, len(adj[u])))
            start += len(adj[u])
        f.write("\n0\n\n%d\n" % start)
        for u in range(n):
            for v in adj[u]:
                f.write("%d %d\n" % (v, rnd.randrange(1, 10)))
    depth = [-1] * n
    depth[0] = 0
    q = collections.deque([0])
    while q:
        u = q.popleft()
        for v in adj[u]:
            if depth[v] < 0:
                depth[v] = depth[u] + 1
                q.append(v)
    with open(os.path.join(d, "graph%d.expected" % n), "w") as f:
        for i, c in enumerate(depth):
            f.write("%d) cost:%d\n" % (i, c))


def kmeans(n, nf, d):
    rnd = random.Random(21)
    centres = [[rnd.random() for _ in range(nf)] for _ in range(5)]
    with open(os.path.join(d, "kmeans%d.txt" % n), "w") as f:
        for i in range(n):
            c = centres[i % 5]
            f.write("%d %s\n" % (i + 1, " ".join("%.4f" % min(1.0, max(0.0, x + rnd.gauss(0, 0.05))) for x in c)))


def spmv(n, d):
    """A symmetric n x n matrix, lower triangle in Matrix Market coordinate
    form (Parboil spmv's coo_to_jds mirrors it), a dense vector of n floats
    (its input_vec: raw little-endian floats) and y = A x as spmv writes it
    (outputData: uint32 n, then n floats)."""
    rnd = random.Random(21)
    rows = [dict() for _ in range(n)]  # row -> {col: value}, full symmetric matrix
    lower = []
    for r in range(n):
        lower.append((r, r, round(4.0 + rnd.random(), 4)))
        # row lengths vary (JDS sorts rows by length): 0-19 entries left of the
        # diagonal, most near it (a band of 256), some anywhere
        k = min(r, rnd.choice((1, 2, 3, 4, 5, 6, 8, 10, 14, 19)))
        cols = set()
        while len(cols) < k:
            c = r - 1 - rnd.randrange(min(r, 256)) if rnd.random() < 0.8 else rnd.randrange(r)
            cols.add(c)
        for c in sorted(cols):
            lower.append((r, c, round(rnd.uniform(-1.0, 1.0), 4)))
    if n >= 2 and not any(e[0] == n - 1 and e[1] != n - 1 for e in lower):
        # coo_to_jds counts the last entry into the row before when it is alone in its row
        lower.append((n - 1, n - 2, 0.5))
    for r, c, v in lower:
        rows[r][c] = v
        rows[c][r] = v
    lower.sort()
    with open(os.path.join(d, "spmv%d.mtx" % n), "w") as f:
        f.write("%%%%MatrixMarket matrix coordinate real symmetric\n%%%% gen_inputs.py spmv %d (tpsim)\n" % n)
        f.write("%d %d %d\n" % (n, n, len(lower)))
        for r, c, v in lower:
            f.write("%d %d %g\n" % (r + 1, c + 1, v))
    x = [struct.unpack("<f", struct.pack("<f", rnd.random()))[0] for _ in range(n)]
    with open(os.path.join(d, "spmv%d.vec" % n), "wb") as f:
        f.write(struct.pack("<%df" % n, *x))
    y = [sum(v * x[c] for c, v in rows[r].items()) for r in range(n)]
    with open(os.path.join(d, "spmv%d.expected" % n), "wb") as f:
        f.write(struct.pack("<I%df" % n, n, *y))


def compare(out, expected, tol):
    """Both files: uint32 count, then that many little-endian floats (Parboil
    spmv's and mri-q's outputs); equal within a relative tolerance of tol
    (of the largest magnitude) per value."""
    def load(p):
        b = open(p, "rb").read()
        if len(b) < 4:
            raise ValueError("%s: too short" % p)
        m = struct.unpack_from("<I", b)[0]
        if len(b) != 4 + 4 * m:
            raise ValueError("%s: %d values announced, %d bytes" % (p, m, len(b)))
        return struct.unpack_from("<%df" % m, b, 4)
    a, e = load(out), load(expected)
    if len(a) != len(e):
        sys.stderr.write("compare: %d values, expected %d\n" % (len(a), len(e)))
        return 1
    scale = max([abs(v) for v in e] + [1e-30])
    bad = [i for i in range(len(e)) if not abs(a[i] - e[i]) <= tol * scale]
    if bad:
        i = bad[0]
        sys.stderr.write("compare: %d of %d values differ (first: [%d] %g, expected %g)\n" % (len(bad), len(e), i, a[i], e[i]))
        return 1
    return 0


def main(a):
    if len(a) == 3 and a[0] == "hotspot":
        hotspot(int(a[1]), a[2])
    elif len(a) == 4 and a[0] == "bfs":
        bfs(int(a[1]), int(a[2]), a[3])
    elif len(a) == 4 and a[0] == "kmeans":
        kmeans(int(a[1]), int(a[2]), a[3])
    elif len(a) == 3 and a[0] == "spmv":
        spmv(int(a[1]), a[2])
    elif len(a) == 4 and a[0] == "compare":
        return compare(a[1], a[2], float(a[3]))
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
