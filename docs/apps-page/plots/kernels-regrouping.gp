set terminal svg size 900,400 font 'sans,11' noenhanced background '#ffffff'
set output 'docs/apps-page/page-kernels-regrouping.svg'
set title 'Speed-up over base per kernel: regrouping'
set grid ytics
set key outside right
dat = 'docs/apps-page/plots/kernels-regrouping.dat'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 noborder
set xtics rotate by -45 font 'sans,9'
set ylabel 'speed-up (0: n/a or failed)'
set yrange [0:*]
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2
plot dat using 2:xtic(1) title 'rg_sort', dat using 3:xtic(1) title 'rg_greedy', dat using 4:xtic(1) title 'rg_gmax'
