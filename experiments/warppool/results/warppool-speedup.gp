# warppool-speedup.gp -- written by tpsim; run `gnuplot warppool-speedup.gp` here to redraw warppool-speedup.png
set terminal pngcairo size 1000,600 noenhanced font "sans,11"
set output "warppool-speedup.png"
set datafile separator "\t"
set datafile missing "?"
set title "Speedup over the Fermi LD/ST path (gtx480-l1-32k)"
set xlabel "program"
set ylabel "speedup (x)"
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
plot "warppool-speedup.dat" using 2:xtic(1) title columnheader(2), \
     "warppool-speedup.dat" using 3 title columnheader(3), \
     "warppool-speedup.dat" using 4 title columnheader(4), \
     "warppool-speedup.dat" using 5 title columnheader(5), \
     "warppool-speedup.dat" using 6 title columnheader(6)
