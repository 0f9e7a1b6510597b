; brightness_scalar.s -- brightness with saturation on 8-bit pixels, as a scalar loop
; (a load, an add, a compare and branch for the saturation, a store per pixel):
;   out(i) = min(img(i) + B, 255) for the N pixels of a 64 x 64 image.
; One of three versions of the same kernel (brightness_scalar.s,
; brightness_mmx.s, brightness_vec.s; brightness_vec16.s for machines without
; 8-bit elements, such as VIRAM-1); all write the same bytes to out, which
; tests/unit/test_vec_media.c checks against a C reference.  The pixels are
; pseudo-random (an LCG), with the edges 214, 215, 216, 254, 255 and 0 first.
;   build/bin/tpsim vec --config vmips examples/vector/media/brightness_scalar.s
        .equ N, 4096              ; pixels (a 64 x 64 image)
        .equ B, 40              ; brightness added, saturating at 255
        .data
        .include "brightness_data.s"
        .text
        DADDUI R1,R0,#img
        DADDUI R2,R0,#out
        DADDUI R3,R0,#N         ; pixels left
loop:   LBU    R4,0(R1)
        DADDUI R4,R4,#B
        SLTU   R6,R4,#256       ; still a byte?
        BNEZ   R6,store
        DADDUI R4,R0,#255       ; saturate
store:  SB     R4,0(R2)
        DADDUI R1,R1,#1
        DADDUI R2,R2,#1
        DSUBUI R3,R3,#1
        BNEZ   R3,loop
