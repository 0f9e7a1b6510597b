; sad_mmx.s -- sums of absolute differences for motion estimation, with packed MMX
; instructions: |d| of 8 pixels is PSUBUSB both ways and POR, widened to
; words and summed with PADDW; PMADDWD with ones and a shift add the 4 word
; sums at the end.
; For each candidate motion vector c (dx, dy) and each 16 x 16 block b of the
; current frame cur (W x H, 8-bit), the sum over the block of
;   |cur(y, x) - ref(y + dy, x + dx)|     (ref is RW x RH, 8-bit)
; as a 64-bit word sad(c, b).  The current frame is the reference moved by
; (2, 3) plus noise of at most 3, so candidate 2 has the smallest sums.  One
; of three versions (sad_scalar.s, sad_mmx.s, sad_vec.s; sad_vec16.s for
; machines without 8-bit elements, such as VIRAM-1) that write the same
; sums, which tests/unit/test_vec_media.c checks against a C reference.
;   build/bin/tpsim vec --config vmips examples/vector/media/sad_mmx.s
        .equ W, 256             ; frame width
        .equ H, 16              ; frame height: one row of 16 x 16 blocks
        .equ RW, W+8            ; the reference frame is 8 pixels wider
        .equ RH, H+8            ; and higher
        .equ NB, W/16           ; blocks
        .equ K, 8               ; candidate motion vectors
        .data
        .include "sad_data.s"
        .text
        PXOR   F10,F10,F10      ; zero
        L.D    F11,ones
        DADDUI R20,R0,#cand
        DADDUI R21,R0,#sad
        DADDUI R22,R0,#K
cloop:  LD     R23,0(R20)
        DADDUI R1,R0,#cur
        DADDUI R2,R0,#ref
        DADDU  R2,R2,R23
        DADDUI R26,R0,#NB
bloop:  PXOR   F12,F12,F12      ; 4 word sums (each at most 16 x 4 x 255)
        DADDU  R3,R1,R0
        DADDU  R4,R2,R0
        DADDUI R11,R0,#16
yloop:
        L.D    F0,0(R3)
        L.D    F1,0(R4)
        PSUBUSB F2,F0,F1        ; cur - ref where positive
        PSUBUSB F3,F1,F0        ; ref - cur where positive
        POR    F2,F2,F3         ; |d| of 8 pixels
        PUNPCKLBW F3,F2,F10     ; as words
        PUNPCKHBW F2,F2,F10
        PADDW  F12,F12,F3
        PADDW  F12,F12,F2
        L.D    F0,8(R3)
        L.D    F1,8(R4)
        PSUBUSB F2,F0,F1        ; cur - ref where positive
        PSUBUSB F3,F1,F0        ; ref - cur where positive
        POR    F2,F2,F3         ; |d| of 8 pixels
        PUNPCKLBW F3,F2,F10     ; as words
        PUNPCKHBW F2,F2,F10
        PADDW  F12,F12,F3
        PADDW  F12,F12,F2
        DADDUI R3,R3,#W
        DADDUI R4,R4,#RW
        DSUBUI R11,R11,#1
        BNEZ   R11,yloop
        PMADDWD F12,F12,F11     ; two doubleword sums
        PSRLQ  F13,F12,#32
        PADDD  F12,F12,F13      ; the block's sum in the low doubleword
        PUNPCKLDQ F12,F12,F10   ; and zero above it
        S.D    F12,0(R21)
        DADDUI R21,R21,#8
        DADDUI R1,R1,#16
        DADDUI R2,R2,#16
        DSUBUI R26,R26,#1
        BNEZ   R26,bloop
        DADDUI R20,R20,#8
        DSUBUI R22,R22,#1
        BNEZ   R22,cloop
