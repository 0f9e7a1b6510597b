; transpose_vec.s -- the transpose of an M x M matrix of 16-bit
; elements, on the vector
; machine at VPW = 16 (the elements' width): column j of a is a load with a
; stride of 2M bytes, stored as row j of t (every element of the column is
; in its own 8-byte word: the narrow width saves nothing on the strided
; load):
;   t(j, i) = a(i, j)   (row-major, 2 bytes per element)
; One of three versions (transpose_scalar.s, transpose_mmx.s,
; transpose_vec.s) that write the same t, which tests/unit/test_vec_media.c
; checks against a C reference.  Pseudo-random elements (an LCG).
;   build/bin/tpsim vec --config vmips examples/vector/media/transpose_vec.s
        .equ M, 64              ; an M x M matrix (M a multiple of 4)
        .data
        .include "transpose_data.s"
        .text
        MTC1   VPW,#16
        DADDUI R1,R0,#a         ; column j of a
        DADDUI R2,R0,#t         ; row j of t
        DADDUI R5,R0,#2*M       ; stride: one row of a
        DADDUI R10,R0,#M        ; columns left
        MFC1   R4,MVL
col:    DADDU  R11,R1,R0
        DADDU  R12,R2,R0
        DADDUI R3,R0,#M         ; elements left in the column
strip:    SLTU   R6,R3,R4         ; fewer than MVL left?
        DADDU  R7,R4,R0          ; VL = MVL
        BEQZ   R6,stripv
        DADDU  R7,R3,R0          ; VL = what is left
stripv:   MTC1   VLR,R7
        LVWS   V1,(R11,R5)
        SV     R12,V1
        DMUL   R9,R7,R5
        DADDU  R11,R11,R9
        DADDU  R9,R7,R7
        DADDU  R12,R12,R9
        DSUBU  R3,R3,R7
        BNEZ   R3,strip
        DADDUI R1,R1,#2
        DADDUI R2,R2,#2*M
        DSUBUI R10,R10,#1
        BNEZ   R10,col
