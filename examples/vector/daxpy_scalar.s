; daxpy_scalar.s -- DAXPY, Y = a*X + Y, as the lecture's scalar MIPS loop
; (the same data as daxpy_strip.s).  It is the scalar program of an N_v
; sweep; tpsim times it with the pipelined model:
;   build/bin/tpsim vec --config vmips -o timing=textbook -o chaining=1 \
;       --sweep N=1..64 --flops-per-element 2 \
;       --scalar examples/vector/daxpy_scalar.s examples/vector/daxpy_strip.s
        .equ N, 200             ; vector length (1..NMAX)
        .equ NMAX, 1024
        .equ Rx, R10
        .equ Ry, R11
        .data
a:      .double 2.0
x:
        .double 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
        .double 11, 12, 13, 14, 15, 16, 17, 18, 19, 20
        .double 21, 22, 23, 24, 25, 26, 27, 28, 29, 30
        .double 31, 32, 33, 34, 35, 36, 37, 38, 39, 40
        .double 41, 42, 43, 44, 45, 46, 47, 48, 49, 50
        .double 51, 52, 53, 54, 55, 56, 57, 58, 59, 60
        .double 61, 62, 63, 64, 65, 66, 67, 68, 69, 70
        .double 71, 72, 73, 74, 75, 76, 77, 78, 79, 80
        .double 81, 82, 83, 84, 85, 86, 87, 88, 89, 90
        .double 91, 92, 93, 94, 95, 96, 97, 98, 99, 100
        .double 101, 102, 103, 104, 105, 106, 107, 108, 109, 110
        .double 111, 112, 113, 114, 115, 116, 117, 118, 119, 120
        .double 121, 122, 123, 124, 125, 126, 127, 128, 129, 130
        .double 131, 132, 133, 134, 135, 136, 137, 138, 139, 140
        .double 141, 142, 143, 144, 145, 146, 147, 148, 149, 150
        .double 151, 152, 153, 154, 155, 156, 157, 158, 159, 160
        .double 161, 162, 163, 164, 165, 166, 167, 168, 169, 170
        .double 171, 172, 173, 174, 175, 176, 177, 178, 179, 180
        .double 181, 182, 183, 184, 185, 186, 187, 188, 189, 190
        .double 191, 192, 193, 194, 195, 196, 197, 198, 199, 200
        .space (NMAX-200)*8
y:
        .double 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5
        .double 5, 5.5, 6, 6.5, 7, 7.5, 8, 8.5, 9, 9.5
        .double 10, 10.5, 11, 11.5, 12, 12.5, 13, 13.5, 14, 14.5
        .double 15, 15.5, 16, 16.5, 17, 17.5, 18, 18.5, 19, 19.5
        .double 20, 20.5, 21, 21.5, 22, 22.5, 23, 23.5, 24, 24.5
        .double 25, 25.5, 26, 26.5, 27, 27.5, 28, 28.5, 29, 29.5
        .double 30, 30.5, 31, 31.5, 32, 32.5, 33, 33.5, 34, 34.5
        .double 35, 35.5, 36, 36.5, 37, 37.5, 38, 38.5, 39, 39.5
        .double 40, 40.5, 41, 41.5, 42, 42.5, 43, 43.5, 44, 44.5
        .double 45, 45.5, 46, 46.5, 47, 47.5, 48, 48.5, 49, 49.5
        .double 50, 50.5, 51, 51.5, 52, 52.5, 53, 53.5, 54, 54.5
        .double 55, 55.5, 56, 56.5, 57, 57.5, 58, 58.5, 59, 59.5
        .double 60, 60.5, 61, 61.5, 62, 62.5, 63, 63.5, 64, 64.5
        .double 65, 65.5, 66, 66.5, 67, 67.5, 68, 68.5, 69, 69.5
        .double 70, 70.5, 71, 71.5, 72, 72.5, 73, 73.5, 74, 74.5
        .double 75, 75.5, 76, 76.5, 77, 77.5, 78, 78.5, 79, 79.5
        .double 80, 80.5, 81, 81.5, 82, 82.5, 83, 83.5, 84, 84.5
        .double 85, 85.5, 86, 86.5, 87, 87.5, 88, 88.5, 89, 89.5
        .double 90, 90.5, 91, 91.5, 92, 92.5, 93, 93.5, 94, 94.5
        .double 95, 95.5, 96, 96.5, 97, 97.5, 98, 98.5, 99, 99.5
        .space (NMAX-200)*8
        .text
        DADDUI Rx,R0,#x
        DADDUI Ry,R0,#y
        L.D    F0,a
        DADDIU R4,Rx,#N*8       ; last address to load
loop:   L.D    F2,0(Rx)         ; load X(i)
        MUL.D  F2,F0,F2         ; a*X(i)
        L.D    F4,0(Ry)         ; load Y(i)
        ADD.D  F4,F2,F4         ; a*X(i) + Y(i)
        S.D    F4,0(Ry)         ; store into Y(i)
        DADDIU Rx,Rx,#8         ; increment index to X
        DADDIU Ry,Ry,#8         ; increment index to Y
        DSUBU  R20,R4,Rx        ; compute bound
        BNEZ   R20,loop         ; check if done
