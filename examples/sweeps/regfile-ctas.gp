# regfile-ctas.gp -- written by tpsim; run `gnuplot regfile-ctas.gp` here to redraw regfile-ctas.png
set terminal pngcairo size 1000,600 noenhanced font "sans,11"
set output "regfile-ctas.png"
set datafile separator "\t"
set datafile missing "?"
set title "Resident CTAs per SM by register-file size"
set xlabel "program"
set ylabel "CTAs per SM (fewest over the launches)"
set grid ytics
set key outside right top
set border 3
set tics nomirror
set key title "rf"
set yrange [0:*]
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
plot "regfile-ctas.dat" using 2:xtic(1) title columnheader(2), \
     "regfile-ctas.dat" using 3 title columnheader(3), \
     "regfile-ctas.dat" using 4 title columnheader(4), \
     "regfile-ctas.dat" using 5 title columnheader(5)
