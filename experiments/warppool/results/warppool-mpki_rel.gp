# warppool-mpki_rel.gp -- written by tpsim; run `gnuplot warppool-mpki_rel.gp` here to redraw warppool-mpki_rel.png
set terminal pngcairo size 1000,600 noenhanced font "sans,11"
set output "warppool-mpki_rel.png"
set datafile separator "\t"
set datafile missing "?"
set title "L1D misses per kilo-instruction, relative to the baseline"
set xlabel "program"
set ylabel "MPKI / baseline MPKI"
set grid ytics
set key outside right top
set border 3
set tics nomirror
set key title "frontend"
set yrange [0:*]
set xtics rotate by -30 left
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
plot "warppool-mpki_rel.dat" using 2:xtic(1) title columnheader(2), \
     "warppool-mpki_rel.dat" using 3 title columnheader(3), \
     "warppool-mpki_rel.dat" using 4 title columnheader(4), \
     "warppool-mpki_rel.dat" using 5 title columnheader(5), \
     "warppool-mpki_rel.dat" using 6 title columnheader(6)
