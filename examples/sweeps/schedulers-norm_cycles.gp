# schedulers-norm_cycles.gp -- written by tpsim; run `gnuplot schedulers-norm_cycles.gp` here to redraw schedulers-norm_cycles.png
set terminal pngcairo size 1000,600 noenhanced font "sans,11"
set output "schedulers-norm_cycles.png"
set datafile separator "\t"
set datafile missing "?"
set title "Warp schedulers on the GTX 480 model: cycles normalised to loose round robin"
set xlabel "program"
set ylabel "cycles / cycles with LRR (lower is faster)"
set grid ytics
set key outside right top
set border 3
set tics nomirror
set key title "scheduler"
set yrange [0:*]
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
plot "schedulers-norm_cycles.dat" using 2:xtic(1) title columnheader(2), \
     "schedulers-norm_cycles.dat" using 3 title columnheader(3), \
     "schedulers-norm_cycles.dat" using 4 title columnheader(4)
