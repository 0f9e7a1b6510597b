; sad_vec16.s -- sums of absolute differences for motion estimation, on the vector
; machine at VPW = 16 throughout, for machines without 8-bit elements
; (VIRAM-1): each element of a row holds two pixels, split into even and odd
; ones, whose |d| are summed; then the reduction of sad_vec.s.
; For each candidate motion vector c (dx, dy) and each 16 x 16 block b of the
; current frame cur (W x H, 8-bit), the sum over the block of
;   |cur(y, x) - ref(y + dy, x + dx)|     (ref is RW x RH, 8-bit)
; as a 64-bit word sad(c, b).  The current frame is the reference moved by
; (2, 3) plus noise of at most 3, so candidate 2 has the smallest sums.  One
; of three versions (sad_scalar.s, sad_mmx.s, sad_vec.s; sad_vec16.s for
; machines without 8-bit elements, such as VIRAM-1) that write the same
; sums, which tests/unit/test_vec_media.c checks against a C reference.
;   build/bin/tpsim vec --config vmips examples/vector/media/sad_vec16.s
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
        DADDUI R8,R0,#255
cloop:  MTC1   VPW,#16
        DADDUI R7,R0,#W/2       ; pixel pairs of a frame row
        MTC1   VLR,R7
        LD     R23,0(R20)
        DADDUI R3,R0,#cur
        DADDUI R4,R0,#ref
        DADDU  R4,R4,R23
        XORV   V5,V5,V5
        DADDUI R11,R0,#16
row:    LV     V1,R3
        LV     V2,R4
        ANDVS  V3,V1,R8         ; cur, even pixels
        SRLV   V1,V1,#8         ; cur, odd
        ANDVS  V4,V2,R8         ; ref, even
        SRLV   V2,V2,#8         ; ref, odd
        SUBV.US V6,V3,V4
        SUBV.US V4,V4,V3
        ORV    V4,V4,V6         ; |d|, even
        SUBV.US V6,V1,V2
        SUBV.US V2,V2,V1
        ORV    V2,V2,V6         ; |d|, odd
        ADDV.I V5,V5,V4
        ADDV.I V5,V5,V2
        DADDUI R3,R3,#W
        DADDUI R4,R4,#RW
        DSUBUI R11,R11,#1
        BNEZ   R11,row
; V5: W/2 16-bit sums of column pairs over the 16 rows (at most 8160)
        DADDUI R7,R0,#W/4       ; (VLR first: it must fit the MVL at 32 bits)
        MTC1   VLR,R7
        MTC1   VPW,#32          ; element j: pair sums 2j and 2j+1
        DADDUI R9,R0,#0xffff
        ANDVS  V2,V5,R9
        SRLV   V5,V5,#16
        ADDV.I V5,V5,V2         ; sums of 4 columns
        DADDUI R7,R0,#W/8
        MTC1   VLR,R7
        MTC1   VPW,#64
        DADDUI R9,R0,#0xffffffff
        ANDVS  V2,V5,R9
        SRLV   V5,V5,#32
        ADDV.I V5,V5,V2         ; sums of 8 columns
        DADDUI R9,R0,#tmp
        SV     R9,V5
        DADDUI R7,R0,#NB
        MTC1   VLR,R7
        DADDUI R12,R0,#16       ; every other 64-bit element
        LVWS   V1,(R9,R12)
        DADDUI R9,R9,#8
        LVWS   V2,(R9,R12)
        ADDV.I V1,V1,V2         ; sums of 16 columns: the blocks
        SV     R21,V1
        DADDUI R21,R21,#8*NB
        DADDUI R20,R20,#8
        DSUBUI R22,R22,#1
        BNEZ   R22,cloop
