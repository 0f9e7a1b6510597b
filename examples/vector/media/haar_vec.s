; haar_vec.s -- one level of the Haar transform on 16-bit samples
; (media mining: a signal's averages and details), on the vector machine at
; VPW = 16 (the narrowest exact width for these samples): the even and odd
; samples come from two loads with a stride of 4 bytes, two 16-bit elements
; per 8-byte word:
;   s(k) = (x(2k) + x(2k+1)) >> 1 (arithmetic),  d(k) = x(2k) - x(2k+1),
; for 0 <= k < N/2, with samples in [-16384, 16383] so that both fit in 16
; bits.  One of three versions (haar_scalar.s, haar_mmx.s, haar_vec.s) that
; write the same s and d, which tests/unit/test_vec_media.c checks against a
; C reference.  Pseudo-random samples (an LCG), the extremes first.
;   build/bin/tpsim vec --config vmips examples/vector/media/haar_vec.s
        .equ N, 4096              ; samples (even)
        .data
        .include "haar_data.s"
        .text
        MTC1   VPW,#16
        DADDUI R1,R0,#x
        DADDUI R2,R0,#s
        DADDUI R10,R0,#d
        DADDUI R3,R0,#N/2       ; results left
        DADDUI R5,R0,#4         ; stride: every other sample
        MFC1   R4,MVL
loop:    SLTU   R6,R3,R4         ; fewer than MVL left?
        DADDU  R7,R4,R0          ; VL = MVL
        BEQZ   R6,loopv
        DADDU  R7,R3,R0          ; VL = what is left
loopv:   MTC1   VLR,R7
        LVWS   V1,(R1,R5)       ; x(2k)
        DADDUI R9,R1,#2
        LVWS   V2,(R9,R5)       ; x(2k+1)
        ADDV.I V3,V1,V2
        SRAV   V3,V3,#1
        SUBV.I V4,V1,V2
        SV     R2,V3
        SV     R10,V4
        DSLL   R9,R7,#2         ; 4 bytes of x per result
        DADDU  R1,R1,R9
        DADDU  R9,R7,R7         ; 2 bytes of s and d
        DADDU  R2,R2,R9
        DADDU  R10,R10,R9
        DSUBU  R3,R3,R7
        BNEZ   R3,loop
