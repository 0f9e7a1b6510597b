# speedup.gp -- written by experiments/warppool/report.py; `gnuplot speedup.gp` here redraws speedup.png
set terminal pngcairo size 1300,520 noenhanced font "sans,10"
set output "speedup.png"
set datafile separator "\t"
set datafile missing "?"
set title "Speedup over the baseline (gtx480-l1-32k); D, B, C: memory-divergent, bandwidth-limited, cache-limited"
set ylabel "speedup (x)"
set grid ytics
set key outside right top
set border 3
set tics nomirror
set xtics rotate by -45
set yrange [0:*]
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2
plot "speedup.dat" using 2:xtic(1) title columnheader(2), \
     "speedup.dat" using 3 title columnheader(3), \
     "speedup.dat" using 4 title columnheader(4)
