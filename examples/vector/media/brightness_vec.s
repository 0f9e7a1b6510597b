; brightness_vec.s -- brightness with saturation on 8-bit pixels, on the vector
; machine at VPW = 8 (the narrowest width, and exact: ADDVS.US saturates at
; 255), strip-mined by MVL (512 bytes on vmips):
;   out(i) = min(img(i) + B, 255) for the N pixels of a 64 x 64 image.
; One of three versions of the same kernel (brightness_scalar.s,
; brightness_mmx.s, brightness_vec.s; brightness_vec16.s for machines without
; 8-bit elements, such as VIRAM-1); all write the same bytes to out, which
; tests/unit/test_vec_media.c checks against a C reference.  The pixels are
; pseudo-random (an LCG), with the edges 214, 215, 216, 254, 255 and 0 first.
;   build/bin/tpsim vec --config vmips examples/vector/media/brightness_vec.s
        .equ N, 4096              ; pixels (a 64 x 64 image)
        .equ B, 40              ; brightness added, saturating at 255
        .data
        .include "brightness_data.s"
        .text
        MTC1   VPW,#8           ; 8-bit elements
        DADDUI R1,R0,#img
        DADDUI R2,R0,#out
        DADDUI R3,R0,#N         ; pixels left
        DADDUI R5,R0,#B
        MFC1   R4,MVL
loop:    SLTU   R6,R3,R4         ; fewer than MVL left?
        DADDU  R7,R4,R0          ; VL = MVL
        BEQZ   R6,loopv
        DADDU  R7,R3,R0          ; VL = what is left
loopv:   MTC1   VLR,R7
        LV     V1,R1
        ADDVS.US V2,V1,R5       ; + B, unsigned saturating
        SV     R2,V2
        DADDU  R1,R1,R7         ; VL bytes
        DADDU  R2,R2,R7
        DSUBU  R3,R3,R7
        BNEZ   R3,loop
