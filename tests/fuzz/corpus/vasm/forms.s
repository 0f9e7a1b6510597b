.data
x: .double 1.5, -2, 3e2
w: .word x, 7, 0x10
 .space 3
 .align 3
.equ N, (2+3)*4
.equ Rx, R7
.text
 DADDUI Rx,R0,#x+N
 L.D F0,x+8(R0)
 MVTM VM,F0
 CVI V1,#8 # comment
 POP R2,VM
 MFC1 R3,VLR
 SGEVS.D V1,F0
 LVI V2,(Rx+V1)
 SVWS (R1,R2),V2
loop: DSUBUI R3,R3,#1
 BNEZ R3,loop
 J end
end: HALT
