; median_scalar.s -- the 3 x 3 median filter on 8-bit pixels, as scalar loops
; with a compare and a branch for every exchange.
; The image is taken row-major as one long row (the horizontal neighbours of
; the first and last column come from the adjacent rows) with a zero before
; and after it.  The median of 9 is computed from sorted rows of 3:
;   pass 1, 0 <= i < N:     (lo, mid, hi)(i) = P(i-1), P(i), P(i+1) sorted
;   pass 2, W <= i < N-W:   out(i) = med3(max(lo(i-W), lo(i), lo(i+W)),
;                                         med3(mid(i-W), mid(i), mid(i+W)),
;                                         min(hi(i-W), hi(i), hi(i+W)))
; (the first and last row of out stay 0).  One of three versions
; (median_scalar.s, median_mmx.s, median_vec.s; median_vec16.s for machines
; without 8-bit elements, such as VIRAM-1) that write the same bytes to out,
; which tests/unit/test_vec_media.c checks against the median of the 9
; pixels.  Pseudo-random pixels (an LCG), with flat and alternating patches.
;   build/bin/tpsim vec --config vmips examples/vector/media/median_scalar.s
        .equ W, 64              ; image width
        .equ H, 64              ; image height
        .equ N, W*H
        .data
        .include "median_data.s"
        .text
; pass 1: sort each pixel's row of 3
        DADDU  R1,R0,R0         ; i
        DADDUI R3,R0,#N
p1:     LBU    R5,img-1(R1)
        LBU    R6,img(R1)
        LBU    R7,img+1(R1)
        SLTU   R15,R6,R5
        BEQZ   R15,s1
        DADDU  R15,R5,R0
        DADDU  R5,R6,R0
        DADDU  R6,R15,R0
s1:
        SLTU   R15,R7,R6
        BEQZ   R15,s2
        DADDU  R15,R6,R0
        DADDU  R6,R7,R0
        DADDU  R7,R15,R0
s2:
        SLTU   R15,R6,R5
        BEQZ   R15,s3
        DADDU  R15,R5,R0
        DADDU  R5,R6,R0
        DADDU  R6,R15,R0
s3:
        SB     R5,lo(R1)
        SB     R6,mid(R1)
        SB     R7,hi(R1)
        DADDUI R1,R1,#1
        DSUBUI R3,R3,#1
        BNEZ   R3,p1
; pass 2: the median of the three rows
        DADDUI R1,R0,#W
        DADDUI R3,R0,#N-2*W
p2:     LBU    R5,lo-W(R1)
        LBU    R6,lo(R1)
        LBU    R7,lo+W(R1)
        SLTU   R15,R5,R6
        BEQZ   R15,s4
        DADDU  R5,R6,R0
s4:
        SLTU   R15,R5,R7
        BEQZ   R15,s5
        DADDU  R5,R7,R0
s5:
        LBU    R6,hi-W(R1)
        LBU    R7,hi(R1)
        LBU    R8,hi+W(R1)
        SLTU   R15,R7,R6
        BEQZ   R15,s6
        DADDU  R6,R7,R0
s6:
        SLTU   R15,R8,R6
        BEQZ   R15,s7
        DADDU  R6,R8,R0
s7:
        LBU    R7,mid-W(R1)
        LBU    R8,mid(R1)
        LBU    R9,mid+W(R1)
        SLTU   R15,R8,R7
        BEQZ   R15,s8
        DADDU  R15,R7,R0
        DADDU  R7,R8,R0
        DADDU  R8,R15,R0
s8:
        SLTU   R15,R9,R8
        BEQZ   R15,s9
        DADDU  R8,R9,R0
s9:
        SLTU   R15,R7,R8
        BEQZ   R15,s10
        DADDU  R7,R8,R0
s10:
        SLTU   R15,R7,R5
        BEQZ   R15,s11
        DADDU  R15,R5,R0
        DADDU  R5,R7,R0
        DADDU  R7,R15,R0
s11:
        SLTU   R15,R6,R7
        BEQZ   R15,s12
        DADDU  R7,R6,R0
s12:
        SLTU   R15,R5,R7
        BEQZ   R15,s13
        DADDU  R5,R7,R0
s13:
        SB     R5,out(R1)
        DADDUI R1,R1,#1
        DSUBUI R3,R3,#1
        BNEZ   R3,p2
