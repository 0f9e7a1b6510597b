; brightness_vec16.s -- brightness with saturation on 8-bit pixels, on the vector
; machine at VPW = 16, for machines without 8-bit elements (VIRAM-1): each
; 16-bit element holds two pixels, split into even (low byte) and odd (high
; byte), added, clamped with min(x, 255) = x - sat(x - 255), and joined:
;   out(i) = min(img(i) + B, 255) for the N pixels of a 64 x 64 image.
; One of three versions of the same kernel (brightness_scalar.s,
; brightness_mmx.s, brightness_vec.s; brightness_vec16.s for machines without
; 8-bit elements, such as VIRAM-1); all write the same bytes to out, which
; tests/unit/test_vec_media.c checks against a C reference.  The pixels are
; pseudo-random (an LCG), with the edges 214, 215, 216, 254, 255 and 0 first.
;   build/bin/tpsim vec --config vmips examples/vector/media/brightness_vec16.s
        .equ N, 4096              ; pixels (a 64 x 64 image)
        .equ B, 40              ; brightness added, saturating at 255
        .data
        .include "brightness_data.s"
        .text
        MTC1   VPW,#16          ; 16-bit elements: pixel pairs
        DADDUI R1,R0,#img
        DADDUI R2,R0,#out
        DADDUI R3,R0,#N/2       ; pairs left
        DADDUI R5,R0,#B
        DADDUI R8,R0,#255
        MFC1   R4,MVL
loop:    SLTU   R6,R3,R4         ; fewer than MVL left?
        DADDU  R7,R4,R0          ; VL = MVL
        BEQZ   R6,loopv
        DADDU  R7,R3,R0          ; VL = what is left
loopv:   MTC1   VLR,R7
        LV     V1,R1
        ANDVS  V2,V1,R8         ; even pixels
        SRLV   V3,V1,#8         ; odd pixels
        ADDVS.I V2,V2,R5
        ADDVS.I V3,V3,R5
        SUBVS.US V4,V2,R8       ; what exceeds 255 (0 if nothing)
        SUBV.I V2,V2,V4         ; min(x, 255)
        SUBVS.US V4,V3,R8
        SUBV.I V3,V3,V4
        SLLV   V3,V3,#8
        ORV    V2,V2,V3         ; the pairs again
        SV     R2,V2
        DADDU  R9,R7,R7         ; 2 bytes per element
        DADDU  R1,R1,R9
        DADDU  R2,R2,R9
        DSUBU  R3,R3,R7
        BNEZ   R3,loop
