; conv_vec.s -- separable convolution with 16-bit intermediates, on the vector machine at
; VPW = 16, the narrowest width that holds the intermediates (up to 4088).
; A 16-bit element X(o) loaded from img+2k+o holds two pixels, P(2k+o) in
; its low byte and P(2k+o+1) in its high byte, so the even and the odd
; pixels are computed apart, from three loads:
;   he(k) = hi(X(-2)) + 2 lo(X(0)) + hi(X(0)),  ho(k) = lo(X(0)) + 2 hi(X(0)) + lo(X(2))
; kept as two arrays (even ones at h, odd ones at h+N); the vertical pass
; keeps the parity (W is even) and joins the two results into one element.
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
;   build/bin/tpsim vec --config vmips examples/vector/media/conv_vec.s
        .equ W, 64              ; image width
        .equ H, 64              ; image height
        .equ N, W*H
        .data
        .include "conv_data.s"
        .text
        MTC1   VPW,#16
        DADDUI R8,R0,#255
        DADDUI R11,R0,#8
        MFC1   R4,MVL
; horizontal pass over the N/2 pixel pairs
        DADDUI R1,R0,#img
        DADDUI R2,R0,#h         ; even h; the odd ones N bytes on
        DADDUI R3,R0,#N/2
hloop:    SLTU   R6,R3,R4         ; fewer than MVL left?
        DADDU  R7,R4,R0          ; VL = MVL
        BEQZ   R6,hloopv
        DADDU  R7,R3,R0          ; VL = what is left
hloopv:   MTC1   VLR,R7
        DADDUI R9,R1,#-2
        LV     V1,R9            ; X(-2)
        LV     V2,R1            ; X(0)
        DADDUI R9,R1,#2
        LV     V3,R9            ; X(2)
        SRLV   V1,V1,#8         ; P(2k-1)
        ANDVS  V4,V2,R8         ; P(2k)
        SRLV   V2,V2,#8         ; P(2k+1)
        ANDVS  V3,V3,R8         ; P(2k+2)
        SLLV   V5,V4,#1
        ADDV.I V1,V1,V5
        ADDV.I V1,V1,V2         ; he(k)
        SLLV   V5,V2,#1
        ADDV.I V4,V4,V5
        ADDV.I V4,V4,V3         ; ho(k)
        SV     R2,V1
        DADDUI R9,R2,#N
        SV     R9,V4
        DADDU  R9,R7,R7         ; 2 bytes per element
        DADDU  R1,R1,R9
        DADDU  R2,R2,R9
        DSUBU  R3,R3,R7
        BNEZ   R3,hloop
; vertical pass over the pairs k = W/2 .. N/2-W/2-1 (W/2 pairs a row: W bytes)
        DADDUI R2,R0,#h+W
        DADDUI R10,R0,#out+W
        DADDUI R3,R0,#N/2-W
vloop:    SLTU   R6,R3,R4         ; fewer than MVL left?
        DADDU  R7,R4,R0          ; VL = MVL
        BEQZ   R6,vloopv
        DADDU  R7,R3,R0          ; VL = what is left
vloopv:   MTC1   VLR,R7
        DADDUI R9,R2,#-W
        LV     V1,R9            ; he(k-W/2)
        LV     V2,R2            ; he(k)
        DADDUI R9,R2,#W
        LV     V3,R9            ; he(k+W/2)
        SLLV   V2,V2,#1
        ADDV.I V1,V1,V2
        ADDV.I V1,V1,V3
        ADDVS.I V1,V1,R11
        SRLV   V1,V1,#4         ; out(2k)
        DADDUI R9,R2,#N-W
        LV     V4,R9            ; ho(k-W/2)
        DADDUI R9,R2,#N
        LV     V5,R9
        DADDUI R9,R2,#N+W
        LV     V6,R9
        SLLV   V5,V5,#1
        ADDV.I V4,V4,V5
        ADDV.I V4,V4,V6
        ADDVS.I V4,V4,R11
        SRLV   V4,V4,#4         ; out(2k+1)
        SLLV   V4,V4,#8
        ORV    V1,V1,V4         ; the pair
        SV     R10,V1
        DADDU  R9,R7,R7
        DADDU  R2,R2,R9
        DADDU  R10,R10,R9
        DSUBU  R3,R3,R7
        BNEZ   R3,vloop
