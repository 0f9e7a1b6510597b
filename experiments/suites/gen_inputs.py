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
"""
import collections
import os
import random
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


def main(a):
    if len(a) == 3 and a[0] == "hotspot":
        hotspot(int(a[1]), a[2])
    elif len(a) == 4 and a[0] == "bfs":
        bfs(int(a[1]), int(a[2]), a[3])
    elif len(a) == 4 and a[0] == "kmeans":
        kmeans(int(a[1]), int(a[2]), a[3])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
