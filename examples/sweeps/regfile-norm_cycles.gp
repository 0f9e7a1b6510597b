# regfile-norm_cycles.gp -- written by tpsim; run `gnuplot regfile-norm_cycles.gp` here to redraw regfile-norm_cycles.png
set terminal pngcairo size 1000,600 noenhanced font "sans,11"
set output "regfile-norm_cycles.png"
set datafile separator "\t"
set datafile missing "?"
set title "Register-file size on the GTX 480 model (128 KB = 1)"
set xlabel "register file per SM"
set ylabel "cycles normalised to 128 KB"
set grid ytics
set key outside right top
set border 3
set tics nomirror
set key title "program"
set yrange [0:*]
plot "regfile-norm_cycles.dat" using 0:2:xtic(1) with linespoints lw 2 pt 7 ps 1.5 title columnheader(2), \
     "regfile-norm_cycles.dat" using 0:3:xtic(1) with linespoints lw 2 pt 5 ps 1.5 title columnheader(3), \
     "regfile-norm_cycles.dat" using 0:4:xtic(1) with linespoints lw 2 pt 9 ps 1.5 title columnheader(4), \
     "regfile-norm_cycles.dat" using 0:5:xtic(1) with linespoints lw 2 pt 11 ps 1.5 title columnheader(5), \
     "regfile-norm_cycles.dat" using 0:6:xtic(1) with linespoints lw 2 pt 13 ps 1.5 title columnheader(6), \
     "regfile-norm_cycles.dat" using 0:7:xtic(1) with linespoints lw 2 pt 15 ps 1.5 title columnheader(7)
