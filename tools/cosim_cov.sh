#!/bin/sh
# cosim_cov.sh BLOCK SOURCE COVERAGE.DAT -- one block's coverage summary from a Verilator
# coverage.dat (the harness's --cov output, or verilator_coverage --write of several):
#   line   = Verilator's line coverage points (statement blocks and if/else/case branches),
#   toggle = every bit of every signal seen going 0->1 and 1->0 (signals up to 256 bits wide;
#            Verilator's --coverage-max-width),
# counted per point, each instance of a module separately (as verilator_coverage totals them),
# plus per source line of SOURCE (covered when any instance covers it).
# Waivers: tb/BLOCK_cov.waive, if present, lists points that cannot be covered by construction
# (e.g. a register that is constant for one policy), one per line: an extended regular
# expression matched against INSTANCE.SIGNAL[bit] (e.g. TOP.ws_top.u1.act[3]) or, for line
# points, SOURCE:LINE, then the reason.  The summary gives the raw figure and the figure over
# the points not waived; waived points that WERE covered are not counted as waived.
# Lists up to 12 uncovered, unwaived points, then the summary line (last).
[ $# -eq 3 ] || { echo "usage: cosim_cov.sh BLOCK SOURCE COVERAGE.DAT" >&2; exit 2; }
[ -r "$3" ] || { echo "cosim_cov.sh: cannot read $3" >&2; exit 2; }
waive=tb/$1_cov.waive
[ -r "$waive" ] || waive=/dev/null
awk -v blk="$1" -v src="$2" -v wfile="$waive" '
BEGIN {
    SOH = sprintf("%c", 1); STX = sprintf("%c", 2); nw = 0
    while ((getline w < wfile) > 0) {
        sub(/^[ \t]+/, "", w)
        if (w == "" || w ~ /^#/) continue
        split(w, a, /[ \t]+/); wre[++nw] = "^" a[1] "$"
    }
}
function waived(name,   i) { for (i = 1; i <= nw; i++) if (name ~ wre[i]) return 1; return 0 }
/^C / {
    q1 = index($0, "\x27"); rest = substr($0, q1 + 1); q2 = index(rest, "\x27")
    key = substr(rest, 1, q2 - 1); cnt = substr(rest, q2 + 2) + 0
    n = split(key, kv, SOH); f = ""; l = ""; page = ""; h = ""; o = ""
    for (i = 1; i <= n; i++) {
        p = index(kv[i], STX); if (!p) continue
        k = substr(kv[i], 1, p - 1); v = substr(kv[i], p + 1)
        if (k == "f") f = v; else if (k == "l") l = v; else if (k == "page") page = v
        else if (k == "h") h = v; else if (k == "o") o = v
    }
    if (f != src) next
    t = page; sub(/\/.*/, "", t)
    kind = (t == "v_toggle") ? "toggle" : (t == "v_line" || t == "v_branch") ? "line" : "other"
    tot[kind]++; if (cnt > 0) cov[kind]++
    name = (kind == "toggle") ? h "." o : src ":" l
    if (cnt == 0 && waived(name)) { wv[kind]++; next }
    if (kind == "line") { lines[l] = 1; if (cnt > 0) lcov[l] = 1 }
    if (cnt == 0 && nmiss < 12) miss[++nmiss] = (kind == "toggle") ? "toggle " name : name " " o " (" h ")"
}
function pct(a, b) { return b ? sprintf("%.1f%%", 100.0 * a / b) : "n/a" }
function fig(k) {
    s = sprintf("%s %s (%d/%d)", k, pct(cov[k], tot[k]), cov[k], tot[k])
    if (wv[k]) s = s sprintf(", %s of %d not waived", pct(cov[k], tot[k] - wv[k]), tot[k] - wv[k])
    return s
}
END {
    nl = 0; nlc = 0
    for (l in lines) { nl++; if (l in lcov) nlc++ }
    for (i = 1; i <= nmiss; i++) printf "  uncovered: %s\n", miss[i]
    if (tot["line"] && 100.0 * cov["line"] / (tot["line"] - wv["line"]) < 95.0)
        printf "  BELOW the 95 %% line-coverage target (docs/verification.md)\n"
    printf "%s coverage: %s; %s; source lines %s (%d/%d)\n", blk, fig("line"), fig("toggle"), \
        pct(nlc, nl), nlc, nl
    if (!tot["line"]) { print "  (no coverage points for " src ")"; exit 1 }
}' "$3"
