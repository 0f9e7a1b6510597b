# warppool-requests_per_access.gp -- written by tpsim; run `gnuplot warppool-requests_per_access.gp` here to redraw warppool-requests_per_access.png
set terminal pngcairo size 1000,600 noenhanced font "sans,11"
set output "warppool-requests_per_access.png"
set datafile separator "\t"
set datafile missing "?"
set title "Requests served per L1D access"
set xlabel "program"
set ylabel "requests per L1D access (cycle with accesses)"
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
plot "warppool-requests_per_access.dat" using 2:xtic(1) title columnheader(2), \
     "warppool-requests_per_access.dat" using 3 title columnheader(3), \
     "warppool-requests_per_access.dat" using 4 title columnheader(4), \
     "warppool-requests_per_access.dat" using 5 title columnheader(5), \
     "warppool-requests_per_access.dat" using 6 title columnheader(6)
