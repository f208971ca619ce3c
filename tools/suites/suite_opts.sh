# tools/suites/suite_opts.sh -- sourced by rodinia.sh, parboil.sh and ispass.sh before anything
# else runs: parses the options they share (--SUITE DIR, --out, --size, --only, --nvcc, --help
# and, where the script sets DATA, --data) from the script's arguments, refuses a bad one with
# exit status 2, and checks the checkout. Uses the script's SUITE (rodinia: the option is
# --rodinia, the variable GPUSIM_RODINIA), NAME and ARTICLE ("a Rodinia checkout"), MARKER (a
# file every checkout has, relative to it), PROGRAMS and HERE. Sets SRC (the checkout, an
# absolute path), OUT (default build/suites/SUITE), SIZE (default small), ONLY and NVCC.

die() { echo "$SUITE.sh: $*" >&2; exit 2; }

SRC_VAR=GPUSIM_$(echo "$SUITE" | tr '[:lower:]' '[:upper:]')
eval "SRC=\${$SRC_VAR:-}"
OUT=$(cd "$HERE/../.." && pwd)/build/suites/$SUITE
SIZE=small
ONLY=
NVCC=
while [ $# -gt 0 ]; do
    case $1 in
    --$SUITE) [ $# -ge 2 ] || die "--$SUITE needs a directory"; SRC=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || die "--out needs a directory"; OUT=$2; shift 2 ;;
    --size) [ $# -ge 2 ] || die "--size needs small, tiny or table1"; SIZE=$2; shift 2 ;;
    --only) [ $# -ge 2 ] || die "--only needs a list of programs"; ONLY=$2; shift 2 ;;
    --nvcc) [ $# -ge 2 ] || die "--nvcc needs a path"; NVCC=$2; shift 2 ;;
    --data) [ -n "${DATA+set}" ] || die "unknown argument '$1' (see --help)"
            [ $# -ge 2 ] || die "--data needs a directory"; DATA=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
    esac
done
case $SIZE in small|tiny|table1) ;; *) die "--size is small, tiny or table1, not '$SIZE'" ;; esac
for o in $(echo "$ONLY" | tr ',' ' '); do
    case " $(echo $PROGRAMS) " in *" $o "*) ;;
    *) die "--only: no program '$o' (one of: $(echo $PROGRAMS))" ;; esac
done

[ -n "$SRC" ] || die "no $NAME checkout: pass --$SUITE DIR or set $SRC_VAR"
[ -f "$SRC/$MARKER" ] ||
    die "'$SRC' is not $ARTICLE $NAME checkout (no $MARKER); pass --$SUITE DIR"
SRC=$(cd "$SRC" && pwd)
