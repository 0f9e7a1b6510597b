; median_mmx.s -- the 3 x 3 median filter on 8-bit pixels, with packed MMX
; instructions: PCMPGTB makes a mask of the bytes to exchange (on pixels
; with the sign bit flipped, as MMX compares are signed), and PXOR/PAND
; exchange them without a branch.
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
;   build/bin/tpsim vec --config vmips examples/vector/media/median_mmx.s
        .equ W, 64              ; image width
        .equ H, 64              ; image height
        .equ N, W*H
        .data
        .include "median_data.s"
        .text
        L.D    F30,bias
; pass 1: 8 pixels per iteration
        DADDU  R1,R0,R0
        DADDUI R3,R0,#N/8
p1:     L.D    F0,img-1(R1)
        L.D    F1,img(R1)
        L.D    F2,img+1(R1)
        PXOR   F0,F0,F30        ; flip the sign bits: signed compares order them
        PXOR   F1,F1,F30
        PXOR   F2,F2,F30
        PCMPGTB F20,F0,F1     ; where F0 > F1
        PXOR   F21,F0,F1
        PAND   F21,F21,F20
        PXOR   F0,F0,F21       ; exchange there
        PXOR   F1,F1,F21
        PCMPGTB F20,F1,F2     ; where F1 > F2
        PXOR   F21,F1,F2
        PAND   F21,F21,F20
        PXOR   F1,F1,F21       ; exchange there
        PXOR   F2,F2,F21
        PCMPGTB F20,F0,F1     ; where F0 > F1
        PXOR   F21,F0,F1
        PAND   F21,F21,F20
        PXOR   F0,F0,F21       ; exchange there
        PXOR   F1,F1,F21
        S.D    F0,lo(R1)        ; kept flipped
        S.D    F1,mid(R1)
        S.D    F2,hi(R1)
        DADDUI R1,R1,#8
        DSUBUI R3,R3,#1
        BNEZ   R3,p1
; pass 2: 8 results per iteration
        DADDUI R1,R0,#W
        DADDUI R3,R0,#(N-2*W)/8
p2:     L.D    F0,lo-W(R1)
        L.D    F1,lo(R1)
        L.D    F2,lo+W(R1)
        PCMPGTB F20,F1,F0
        PXOR   F21,F0,F1
        PAND   F21,F21,F20
        PXOR   F0,F0,F21       ; F0 = max
        PCMPGTB F20,F2,F0
        PXOR   F21,F0,F2
        PAND   F21,F21,F20
        PXOR   F0,F0,F21       ; F0 = max
        L.D    F1,hi-W(R1)
        L.D    F2,hi(R1)
        L.D    F3,hi+W(R1)
        PCMPGTB F20,F1,F2
        PXOR   F21,F1,F2
        PAND   F21,F21,F20
        PXOR   F1,F1,F21       ; F1 = min
        PCMPGTB F20,F1,F3
        PXOR   F21,F1,F3
        PAND   F21,F21,F20
        PXOR   F1,F1,F21       ; F1 = min
        L.D    F2,mid-W(R1)
        L.D    F3,mid(R1)
        L.D    F4,mid+W(R1)
        PCMPGTB F20,F2,F3     ; where F2 > F3
        PXOR   F21,F2,F3
        PAND   F21,F21,F20
        PXOR   F2,F2,F21       ; exchange there
        PXOR   F3,F3,F21
        PCMPGTB F20,F3,F4
        PXOR   F21,F3,F4
        PAND   F21,F21,F20
        PXOR   F3,F3,F21       ; F3 = min
        PCMPGTB F20,F3,F2
        PXOR   F21,F2,F3
        PAND   F21,F21,F20
        PXOR   F2,F2,F21       ; F2 = max
        PCMPGTB F20,F0,F2     ; where F0 > F2
        PXOR   F21,F0,F2
        PAND   F21,F21,F20
        PXOR   F0,F0,F21       ; exchange there
        PXOR   F2,F2,F21
        PCMPGTB F20,F2,F1
        PXOR   F21,F2,F1
        PAND   F21,F21,F20
        PXOR   F2,F2,F21       ; F2 = min
        PCMPGTB F20,F2,F0
        PXOR   F21,F0,F2
        PAND   F21,F21,F20
        PXOR   F0,F0,F21       ; F0 = max
        PXOR   F0,F0,F30        ; the sign bits back
        S.D    F0,out(R1)
        DADDUI R1,R1,#8
        DSUBUI R3,R3,#1
        BNEZ   R3,p2
