; transpose_mmx.s -- the transpose of an M x M matrix of 16-bit
; elements, with packed MMX
; instructions: each 4 x 4 block is four registers of 4 words; PUNPCKLWD and
; PUNPCKHWD interleave rows 0/1 and 2/3, PUNPCKLDQ and PUNPCKHDQ then give
; the columns, stored as rows of the transposed block:
;   t(j, i) = a(i, j)   (row-major, 2 bytes per element)
; One of three versions (transpose_scalar.s, transpose_mmx.s,
; transpose_vec.s) that write the same t, which tests/unit/test_vec_media.c
; checks against a C reference.  Pseudo-random elements (an LCG).
;   build/bin/tpsim vec --config vmips examples/vector/media/transpose_mmx.s
        .equ M, 64              ; an M x M matrix (M a multiple of 4)
        .data
        .include "transpose_data.s"
        .text
        DADDUI R1,R0,#a         ; block (bi, 0) of a: a + 8 M bi
        DADDUI R12,R0,#t        ; block (0, bi) of t: t + 8 bi
        DADDUI R10,R0,#M/4      ; block rows left
brow:   DADDUI R11,R0,#M/4      ; blocks left in the row
        DADDU  R2,R1,R0         ; block (bi, bj) of a: + 8 bj
        DADDU  R3,R12,R0        ; block (bj, bi) of t: + 8 M bj
bcol:   L.D    F0,0(R2)         ; row 0: a0 a1 a2 a3
        L.D    F1,2*M(R2)       ; row 1: b0 b1 b2 b3
        L.D    F2,4*M(R2)       ; row 2: c
        L.D    F3,6*M(R2)       ; row 3: d
        PUNPCKLWD F4,F0,F1      ; a0 b0 a1 b1
        PUNPCKHWD F5,F0,F1      ; a2 b2 a3 b3
        PUNPCKLWD F6,F2,F3      ; c0 d0 c1 d1
        PUNPCKHWD F7,F2,F3      ; c2 d2 c3 d3
        PUNPCKLDQ F0,F4,F6      ; a0 b0 c0 d0
        PUNPCKHDQ F1,F4,F6      ; a1 b1 c1 d1
        PUNPCKLDQ F2,F5,F7      ; a2 b2 c2 d2
        PUNPCKHDQ F3,F5,F7      ; a3 b3 c3 d3
        S.D    F0,0(R3)
        S.D    F1,2*M(R3)
        S.D    F2,4*M(R3)
        S.D    F3,6*M(R3)
        DADDUI R2,R2,#8         ; the next block of the row in a
        DADDUI R3,R3,#8*M       ; goes 4 rows down in t
        DSUBUI R11,R11,#1
        BNEZ   R11,bcol
        DADDUI R1,R1,#8*M       ; the next block row of a
        DADDUI R12,R12,#8       ; is the next block column of t
        DSUBUI R10,R10,#1
        BNEZ   R10,brow
