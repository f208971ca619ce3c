# tools/suites/common.sh -- sourced by divergence.sh and kernels.sh after their options: the
# checks they share (the applications file, the simulator, the output directory), ONLY made
# every application of the file when empty, and DEMANGLE, the filter for kernels' names
# (c++filt where binutils is installed, else the mangled names as they are). Uses APPS,
# GPUSIM, OUT, ONLY and die() of the script that sources it.
[ -n "$APPS" ] && [ -f "$APPS" ] || die "no applications file: pass --apps FILE"
[ -x "$GPUSIM" ] || die "no simulator at '$GPUSIM' (make, or pass --gpusim PATH)"
mkdir -p "$OUT" || die "cannot create '$OUT'"
[ -n "$ONLY" ] || ONLY=$(awk '$1 == "app" { print $2 }' "$APPS" | tr '\n' ',')
DEMANGLE=cat
command -v c++filt >/dev/null 2>&1 && DEMANGLE=c++filt
