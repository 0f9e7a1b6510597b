; cond_compress.s -- the same conditional loop as cond.s, the other way of
; H&P 3rd ed., Appendix G: CVI packs the indices (byte offsets) of the
; elements whose mask bit is 1, POP counts them, and the work is done on
; that many elements only, with gather and scatter.
;   build/bin/tpsim vec --config vmips -o timing=textbook --trace examples/vector/cond_compress.s
        .equ N, 64
        .equ Ra, R1
        .equ Rb, R2
        .data
zero:   .double 0
A:                              ; every third element is 0
        .double 0, 2, 3, 0, 5, 6, 0, 8
        .double 9, 0, 11, 12, 0, 14, 15, 0
        .double 17, 18, 0, 20, 21, 0, 23, 24
        .double 0, 26, 27, 0, 29, 30, 0, 32
        .double 33, 0, 35, 36, 0, 38, 39, 0
        .double 41, 42, 0, 44, 45, 0, 47, 48
        .double 0, 50, 51, 0, 53, 54, 0, 56
        .double 57, 0, 59, 60, 0, 62, 63, 0
B:
        .double 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5
        .double 5, 5.5, 6, 6.5, 7, 7.5, 8, 8.5
        .double 9, 9.5, 10, 10.5, 11, 11.5, 12, 12.5
        .double 13, 13.5, 14, 14.5, 15, 15.5, 16, 16.5
        .double 17, 17.5, 18, 18.5, 19, 19.5, 20, 20.5
        .double 21, 21.5, 22, 22.5, 23, 23.5, 24, 24.5
        .double 25, 25.5, 26, 26.5, 27, 27.5, 28, 28.5
        .double 29, 29.5, 30, 30.5, 31, 31.5, 32, 32.5
        .text
        DADDUI Ra,R0,#A
        DADDUI Rb,R0,#B
        DADDUI R3,R0,#N
        MTC1   VLR,R3
        LV     V1,Ra            ; load vector A into V1
        L.D    F0,zero          ; load FP zero into F0
        SNEVS.D V1,F0           ; sets VM(i) to 1 if V1(i) != F0
        CVI    V2,#8            ; generates indices in V2
        POP    R5,VM            ; find the number of 1s in VM
        MTC1   VLR,R5           ; load vector-length register
        CVM                     ; set the mask back to all 1s
        LVI    V3,(Ra+V2)       ; load the nonzero A elements
        LVI    V4,(Rb+V2)       ; load corresponding B elements
        SUBV.D V3,V3,V4         ; do the subtract
        SVI    (Ra+V2),V3       ; store A back
