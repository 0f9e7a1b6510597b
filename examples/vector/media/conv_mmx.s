; conv_mmx.s -- separable convolution with 16-bit intermediates, with packed MMX
; instructions: PUNPCKLBW/PUNPCKHBW widen 8 pixels to two registers of 4
; words, PADDW sums them, PSRLW divides, PACKUSWB narrows 8 results to bytes.
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
;   build/bin/tpsim vec --config vmips examples/vector/media/conv_mmx.s
        .equ W, 64              ; image width
        .equ H, 64              ; image height
        .equ N, W*H
        .data
        .include "conv_data.s"
        .text
        PXOR   F10,F10,F10      ; zero, to unpack against
        L.D    F11,eights
; horizontal pass: 8 pixels per iteration
        DADDUI R1,R0,#img
        DADDUI R2,R0,#h
        DADDUI R3,R0,#N/8
hloop:  L.D    F0,-1(R1)        ; P(i-1) .. P(i+6)
        L.D    F1,0(R1)
        L.D    F2,1(R1)
        PUNPCKLBW F3,F0,F10     ; the low 4 as words
        PUNPCKLBW F4,F1,F10
        PUNPCKLBW F5,F2,F10
        PADDW  F4,F4,F4
        PADDW  F3,F3,F4
        PADDW  F3,F3,F5
        S.D    F3,0(R2)         ; h(i) .. h(i+3)
        PUNPCKHBW F3,F0,F10     ; the high 4
        PUNPCKHBW F4,F1,F10
        PUNPCKHBW F5,F2,F10
        PADDW  F4,F4,F4
        PADDW  F3,F3,F4
        PADDW  F3,F3,F5
        S.D    F3,8(R2)         ; h(i+4) .. h(i+7)
        DADDUI R1,R1,#8
        DADDUI R2,R2,#16
        DSUBUI R3,R3,#1
        BNEZ   R3,hloop
; vertical pass: 8 results per iteration
        DADDUI R2,R0,#h+2*W
        DADDUI R7,R0,#out+W
        DADDUI R3,R0,#(N-2*W)/8
vloop:  L.D    F0,-2*W(R2)
        L.D    F1,0(R2)
        L.D    F2,2*W(R2)
        PADDW  F1,F1,F1
        PADDW  F0,F0,F1
        PADDW  F0,F0,F2
        PADDW  F0,F0,F11
        PSRLW  F0,F0,#4         ; 4 results as words
        L.D    F3,8-2*W(R2)
        L.D    F4,8(R2)
        L.D    F5,8+2*W(R2)
        PADDW  F4,F4,F4
        PADDW  F3,F3,F4
        PADDW  F3,F3,F5
        PADDW  F3,F3,F11
        PSRLW  F3,F3,#4         ; 4 more
        PACKUSWB F0,F0,F3       ; 8 bytes
        S.D    F0,0(R7)
        DADDUI R2,R2,#16
        DADDUI R7,R7,#8
        DSUBUI R3,R3,#1
        BNEZ   R3,vloop
