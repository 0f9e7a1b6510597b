; haar_scalar.s -- one level of the Haar transform on 16-bit samples
; (media mining: a signal's averages and details), as a scalar loop:
;   s(k) = (x(2k) + x(2k+1)) >> 1 (arithmetic),  d(k) = x(2k) - x(2k+1),
; for 0 <= k < N/2, with samples in [-16384, 16383] so that both fit in 16
; bits.  One of three versions (haar_scalar.s, haar_mmx.s, haar_vec.s) that
; write the same s and d, which tests/unit/test_vec_media.c checks against a
; C reference.  Pseudo-random samples (an LCG), the extremes first.
;   build/bin/tpsim vec --config vmips examples/vector/media/haar_scalar.s
        .equ N, 4096              ; samples (even)
        .data
        .include "haar_data.s"
        .text
        DADDUI R1,R0,#x
        DADDUI R2,R0,#s
        DADDUI R3,R0,#d
        DADDUI R4,R0,#N/2
loop:   LH     R5,0(R1)         ; x(2k)
        LH     R6,2(R1)         ; x(2k+1)
        DADDU  R7,R5,R6
        DSRA   R7,R7,#1
        DSUBU  R8,R5,R6
        SH     R7,0(R2)
        SH     R8,0(R3)
        DADDUI R1,R1,#4
        DADDUI R2,R2,#2
        DADDUI R3,R3,#2
        DSUBUI R4,R4,#1
        BNEZ   R4,loop
