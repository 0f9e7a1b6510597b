; peak_width.s -- the vector units at their peak: an integer add, multiply
; and AND on whole registers of W-bit elements, R times over (independent
; instructions, one per arithmetic unit that does integer work).  A 64-bit
; lane does 64/W element operations per cycle, so the operations per second
; (mops.W) grow as the elements narrow, toward peak_mops.W:
;   build/bin/tpsim vec --config viram1 --set W=16 examples/vector/peak_width.s
;   build/bin/tpsim vec --config viram1 --set W=64 examples/vector/peak_width.s
        .equ W, 16              ; element width in bits
        .equ R, 200             ; repetitions
        .text
        MTC1   VPW,#W
        MFC1   R1,MVL
        MTC1   VLR,R1           ; whole registers
        DADDUI R2,R0,#R
loop:   ADDV.I V1,V2,V3         ; the add unit
        MULV.I V4,V5,V6         ; the multiply unit
        ANDV   V7,V2,V3         ; the logical unit
        DSUBUI R2,R2,#1
        BNEZ   R2,loop
