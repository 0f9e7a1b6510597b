; conv_scalar.s -- separable convolution with 16-bit intermediates, as scalar loops.
; The 3 x 3 binomial filter [1 2 1] x [1 2 1] / 16 on a W x H image of 8-bit
; pixels P, taken row-major as one long row (horizontal neighbours of the
; first and last column come from the adjacent rows, as in vector code over
; whole images) with a zero before and after it:
;   h(i)   = P(i-1) + 2 P(i) + P(i+1)                   0 <= i < N   (<= 1020)
;   out(i) = (h(i-W) + 2 h(i) + h(i+W) + 8) / 16        W <= i < N-W
; (out is 0 in the first and last row).  One of three versions (conv_scalar.s,
; conv_mmx.s, conv_vec.s) that write the same bytes to out, which
; tests/unit/test_vec_media.c checks against a C reference.  Pseudo-random
; pixels (an LCG), 255 at both ends.
;   build/bin/tpsim vec --config vmips examples/vector/media/conv_scalar.s
        .equ W, 64              ; image width
        .equ H, 64              ; image height
        .equ N, W*H
        .data
        .include "conv_data.s"
        .text
; horizontal pass: h(i) as 16-bit words
        DADDUI R1,R0,#img
        DADDUI R2,R0,#h
        DADDUI R3,R0,#N
hloop:  LBU    R4,-1(R1)
        LBU    R5,0(R1)
        LBU    R6,1(R1)
        DSLL   R5,R5,#1
        DADDU  R4,R4,R5
        DADDU  R4,R4,R6
        SH     R4,0(R2)
        DADDUI R1,R1,#1
        DADDUI R2,R2,#2
        DSUBUI R3,R3,#1
        BNEZ   R3,hloop
; vertical pass: out(i) for W <= i < N-W
        DADDUI R2,R0,#h+2*W
        DADDUI R7,R0,#out+W
        DADDUI R3,R0,#N-2*W
vloop:  LHU    R4,-2*W(R2)
        LHU    R5,0(R2)
        LHU    R6,2*W(R2)
        DSLL   R5,R5,#1
        DADDU  R4,R4,R5
        DADDU  R4,R4,R6
        DADDUI R4,R4,#8
        DSRL   R4,R4,#4
        SB     R4,0(R7)
        DADDUI R2,R2,#2
        DADDUI R7,R7,#1
        DSUBUI R3,R3,#1
        BNEZ   R3,vloop
