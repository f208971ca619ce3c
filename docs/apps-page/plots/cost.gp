set terminal svg size 900,400 font 'sans,11' noenhanced background '#ffffff'
set output 'docs/apps-page/page-cost.svg'
set title 'Speed-up (geometric mean) against area'
set grid ytics
set key outside right
dat = 'docs/apps-page/plots/cost.dat'
set xlabel 'area added, % of a GF100 SM at 40 nm'
set ylabel 'speed-up over base'
set key off
set offsets graph 0.05, graph 0.15, graph 0.05, graph 0.05
plot dat using 2:3 with points pt 7 ps 1.2, dat using 2:3:1 with labels left offset 0.8,0.4 font 'sans,9'
