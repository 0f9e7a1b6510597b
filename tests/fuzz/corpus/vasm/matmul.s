; matmul.s -- the lecture's vectorised matrix multiply, C = A x B with A
; M x K, B K x N and C M x N (row-major doubles).  The j loop is vectorised:
; for each row i and each strip of up to MVL columns j..j+VL-1,
;   sum[0:VL] = 0
;   for t in 0..K-1: sum[0:VL] += a[i][t] * b[t][j:j+VL]   (MULVS.D, ADDV.D)
;   c[i][j:j+VL] = sum[0:VL]
; no reduction is needed: each element of the vector register is its own
; dot product.  N = 96 is 64 + 32 columns on VMIPS (MVL 64), 3 x 32 on
; VIRAM-1 (MVL 32, the lecture's case).
;   build/bin/tpsim vec --config vmips -o timing=textbook examples/vector/matmul.s
;   build/bin/tpsim vec --config viram1 examples/vector/matmul.s
        .equ M, 4
        .equ K, 8
        .equ N, 96
        .data
a:                              ; a(i,t) = 1 + (8i + t mod 7) / 2
        .double 1, 1.5, 2, 2.5, 3, 3.5, 4, 1
        .double 1.5, 2, 2.5, 3, 3.5, 4, 1, 1.5
        .double 2, 2.5, 3, 3.5, 4, 1, 1.5, 2
        .double 2.5, 3, 3.5, 4, 1, 1.5, 2, 2.5
b:                              ; b(t,j) = (96t + j mod 11) - 3
        .double -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -3
        .double -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -3, -2
        .double -1, 0, 1, 2, 3, 4, 5, 6, 7, -3, -2, -1
        .double 0, 1, 2, 3, 4, 5, 6, 7, -3, -2, -1, 0
        .double 1, 2, 3, 4, 5, 6, 7, -3, -2, -1, 0, 1
        .double 2, 3, 4, 5, 6, 7, -3, -2, -1, 0, 1, 2
        .double 3, 4, 5, 6, 7, -3, -2, -1, 0, 1, 2, 3
        .double 4, 5, 6, 7, -3, -2, -1, 0, 1, 2, 3, 4
        .double 5, 6, 7, -3, -2, -1, 0, 1, 2, 3, 4, 5
        .double 6, 7, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6
        .double 7, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7
        .double -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -3
        .double -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -3, -2
        .double -1, 0, 1, 2, 3, 4, 5, 6, 7, -3, -2, -1
        .double 0, 1, 2, 3, 4, 5, 6, 7, -3, -2, -1, 0
        .double 1, 2, 3, 4, 5, 6, 7, -3, -2, -1, 0, 1
        .double 2, 3, 4, 5, 6, 7, -3, -2, -1, 0, 1, 2
        .double 3, 4, 5, 6, 7, -3, -2, -1, 0, 1, 2, 3
        .double 4, 5, 6, 7, -3, -2, -1, 0, 1, 2, 3, 4
        .double 5, 6, 7, -3, -2, -1, 0, 1, 2, 3, 4, 5
        .double 6, 7, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6
        .double 7, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7
        .double -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -3
        .double -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -3, -2
        .double -1, 0, 1, 2, 3, 4, 5, 6, 7, -3, -2, -1
        .double 0, 1, 2, 3, 4, 5, 6, 7, -3, -2, -1, 0
        .double 1, 2, 3, 4, 5, 6, 7, -3, -2, -1, 0, 1
        .double 2, 3, 4, 5, 6, 7, -3, -2, -1, 0, 1, 2
        .double 3, 4, 5, 6, 7, -3, -2, -1, 0, 1, 2, 3
        .double 4, 5, 6, 7, -3, -2, -1, 0, 1, 2, 3, 4
        .double 5, 6, 7, -3, -2, -1, 0, 1, 2, 3, 4, 5
        .double 6, 7, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6
        .double 7, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7
        .double -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -3
        .double -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -3, -2
        .double -1, 0, 1, 2, 3, 4, 5, 6, 7, -3, -2, -1
        .double 0, 1, 2, 3, 4, 5, 6, 7, -3, -2, -1, 0
        .double 1, 2, 3, 4, 5, 6, 7, -3, -2, -1, 0, 1
        .double 2, 3, 4, 5, 6, 7, -3, -2, -1, 0, 1, 2
        .double 3, 4, 5, 6, 7, -3, -2, -1, 0, 1, 2, 3
        .double 4, 5, 6, 7, -3, -2, -1, 0, 1, 2, 3, 4
        .double 5, 6, 7, -3, -2, -1, 0, 1, 2, 3, 4, 5
        .double 6, 7, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6
        .double 7, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7
        .double -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -3
        .double -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -3, -2
        .double -1, 0, 1, 2, 3, 4, 5, 6, 7, -3, -2, -1
        .double 0, 1, 2, 3, 4, 5, 6, 7, -3, -2, -1, 0
        .double 1, 2, 3, 4, 5, 6, 7, -3, -2, -1, 0, 1
        .double 2, 3, 4, 5, 6, 7, -3, -2, -1, 0, 1, 2
        .double 3, 4, 5, 6, 7, -3, -2, -1, 0, 1, 2, 3
        .double 4, 5, 6, 7, -3, -2, -1, 0, 1, 2, 3, 4
        .double 5, 6, 7, -3, -2, -1, 0, 1, 2, 3, 4, 5
        .double 6, 7, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6
        .double 7, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7
        .double -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -3
        .double -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -3, -2
        .double -1, 0, 1, 2, 3, 4, 5, 6, 7, -3, -2, -1
        .double 0, 1, 2, 3, 4, 5, 6, 7, -3, -2, -1, 0
        .double 1, 2, 3, 4, 5, 6, 7, -3, -2, -1, 0, 1
        .double 2, 3, 4, 5, 6, 7, -3, -2, -1, 0, 1, 2
        .double 3, 4, 5, 6, 7, -3, -2, -1, 0, 1, 2, 3
        .double 4, 5, 6, 7, -3, -2, -1, 0, 1, 2, 3, 4
        .double 5, 6, 7, -3, -2, -1, 0, 1, 2, 3, 4, 5
c:      .space M*N*8
        .text
        MFC1   R20,VLR          ; MVL
        DADDUI R1,R0,#0         ; i = 0
iloop:  DADDUI R2,R0,#0         ; j = 0
jloop:  DADDUI R3,R0,#N
        DSUBU  R3,R3,R2         ; N - j columns left
        SLT    R4,R20,R3
        BEQZ   R4,short         ; VL = min(MVL, N - j)
        DADDU  R3,R20,R0
short:  MTC1   VLR,R3
        CVI    V3,R0            ; sum = 0 (integer 0 has the bits of +0.0)
        DADDUI R5,R0,#K*8
        DMUL   R5,R5,R1
        DADDUI R5,R5,#a         ; R5 = &a[i][0]
        DSLL   R6,R2,#3
        DADDUI R6,R6,#b         ; R6 = &b[0][j]
        DADDUI R7,R0,#K         ; t = K
tloop:  L.D    F0,0(R5)         ; a_scalar = a[i][t]
        LV     V1,R6            ; b_vector = b[t][j:j+VL]
        MULVS.D V2,V1,F0        ; prod = b_vector * a_scalar
        ADDV.D V3,V3,V2         ; sum += prod
        DADDUI R5,R5,#8         ; next t
        DADDUI R6,R6,#N*8
        DADDUI R7,R7,#-1
        BNEZ   R7,tloop
        DADDUI R8,R0,#N*8
        DMUL   R8,R8,R1
        DSLL   R9,R2,#3
        DADDU  R8,R8,R9
        DADDUI R8,R8,#c         ; R8 = &c[i][j]
        SV     R8,V3            ; c[i][j:j+VL] = sum
        DADDU  R2,R2,R3         ; j += VL
        DADDUI R9,R0,#N
        BNE    R2,R9,jloop
        DADDUI R1,R1,#1         ; i += 1
        DADDUI R9,R0,#M
        BNE    R1,R9,iloop
