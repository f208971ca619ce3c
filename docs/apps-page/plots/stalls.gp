set terminal svg size 900,400 font 'sans,11' noenhanced background '#ffffff'
set output 'docs/apps-page/page-stalls.svg'
set title 'Scheduler cycles by outcome, in % of the baseline''s'
set grid ytics
set key outside right
dat = 'docs/apps-page/plots/stalls.dat'
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 noborder
set boxwidth 0.7
set xtics rotate by -45
set ylabel '% of base scheduler cycles'
set yrange [0:*]
plot dat using 2:xtic(1) title 'issued', dat using 3 title 'no_warp', dat using 4 title 'ibuffer_empty', dat using 5 title 'short_dependence', dat using 6 title 'long_memory_dependence', dat using 7 title 'structural', dat using 8 title 'barrier', dat using 9 title 'simt_stack'
