# l1_throughput.gp -- written by experiments/warppool/report.py; `gnuplot l1_throughput.gp` here redraws l1_throughput.png
set terminal pngcairo size 1300,520 noenhanced font "sans,10"
set output "l1_throughput.png"
set datafile separator "\t"
set datafile missing "?"
set title "L1D throughput: requests served per L1D access (cycle with accesses)"
set ylabel "requests per L1D access"
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
plot "l1_throughput.dat" using 2:xtic(1) title columnheader(2), \
     "l1_throughput.dat" using 3 title columnheader(3), \
     "l1_throughput.dat" using 4 title columnheader(4)
