# plots.gp - figures/bench-pairs.svg and figures/bench-drain.svg from make bench's data.
# gnuplot -e "machine='...'; pairs='FILE'; drain='FILE'" code/bench/plots.gp
set terminal svg size 760,440 dynamic font "sans,12" background "white"
set encoding utf8
set termoption noenhanced

set output "figures/bench-pairs.svg"
set title "One get+put pair, as a multiple of a bare atomic pair\n".machine
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y 2
set yrange [0.125:64]
set ytics ("1/8" 0.125, "1/4" 0.25, "1/2" 0.5, "1" 1, "2" 2, "4" 4, "8" 8, "16" 16, "32" 32, "64" 64)
set ylabel "ratio to the bare atomic pair (log scale)"
set xtics rotate by -30 nomirror font ",11"
set grid ytics
set key top left
plot pairs using 2:xtic(1) title "1 thread" lc rgb "#4477aa", \
     '' using 3 title "2 threads, same node" lc rgb "#ee6677", \
     '' using 4 title "2 threads, different nodes" lc rgb "#228833"

reset
set terminal svg size 760,440 dynamic font "sans,12" background "white"
set termoption noenhanced
set output "figures/bench-drain.svg"
set title "How long a deletion waits, with K tasks operating on the node\n".machine
set xlabel "K: tasks taking and dropping references all along"
set ylabel "microseconds (median, log scale)"
set logscale y 10
set xrange [-0.3:8.3]
set xtics (0, 1, 2, 4, 8)
set grid
set key top left
plot drain using 1:2 with linespoints lw 2 pt 7 title columnheader(2), \
     '' using 1:3 with linespoints lw 2 pt 5 title columnheader(3), \
     '' using 1:4 with linespoints lw 2 pt 9 title columnheader(4)
