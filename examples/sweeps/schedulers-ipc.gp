# schedulers-ipc.gp -- written by tpsim; run `gnuplot schedulers-ipc.gp` here to redraw schedulers-ipc.png
set terminal pngcairo size 1000,600 noenhanced font "sans,11"
set output "schedulers-ipc.png"
set datafile separator "\t"
set datafile missing "?"
set title "Warp schedulers on the GTX 480 model: IPC"
set xlabel "program"
set ylabel "thread instructions per cycle (log scale)"
set grid ytics
set key outside right top
set border 3
set tics nomirror
set key title "scheduler"
set logscale y
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
plot "schedulers-ipc.dat" using 2:xtic(1) title columnheader(2), \
     "schedulers-ipc.dat" using 3 title columnheader(3), \
     "schedulers-ipc.dat" using 4 title columnheader(4)
