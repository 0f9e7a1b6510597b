; chain.s -- the lecture's chaining example: a multiply and a dependent
; add on 64 elements (the vector registers hold whatever they hold: this
; example is about time).  Without chaining they are two convoys:
;   7 + 64 + 6 + 64 = 141 cycles
; with chaining one, the add starting on the multiply's first result:
;   7 + 6 + 64 = 77 cycles (141 / 77 = 1.83 times faster)
;   build/bin/tpsim vec --config vmips -o timing=textbook --trace examples/vector/chain.s
;   build/bin/tpsim vec --config vmips -o timing=textbook -o chaining=1 --trace examples/vector/chain.s
        .text
        MULV.D V1,V2,V3
        ADDV.D V4,V1,V5
