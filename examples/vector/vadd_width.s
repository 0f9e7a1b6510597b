; vadd_width.s -- c = a + b on N integers of W bits (W = 8, 16, 32 or 64),
; strip-mined by the MVL at that width as in H&P (the first strip has
; ((N-1) mod MVL) + 1 elements, the others MVL; N >= 1): the same work in
; narrower elements.  The textbook model shows the chime shrink with W:
;   build/bin/tpsim vec --config vmips -o timing=textbook --set N=64 --trace examples/vector/vadd_width.s
;   build/bin/tpsim vec --config vmips -o timing=textbook --set N=64 --set W=64 --trace examples/vector/vadd_width.s
; and a sweep reports R_inf and N_1/2 at the width used (--flops-per-element
; is required by --sweep; this program does no FLOPs: its rates are the
; R_inf.W and N_half.W lines):
;   build/bin/tpsim vec --config viram1 --sweep N=8..1024:8 --flops-per-element 1 examples/vector/vadd_width.s
        .equ N, 1024            ; elements (1..NMAX)
        .equ W, 16              ; element width in bits
        .equ NMAX, 4096
        .data
a:      .space NMAX*8
b:      .space NMAX*8
c:      .space NMAX*8
        .text
        MTC1   VPW,#W
        DADDUI R1,R0,#a
        DADDUI R2,R0,#b
        DADDUI R10,R0,#c
        DADDUI R3,R0,#N*W/8     ; bytes of a
        DADDU  R3,R3,R1         ; the end of a
        MFC1   R4,MVL
        DADDUI R5,R4,#-1        ; MVL - 1 (MVL is a power of two)
        DADDUI R7,R0,#N-1
        AND    R7,R7,R5
        DADDUI R7,R7,#1         ; the first strip
        MTC1   VLR,R7
        DMUL   R9,R7,#W/8       ; its bytes
        DMUL   R8,R4,#W/8       ; the bytes of the others
loop:   LV     V1,R1
        LV     V2,R2
        ADDV.I V3,V1,V2
        SV     R10,V3
        DADDU  R1,R1,R9
        DADDU  R2,R2,R9
        DADDU  R10,R10,R9
        DADDU  R9,R8,R0
        MTC1   VLR,R4
        DSUBU  R6,R3,R1         ; at the end of a?
        BNEZ   R6,loop
