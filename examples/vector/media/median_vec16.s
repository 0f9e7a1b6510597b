; median_vec16.s -- the 3 x 3 median filter on 8-bit pixels, on the vector
; machine at VPW = 16, for machines without 8-bit elements (VIRAM-1): the
; pixels are widened to 16-bit elements (strided stores of the even and odd
; bytes), filtered as in median_vec.s, and narrowed back.
; The image is taken row-major as one long row (the horizontal neighbours of
; the first and last column come from the adjacent rows) with a zero before
; and after it.  The median of 9 is computed from sorted rows of 3:
;   pass 1, 0 <= i < N:     (lo, mid, hi)(i) = P(i-1), P(i), P(i+1) sorted
;   pass 2, W <= i < N-W:   out(i) = med3(max(lo(i-W), lo(i), lo(i+W)),
;                                         med3(mid(i-W), mid(i), mid(i+W)),
;                                         min(hi(i-W), hi(i), hi(i+W)))
; (the first and last row of out stay 0).  One of three versions
; (median_scalar.s, median_mmx.s, median_vec.s; median_vec16.s for machines
; without 8-bit elements, such as VIRAM-1) that write the same bytes to out,
; which tests/unit/test_vec_media.c checks against the median of the 9
; pixels.  Pseudo-random pixels (an LCG), with flat and alternating patches.
;   build/bin/tpsim vec --config vmips examples/vector/media/median_vec16.s
        .equ W, 64              ; image width
        .equ H, 64              ; image height
        .equ N, W*H
        .data
        .include "median_data.s"
        .space 8                ; 16-bit copies, with a zero before and after:
u:      .space 2*N+8            ; u(i) = P(i) at u + 2i
lo16:   .space 2*N
mid16:  .space 2*N
hi16:   .space 2*N
out16:  .space 2*N
        .text
        MTC1   VPW,#16
        MFC1   R4,MVL
        DADDUI R8,R0,#255
        DADDUI R10,R0,#4        ; stride: every other 16-bit element
; widen: u(2k) and u(2k+1) from the pixel pair k
        DADDU  R1,R0,R0         ; byte offset of pair k in img
        DADDUI R3,R0,#N/2
wd:    SLTU   R6,R3,R4         ; fewer than MVL left?
        DADDU  R7,R4,R0          ; VL = MVL
        BEQZ   R6,wdv
        DADDU  R7,R3,R0          ; VL = what is left
wdv:   MTC1   VLR,R7
        DADDUI R9,R1,#img
        LV     V1,R9
        ANDVS  V2,V1,R8         ; even pixels
        SRLV   V1,V1,#8         ; odd pixels
        DADDU  R9,R1,R1
        DADDUI R9,R9,#u         ; u + 4k
        SVWS   (R9,R10),V2
        DADDUI R9,R9,#2
        SVWS   (R9,R10),V1
        DADDU  R9,R7,R7
        DADDU  R1,R1,R9
        DSUBU  R3,R3,R7
        BNEZ   R3,wd
; pass 1: sort each element's row of 3
        DADDU  R1,R0,R0         ; byte offset of element i
        DADDUI R3,R0,#N
mp1:    SLTU   R6,R3,R4         ; fewer than MVL left?
        DADDU  R7,R4,R0          ; VL = MVL
        BEQZ   R6,mp1v
        DADDU  R7,R3,R0          ; VL = what is left
mp1v:   MTC1   VLR,R7
        CVM
        DADDUI R9,R1,#u-2
        LV     V1,R9
        DADDUI R9,R1,#u
        LV     V2,R9
        DADDUI R9,R1,#u+2
        LV     V3,R9
        SGTV.U V1,V2          ; VM: where V1 > V2
        ORV    V4,V1,V1      ; exchange there (masked moves)
        ORV    V1,V2,V2
        ORV    V2,V4,V4
        SGTV.U V2,V3          ; VM: where V2 > V3
        ORV    V4,V2,V2      ; exchange there (masked moves)
        ORV    V2,V3,V3
        ORV    V3,V4,V4
        SGTV.U V1,V2          ; VM: where V1 > V2
        ORV    V4,V1,V1      ; exchange there (masked moves)
        ORV    V1,V2,V2
        ORV    V2,V4,V4
        CVM
        DADDUI R9,R1,#lo16
        SV     R9,V1
        DADDUI R9,R1,#mid16
        SV     R9,V2
        DADDUI R9,R1,#hi16
        SV     R9,V3
        DADDU  R9,R7,R7
        DADDU  R1,R1,R9
        DSUBU  R3,R3,R7
        BNEZ   R3,mp1
; pass 2: the median of the three rows
        DADDUI R1,R0,#2*W
        DADDUI R3,R0,#N-2*W
mp2:    SLTU   R6,R3,R4         ; fewer than MVL left?
        DADDU  R7,R4,R0          ; VL = MVL
        BEQZ   R6,mp2v
        DADDU  R7,R3,R0          ; VL = what is left
mp2v:   MTC1   VLR,R7
        CVM
        DADDUI R9,R1,#lo16-2*W
        LV     V1,R9
        DADDUI R9,R1,#lo16
        LV     V2,R9
        DADDUI R9,R1,#lo16+2*W
        LV     V3,R9
        SLTV.U V1,V2
        ORV    V1,V2,V2      ; V1 = max
        SLTV.U V1,V3
        ORV    V1,V3,V3      ; V1 = max
        CVM
        DADDUI R9,R1,#hi16-2*W
        LV     V2,R9
        DADDUI R9,R1,#hi16
        LV     V3,R9
        DADDUI R9,R1,#hi16+2*W
        LV     V4,R9
        SGTV.U V2,V3
        ORV    V2,V3,V3      ; V2 = min
        SGTV.U V2,V4
        ORV    V2,V4,V4      ; V2 = min
        CVM
        DADDUI R9,R1,#mid16-2*W
        LV     V3,R9
        DADDUI R9,R1,#mid16
        LV     V4,R9
        DADDUI R9,R1,#mid16+2*W
        LV     V5,R9
        SGTV.U V3,V4          ; VM: where V3 > V4
        ORV    V6,V3,V3      ; exchange there (masked moves)
        ORV    V3,V4,V4
        ORV    V4,V6,V6
        SGTV.U V4,V5
        ORV    V4,V5,V5      ; V4 = min
        SLTV.U V3,V4
        ORV    V3,V4,V4      ; V3 = max
        SGTV.U V1,V3          ; VM: where V1 > V3
        ORV    V6,V1,V1      ; exchange there (masked moves)
        ORV    V1,V3,V3
        ORV    V3,V6,V6
        SGTV.U V3,V2
        ORV    V3,V2,V2      ; V3 = min
        SLTV.U V1,V3
        ORV    V1,V3,V3      ; V1 = max
        CVM
        DADDUI R9,R1,#out16
        SV     R9,V1
        DADDU  R9,R7,R7
        DADDU  R1,R1,R9
        DSUBU  R3,R3,R7
        BNEZ   R3,mp2
; narrow: the pair k of out from out16(2k) and out16(2k+1), W/2 <= k < N/2-W/2
        DADDUI R1,R0,#W         ; byte offset of pair k in out
        DADDUI R3,R0,#N/2-W
nw:    SLTU   R6,R3,R4         ; fewer than MVL left?
        DADDU  R7,R4,R0          ; VL = MVL
        BEQZ   R6,nwv
        DADDU  R7,R3,R0          ; VL = what is left
nwv:   MTC1   VLR,R7
        DADDU  R9,R1,R1
        DADDUI R9,R9,#out16
        LVWS   V1,(R9,R10)      ; even results
        DADDUI R9,R9,#2
        LVWS   V2,(R9,R10)      ; odd ones
        SLLV   V2,V2,#8
        ORV    V1,V1,V2
        DADDUI R9,R1,#out
        SV     R9,V1
        DADDU  R9,R7,R7
        DADDU  R1,R1,R9
        DSUBU  R3,R3,R7
        BNEZ   R3,nw
