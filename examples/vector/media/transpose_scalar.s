; transpose_scalar.s -- the transpose of an M x M matrix of 16-bit
; elements, as a scalar loop:
;   t(j, i) = a(i, j)   (row-major, 2 bytes per element)
; One of three versions (transpose_scalar.s, transpose_mmx.s,
; transpose_vec.s) that write the same t, which tests/unit/test_vec_media.c
; checks against a C reference.  Pseudo-random elements (an LCG).
;   build/bin/tpsim vec --config vmips examples/vector/media/transpose_scalar.s
        .equ M, 64              ; an M x M matrix (M a multiple of 4)
        .data
        .include "transpose_data.s"
        .text
        DADDUI R1,R0,#a         ; a(i, 0)
        DADDUI R2,R0,#t         ; t(0, i)
        DADDUI R3,R0,#M         ; rows left
row:    DADDUI R4,R0,#M         ; columns left
        DADDU  R5,R2,R0
col:    LHU    R6,0(R1)         ; a(i, j)
        SH     R6,0(R5)         ; t(j, i)
        DADDUI R1,R1,#2
        DADDUI R5,R5,#2*M
        DSUBUI R4,R4,#1
        BNEZ   R4,col
        DADDUI R2,R2,#2
        DSUBUI R3,R3,#1
        BNEZ   R3,row
