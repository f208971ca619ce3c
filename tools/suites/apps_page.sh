#!/bin/sh
# tools/suites/apps_page.sh -- the applications page (docs/apps-page/): a user's Rodinia checkout
# built for the model (tools/suites/rodinia.sh, small sizes), then the architect's page on its
# programs -- every mechanism of the page on each, every output checked against base's -- with
# the machine and the time it took written beside it (OUT/README.md).
#
#   tools/suites/apps_page.sh --rodinia DIR [--out DIR] [--jobs N] [--cache DIR] [--mechs LIST]
#
# --rodinia  the checkout (default $GPUSIM_RODINIA)
# --out      the page's directory (default docs/apps-page; a relative one is taken from the
#            repository's root, and the plots' gnuplot scripts name their outputs by it, so
#            the committed page names no machine's paths); the programs are built in
#            build/suites/rodinia
# --jobs     runs at once (default: the cores); --cache: the result cache (default
#            $GPUSIM_CACHE or ~/.cache/gpusim: an interrupted page resumes; a relative one is
#            taken from the current directory)
# --mechs    the mechanisms (default: every one the page lists)
# Exit status: the page's (0: every result checked), 2 on a usage error or a missing tool.
set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
ROD=${GPUSIM_RODINIA:-} OUT=docs/apps-page JOBS=$(nproc 2>/dev/null || echo 2) CACHE= MECHS=
die() { echo "apps_page.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
    --rodinia) [ $# -ge 2 ] || die "--rodinia needs a directory"; ROD=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || die "--out needs a directory"; OUT=$2; shift 2 ;;
    --jobs) [ $# -ge 2 ] || die "--jobs needs a number"; JOBS=$2; shift 2 ;;
    --cache) [ $# -ge 2 ] || die "--cache needs a directory"; CACHE=$2; shift 2 ;;
    --mechs) [ $# -ge 2 ] || die "--mechs needs a list"; MECHS=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
    esac
done
[ -n "$ROD" ] || die "no Rodinia checkout: pass --rodinia DIR or set GPUSIM_RODINIA"
r=$(cd "$ROD" 2>/dev/null && pwd) || die "no directory '$ROD' (--rodinia)"
ROD=$r
case $CACHE in ''|/*) ;; *) CACHE=$(pwd)/$CACHE ;; esac   # from where it was named
cd "$TOP" || die "cannot enter '$TOP'"
[ -x "$TOP/build/gpusim" ] || die "no build/gpusim: run make first"
APPS=$TOP/build/suites/rodinia/rodinia.apps
"$TOP/tools/suites/rodinia.sh" --rodinia "$ROD" --out "$TOP/build/suites/rodinia" ||
    die "tools/suites/rodinia.sh failed"
mkdir -p "$OUT" || die "cannot create '$OUT'"
set -- --apps "$APPS" --jobs "$JOBS" --out "$OUT"
[ -z "$CACHE" ] || set -- "$@" --cache "$CACHE"
[ -z "$MECHS" ] || set -- "$@" --mechs "$MECHS"
t0=$(date +%s)
"$TOP/build/gpusim" report page "$@"
rc=$?
t1=$(date +%s)
cpu=$(awk -F: '/model name/ { sub(/^ */, "", $2); print $2; exit }' /proc/cpuinfo 2>/dev/null)
{
    echo "# The applications page"
    echo
    echo "Rodinia's CUDA programs that run on the model (docs/apps.md lists every program and"
    echo "why some do not), at tools/suites/rodinia.sh's small sizes, under every mechanism of"
    echo "the page: [page.md](page.md), [page.csv](page.csv), [page.html](page.html) and the plots."
    echo
    echo "- command: \`tools/suites/apps_page.sh --rodinia DIR\` (build/gpusim report page" \
         "--apps build/suites/rodinia/rodinia.apps --jobs $JOBS${MECHS:+ --mechs $MECHS})"
    echo "- machine: $(nproc 2>/dev/null || echo '?') cores (${cpu:-unknown CPU}), $(uname -sr)"
    echo "- wall time: $(( (t1 - t0) / 60 )) min $(( (t1 - t0) % 60 )) s, --jobs $JOBS," \
         "from an empty result cache unless said below"
    echo "- exit status: $rc"
} > "$OUT/README.md"
exit $rc
