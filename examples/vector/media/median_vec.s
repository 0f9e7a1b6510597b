; median_vec.s -- the 3 x 3 median filter on 8-bit pixels, on the vector
; machine at VPW = 8 (the pixels' width): unsigned compares set VM and masked
; moves (ORV Vd,Vs,Vs) exchange the elements where it is 1; CVM before the
; loads and stores, which are masked too.
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
;   build/bin/tpsim vec --config vmips examples/vector/media/median_vec.s
        .equ W, 64              ; image width
        .equ H, 64              ; image height
        .equ N, W*H
        .data
        .include "median_data.s"
        .text
        MTC1   VPW,#8
        MFC1   R4,MVL
; pass 1: sort each element's row of 3
        DADDU  R1,R0,R0         ; byte offset of element i
        DADDUI R3,R0,#N
p1:    SLTU   R6,R3,R4         ; fewer than MVL left?
        DADDU  R7,R4,R0          ; VL = MVL
        BEQZ   R6,p1v
        DADDU  R7,R3,R0          ; VL = what is left
p1v:   MTC1   VLR,R7
        CVM
        DADDUI R9,R1,#img-1
        LV     V1,R9
        DADDUI R9,R1,#img
        LV     V2,R9
        DADDUI R9,R1,#img+1
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
        DADDUI R9,R1,#lo
        SV     R9,V1
        DADDUI R9,R1,#mid
        SV     R9,V2
        DADDUI R9,R1,#hi
        SV     R9,V3
        DADDU  R1,R1,R7
        DSUBU  R3,R3,R7
        BNEZ   R3,p1
; pass 2: the median of the three rows
        DADDUI R1,R0,#1*W
        DADDUI R3,R0,#N-2*W
p2:    SLTU   R6,R3,R4         ; fewer than MVL left?
        DADDU  R7,R4,R0          ; VL = MVL
        BEQZ   R6,p2v
        DADDU  R7,R3,R0          ; VL = what is left
p2v:   MTC1   VLR,R7
        CVM
        DADDUI R9,R1,#lo-1*W
        LV     V1,R9
        DADDUI R9,R1,#lo
        LV     V2,R9
        DADDUI R9,R1,#lo+1*W
        LV     V3,R9
        SLTV.U V1,V2
        ORV    V1,V2,V2      ; V1 = max
        SLTV.U V1,V3
        ORV    V1,V3,V3      ; V1 = max
        CVM
        DADDUI R9,R1,#hi-1*W
        LV     V2,R9
        DADDUI R9,R1,#hi
        LV     V3,R9
        DADDUI R9,R1,#hi+1*W
        LV     V4,R9
        SGTV.U V2,V3
        ORV    V2,V3,V3      ; V2 = min
        SGTV.U V2,V4
        ORV    V2,V4,V4      ; V2 = min
        CVM
        DADDUI R9,R1,#mid-1*W
        LV     V3,R9
        DADDUI R9,R1,#mid
        LV     V4,R9
        DADDUI R9,R1,#mid+1*W
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
        DADDUI R9,R1,#out
        SV     R9,V1
        DADDU  R1,R1,R7
        DSUBU  R3,R3,R7
        BNEZ   R3,p2
