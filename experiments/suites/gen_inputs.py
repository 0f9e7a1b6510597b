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
                                 (point i in cluster i mod 5)
  gen_inputs.py kmeans-check LOG IN   exit 0 when the 5 centroids kmeans -o printed
                                 in LOG are the means of IN's 5 generated clusters,
                                 one each, every coordinate within 0.01 (it prints
                                 two decimals)
  gen_inputs.py spmv N DIR       DIR/spmvN.mtx: a symmetric N x N matrix, its lower
                                 triangle in Matrix Market coordinate form (Parboil
                                 spmv mirrors it): diagonal 4-5, 1-19 entries per
                                 row left of it (80% within 256 columns), values
                                 -1..1; DIR/spmvN.vec: N floats 0-1 (raw, as its
                                 input_vec reads); DIR/spmvN.expected: A x (for
                                 compare)
  gen_inputs.py mriq X K DIR     DIR/mriqX_K.bin in Parboil mri-q's binary format
                                 (int32 K, X; float32 kx ky kz [K], x y z [X], phiR
                                 phiI [K]): X points of a cube grid in [-0.5,0.5)^3,
                                 K random k-space samples in [-16,16)^3, phi -1..1;
                                 DIR/mriqX_K.expected: Qr and Qi of every 61st point
                                 (for compare)
  gen_inputs.py tpacf P S DIR    DIR/tpacf_data.txt, DIR/tpacf_rand1.txt ... randS.txt:
                                 P points each, "ra dec" in degrees (Parboil tpacf's
                                 readdatafile), in a 60 x 60 degree patch, one point
                                 per 0.5-degree cell (every pair in the histogram's
                                 1-10,000 arcmin range); data clustered around 12
                                 centres, random sets uniform; DIR/tpacf.expected:
                                 the data's own histogram and every pair count
  gen_inputs.py tpacf-check OUT EXP   exit 0 when tpacf's output OUT has EXP's pair
                                 totals (within 0.01%: the kernel's shared-memory
                                 race loses a few) and data histogram (each bin
                                 within 1% + 2)
  gen_inputs.py cutcp S DIR      DIR/watboxS.pqr: a box of S A a side (corners at 0
                                 and S exactly) of randomly oriented TIP3P-like
                                 waters on a jittered ~3.1 A grid, in the PQR format
                                 Parboil cutcp reads; DIR/watboxS.expected: the
                                 potential at every 11th point of its output's two
                                 lattice planes (for compare, skip 4)
  gen_inputs.py sad W H DIR      DIR/sad_ref.bin, DIR/sad_cur.bin: two W x H frames in
                                 Parboil sad's format (uint16 W, H, int16 pixels): a
                                 smooth random 8-bit picture and the same moved by
                                 (3,-2), each with noise; DIR/sad.expected: the 16x16
                                 SADs of every search position of 3 macroblocks in
                                 each row sad writes
  gen_inputs.py sad-check OUT EXP   exit 0 when sad's output OUT holds EXP's SADs
  gen_inputs.py mrig N G DIR     DIR/mrig.uks (Parboil mri-gridding's parameter text:
                                 a G^3 grid, oversampling 2, kernel width 4, LUT)
                                 and DIR/mrig.uks.data: N samples (float32 real,
                                 imag, kX, kY, kZ, sdc) of a 3-D radial trajectory
                                 (random directions, radii uniform in [0, kmax=1])
  gen_inputs.py lbm DIR          DIR/lbm.of: an obstacle file for Parboil lbm's fixed
                                 120 x 120 x 150 grid ('.' fluid, '#' solid, a row
                                 a line): a sphere of radius 20 and 12 random boxes
  gen_inputs.py lbm-check OUT LOG   exit 0 when lbm's velocity file OUT is complete
                                 and finite and LOG's two grid statistics agree
                                 (cell counts; mass within 1%)
  gen_inputs.py dwt2d W H DIR    DIR/rgbW.bmp: a W x H 24-bit BMP (BITMAPINFOHEADER, bottom-up
                                 rows): smooth colour gradients and waves plus noise.
                                 Rodinia dwt2d reads the file's first W*H*3 bytes raw
                                 (header included) as its three 8-bit components
  gen_inputs.py heartwall W H F DIR   DIR/heartwallF.avi: an uncompressed AVI (RIFF, one
                                 video stream '00db' of F frames of W x H 8-bit samples,
                                 an idx1 index), as Rodinia heartwall's avilib reads
                                 test.avi: a textured elliptical heart wall around the
                                 suite's tracking points, beating (its radii scaled
                                 by 1 + 0.04 sin), on a dark noisy background
  gen_inputs.py heartwall-check RESULT F N   exit 0 when heartwall's result.txt (built with
                                 -DOUTPUT) holds N frames of an F-frame video (above)
                                 whose tracked points follow
                                 the generated video's beat: each within 3 pixels of
                                 its frame-0 position scaled about the texture's
                                 centre by 1 + 0.04 sin(2 pi f / F)
  gen_inputs.py cp-check OUT REF   exit 0 when ISPASS CP's output OUT matches its
                                 suite's reference REF (output/short/ref.txt) by the
                                 suite's own rules: the first line equal, the
                                 checksum within 0.5%, every value of the 17 rows
                                 within 0.005 or 0.5%
  gen_inputs.py compare OUT EXP TOL [SKIP]   exit 0 when OUT (a Parboil output:
                                 SKIP bytes, uint32 count, then floats) holds EXP's
                                 values ("index value" lines) within TOL times
                                 their largest magnitude
"""
import collections
import math
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


def kmeans_check(log, inp):
    pts = [[float(x) for x in ln.split()[1:]] for ln in open(inp) if ln.strip()]
    nf = len(pts[0])
    means = [[0.0] * nf for _ in range(5)]
    for i, p in enumerate(pts):
        for j in range(nf):
            means[i % 5][j] += p[j]
    for m, c in zip(means, [sum(1 for i in range(len(pts)) if i % 5 == k) for k in range(5)]):
        for j in range(nf):
            m[j] /= c
    cents = []
    for ln in open(log, errors="replace"):
        f = ln.split(":")
        if len(f) == 2 and f[0].strip().isdigit() and len(f[1].split()) == nf:
            cents.append([float(x) for x in f[1].split()])
    if len(cents) != 5:
        sys.stderr.write("kmeans-check: %s: %d centroids of %d features, expected 5\n" % (log, len(cents), nf))
        return 1
    left = list(range(5))
    for c in cents:
        hit = [k for k in left if max(abs(a - b) for a, b in zip(c, means[k])) <= 0.01]
        if not hit:
            sys.stderr.write("kmeans-check: a centroid is no cluster's mean: %s\n" % " ".join("%.2f" % x for x in c))
            return 1
        left.remove(hit[0])
    return 0


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
    expected(os.path.join(d, "spmv%d.expected" % n), enumerate(y))


def expected(path, pairs):
    """The values a program should write, for `compare`: "index value" lines."""
    with open(path, "w") as f:
        for i, v in pairs:
            f.write("%d %.9g\n" % (i, v))


def mriq(nx, nk, d):
    """Parboil mri-q's input (its inputData): int32 numK, int32 numX, then
    float32 arrays kx, ky, kz (numK), x, y, z (numX), phiR, phiI (numK).
    X: the points of a cube grid in [-0.5, 0.5)^3 (numX = side^3 when a
    cube, else the first numX of the smallest cube holding them); K: a
    random 3-D trajectory in [-16, 16)^3; phi: -1..1.  Also the expected
    output (outputData: uint32 numX, Qr[numX], Qi[numX]) of every 61st X."""
    rnd = random.Random(21)
    f32 = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]
    side = 1
    while side ** 3 < nx:
        side += 1
    pts = [(i % side, (i // side) % side, i // (side * side)) for i in range(nx)]
    x = [f32(p[0] / side - 0.5) for p in pts]
    y = [f32(p[1] / side - 0.5) for p in pts]
    z = [f32(p[2] / side - 0.5) for p in pts]
    kx = [f32(rnd.uniform(-16.0, 16.0)) for _ in range(nk)]
    ky = [f32(rnd.uniform(-16.0, 16.0)) for _ in range(nk)]
    kz = [f32(rnd.uniform(-16.0, 16.0)) for _ in range(nk)]
    pr = [f32(rnd.uniform(-1.0, 1.0)) for _ in range(nk)]
    pi = [f32(rnd.uniform(-1.0, 1.0)) for _ in range(nk)]
    with open(os.path.join(d, "mriq%d_%d.bin" % (nx, nk)), "wb") as f:
        f.write(struct.pack("<ii", nk, nx))
        for a in (kx, ky, kz, x, y, z, pr, pi):
            f.write(struct.pack("<%df" % len(a), *a))
    mag = [pr[k] * pr[k] + pi[k] * pi[k] for k in range(nk)]
    qr, qi = [], []
    for i in range(0, nx, 61):
        sr = si = 0.0
        for k in range(nk):
            a = 2.0 * math.pi * (kx[k] * x[i] + ky[k] * y[i] + kz[k] * z[i])
            sr += mag[k] * math.cos(a)
            si += mag[k] * math.sin(a)
        qr.append((i, sr))
        qi.append((nx + i, si))
    expected(os.path.join(d, "mriq%d_%d.expected" % (nx, nk)), qr + qi)


def cutcp(side, d):
    """Parboil cutcp's input (its read_atom_file: PQR "ATOM serial name
    residue resSeq x y z charge radius" lines): DIR/watboxS.pqr, a box of
    TIP3P-like waters (O -0.834, H +0.417; O-H 0.9572 A, H-O-H 104.52
    degrees), randomly oriented on a jittered grid of about 3.1 A (S/3.1
    rounded intervals a side: about the density
    of water), from (0,0,0) to (S,S,S) exactly (two waters' oxygens sit on
    those corners, so the lattice is 2S+3 points a side at cutcp's 0.5 A
    spacing and 0.5 A padding).  DIR/watboxS.expected: for `compare` with
    a 4-byte skip (cutcp's output: float sum of |potential|, uint32 nx*ny,
    then the first and last z plane), the potential of every 11th point of
    both planes, from cutcp's formula (q/r (1 - r^2/12^2)^2 within the 12 A
    cutoff; zero within 1 A of an atom), leaving out points whose nearest
    atom is within 0.02 A of that 1 A."""
    rnd = random.Random(21)
    f32 = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]
    atoms = []
    n = int(round(side / 3.1)) + 1
    step = side / (n - 1) if n > 1 else 0.0
    bond, half = 0.9572, math.radians(104.52) / 2
    for k in range(n):
        for j in range(n):
            for i in range(n):
                corner = (i, j, k) in ((0, 0, 0), (n - 1, n - 1, n - 1))
                o = [c * step + (0.0 if corner else rnd.uniform(-0.4, 0.4)) for c in (i, j, k)]
                o = [min(side, max(0.0, v)) for v in o]
                # a random orientation: unit vectors u (bisector) and v (in-plane, normal to u)
                while True:
                    u = [rnd.gauss(0, 1) for _ in range(3)]
                    w = [rnd.gauss(0, 1) for _ in range(3)]
                    nu = math.sqrt(sum(a * a for a in u))
                    if nu > 1e-3:
                        break
                u = [a / nu for a in u]
                dot = sum(a * b for a, b in zip(u, w))
                v = [b - dot * a for a, b in zip(u, w)]
                nv = math.sqrt(sum(a * a for a in v)) or 1.0
                v = [a / nv for a in v]
                mol = [("OH2", o, -0.834)]
                for sgn, name in ((1, "H1"), (-1, "H2")):
                    h = [o[t] + bond * (math.cos(half) * u[t] + sgn * math.sin(half) * v[t]) for t in range(3)]
                    h = [min(side, max(0.0, a)) for a in h]  # stay inside the box
                    mol.append((name, h, 0.417))
                atoms.extend((nm, [round(c, 3) for c in pos], q) for nm, pos, q in mol)
    with open(os.path.join(d, "watbox%d.pqr" % side), "w") as f:
        f.write("REMARK gen_inputs.py cutcp %d (tpsim): %d atoms\n" % (side, len(atoms)))
        for a, (nm, (x, y, z), q) in enumerate(atoms):
            f.write("ATOM  %5d %-4s TIP3 %5d %9.3f %9.3f %9.3f %7.4f %6.4f\n"
                    % (a + 1, nm, a // 3 + 1, x, y, z, q, 1.7682 if nm == "OH2" else 0.2245))
    # the lattice: lo = -0.5 (the extent starts at 0), 2S+3 points a side
    nx = 2 * side + 3
    pos = [(f32(x), f32(y), f32(z), f32(q)) for _, (x, y, z), q in atoms]
    exp = []
    for plane, zi in ((0, 0), (1, nx - 1)):
        for idx in range(0, nx * nx, 11):
            px, py, pz = -0.5 + 0.5 * (idx % nx), -0.5 + 0.5 * (idx // nx), -0.5 + 0.5 * zi
            e, near = 0.0, 1e9
            for x, y, z, q in pos:
                r2 = (x - px) ** 2 + (y - py) ** 2 + (z - pz) ** 2
                if r2 < 144.0:
                    near = min(near, r2)
                    e += q / math.sqrt(r2) * (1.0 - r2 / 144.0) ** 2
            if 0.98 ** 2 <= near <= 1.02 ** 2:
                continue
            exp.append((plane * nx * nx + idx, 0.0 if near < 1.0 else e))
    expected(os.path.join(d, "watbox%d.expected" % side), exp)


def lbm(d, sx=120, sy=120, sz=150):
    """Parboil lbm's obstacle file (its LBM_loadObstacleFile: per z slice,
    per y row, SIZE_X characters, '.' fluid and anything else an obstacle,
    then a newline; a newline after each slice) for its fixed 120 x 120 x 150
    grid (layout_config.h): DIR/lbm.of, a lid-driven cavity holding a sphere
    of radius 20 cells and 12 random boxes of 4-16 cells a side."""
    rnd = random.Random(21)
    boxes = []
    for _ in range(12):
        w = [rnd.randint(4, 16) for _ in range(3)]
        o = [rnd.randrange(2, n - 2 - a) for n, a in zip((sx, sy, sz), w)]
        boxes.append((o, w))
    cx, cy, cz = sx / 2.0, sy / 2.0, sz / 3.0
    with open(os.path.join(d, "lbm.of"), "w") as f:
        for z in range(sz):
            for y in range(sy):
                row = []
                for x in range(sx):
                    solid = (x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2 < 400.0 or any(
                        o[0] <= x < o[0] + w[0] and o[1] <= y < o[1] + w[1] and o[2] <= z < o[2] + w[2]
                        for o, w in boxes)
                    row.append("#" if solid else ".")
                f.write("".join(row) + "\n")
            f.write("\n")


def lbm_check(out, log):
    """lbm's result (3 floats, the velocity, per cell of the 120 x 120 x 150
    grid) and log: the file complete, no NaN or infinity in it, and the two
    grid statistics (before and after) with the same obstacle and fluid cell
    counts and masses within 1%."""
    b = open(out, "rb").read()
    n = 3 * 120 * 120 * 150
    if len(b) != 4 * n:
        sys.stderr.write("lbm-check: %s: %d bytes, expected %d\n" % (out, len(b), 4 * n))
        return 1
    if any(math.isnan(v) or math.isinf(v) for v in struct.unpack("<%df" % n, b)):
        sys.stderr.write("lbm-check: %s: NaN or infinite velocities\n" % out)
        return 1
    t = open(log, errors="replace").read()
    cells = [ln.split() for ln in t.splitlines() if "nObstacleCells:" in ln]
    mass = [float(ln.split("mass:")[1].split()[0]) for ln in t.splitlines() if "mass:" in ln]
    if len(cells) != 2 or len(mass) != 2 or cells[0] != cells[1] or not abs(mass[1] - mass[0]) <= 0.01 * abs(mass[0]):
        sys.stderr.write("lbm-check: %s: the grid statistics do not match (%s, %s)\n" % (log, cells, mass))
        return 1
    return 0


def mrig(nsamples, size, d):
    """Parboil mri-gridding's inputs: DIR/mrig.uks, its parameter text (its
    setParameters: numsamples, kmax, the acquisition, reconstruction and
    gridding matrix sizes, oversampling, kernel width, LUT), here a
    size^3 grid, oversampling 2, kernel width 4, its CPU version with the
    look-up table (much faster; the GPU computes the kernel either way, and
    the check compares sample counts); DIR/mrig.uks.data:
    nsamples ReconstructionSample records (float32 real, imag, kX, kY, kZ,
    sdc), k-space samples of a 3-D radial trajectory (random directions,
    radii uniform in [0, kmax], so denser at the centre) with kmax 1."""
    rnd = random.Random(21)
    half = size // 2
    with open(os.path.join(d, "mrig.uks"), "w") as f:
        f.write("aquisition.numsamples=%d\n" % nsamples)
        f.write("aquisition.kmax=1.0 1.0 1.0\n")
        f.write("aquisition.matrixSize=%d %d %d\n" % (half, half, half))
        f.write("reconstruction.matrixSize=%d %d %d\n" % (half, half, half))
        f.write("gridding.matrixSize=%d %d %d\n" % (size, size, size))
        f.write("gridding.oversampling=2.0\nkernel.width=4.0\nkernel.useLUT=1\n")
    with open(os.path.join(d, "mrig.uks.data"), "wb") as f:
        for _ in range(nsamples):
            while True:
                v = [rnd.gauss(0, 1) for _ in range(3)]
                n = math.sqrt(sum(a * a for a in v))
                if n > 1e-6:
                    break
            r = rnd.random()
            k = [r * a / n for a in v]
            f.write(struct.pack("<6f", rnd.uniform(-1, 1), rnd.uniform(-1, 1), k[0], k[1], k[2], 1.0))


def sad(w, h, d):
    """Parboil sad's inputs (its load_image: uint16 width, height, then
    width*height int16 pixels, little-endian): DIR/sad_ref.bin, a smooth
    random 8-bit picture (a sum of 24 Gaussian blobs and a gradient, plus
    noise of +-8), and DIR/sad_cur.bin, that picture moved by (3, -2) pixels
    with fresh noise.  DIR/sad.expected: "index value" lines, the 16x16
    SADs (block type 1) of every search position of the first, middle and
    last macroblock of each macroblock row sad writes (rows 0, 1, H/2-1,
    H/2, H-2, H-1), as indices into the uint16 values after its output's
    8-byte header; the reference read clamped at the edges, as its texture."""
    rnd = random.Random(21)
    blobs = [(rnd.uniform(0, w), rnd.uniform(0, h), rnd.uniform(6, 40), rnd.uniform(-90, 90)) for _ in range(24)]
    gx, gy = rnd.uniform(-0.3, 0.3), rnd.uniform(-0.3, 0.3)
    mvx, mvy = 3, -2

    def base(x, y):
        v = 128 + gx * (x - w / 2) + gy * (y - h / 2)
        for bx, by, r, a in blobs:
            v += a * math.exp(-((x - bx) ** 2 + (y - by) ** 2) / (2 * r * r))
        return v
    clip = lambda v: max(0, min(255, int(round(v))))
    ref = [clip(base(x, y) + rnd.uniform(-8, 8)) for y in range(h) for x in range(w)]
    cur = [clip(base(x + mvx, y + mvy) + rnd.uniform(-8, 8)) for y in range(h) for x in range(w)]
    for name, img in (("sad_ref.bin", ref), ("sad_cur.bin", cur)):
        with open(os.path.join(d, name), "wb") as f:
            f.write(struct.pack("<HH%dh" % (w * h), w, h, *img))
    mbw, mbh = w // 16, h // 16
    rows = [0, 1, mbh // 2 - 1, mbh // 2, mbh - 2, mbh - 1]
    exp = []
    for ri, row in enumerate(rows):
        for col in sorted({0, mbw // 2, mbw - 1}):
            first = (ri * mbw + col) * 41 * 1089  # 41 SAD vectors a macroblock, type 1 first
            x0, y0 = 16 * col, 16 * row
            for pos in range(1089):
                dx, dy = pos % 33 - 16, pos // 33 - 16
                t = 0
                for j in range(16):
                    ry = min(h - 1, max(0, y0 + dy + j))
                    rrow = ry * w
                    crow = (y0 + j) * w
                    for i in range(16):
                        t += abs(ref[rrow + min(w - 1, max(0, x0 + dx + i))] - cur[crow + x0 + i])
                exp.append((first + pos, t))
    expected(os.path.join(d, "sad.expected"), exp)


def sad_check(out, exp):
    """sad's output (uint32 count, uint32 0, then uint16 SADs) holds
    sad.expected's values exactly."""
    b = open(out, "rb").read()
    if len(b) < 8 or len(b) % 2:
        sys.stderr.write("sad-check: %s: too short\n" % out)
        return 1
    nv = (len(b) - 8) // 2
    a = struct.unpack_from("<%dH" % nv, b, 8)
    try:
        e = [(int(i), int(v)) for i, v in (ln.split() for ln in open(exp))]
    except (ValueError, UnicodeDecodeError):
        sys.stderr.write("sad-check: %s: not \"index value\" lines\n" % exp)
        return 1
    bad = [(i, v) for i, v in e if i >= nv or a[i] != v]
    if bad:
        i, v = bad[0]
        sys.stderr.write("sad-check: %d values differ (first: [%d] %s, expected %d)\n"
                         % (len(bad), i, a[i] if i < nv else "missing", v))
        return 1
    return 0


def tpacf(npts, nsets, d):
    """Parboil tpacf's inputs (its readdatafile: "ra dec" in degrees, one
    point a line): DIR/tpacf_data.txt and DIR/tpacf_rand1.txt ...
    tpacf_rand<nsets>.txt, npts points each in a 60 x 60 degree patch (RA
    0-60, Dec -30-30), each point in its own 0.5-degree cell (so no two are
    closer than 6 arcmin and none farther than 10,000, the histogram's range:
    every pair is counted); the data points clustered around 12 centres,
    the random ones uniform.  DIR/tpacf.expected: "dd BIN COUNT" (the data's
    own histogram, from the kernel's bin bounds in double precision) and
    "total dd|dr|rr COUNT" (every pair)."""
    rnd = random.Random(21)
    cells = 120  # 0.5-degree cells per side

    def points(clustered):
        used = set()
        centres = [(rnd.randrange(cells), rnd.randrange(cells)) for _ in range(12)]
        out = []
        while len(out) < npts:
            if clustered:
                cx, cy = centres[rnd.randrange(len(centres))]
                c = (min(cells - 1, max(0, int(rnd.gauss(cx, 4)))), min(cells - 1, max(0, int(rnd.gauss(cy, 4)))))
            else:
                c = (rnd.randrange(cells), rnd.randrange(cells))
            if c in used:
                continue
            used.add(c)
            out.append((round(0.5 * c[0] + 0.05 + 0.4 * rnd.random(), 5),
                        round(-30.0 + 0.5 * c[1] + 0.05 + 0.4 * rnd.random(), 5)))
        return out
    sets = [points(True)] + [points(False) for _ in range(nsets)]
    for i, pts in enumerate(sets):
        name = "tpacf_data.txt" if i == 0 else "tpacf_rand%d.txt" % i
        with open(os.path.join(d, name), "w") as f:
            for ra, dec in pts:
                f.write("%.5f %.5f\n" % (ra, dec))
    # the data's own pairs, binned as the kernel bins them (model.h's 20 bins,
    # 5 per decade from 1 to 10,000 arcmin, bounds the cosines of the angles)
    binb = [math.cos(10.0 ** (k / 5.0) / 60.0 * math.pi / 180.0) for k in range(21)]
    xyz = []
    for ra, dec in sets[0]:
        r, dd = math.radians(ra), math.radians(dec)
        xyz.append((math.cos(r) * math.cos(dd), math.sin(r) * math.cos(dd), math.sin(dd)))
    hist = [0] * 20
    for a in range(npts):
        xa, ya, za = xyz[a]
        for b in range(a + 1, npts):
            xb, yb, zb = xyz[b]
            dist = xa * xb + ya * yb + za * zb
            for k in range(20):
                if binb[k + 1] <= dist < binb[k]:
                    hist[k] += 1
                    break
    with open(os.path.join(d, "tpacf.expected"), "w") as f:
        for k, c in enumerate(hist):
            f.write("dd %d %d\n" % (k, c))
        f.write("total dd %d\ntotal dr %d\ntotal rr %d\n"
                % (npts * (npts - 1) // 2, nsets * npts * npts, nsets * npts * (npts - 1) // 2))


def tpacf_check(out, exp):
    """tpacf's output (per bin three lines: dd, dr, rr) against
    tpacf.expected: the totals within 0.01% and each dd bin within 1% + 2.
    Pairs within a float's rounding of a bin bound may fall either side; and
    the kernel overwrites its shared data_s for the next 256 points with no
    barrier after the last reads of the previous ones (a read-write race,
    `tpsim run --check race`), so a warp that runs ahead can make a slower
    one pair a point with a half-written one, whose dot product then falls
    outside the histogram: a few pairs in ten million go missing, as many
    as the warps' timing decides."""
    v = [int(x) for x in open(out).read().split()]
    if len(v) != 60:
        sys.stderr.write("tpacf-check: %s: %d values, expected 60\n" % (out, len(v)))
        return 1
    got = {"dd": v[0::3], "dr": v[1::3], "rr": v[2::3]}
    bad = 0
    for ln in open(exp):
        w = ln.split()
        if w[0] == "total":
            if abs(sum(got[w[1]]) - int(w[2])) > int(w[2]) // 10000:
                sys.stderr.write("tpacf-check: %s pairs %d, expected %s\n" % (w[1], sum(got[w[1]]), w[2]))
                bad += 1
        elif abs(got["dd"][int(w[1])] - int(w[2])) > 2 + int(w[2]) // 100:
            sys.stderr.write("tpacf-check: dd bin %s: %d, expected %s\n" % (w[1], got["dd"][int(w[1])], w[2]))
            bad += 1
    return 1 if bad else 0


def dwt2d(w, h, d):
    """A W x H 24-bit BMP, as Rodinia dwt2d's data sets (rgb.bmp, 192.bmp):
    14-byte file header, 40-byte BITMAPINFOHEADER, rows bottom-up, each
    padded to 4 bytes; each channel a gradient plus two waves plus noise of
    +-6.  dwt2d itself does not parse the header: it reads W*H*3 bytes from
    the file's start as three planes of 8-bit samples (its getImg)."""
    rnd = random.Random(21)
    ch = [(rnd.uniform(40, 90), rnd.uniform(-0.1, 0.1), rnd.uniform(-0.1, 0.1),
           rnd.uniform(20, 60), rnd.uniform(8, 60), rnd.uniform(8, 60)) for _ in range(3)]
    sx = [[math.sin(x / c[4]) for x in range(w)] for c in ch]
    sy = [[math.cos(y / c[5]) for y in range(h)] for c in ch]
    pad = (4 - (3 * w) % 4) % 4
    rows = bytearray()
    for y in range(h - 1, -1, -1):
        for x in range(w):
            for k in (2, 1, 0):  # BGR
                c = ch[k]
                v = 128 + c[1] * (x - w / 2) + c[2] * (y - h / 2) + c[3] * sx[k][x] * sy[k][y] + rnd.randint(-6, 6)
                rows.append(max(0, min(255, int(v))))
        rows.extend(b"\0" * pad)
    hdr = struct.pack("<2sIHHI", b"BM", 54 + len(rows), 0, 0, 54)
    info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 24, 0, len(rows), 2835, 2835, 0, 0)
    with open(os.path.join(d, "rgb%d.bmp" % w), "wb") as f:
        f.write(hdr + info + rows)


def heartwall(w, h, nframes, d):
    """An uncompressed AVI in the layout Rodinia heartwall's avilib parses:
    RIFF 'AVI ' holding LIST 'hdrl' (avih; LIST 'strl' with a 'vids' strh
    and a BITMAPINFOHEADER strf of 8 bits per pixel), LIST 'movi' (one
    '00db' chunk of W*H bytes per frame, rows bottom-up as the program
    expects: it flips them) and an idx1 index (offsets from the 'movi'
    fourcc, key frames).  The picture: the wall between two ellipses
    around the suite's hard-coded endocardial and epicardial points (their
    centres and radii, from heartwall's main.cu: endo rows 269-486, cols
    235-411; epi rows 252-543, cols 155-457), filled with a speckle texture
    fixed to the wall, so that the template matching has features to
    follow; the radii beat by 1 + 0.04 sin(2 pi f / F); background dark
    with noise."""
    rnd = random.Random(21)
    tex = [rnd.randint(0, 90) for _ in range(64 * 64)]
    ec_r, ec_c, ea_r, ea_c = 377.5, 323.0, 112.0, 92.0     # endo ellipse (inner edge)
    pc_r, pc_c, pa_r, pa_c = 397.5, 306.0, 150.0, 155.0    # epi ellipse (outer edge)
    frames = []
    for f in range(nframes):
        k = 1.0 + 0.04 * math.sin(2 * math.pi * f / nframes)
        buf = bytearray(w * h)
        for y in range(h):  # y: image row from the top; stored bottom-up
            o = (h - 1 - y) * w
            dy_e = (y - ec_r) / (ea_r * k)
            dy_p = (y - pc_r) / (pa_r * k)
            ty = int((y - pc_r) / k) & 63
            for x in range(w):
                de = dy_e * dy_e + ((x - ec_c) / (ea_c * k)) ** 2
                dp = dy_p * dy_p + ((x - pc_c) / (pa_c * k)) ** 2
                v = rnd.randint(0, 24)
                if de > 1.0 and dp < 1.0:
                    v += 110 + tex[(ty << 6) | (int((x - pc_c) / k) & 63)]
                elif de <= 1.0:
                    v += 40
                buf[o + x] = min(255, v)
        frames.append(bytes(buf))

    def chunk(tag, data):
        return tag + struct.pack("<I", len(data)) + data + (b"\0" if len(data) % 2 else b"")

    def lst(kind, body):
        return b"LIST" + struct.pack("<I", 4 + len(body)) + kind + body
    usec = 40000  # 25 frames a second
    avih = struct.pack("<IIIIIIIIII4I", usec, w * h * 25, 0, 0x10, nframes, 0, 1, w * h, w, h, 0, 0, 0, 0)
    strh = b"vids" + b"DIB " + struct.pack("<IHHIIIIIIIIhhhh", 0, 0, 0, 0, 1, 25, 0, nframes, w * h, 0xFFFFFFFF, 0,
                                          0, 0, w, h)
    palette = b"".join(struct.pack("<BBBB", i, i, i, 0) for i in range(256))
    strf = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 8, 0, w * h, 0, 0, 256, 0) + palette
    hdrl = lst(b"hdrl", chunk(b"avih", avih) + lst(b"strl", chunk(b"strh", strh) + chunk(b"strf", strf)))
    movi_body = b""
    idx = b""
    for fr in frames:
        idx += b"00db" + struct.pack("<III", 0x10, 4 + len(movi_body), len(fr))
        movi_body += chunk(b"00db", fr)
    body = b"AVI " + hdrl + lst(b"movi", movi_body) + chunk(b"idx1", idx)
    with open(os.path.join(d, "heartwall%d.avi" % nframes), "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", len(body)) + body)


def heartwall_check(result, nframes, nproc):
    """heartwall's result.txt: per frame "---Frame f---", then "--endo--"
    and "--epi--", each a line of rows and a line of columns.  The video
    (heartwall above) scales its wall texture about the epicardial centre
    (397.5, 306) by k(f) = 1 + 0.04 sin(2 pi f / F), so a tracked point at
    frame f should sit at centre + (its frame-0 position - centre) * k(f)."""
    try:
        lines = open(result).read().split("\n")
    except OSError as e:
        sys.stderr.write("heartwall-check: %s\n" % e)
        return 1
    frames = {}
    cur = None
    i = 0
    while i < len(lines):
        t = lines[i].strip()
        if t.startswith("---Frame "):
            cur = int(t[9:].rstrip("-"))
            frames[cur] = []
        elif t in ("--endo--", "--epi--") and cur is not None and i + 2 < len(lines):
            rows = [int(x) for x in lines[i + 1].split()]
            cols = [int(x) for x in lines[i + 2].split()]
            frames[cur] += list(zip(rows, cols))
            i += 2
        i += 1
    if sorted(frames) != list(range(nproc)) or any(len(frames[f]) != 51 for f in frames):
        sys.stderr.write("heartwall-check: %s: expected frames 0-%d of 51 points each\n" % (result, nproc - 1))
        return 1
    cr, cc = 397.5, 306.0
    for f in range(nproc):
        k = 1.0 + 0.04 * math.sin(2 * math.pi * f / nframes)
        for j, ((r0, c0), (r, c)) in enumerate(zip(frames[0], frames[f])):
            er, ec = cr + (r0 - cr) * k, cc + (c0 - cc) * k
            if abs(r - er) > 3 or abs(c - ec) > 3:
                sys.stderr.write("heartwall-check: frame %d point %d at (%d, %d), expected (%.1f, %.1f)\n"
                                 % (f, j, r, c, er, ec))
                return 1
    return 0


def cp_check(out, ref):
    """ISPASS CP's output against the suite's reference output, by the rules
    its benchmark description states: first line (sizes, atom count) equal;
    the checksum (second line) within 0.5%; then 17 rows whose values each
    agree within 0.005 absolute or 0.5% relative."""
    try:
        with open(out) as f:
            o = f.read().split("\n")
        with open(ref) as f:
            r = f.read().split("\n")
    except OSError as e:
        sys.stderr.write("cp-check: %s\n" % e)
        return 1
    if len(o) < 19 or len(r) < 19 or o[0].split() != r[0].split():
        sys.stderr.write("cp-check: %s: header or row count differs from %s\n" % (out, ref))
        return 1
    co, cr = float(o[1]), float(r[1])
    if abs(co - cr) > 0.005 * abs(cr):
        sys.stderr.write("cp-check: checksum %g, reference %g\n" % (co, cr))
        return 1
    for row in range(2, 19):
        vo = [float(x) for x in o[row].split()]
        vr = [float(x) for x in r[row].split()]
        if len(vo) != len(vr):
            sys.stderr.write("cp-check: row %d has %d values, reference %d\n" % (row - 2, len(vo), len(vr)))
            return 1
        for i, (a, b) in enumerate(zip(vo, vr)):
            if not (abs(a - b) < 0.005 or abs(a - b) < 0.005 * abs(b)):
                sys.stderr.write("cp-check: row %d value %d: %g, reference %g\n" % (row - 2, i, a, b))
                return 1
    return 0


def compare(out, exp, tol, skip=0):
    """OUT: uint32 count, then little-endian floats (Parboil's outputs: count
    values, or a multiple of count: mri-q writes Qr and Qi); EXP: "index
    value" lines (`expected`).  Each listed value within tol times the largest
    listed magnitude.  skip: bytes before the count (cutcp: 4)."""
    b = open(out, "rb").read()[skip:]
    if len(b) < 4 or (len(b) - 4) % 4:
        sys.stderr.write("compare: %s: not a count and floats\n" % out)
        return 1
    m = struct.unpack_from("<I", b)[0]
    nv = (len(b) - 4) // 4
    if m == 0 or nv % m:
        sys.stderr.write("compare: %s: %d values, count %d\n" % (out, nv, m))
        return 1
    a = struct.unpack_from("<%df" % nv, b, 4)
    try:
        e = [(int(i), float(v)) for i, v in (ln.split() for ln in open(exp))]
    except (ValueError, UnicodeDecodeError):
        sys.stderr.write("compare: %s: not \"index value\" lines\n" % exp)
        return 1
    scale = max([abs(v) for _, v in e] + [1e-30])
    bad = [(i, v) for i, v in e if i >= nv or not abs(a[i] - v) <= tol * scale]
    if bad:
        i, v = bad[0]
        sys.stderr.write("compare: %d of %d values differ (first: [%d] %s, expected %g)\n"
                         % (len(bad), len(e), i, a[i] if i < nv else "missing", v))
        return 1
    return 0


def main(a):
    if len(a) == 3 and a[0] == "hotspot":
        hotspot(int(a[1]), a[2])
    elif len(a) == 4 and a[0] == "bfs":
        bfs(int(a[1]), int(a[2]), a[3])
    elif len(a) == 4 and a[0] == "kmeans":
        kmeans(int(a[1]), int(a[2]), a[3])
    elif len(a) == 3 and a[0] == "kmeans-check":
        return kmeans_check(a[1], a[2])
    elif len(a) == 3 and a[0] == "spmv":
        spmv(int(a[1]), a[2])
    elif len(a) == 4 and a[0] == "mriq":
        mriq(int(a[1]), int(a[2]), a[3])
    elif len(a) == 4 and a[0] == "tpacf":
        tpacf(int(a[1]), int(a[2]), a[3])
    elif len(a) == 3 and a[0] == "tpacf-check":
        return tpacf_check(a[1], a[2])
    elif len(a) == 4 and a[0] == "sad":
        sad(int(a[1]), int(a[2]), a[3])
    elif len(a) == 3 and a[0] == "sad-check":
        return sad_check(a[1], a[2])
    elif len(a) == 4 and a[0] == "mrig":
        mrig(int(a[1]), int(a[2]), a[3])
    elif len(a) == 2 and a[0] == "lbm":
        lbm(a[1])
    elif len(a) == 3 and a[0] == "lbm-check":
        return lbm_check(a[1], a[2])
    elif len(a) == 4 and a[0] == "dwt2d":
        dwt2d(int(a[1]), int(a[2]), a[3])
    elif len(a) == 5 and a[0] == "heartwall":
        heartwall(int(a[1]), int(a[2]), int(a[3]), a[4])
    elif len(a) == 4 and a[0] == "heartwall-check":
        return heartwall_check(a[1], int(a[2]), int(a[3]))
    elif len(a) == 3 and a[0] == "cp-check":
        return cp_check(a[1], a[2])
    elif len(a) == 3 and a[0] == "cutcp":
        cutcp(int(a[1]), a[2])
    elif len(a) in (4, 5) and a[0] == "compare":
        return compare(a[1], a[2], float(a[3]), int(a[4]) if len(a) == 5 else 0)
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
