; sad_scalar.s -- sums of absolute differences for motion estimation, as scalar loops
; (|d| without a branch: d xor s - s, with s = d >> 63).
; For each candidate motion vector c (dx, dy) and each 16 x 16 block b of the
; current frame cur (W x H, 8-bit), the sum over the block of
;   |cur(y, x) - ref(y + dy, x + dx)|     (ref is RW x RH, 8-bit)
; as a 64-bit word sad(c, b).  The current frame is the reference moved by
; (2, 3) plus noise of at most 3, so candidate 2 has the smallest sums.  One
; of three versions (sad_scalar.s, sad_mmx.s, sad_vec.s; sad_vec16.s for
; machines without 8-bit elements, such as VIRAM-1) that write the same
; sums, which tests/unit/test_vec_media.c checks against a C reference.
;   build/bin/tpsim vec --config vmips examples/vector/media/sad_scalar.s
        .equ W, 256             ; frame width
        .equ H, 16              ; frame height: one row of 16 x 16 blocks
        .equ RW, W+8            ; the reference frame is 8 pixels wider
        .equ RH, H+8            ; and higher
        .equ NB, W/16           ; blocks
        .equ K, 8               ; candidate motion vectors
        .data
        .include "sad_data.s"
        .text
        DADDUI R20,R0,#cand
        DADDUI R21,R0,#sad
        DADDUI R22,R0,#K
cloop:  LD     R23,0(R20)       ; the candidate's offset in ref
        DADDUI R1,R0,#cur       ; block b of cur
        DADDUI R2,R0,#ref
        DADDU  R2,R2,R23        ; block b of ref, moved
        DADDUI R26,R0,#NB
bloop:  DADDU  R10,R0,R0        ; the sum
        DADDU  R3,R1,R0
        DADDU  R4,R2,R0
        DADDUI R11,R0,#16       ; rows left
yloop:  DADDUI R12,R0,#16       ; pixels left in the row
xloop:  LBU    R5,0(R3)
        LBU    R6,0(R4)
        DSUBU  R7,R5,R6
        DSRA   R8,R7,#63
        XOR    R7,R7,R8
        DSUBU  R7,R7,R8         ; |d|
        DADDU  R10,R10,R7
        DADDUI R3,R3,#1
        DADDUI R4,R4,#1
        DSUBUI R12,R12,#1
        BNEZ   R12,xloop
        DADDUI R3,R3,#W-16
        DADDUI R4,R4,#RW-16
        DSUBUI R11,R11,#1
        BNEZ   R11,yloop
        SD     R10,0(R21)
        DADDUI R21,R21,#8
        DADDUI R1,R1,#16
        DADDUI R2,R2,#16
        DSUBUI R26,R26,#1
        BNEZ   R26,bloop
        DADDUI R20,R20,#8
        DSUBUI R22,R22,#1
        BNEZ   R22,cloop
