; gather.s -- sparse arrays with gather and scatter (H&P 3rd ed., Appendix G):
;   do 100 i = 1,n
; 100   A(K(i)) = A(K(i)) + C(M(i))
; K and M hold byte offsets (8 x the index); the K(i) are distinct, so the
; scatter writes each A element once.
;   build/bin/tpsim vec --config vmips -o timing=textbook --trace examples/vector/gather.s
        .equ N, 32              ; elements (0..32: K and M hold 32)
        .equ Ra, R1
        .equ Rc, R2
        .equ Rk, R3
        .equ Rm, R4
        .data
A:                              ; A(i) = i + 1
        .double 1, 2, 3, 4, 5, 6, 7, 8
        .double 9, 10, 11, 12, 13, 14, 15, 16
        .double 17, 18, 19, 20, 21, 22, 23, 24
        .double 25, 26, 27, 28, 29, 30, 31, 32
        .double 33, 34, 35, 36, 37, 38, 39, 40
        .double 41, 42, 43, 44, 45, 46, 47, 48
        .double 49, 50, 51, 52, 53, 54, 55, 56
        .double 57, 58, 59, 60, 61, 62, 63, 64
C:                              ; C(i) = i / 4
        .double 0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75
        .double 2, 2.25, 2.5, 2.75, 3, 3.25, 3.5, 3.75
        .double 4, 4.25, 4.5, 4.75, 5, 5.25, 5.5, 5.75
        .double 6, 6.25, 6.5, 6.75, 7, 7.25, 7.5, 7.75
        .double 8, 8.25, 8.5, 8.75, 9, 9.25, 9.5, 9.75
        .double 10, 10.25, 10.5, 10.75, 11, 11.25, 11.5, 11.75
        .double 12, 12.25, 12.5, 12.75, 13, 13.25, 13.5, 13.75
        .double 14, 14.25, 14.5, 14.75, 15, 15.25, 15.5, 15.75
K:                              ; K(i) = 8 x (5i mod 64)
        .word 0, 40, 80, 120, 160, 200, 240, 280, 320, 360, 400, 440, 480, 8, 48, 88
        .word 128, 168, 208, 248, 288, 328, 368, 408, 448, 488, 16, 56, 96, 136, 176, 216
M:                              ; M(i) = 8 x ((3i + 7) mod 64)
        .word 56, 80, 104, 128, 152, 176, 200, 224, 248, 272, 296, 320, 344, 368, 392, 416
        .word 440, 464, 488, 0, 24, 48, 72, 96, 120, 144, 168, 192, 216, 240, 264, 288
        .text
        DADDUI Ra,R0,#A
        DADDUI Rc,R0,#C
        DADDUI Rk,R0,#K
        DADDUI Rm,R0,#M
        DADDUI R5,R0,#N
        MTC1   VLR,R5
        LV     V1,Rk            ; load K
        LVI    V2,(Ra+V1)       ; load A(K(I))
        LV     V3,Rm            ; load M
        LVI    V4,(Rc+V3)       ; load C(M(I))
        ADDV.D V2,V2,V4         ; add them
        SVI    (Ra+V1),V2       ; store A(K(I))
