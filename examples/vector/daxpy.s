; daxpy.s -- the lecture's DAXPY, Y = a*X + Y, for vectors of N <= MVL
; elements (H&P 3rd ed., Appendix G; EECC722 lecture 7).  Timed by the
; textbook model it takes 4 convoys and 42 + 4N cycles, last result at 41 + 4N:
;   build/bin/tpsim vec --config vmips -o timing=textbook --trace examples/vector/daxpy.s
; Try --set N=10, -o chaining=1, -o lsu_count=3, or the pipelined model.
        .equ N, 64              ; vector length (0..64: the arrays hold 64)
        .equ Rx, R1             ; the lecture's register names
        .equ Ry, R2
        .data
a:      .double 2.0
x:
        .double 1, 2, 3, 4, 5, 6, 7, 8
        .double 9, 10, 11, 12, 13, 14, 15, 16
        .double 17, 18, 19, 20, 21, 22, 23, 24
        .double 25, 26, 27, 28, 29, 30, 31, 32
        .double 33, 34, 35, 36, 37, 38, 39, 40
        .double 41, 42, 43, 44, 45, 46, 47, 48
        .double 49, 50, 51, 52, 53, 54, 55, 56
        .double 57, 58, 59, 60, 61, 62, 63, 64
y:
        .double 1000, 990, 980, 970, 960, 950, 940, 930
        .double 920, 910, 900, 890, 880, 870, 860, 850
        .double 840, 830, 820, 810, 800, 790, 780, 770
        .double 760, 750, 740, 730, 720, 710, 700, 690
        .double 680, 670, 660, 650, 640, 630, 620, 610
        .double 600, 590, 580, 570, 560, 550, 540, 530
        .double 520, 510, 500, 490, 480, 470, 460, 450
        .double 440, 430, 420, 410, 400, 390, 380, 370
        .text
        DADDUI Rx,R0,#x         ; address of X
        DADDUI Ry,R0,#y         ; address of Y
        DADDUI R3,R0,#N
        MTC1   VLR,R3           ; vector length N
        L.D    F0,a             ; load scalar a
        LV     V1,Rx            ; load vector X
        MULVS.D V2,V1,F0        ; vector-scalar multiply
        LV     V3,Ry            ; load vector Y
        ADDV.D V4,V2,V3         ; add
        SV     Ry,V4            ; store the result
