# l1_mpki.gp -- written by experiments/warppool/report.py; `gnuplot l1_mpki.gp` here redraws l1_mpki.png
set terminal pngcairo size 1300,520 noenhanced font "sans,10"
set output "l1_mpki.png"
set datafile separator "\t"
set datafile missing "?"
set title "L1D misses per kilo-instruction, % of the baseline's"
set ylabel "% of baseline MPKI"
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
set arrow from graph 0, first 100 to graph 1, first 100 nohead dt 2
plot "l1_mpki.dat" using 2:xtic(1) title columnheader(2), \
     "l1_mpki.dat" using 3 title columnheader(3)
