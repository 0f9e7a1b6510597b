; scale_strip.s -- A = B x s, strip-mined, as in H&P 3rd ed., Appendix G
; ("What is the execution time on VMIPS for the vector operation A = B x s
; ... the length of the vectors A and B is 200?").  200 mod 64 = 8: the
; first strip has VL = 8, the three others VL = 64.  Without chaining the
; three dependent instructions are three convoys (Tchime = 3) with
; Tstart = 12 + 7 + 12 = 31, and Tloop = 15 per strip:
;   T200 = 4 x (15 + 31) + 200 x 3 = 784 cycles
;   build/bin/tpsim vec --config vmips -o timing=textbook --trace examples/vector/scale_strip.s
        .equ N, 200             ; vector length (1..NMAX)
        .equ NMAX, 1024
        .equ Ra, R10            ; H&P's register names
        .equ Rb, R11
        .data
s:      .double 3.0
b:                              ; B(i) = i + 0.5 for i < 200, then zeros
        .double 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5
        .double 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5, 17.5, 18.5, 19.5
        .double 20.5, 21.5, 22.5, 23.5, 24.5, 25.5, 26.5, 27.5, 28.5, 29.5
        .double 30.5, 31.5, 32.5, 33.5, 34.5, 35.5, 36.5, 37.5, 38.5, 39.5
        .double 40.5, 41.5, 42.5, 43.5, 44.5, 45.5, 46.5, 47.5, 48.5, 49.5
        .double 50.5, 51.5, 52.5, 53.5, 54.5, 55.5, 56.5, 57.5, 58.5, 59.5
        .double 60.5, 61.5, 62.5, 63.5, 64.5, 65.5, 66.5, 67.5, 68.5, 69.5
        .double 70.5, 71.5, 72.5, 73.5, 74.5, 75.5, 76.5, 77.5, 78.5, 79.5
        .double 80.5, 81.5, 82.5, 83.5, 84.5, 85.5, 86.5, 87.5, 88.5, 89.5
        .double 90.5, 91.5, 92.5, 93.5, 94.5, 95.5, 96.5, 97.5, 98.5, 99.5
        .double 100.5, 101.5, 102.5, 103.5, 104.5, 105.5, 106.5, 107.5, 108.5, 109.5
        .double 110.5, 111.5, 112.5, 113.5, 114.5, 115.5, 116.5, 117.5, 118.5, 119.5
        .double 120.5, 121.5, 122.5, 123.5, 124.5, 125.5, 126.5, 127.5, 128.5, 129.5
        .double 130.5, 131.5, 132.5, 133.5, 134.5, 135.5, 136.5, 137.5, 138.5, 139.5
        .double 140.5, 141.5, 142.5, 143.5, 144.5, 145.5, 146.5, 147.5, 148.5, 149.5
        .double 150.5, 151.5, 152.5, 153.5, 154.5, 155.5, 156.5, 157.5, 158.5, 159.5
        .double 160.5, 161.5, 162.5, 163.5, 164.5, 165.5, 166.5, 167.5, 168.5, 169.5
        .double 170.5, 171.5, 172.5, 173.5, 174.5, 175.5, 176.5, 177.5, 178.5, 179.5
        .double 180.5, 181.5, 182.5, 183.5, 184.5, 185.5, 186.5, 187.5, 188.5, 189.5
        .double 190.5, 191.5, 192.5, 193.5, 194.5, 195.5, 196.5, 197.5, 198.5, 199.5
        .space (NMAX-200)*8
a:      .space NMAX*8
        .text
        DADDUI R5,R0,#N         ; n
        DADDUI Ra,R0,#a
        DADDUI Rb,R0,#b
        MFC1   R6,VLR           ; MVL (a power of two)
        DSLL   R2,R5,#3         ; total bytes in the vector
        DADDU  R2,R2,Ra         ; address of the end of A
        DADDUI R7,R6,#-1
        DADDUI R1,R5,#-1
        AND    R1,R1,R7
        DADDUI R1,R1,#1         ; length of the first segment: ((n-1) mod MVL) + 1
        MTC1   VLR,R1           ; load vector length in VLR
        DSLL   R1,R1,#3         ; length in bytes of the first segment
        L.D    F0,s             ; the scalar s
loop:   LV     V1,Rb            ; load B
        MULVS.D V2,V1,F0        ; vector * scalar
        SV     Ra,V2            ; store A
        DADDU  Ra,Ra,R1         ; address of next segment of A
        DADDU  Rb,Rb,R1         ; address of next segment of B
        DSLL   R1,R6,#3         ; byte offset of next segment
        MTC1   VLR,R6           ; set length to MVL elements
        DSUBU  R4,R2,Ra         ; at the end of A?
        BNEZ   R4,loop          ; if not, go back
