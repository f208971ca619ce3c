#!/bin/sh
# artcache.sh NAME [--in FILE]... [--key TEXT]... --out PATH [--out PATH]... -- COMMAND
#
# The artefact cache of the build (docs/testing.md "Artefact cache"): deterministic outputs
# that are slow to make -- the Verilated models of the co-simulation (mk/cosim.mk), the Yosys
# results of the cost checks (mk/cost.mk) -- are kept outside the checkout and reused by any
# later build, in any clone, whose inputs are the same.
#
# The key is a SHA-256 over NAME, every --in FILE's path and bytes (in the order given) and
# every --key TEXT (tool versions, flags, options). When $DIR/NAME-KEY holds a complete entry,
# each --out PATH is replaced by the entry's copy and COMMAND does not run; otherwise COMMAND
# runs in sh, and when it succeeds and every --out PATH exists, they are copied into a new
# entry (written to a temporary directory and renamed, so that a concurrent build or an
# interrupted one never leaves a partial entry that looks complete). A failed COMMAND leaves
# the cache as it was and exits with its status.
#
# DIR: $GPUSIM_ARTEFACT_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/gpusim/artefacts;
# GPUSIM_ARTEFACT_CACHE=none runs COMMAND every time (a fresh machine's behaviour). A cache that
# cannot be written is not an error: the outputs are made as without it. One line on stderr
# says "artcache: NAME from the cache" when an entry was used.
set -u
usage() { echo "usage: tools/artcache.sh NAME [--in FILE]... [--key TEXT]... --out PATH... -- COMMAND" >&2; exit 2; }
[ $# -ge 1 ] || usage
name=$1; shift
ins=""; outs=""; tmpkey=$(mktemp) || exit 2
trap 'rm -f "$tmpkey"' EXIT
printf 'artcache 1\nname %s\n' "$name" > "$tmpkey"
while [ $# -gt 0 ]; do
    case $1 in
    --in)  [ $# -ge 2 ] || usage
           [ -f "$2" ] || { echo "artcache: $name: no input file $2" >&2; exit 2; }
           printf 'in %s %s\n' "$2" "$(sha256sum < "$2" | cut -d' ' -f1)" >> "$tmpkey"; shift 2 ;;
    --key) [ $# -ge 2 ] || usage; printf 'key %s\n' "$2" >> "$tmpkey"; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; outs="$outs $2"; shift 2 ;;
    --)    shift; break ;;
    *)     usage ;;
    esac
done
[ $# -eq 1 ] && [ -n "$outs" ] || usage
cmd=$1
dir=${GPUSIM_ARTEFACT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gpusim/artefacts}
[ "$dir" = none ] && exec sh -c "$cmd"
key=$(sha256sum < "$tmpkey" | cut -c1-32)
entry=$dir/$name-$key

# an entry is complete when its marker is there; each output is stored under its index
if [ -f "$entry/complete" ]; then
    i=0; ok=1
    for o in $outs; do
        i=$((i + 1))
        [ -e "$entry/$i" ] || { ok=0; break; }
    done
    if [ "$ok" -eq 1 ]; then
        i=0
        for o in $outs; do
            i=$((i + 1))
            rm -rf "$o" && mkdir -p "$(dirname "$o")" && cp -R "$entry/$i" "$o" || ok=0
        done
        if [ "$ok" -eq 1 ]; then
            echo "artcache: $name from the cache ($entry)" >&2
            exit 0
        fi
    fi
fi

sh -c "$cmd" || exit $?
# an entry that could not be used (incomplete, an output missing) is replaced
[ -e "$entry" ] && rm -rf "$entry" 2>/dev/null
for o in $outs; do
    [ -e "$o" ] || { echo "artcache: $name: the command did not make $o" >&2; exit 1; }
done
# store: a temporary directory beside the entry, renamed when whole
mkdir -p "$dir" 2>/dev/null && tmp=$(mktemp -d "$dir/.tmp-$name.XXXXXX" 2>/dev/null) || exit 0
i=0
for o in $outs; do
    i=$((i + 1))
    cp -R "$o" "$tmp/$i" 2>/dev/null || { rm -rf "$tmp"; exit 0; }
done
cp "$tmpkey" "$tmp/key" && touch "$tmp/complete" || { rm -rf "$tmp"; exit 0; }
# another build may have stored the same entry meanwhile: keep the first
mv -T "$tmp" "$entry" 2>/dev/null || rm -rf "$tmp"
exit 0
