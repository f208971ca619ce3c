# tools/suites/common.sh -- sourced by divergence.sh and kernels.sh with their arguments: the
# options they share (--apps, --only, --out, --gpusim, --help, and the script's own EXTRA_OPT,
# whose value goes to the script's function extra()), the checks they share (the applications
# file, the simulator, the output directory), ONLY made every application of the file when
# empty, and DEMANGLE, the filter for kernels' names (c++filt where binutils is installed, else
# the mangled names as they are). Uses the script's NAME, OUT (the default), EXTRA_OPT,
# EXTRA_WHAT (what the option's value is, for its message) and extra(); sets APPS, ONLY, OUT,
# GPUSIM and die().
TOP=$(cd "$(dirname "$0")/../.." && pwd)
APPS= ONLY= GPUSIM=$TOP/build/gpusim
die() { echo "$NAME: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
    --apps) [ $# -ge 2 ] || die "--apps needs a file"; APPS=$2; shift 2 ;;
    --only) [ $# -ge 2 ] || die "--only needs a list"; ONLY=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || die "--out needs a directory"; OUT=$2; shift 2 ;;
    --gpusim) [ $# -ge 2 ] || die "--gpusim needs a path"; GPUSIM=$2; shift 2 ;;
    "$EXTRA_OPT") [ $# -ge 2 ] || die "$EXTRA_OPT needs $EXTRA_WHAT"; extra "$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
    esac
done
[ -n "$APPS" ] && [ -f "$APPS" ] || die "no applications file: pass --apps FILE"
[ -x "$GPUSIM" ] || die "no simulator at '$GPUSIM' (make, or pass --gpusim PATH)"
mkdir -p "$OUT" || die "cannot create '$OUT'"
[ -n "$ONLY" ] || ONLY=$(awk '$1 == "app" { print $2 }' "$APPS" | tr '\n' ',')
DEMANGLE=cat
command -v c++filt >/dev/null 2>&1 && DEMANGLE=c++filt
