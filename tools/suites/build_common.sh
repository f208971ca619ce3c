# tools/suites/build_common.sh -- sourced by rodinia.sh, parboil.sh and ispass.sh after their
# options: finds nvcc and cc, builds the input generator (tools/suites/gen.c) into GEN, and
# defines what building a suite's program for the model takes -- a fresh copy of its directory,
# nvcc -cudart shared, a documented patch, an entry of the applications file (docs/apps.md) and
# a line of the summary table. Uses the sourcing script's HERE (tools/suites), OUT, NVCC, ONLY,
# SUITE (its name: the applications file is OUT/SUITE.apps, its patches in tools/suites/SUITE/)
# and die().

if [ -z "$NVCC" ]; then
    NVCC=$(command -v nvcc 2>/dev/null || true)
    [ -n "$NVCC" ] || { [ -x /usr/local/cuda/bin/nvcc ] && NVCC=/usr/local/cuda/bin/nvcc; }
fi
[ -n "$NVCC" ] && [ -x "$NVCC" ] ||
    die "nvcc not found (not on PATH, not /usr/local/cuda/bin/nvcc): install the CUDA toolkit or pass --nvcc PATH"
for t in cc patch; do
    command -v $t >/dev/null 2>&1 || die "$t not found: install it (Debian: gcc, patch)"
done

mkdir -p "$OUT" || die "cannot create '$OUT'"
OUT=$(cd "$OUT" && pwd)
APPS=$OUT/$SUITE.apps
SUMMARY=$OUT/summary.txt
: > "$APPS.tmp"
: > "$SUMMARY"
GEN=$OUT/.gen/gen
mkdir -p "$OUT/.gen"
cc -std=c11 -O2 -o "$GEN" "$HERE/gen.c" -lm || die "cannot build the input generator"

wanted() { [ -z "$ONLY" ] || case ",$ONLY," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

status() { printf '%s|%s|%s\n' "$1" "$2" "$3" >> "$SUMMARY"; }
built() { status "$1" built "$2"; }
failed() { status "$1" "not built" "$2"; }

# copy NAME DIR: a fresh copy of the checkout's directory DIR in OUT/NAME (prebuilt files of the
# checkout, if any, are overwritten by the build).
copy() {
    rm -rf "${OUT:?}/$1"
    mkdir -p "$OUT/$1"
    cp -R "$2/." "$OUT/$1/"
}

# nv NAME ARGS...: nvcc -cudart shared ARGS in OUT/NAME, its output in OUT/NAME/build.log.
nv() {
    nv_n=$1; shift
    echo "nvcc -cudart shared $*" >> "$OUT/$nv_n/build.log"
    (cd "$OUT/$nv_n" && "$NVCC" -cudart shared "$@") >> "$OUT/$nv_n/build.log" 2>&1
}

# build NAME WHY-IF-IT-FAILS ARGS...: nv, and on failure a summary line.
build() {
    b_n=$1; b_w=$2; shift 2
    nv "$b_n" "$@" && return 0
    failed "$b_n" "$b_w (see $b_n/build.log)"
    return 1
}

# patchp NAME FILE: applies tools/suites/SUITE/FILE in OUT/NAME (a no-op where the copy
# already has the change, as in a checkout someone edited by hand).
patchp() {
    (cd "$OUT/$1" &&
        { patch -p0 -N -s --dry-run < "$HERE/$SUITE/$2" >/dev/null 2>&1 &&
              patch -p0 -N -s < "$HERE/$SUITE/$2" ||
              patch -p0 -R -s --dry-run < "$HERE/$SUITE/$2" >/dev/null 2>&1; }) \
        >> "$OUT/$1/build.log" 2>&1
}

# app NAME DIR RUN...: starts NAME's entry; more lines follow with line.
app() {
    a_n=$1; a_d=$2; shift 2
    printf '\napp %s\n  dir %s\n  run %s\n' "$a_n" "$a_d" "$*" >> "$APPS.tmp"
}
line() { printf '  %s\n' "$*" >> "$APPS.tmp"; }

# finish FROM SIZE: writes OUT/SUITE.apps and prints the summary table; the script then exits 0.
finish() {
    {
        echo "# $SUITE.apps -- written by tools/suites/$SUITE.sh (size $2) from $1"
        echo "# The programs' copies are in the directories named below; docs/apps.md."
        cat "$APPS.tmp"
    } > "$APPS"
    rm -f "$APPS.tmp"
    printf '%-24s %-10s %s\n' program status "input / why"
    while IFS='|' read -r n s w; do
        printf '%-24s %-10s %s\n' "$n" "$s" "$w"
    done < "$SUMMARY"
    echo "applications file: $APPS"
}
