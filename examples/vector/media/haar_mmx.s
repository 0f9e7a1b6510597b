; haar_mmx.s -- one level of the Haar transform on 16-bit samples
; (media mining: a signal's averages and details), with packed MMX
; instructions: the even and odd words of two registers become doublewords
; (PSLLD then PSRAD sign-extends the even ones, PSRAD the odd ones), and
; PACKSSDW packs 4 results back into words:
;   s(k) = (x(2k) + x(2k+1)) >> 1 (arithmetic),  d(k) = x(2k) - x(2k+1),
; for 0 <= k < N/2, with samples in [-16384, 16383] so that both fit in 16
; bits.  One of three versions (haar_scalar.s, haar_mmx.s, haar_vec.s) that
; write the same s and d, which tests/unit/test_vec_media.c checks against a
; C reference.  Pseudo-random samples (an LCG), the extremes first.
;   build/bin/tpsim vec --config vmips examples/vector/media/haar_mmx.s
        .equ N, 4096              ; samples (even)
        .data
        .include "haar_data.s"
        .text
        DADDUI R1,R0,#x
        DADDUI R2,R0,#s
        DADDUI R3,R0,#d
        DADDUI R4,R0,#N/8       ; 4 results per iteration
loop:   L.D    F0,0(R1)         ; x(2k) .. x(2k+3)
        L.D    F1,8(R1)         ; x(2k+4) .. x(2k+7)
        PSLLD  F2,F0,#16
        PSRAD  F2,F2,#16        ; even samples of F0 as doublewords
        PSRAD  F3,F0,#16        ; odd ones
        PSLLD  F4,F1,#16
        PSRAD  F4,F4,#16
        PSRAD  F5,F1,#16
        PADDD  F6,F2,F3
        PSRAD  F6,F6,#1         ; s(k), s(k+1)
        PADDD  F7,F4,F5
        PSRAD  F7,F7,#1         ; s(k+2), s(k+3)
        PSUBD  F8,F2,F3
        PSUBD  F9,F4,F5
        PACKSSDW F6,F6,F7       ; 4 averages as words
        PACKSSDW F8,F8,F9       ; 4 differences
        S.D    F6,0(R2)
        S.D    F8,0(R3)
        DADDUI R1,R1,#16
        DADDUI R2,R2,#8
        DADDUI R3,R3,#8
        DSUBUI R4,R4,#1
        BNEZ   R4,loop
