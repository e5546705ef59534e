# plot.gnuplot: charts of a bench results CSV (docs/files.md, "The CSV").
#
# Usage (gnuplot 5.4 or later; Debian/Ubuntu package: gnuplot-nox):
#
#     gnuplot -e "csv='results/X.csv'" plot.gnuplot
#     gnuplot -e "csv='results/X.csv'; out='charts'" plot.gnuplot    # PNGs into ./charts
#
# writes, next to the CSV unless `out` names another (existing) folder:
#
#   X.medians.png      always: one group of bars per workload case (workload/variant), one bar
#                      per strategy: the median time of one repetition, whiskers from ci_low_ns
#                      to ci_high_ns (the median's confidence interval), log time axis. When the
#                      CSV holds several scales, this chart shows the largest one; for a sweep,
#                      the largest sweep value (the title says so). The title names the
#                      hierarchy unless it is publications.
#   X.scaling.png      only for a CSV that is not a sweep and holds more than one distinct scale:
#                      one panel per case, median (with its interval) against scale, one line
#                      per strategy, log-log.
#   X.sweep.png        only for a sweep (`bench sweep`: rows with a sweep_parameter): one panel
#                      per case, median (with its interval) against sweep_value, one line per
#                      strategy, log time axis; the x axis is log when every value is positive
#                      and they span more than a factor of 4, else linear (skew starts at 0).
#   X.ratios.png       with rows of the baseline strategy: the answer at the largest scale (or
#                      sweep value) as a heatmap, one row per case and one column per other
#                      strategy, each cell its time as a multiple of the baseline's (the CSV's
#                      ratio: the median of the rounds' ratios; the medians' in files without
#                      it), blue faster and red slower on a log colour scale, pale when the
#                      ratio's 95 % interval (ratio_low to ratio_high) holds 1×. As the HTML
#                      report's overview draws it. Without the baseline: a warning instead.
#   X.sweep-ratio.png  only for a sweep with rows of the baseline strategy (single-table, the
#                      one the bench takes every ratio against): the same panels, each strategy's
#                      median divided by the baseline's at the same value and case (the baseline
#                      is the line at 1), log axis; above 1 is slower than the baseline. Ratios
#                      of medians, without intervals. Without the baseline: a warning instead.
#
# Bad input (no `csv` variable, an unreadable or empty file, a header without the columns used,
# a scale of 0 or less, an infinite or overflowing median, interval, scale or sweep value, an
# `out` that is not a writable folder) prints one line starting with "plot.gnuplot: error:" and
# exits with a non-zero status. Each chart is drawn into a hidden `.X.<chart>.png.partial` and
# renamed into place when complete, so a failure never leaves a blank or half-drawn X.<chart>.png.
#
# Columns used, found by name in the header: strategy, workload, variant, scale, median_ns,
# ci_low_ns, ci_high_ns (schema version 2; without them, as in version 1 files, the charts
# have no whiskers); hierarchy, sweep_parameter, sweep_value (schema version 3; without them a
# file is the publications hierarchy and no sweep); optional: rows, run_id, git_commit,
# git_dirty, sqlite_version, build, cpu_model, cpu_cores. Strategies, cases, scales and sweep
# values come from the file, in the order they first appear (scales and values sorted); nothing
# about them is hard-coded here. The baseline is read from the file too: the strategy whose
# rows have no `ratio` while another's have one (schema version 5); a file without the column
# (older versions) was written with `single-table` as the baseline.
#
# How the CSV is read. The bench writes RFC 4180 CSV: a field holding a comma, a double quote
# or a line break is quoted, with inner quotes doubled. gnuplot 5.4's own CSV reader
# (`set datafile separator comma`) keeps "a,b" in one column, but mis-splits a field with
# doubled quotes ("say ""hi"", there") and cannot join a quoted line break, which would shift
# or drop whole rows. So the file is read by a small awk program (below) that implements
# RFC 4180 and hands gnuplot plain numbers and names. It is written for POSIX awk and avoids
# gawk extensions, so it runs with mawk (Debian's default awk), gawk, busybox awk and the BSD
# awk of macOS. Remaining limitation: a NUL byte in the file is not handled (the bench never
# writes one). A row's x is its scale, or in a sweep its sweep_value (in a scale sweep the two
# agree). Rows with the same (x, strategy, workload, variant) -- e.g. two runs at one scale
# concatenated -- keep the last one, with a warning. The first result row decides whether the
# file is a sweep, and of which parameter; rows that differ (a sweep of another parameter, or
# sweep and non-sweep rows concatenated) are skipped with a warning.
#
# Concatenating runs: keep one header, e.g.  { cat a.csv; tail -n +2 b.csv; } > all.csv
# (repeated header lines are skipped anyway).

# ---------------------------------------------------------------------------------------------
# Arguments and sanity checks
# ---------------------------------------------------------------------------------------------

if (!exists("csv")) {
    print "plot.gnuplot: error: no input CSV; run:  gnuplot -e \"csv='results/X.csv'\" plot.gnuplot"
    exit status 2
}
if (GPVAL_VERSION < 5.4) {
    print sprintf("plot.gnuplot: error: gnuplot 5.4 or later needed, this is %.1f", GPVAL_VERSION)
    exit status 2
}
csv = "" . csv          # also accepts csv=123 (a number) without a type error later

# Single-quote a string for /bin/sh (the pipe below runs through the shell):
# every ' becomes '\'' and the whole is wrapped in '...'.
_shq(s) = (_q = strstrt(s, "'")) == 0 ? s : s[1:_q-1] . "'\\''" . _shq(s[_q+1:])
shq(s) = "'" . _shq(s) . "'"

# ---------------------------------------------------------------------------------------------
# The CSV reader (POSIX awk). It prints gnuplot commands, which `load` runs:
#   csv_error = '...'                     on bad input (then nothing else)
#   nstrat, STRAT[s]                      strategy names, first-appearance order
#   ncase, CASE[c]                        "workload" or "workload/variant", first-appearance order
#   sweep                                 the swept parameter (sweep_parameter), "" if none
#   hier                                  the hierarchy column's value(s), "" if no such column
#   nx, XV[i]                             distinct x values, ascending: scales, or in a sweep
#                                         the sweep values
#   ntop, TOPCASE[p], TOPROWS[p]          cases present at the largest x, and their rows
#   topstrats                             "1 2 3": strategy numbers present at the largest x
#   $TOP                                  pos strategy median_ms lo_ms hi_ms   (largest x)
#   top_lo, top_hi                        smallest ci_low / largest ci_high there, ms
#   CASESTRATS[c], CASEBLOCK[c]           strategies with data for case c; its first block
#   CLO[c], CHI[c]                        smallest ci_low / largest ci_high of case c, ms
#   $LINES                                one block per (case, strategy): x median lo hi
#   baseline                              the baseline strategy's name ("" when none has rows)
#   has_ratio                             1 when the baseline has rows (then the four below)
#   RSTRATS[c], RBLOCK[c], RLO[c], RHI[c] as CASESTRATS..CHI, for the ratios (RLO <= 1 <= RHI)
#   $RATIO                                one block per (case, strategy): x median/baseline's
#   heatstrats, $HEAT                     "2 3 4": the other strategies at the largest x; and
#                                         per (strategy, case) there: column row ratio clear
#   info_top, info_all                    run description for the chart titles
#   has_ci                                1 when the file has ci_low_ns and ci_high_ns
#   nwarn, WARN[i]                        warnings to print
# It must not contain a single quote (it is passed in '...' to the shell): \047 stands for one.
# ---------------------------------------------------------------------------------------------

$AWK << AWK_END
# gnuplot string literal: single quotes, inner ones doubled; no line breaks
function gq(s) { gsub(/[\r\n\t]/, " ", s); gsub(/\047/, "\047\047", s); return "\047" s "\047" }
function fail(msg) { print "csv_error = " gq(msg); exit }
function isnum(s) { return s ~ /^[ ]*[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?[ ]*$/ }
function warn(msg) { W[++nw] = msg }

# Read one CSV record into REC (physical lines joined while a quoted field is open).
# Returns 1, or 0 at end of file.
function readrec(   line, r, t) {
    r = (getline line < F)
    if (r < 0) fail("cannot read " F)
    if (r == 0) return 0
    LINE++
    sub(/\r$/, "", line)
    REC = line
    t = REC
    while (gsub(/"/, "", t) % 2 == 1) {
        r = (getline line < F)
        if (r <= 0) fail(F ": a quoted field is never closed (line " LINE ")")
        LINE++
        sub(/\r$/, "", line)
        REC = REC "\n" line
        t = REC
    }
    return 1
}

# Split REC into f[1..n] (RFC 4180); returns n.
function splitrec(rec, f,    n, i, c, fld, inq, len) {
    split("", f)
    if (index(rec, "\"") == 0) return split(rec, f, ",")
    n = 0; fld = ""; inq = 0; len = length(rec)
    for (i = 1; i <= len; i++) {
        c = substr(rec, i, 1)
        if (inq) {
            if (c == "\"") {
                if (substr(rec, i + 1, 1) == "\"") { fld = fld "\""; i++ } else inq = 0
            } else fld = fld c
        } else if (c == "\"") inq = 1
        else if (c == ",") { f[++n] = fld; fld = "" }
        else fld = fld c
    }
    f[++n] = fld
    return n
}

function get(name) { return (name in col) ? V[col[name]] : "" }

# Run description for a title, from the rows of one x value (x), or of all (x == ""):
# the run id (or how many runs), then commit, SQLite, build and CPU of the last row read.
function describe(x,    k, ids, nid, s, m) {
    nid = 0
    for (k in RUNOF) if (x == "" || XOF[k] == x) { if (!(RUNOF[k] in ids)) { ids[RUNOF[k]] = 1; nid++ } }
    s = ""
    if (nid == 1) { for (k in ids) if (k != "") s = "run " k }
    else if (nid > 1) s = nid " runs"
    m = (x == "") ? META : METAOF[x]
    if (m != "") s = s (s == "" ? "" : " \342\200\242 ") m
    return s
}

BEGIN {
    F = ARGV[1]; ARGV[1] = ""; LINE = 0; nw = 0; debug = 0
    if (F == "") fail("no CSV file named")
    if (!readrec()) fail(F ": empty file")
    nh = splitrec(REC, H)
    if (substr(H[1], 1, 3) == "\357\273\277") H[1] = substr(H[1], 4)     # UTF-8 BOM
    for (i = 1; i <= nh; i++) col[H[i]] = i
    nreq = split("strategy workload variant scale median_ns", R, " ")
    for (i = 1; i <= nreq; i++)
        if (!(R[i] in col)) fail(F ": no column " R[i] " in the first line (not a bench results CSV?)")
    hasci = ("ci_low_ns" in col) && ("ci_high_ns" in col)
    if (!hasci) warn("no ci_low_ns/ci_high_ns columns (a schema version 1 file?): medians without intervals")

    # The x of a row is its scale, or in a sweep (sweep_parameter not empty) its sweep_value.
    # The first result row decides whether the file is a sweep, and of which parameter; rows
    # that do not match it (another sweep, or no sweep) are skipped with a warning.
    nstrat = 0; ncase = 0; nx = 0; bad = 0; skipped = 0; dup = 0; other = 0; nhier = 0; seen = 0
    while (readrec()) {
        n = splitrec(REC, V)
        if (n == 1 && V[1] == "") continue                          # blank line
        if (get("strategy") == "strategy" && get("median_ns") == "median_ns") continue  # header again
        if (n != nh) { if (!bad++) badline = LINE; continue }
        st = get("strategy"); wl = get("workload"); va = get("variant"); sc = get("scale")
        med = get("median_ns"); lo = get("ci_low_ns"); hi = get("ci_high_ns")
        sp = get("sweep_parameter"); x = (sp == "") ? sc : get("sweep_value")
        # Numbers gnuplot cannot draw stop the script with their line: awk reads 1e999 as inf,
        # which would reach gnuplot as a word it does not know; a scale of 0 or less has no
        # place on a log axis; a duration beyond 1e18 ns overflows the axis range.
        if (isnum(sc) && !(sc + 0 > 0 && sc + 0 <= 1e15)) fail(F ": line " LINE ": scale is " sc ", not a number of objects above 0 and at most 1e15")
        if (sp != "" && isnum(x) && !(x + 0 >= -1e15 && x + 0 <= 1e15)) fail(F ": line " LINE ": sweep_value is " x ", not a number from -1e15 to 1e15")
        if (isnum(med) && !(med + 0 <= 1e18)) fail(F ": line " LINE ": median_ns is " med ", not a duration in nanoseconds of at most 1e18")
        if (isnum(lo) && !(lo + 0 <= 1e18 && lo + 0 >= -1e18)) fail(F ": line " LINE ": ci_low_ns is " lo ", not a duration in nanoseconds of at most 1e18")
        if (isnum(hi) && !(hi + 0 <= 1e18 && hi + 0 >= -1e18)) fail(F ": line " LINE ": ci_high_ns is " hi ", not a duration in nanoseconds of at most 1e18")
        if (!isnum(sc) || !isnum(x) || !isnum(med) || med + 0 <= 0) { if (!skipped++) skipline = LINE; continue }
        if (!seen++) sweep = sp
        if (sp != sweep) { if (!other++) otherline = LINE; continue }
        x += 0; med += 0
        lo = (isnum(lo) && lo + 0 > 0) ? lo + 0 : med
        hi = (isnum(hi) && hi + 0 > 0) ? hi + 0 : med

        if (!(st in SI)) { SI[st] = ++nstrat; SN[nstrat] = st }
        if (get("ratio") != "") { RATED[st] = 1; anyrated = 1 }
        ck = wl SUBSEP va
        if (!(ck in CI)) { CI[ck] = ++ncase; CN[ncase] = (va == "" ? wl : wl "/" va) }
        if (!(x in XI)) { XI[x] = 1; XS[++nx] = x }
        h = get("hierarchy")
        if (!(h in HSEEN)) { HSEEN[h] = 1; HN[++nhier] = h }
        k = x SUBSEP CI[ck] SUBSEP SI[st]
        if (k in MED) dup++
        MED[k] = med / 1e6; LO[k] = lo / 1e6; HI[k] = hi / 1e6; ROWS[k] = get("rows")
        RAT[k] = get("ratio"); RLW[k] = get("ratio_low"); RHG[k] = get("ratio_high")
        RUNOF[k] = get("run_id"); XOF[k] = x
        if (get("build") == "debug") debug = 1
        # description of the machine and build, from the last row read (of each scale)
        m = ""
        if (get("git_commit") != "") m = "commit " get("git_commit") (get("git_dirty") == "true" ? " (dirty)" : "")
        if (get("sqlite_version") != "") m = m (m == "" ? "" : " \342\200\242 ") "SQLite " get("sqlite_version")
        if (get("build") != "") m = m (m == "" ? "" : " \342\200\242 ") get("build") " build"
        if (get("cpu_model") != "") m = m (m == "" ? "" : " \342\200\242 ") get("cpu_model") (get("cpu_cores") != "" ? " \303\227 " get("cpu_cores") : "")
        META = m; METAOF[x] = m
    }
    close(F)
    if (nx == 0) fail(F ": no result rows" (bad ? " (" bad " rows with the wrong number of fields, first at line " badline ")" : ""))

    # x values ascending (insertion sort)
    for (i = 2; i <= nx; i++) { v = XS[i]; for (j = i - 1; j >= 1 && XS[j] > v; j--) XS[j + 1] = XS[j]; XS[j + 1] = v }
    top = XS[nx]

    if (bad) warn(bad " rows with the wrong number of fields were skipped (first at line " badline ")")
    if (skipped) warn(skipped " rows without a numeric scale" (sweep == "" ? "" : " and sweep_value") " or a positive median_ns were skipped (first at line " skipline ")")
    if (other && sweep == "") warn(other " rows of a sweep were skipped (first at line " otherline "): the first result row is not from a sweep")
    if (other && sweep != "") warn(other " rows not of the first row\047s sweep (of " sweep ") were skipped (first at line " otherline ")")
    if (dup) warn(dup " rows repeat an earlier (" (sweep == "" ? "scale" : "sweep_value") ", strategy, workload, variant); the last one read is plotted")
    if (debug) warn("some rows come from a debug build: their numbers are not meaningful")

    print "nstrat = " nstrat; print "array STRAT[" nstrat "]"
    for (s = 1; s <= nstrat; s++) print "STRAT[" s "] = " gq(SN[s])
    print "ncase = " ncase; print "array CASE[" ncase "]"
    for (c = 1; c <= ncase; c++) print "CASE[" c "] = " gq(CN[c])
    print "nx = " nx; print "array XV[" nx "]"
    for (i = 1; i <= nx; i++) print "XV[" i "] = " XS[i]
    print "sweep = " gq(sweep)
    hs = ""
    for (i = 1; i <= nhier; i++) if (HN[i] != "") hs = hs (hs == "" ? "" : ", ") HN[i]
    print "hier = " gq(hs)

    # largest x: cases present there, compact positions 1..ntop
    ntop = 0; tl = ""; th = ""; ts = ""
    for (s = 1; s <= nstrat; s++) for (c = 1; c <= ncase; c++)
        if ((top SUBSEP c SUBSEP s) in MED) { ts = ts (ts == "" ? "" : " ") s; break }
    print "$TOP << TOP_END"
    for (c = 1; c <= ncase; c++) {
        here = 0
        for (s = 1; s <= nstrat; s++) {
            k = top SUBSEP c SUBSEP s
            if (!(k in MED)) continue
            if (!here) { here = 1; ntop++; TC[ntop] = CN[c]; TR[ntop] = ROWS[k]; TP[c] = ntop }
            printf "%d %d %.9g %.9g %.9g\n", ntop, s, MED[k], LO[k], HI[k]
            if (tl == "" || LO[k] < tl) tl = LO[k]
            if (th == "" || HI[k] > th) th = HI[k]
        }
    }
    print "TOP_END"
    print "ntop = " ntop; print "array TOPCASE[" ntop "]"; print "array TOPROWS[" ntop "]"
    for (p = 1; p <= ntop; p++) { print "TOPCASE[" p "] = " gq(TC[p]); print "TOPROWS[" p "] = " gq(TR[p]) }
    print "topstrats = " gq(ts)
    printf "top_lo = %.9g; top_hi = %.9g\n", tl, th

    # one block per (case, strategy), rows ascending by x; blocks separated by 2 blank lines
    print "array CASESTRATS[" ncase "]"; print "array CASEBLOCK[" ncase "]"
    print "array CLO[" ncase "]"; print "array CHI[" ncase "]"
    print "$LINES << LINES_END"
    block = 0
    for (c = 1; c <= ncase; c++) {
        cs = ""; CB[c] = block; cl = ""; ch = ""
        for (s = 1; s <= nstrat; s++) {
            any = 0
            for (i = 1; i <= nx; i++) {
                k = XS[i] SUBSEP c SUBSEP s
                if (!(k in MED)) continue
                any = 1
                printf "%.9g %.9g %.9g %.9g\n", XS[i], MED[k], LO[k], HI[k]
                if (cl == "" || LO[k] < cl) cl = LO[k]
                if (ch == "" || HI[k] > ch) ch = HI[k]
            }
            if (any) { printf "\n\n"; block++; cs = cs (cs == "" ? "" : " ") s }
        }
        CS[c] = cs; CL[c] = cl; CH[c] = ch
    }
    print "LINES_END"
    for (c = 1; c <= ncase; c++)
        printf "CASESTRATS[%d] = %s; CASEBLOCK[%d] = %d; CLO[%d] = %.9g; CHI[%d] = %.9g\n", c, gq(CS[c]), c, CB[c], c, CL[c], c, CH[c]

    # the median of each strategy over that of the baseline, at the same x and case (for a sweep)
    bname = ("ratio" in col) ? "" : "single-table"
    for (s = 1; s <= nstrat && anyrated && bname == ""; s++) if (!(SN[s] in RATED)) bname = SN[s]
    st1 = (bname in SI) ? SI[bname] : 0
    print "baseline = " gq(st1 ? bname : "")
    print "has_ratio = " (st1 ? 1 : 0)
    if (st1) {
        print "array RSTRATS[" ncase "]"; print "array RBLOCK[" ncase "]"
        print "array RLO[" ncase "]"; print "array RHI[" ncase "]"
        print "$RATIO << RATIO_END"
        block = 0
        for (c = 1; c <= ncase; c++) {
            cs = ""; CB[c] = block; cl = 1; ch = 1
            for (s = 1; s <= nstrat; s++) {
                any = 0
                for (i = 1; i <= nx; i++) {
                    k = XS[i] SUBSEP c SUBSEP s; k1 = XS[i] SUBSEP c SUBSEP st1
                    if (!(k in MED) || !(k1 in MED)) continue
                    any = 1; r = MED[k] / MED[k1]
                    printf "%.9g %.9g\n", XS[i], r
                    if (r < cl) cl = r
                    if (r > ch) ch = r
                }
                if (any) { printf "\n\n"; block++; cs = cs (cs == "" ? "" : " ") s }
            }
            CS[c] = cs; CL[c] = cl; CH[c] = ch
        }
        print "RATIO_END"
        for (c = 1; c <= ncase; c++)
            printf "RSTRATS[%d] = %s; RBLOCK[%d] = %d; RLO[%d] = %.9g; RHI[%d] = %.9g\n", c, gq(CS[c]), c, CB[c], c, CL[c], c, CH[c]
        # at the largest x, the ratio of each other strategy per case: that of the file (the median
        # of the ratios of the rounds) or of the medians, and whether its interval excludes 1 (clear)
        nh2 = 0; hs = ""
        for (s = 1; s <= nstrat; s++) if (s != st1) {
            for (c = 1; c <= ncase; c++) if (((top SUBSEP c SUBSEP s) in MED) && ((top SUBSEP c SUBSEP st1) in MED)) { HC[s] = ++nh2; hs = hs (hs == "" ? "" : " ") s; break }
        }
        print "heatstrats = " gq(hs)
        print "$HEAT << HEAT_END"
        for (c = 1; c <= ncase; c++) if (c in TP) for (s = 1; s <= nstrat; s++) if (s in HC) {
            k = top SUBSEP c SUBSEP s; k1 = top SUBSEP c SUBSEP st1
            if (!(k in MED) || !(k1 in MED)) continue
            r = (isnum(RAT[k]) && RAT[k] + 0 > 0 && RAT[k] + 0 < 1e9) ? RAT[k] + 0 : MED[k] / MED[k1]
            clear = (isnum(RLW[k]) && isnum(RHG[k])) ? (RLW[k] + 0 > 1 || RHG[k] + 0 < 1) : 1
            printf "%d %d %.6g %d\n", HC[s], TP[c], r, clear
        }
        print "HEAT_END"
    }

    print "info_top = " gq(describe(top))
    print "info_all = " gq(describe(""))
    print "has_ci = " (hasci ? 1 : 0)
    print "nwarn = " (nw + 0)
    if (nw) { print "array WARN[" nw "]"; for (i = 1; i <= nw; i++) print "WARN[" i "] = " gq(W[i]) }
    exit
}
AWK_END

# Join the datablock's lines into the awk program text.
awkprog = ""
do for [i = 1:|$AWK|] { awkprog = awkprog . $AWK[i] . "\n" }
if (strstrt(awkprog, "'")) {
    print "plot.gnuplot: error: internal: the awk program contains a single quote"
    exit status 3
}

# Run it through /bin/sh (a folder is caught first: awk implementations differ there).
load "< if [ -d " . shq(csv) . " ]; then echo csv_isdir = 1; else awk '" . awkprog . "' " . shq(csv) . "; fi"

if (exists("csv_isdir")) {
    print "plot.gnuplot: error: " . csv . " is a folder, not a CSV file"
    exit status 1
}
if (exists("csv_error")) {
    print "plot.gnuplot: error: " . csv_error
    exit status 1
}
if (!exists("nstrat")) {
    print "plot.gnuplot: error: reading " . csv . " with awk gave nothing (is awk installed?)"
    exit status 1
}
do for [i = 1:nwarn] { print "plot.gnuplot: warning: " . WARN[i] }

# ---------------------------------------------------------------------------------------------
# Output names: <out>/<name without .csv>.medians.png, .scaling.png, .sweep.png, .sweep-ratio.png
# ---------------------------------------------------------------------------------------------

_lastslash(s) = (_p = strstrt(s, "/")) == 0 ? 0 : _p + _lastslash(s[_p+1:])
_slash = _lastslash(csv)
csvdir = _slash == 0 ? "." : (_slash == 1 ? "/" : csv[1:_slash-1])
base = csv[_slash+1:]
if (strlen(base) > 4 && base[strlen(base)-3:] eq ".csv") { base = base[1:strlen(base)-4] }
if (!exists("out")) { out = csvdir }
out = "" . out
png_medians = out . "/" . base . ".medians.png"
png_scaling = out . "/" . base . ".scaling.png"
png_sweep = out . "/" . base . ".sweep.png"
png_ratio = out . "/" . base . ".sweep-ratio.png"
png_heat = out . "/" . base . ".ratios.png"
# Whether files can really be made there: [ -w ] is true for root even on a read-only mount or /proc.
_outcheck = system("if [ ! -d " . shq(out) . " ]; then echo missing; " \
    . "else f=" . shq(out . "/.plot-probe") . ".$$; if ( : > \"$f\" ) 2>/dev/null; then rm -f \"$f\"; echo ok; else echo readonly; fi; fi")
if (_outcheck eq "missing") {
    print "plot.gnuplot: error: the output folder " . out . " does not exist (or is not a folder); create it or set out to another"
    exit status 1
}
if (_outcheck ne "ok") {
    print "plot.gnuplot: error: cannot create files in the output folder " . out . "; set out to a writable folder"
    exit status 1
}
# Each chart is drawn into a hidden partial file, then renamed into place (see the top).
partial(png) = (_s = _lastslash(png)) == 0 ? "." . png . ".partial" : png[1:_s] . "." . png[_s+1:] . ".partial"
# Renames the finished chart into place; on failure: one error line, no partial left, exit 1.
# (a folder of that name would swallow the file: mv moves into it)
publish(png) = system("[ ! -d " . shq(png) . " ] && mv -f " . shq(partial(png)) . " " . shq(png) . " 2>/dev/null && echo ok || { rm -f " . shq(partial(png)) . "; echo failed; }")
# partial files a gnuplot error left behind in an earlier run of this script
_ignored = system("rm -f " . shq(partial(png_medians)) . " " . shq(partial(png_scaling)) . " " . shq(partial(png_sweep)) . " " . shq(partial(png_ratio)) . " " . shq(partial(png_heat)))

# ---------------------------------------------------------------------------------------------
# Common style
# ---------------------------------------------------------------------------------------------

set encoding utf8
set terminal pngcairo size 1600,900 font "Sans,11" noenhanced linewidth 1.2
set termoption noenhanced         # names like fetch_by_tag must print as written

# Okabe-Ito colour-blind-safe palette, one colour per strategy (cycles after 7)
array PAL[7] = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#999999"]
do for [i = 1:7] { set linetype i linecolor rgb PAL[i] linewidth 1.5 pointtype 7 pointsize 1.2 }
set linetype cycle 7

# A duration given in milliseconds, in readable units: 12.3 µs, 4.56 ms, 1.2 s.
# The thresholds sit at 0.9995 so that %.3g never rounds up into "1e+03".
fmt_ms(v) = v >= 999.5 ? sprintf("%.3g s", v / 1000) : \
            v >= 0.9995 ? sprintf("%.3g ms", v) : \
            v >= 0.0009995 ? sprintf("%.3g µs", v * 1000) : sprintf("%.3g ns", v * 1e6)
# A scale in readable form: 500, 3k, 10k, 2.5M
fmt_n(v) = v >= 1e6 ? sprintf("%gM", v / 1e6) : v >= 1e3 ? sprintf("%gk", v / 1e3) : sprintf("%g", v)
# A ratio to the baseline's median: 0.5×, 1×, 20×
fmt_r(v) = sprintf("%g×", v)

# What the x values are: scales, or in a sweep the values of the swept parameter.
issweep = sweep ne ""
pname(p) = p eq "scale" ? "objects (scale)" : p eq "sub-entities" ? "sub-entities" : \
           p eq "attributes" ? "attributes per sub-entity" : p eq "skew" ? "type-mix skew" : p
xname = issweep ? pname(sweep) : "scale"
fmt_x(v) = (!issweep || sweep eq "scale") ? sprintf("%.0f", v) : sprintf("%g", v)     # in titles
fmt_xt(v) = (!issweep || sweep eq "scale") ? fmt_n(v) : sprintf("%g", v)              # on axes
# The hierarchy measured, for titles ("" when the file has no hierarchy column: publications)
hiername = hier eq "" ? "publications" : hier
hiernote = strstrt(hier, ", ") ? "hierarchies " . hier : hiername . " hierarchy"

# Log-axis ticks at 1, 2, 5 (or only 1) × powers of ten between lo and hi (ms), labelled with
# units. `step` chooses the mantissas: 1 -> "1", 2 -> "1 2 5", 3 -> "1 2 3 5 7".
mantissas(step) = step == 1 ? "1" : step == 2 ? "1 2 5" : step == 3 ? "1 2 3 5 7" : "1 1.5 2 3 4 5 6 7 8"
# how dense: fewer mantissas the more decades the range spans
tickstep(lo, hi) = log10(hi / lo) > 3.5 ? 1 : log10(hi / lo) > 1.2 ? 2 : log10(hi / lo) > 0.6 ? 3 : 4

# ---------------------------------------------------------------------------------------------
# Chart 1: medians at the largest scale (or sweep value), grouped bars with confidence intervals
# ---------------------------------------------------------------------------------------------

ntopstrat = words(topstrats)
tstrat(k) = int(word(topstrats, k))          # k-th strategy present -> its number (colour)
groupw = 0.82                                # fraction of a case slot the bars fill
barw = groupw / ntopstrat < 0.45 ? groupw / ntopstrat : 0.45     # one strategy: no slab
barx(pos, k) = pos + (k - (ntopstrat + 1) / 2.0) * barw

set output partial(png_medians)
xlist = ""
do for [i = 1:nx] { xlist = xlist . (i > 1 ? ", " : "") . fmt_x(XV[i]) }
if (nx > 6) { xlist = fmt_x(XV[1]) . " to " . fmt_x(XV[nx]) }
if (issweep) {
    # e.g. "synthetic hierarchy, attributes per sub-entity = 32, the largest of the 6 values swept (1 to 32)"
    scalenote = hiernote . ", " . xname . " = " . fmt_x(XV[nx]) \
                . (nx > 1 ? sprintf(", the largest of the %d values swept (%s)", nx, xlist) : "")
} else {
    if (nx > 1) {
        scalenote = sprintf("scale %.0f, the largest of the %d in the file (%s)", XV[nx], nx, xlist)
    } else {
        scalenote = sprintf("scale %.0f", XV[nx])
    }
    # a preset or described hierarchy is named; the publications model is the default
    if (hiername ne "publications") { scalenote = hiernote . ", " . scalenote }
}
# Top of the image: two title lines, then the legend, then the plot. Labels at screen
# positions rather than `set title`, which gnuplot would place on top of an outside key.
set label 101 sprintf("Median time per repetition by case and strategy, %s", scalenote) \
    at screen 0.5, screen 0.972 center font "Sans,14"
set label 102 info_top at screen 0.5, screen 0.942 center font "Sans,11" textcolor rgb "#444444"
set tmargin at screen 0.87

# y range: whole decades around the data, plus headroom above for the value labels
ylo = 10.0 ** floor(log10(top_lo) - 0.05)
yhi = 10.0 ** (log10(top_hi) + 0.1 + 0.09 * ceil(log10(top_hi / ylo)))
set logscale y 10
set yrange [ylo:yhi]
set ytics () ; set ytics nomirror
do for [e = floor(log10(ylo)):ceil(log10(yhi))] {
    _v = 10.0 ** e
    set ytics add (fmt_ms(_v) _v)
}
set mytics 10
set ylabel "median time per repetition (log scale)"
set grid ytics mytics lc rgb "#dddddd" lw 1, lc rgb "#f0f0f0" lw 1
set xrange [0.5:ntop + 0.5]
set xtics () ; set xtics nomirror scale 0 rotate by 30 right offset 0.5,0
caselabel(p) = TOPCASE[p] . (TOPROWS[p] eq "" ? "" : "  (" . TOPROWS[p] . (TOPROWS[p] eq "1" ? " row)" : " rows)"))
do for [p = 1:ntop] { set xtics add (caselabel(p) p) }
# thin separators between cases
do for [p = 1:ntop-1] {
    set arrow from p + 0.5, graph 0 to p + 0.5, graph 1 nohead lc rgb "#cccccc" lw 1 back
}
set key at screen 0.5, screen 0.905 center center horizontal samplen 2.5 font "Sans,12"
set label 103 has_ci ? "bar and number: the median; whisker: its confidence interval (ci_low_ns to ci_high_ns)" \
                     : "bar and number: the median (no confidence intervals in this file)" \
    at screen 0.995, screen 0.015 right font "Sans,10" textcolor rgb "#444444"
set boxwidth barw * 0.92 absolute
set style fill solid 0.85 border lc rgb "#555555"
# The labels are rotated and end at their tick, so the first one reaches left of the plot:
# make the left margin wide enough for it (about 6.8 px per character across, at this font
# and angle), and never narrower than the y tick labels and axis title need (100 px).
_need = 6.8 * strlen(caselabel(1)) + 12 - 0.5 * (1600 - 130) / ntop
set lmargin at screen (_need > 100 ? _need : 100) / 1600.0
set bmargin 10
set rmargin 4

# Boxes start at the bottom of the plot. Whiskers are drawn as vectors with flat heads:
# gnuplot 5.4's `yerrorbars` leaves a white dot at the median even with pointsize 0.
# The value of each median is printed above its whisker.
plot for [k = 1:ntopstrat] $TOP \
         using (barx($1, k)):($2 == tstrat(k) ? $3 : NaN) \
         with boxes lt tstrat(k) title STRAT[tstrat(k)], \
     for [k = 1:ntopstrat] $TOP \
         using (barx($1, k)):($2 == tstrat(k) && has_ci ? $4 : NaN):(0):($5 - $4) \
         with vectors heads size screen 0.004,90 lc rgb "#222222" lw 1.3 notitle, \
     for [k = 1:ntopstrat] $TOP \
         using (barx($1, k)):($2 == tstrat(k) ? ($5 > $3 ? $5 : $3) * 1.12 : NaN):(fmt_ms($3)) \
         with labels rotate by 90 left font "Sans,8" textcolor rgb "#333333" notitle

unset arrow
unset label
unset output
if (publish(png_medians) ne "ok") {
    print "plot.gnuplot: error: could not write " . png_medians . " (is it a folder, or the disk full?)"
    exit status 1
}
print "plot.gnuplot: wrote " . png_medians

# ---------------------------------------------------------------------------------------------
# Chart 4: the answer at the largest scale (or sweep value), X.ratios.png: one row per case, one
# column per strategy other than the baseline, each cell that strategy's time as a multiple of
# the baseline's (the file's ratio, else the medians'), blue faster and red slower on a log
# scale, pale when its 95 % interval holds 1× (not clearly different), as the report draws it.
# ---------------------------------------------------------------------------------------------

# The warning of a chart of ratios when the file has no baseline rows.
nobaseline = "no rows of the baseline strategy (the one without ratios; single-table in a file without a ratio column) to divide by: "
nhs = has_ratio ? words(heatstrats) : 0
if (!has_ratio) {
    print "plot.gnuplot: warning: " . nobaseline . png_heat . " not written"
}
if (has_ratio && nhs == 0) {
    print "plot.gnuplot: warning: no strategy but " . baseline . " at the largest " . (issweep ? xname : "scale") . ": " . png_heat . " not written"
}
if (nhs > 0) {
    # a column per strategy, a row per case; wide and tall enough for the title lines and the colour bar
    heatw = 320 + 150 * nhs < 1000 ? 1000 : 320 + 150 * nhs
    heath = 190 + 26 * ntop < 460 ? 460 : 190 + 26 * ntop
    set terminal pngcairo size heatw, heath font "Sans,11" noenhanced linewidth 1.2
    set output partial(png_heat)
    set label 101 sprintf("Time as a multiple of %s's, by case", baseline) at screen 0.5, screen 1.0 center offset 0, -1.2 font "Sans,13"
    set label 102 scalenote at screen 0.5, screen 1.0 center offset 0, -2.6 font "Sans,10" textcolor rgb "#444444"
    set label 104 "blue: faster, red: slower; pale: not clearly different (its 95 % interval holds 1×)" \
        at screen 0.5, screen 1.0 center offset 0, -3.8 font "Sans,10" textcolor rgb "#444444"
    set label 103 info_top at screen 0.5, screen 0.0 center offset 0, 1.0 font "Sans,9" textcolor rgb "#666666"
    set tmargin 9; set bmargin 2.5; set rmargin 12
    set lmargin at screen 300.0 / heatw
    set xrange [0.5 : nhs + 0.5]
    set yrange [ntop + 0.5 : 0.5]
    unset xtics; set x2range [0.5 : nhs + 0.5]
    set x2tics () ; set x2tics nomirror scale 0 font "Sans,11"
    do for [i = 1:nhs] { set x2tics add (STRAT[int(word(heatstrats, i))] i) }
    set ytics () ; set ytics nomirror scale 0 font "Sans,10"
    do for [p = 1:ntop] { set ytics add (caselabel(p) p) }
    unset grid; unset key; unset logscale
    set border 0
    set palette defined (-4 "#2166ac", -1.5 "#92c5de", 0 "#f7f7f7", 1.5 "#f4a582", 4 "#b2182b")
    set cbrange [-4 : 4]
    set cbtics ("1/16×" -4, "1/4×" -2, "1/2×" -1, "1×" 0, "2×" 1, "4×" 2, "16×" 4) font "Sans,9"
    set colorbox vertical user origin screen (1.0 - 80.0 / heatw), graph 0.05 size screen 12.0 / heatw, graph 0.9
    log2c(r) = log(r) / log(2) > 4 ? 4 : log(r) / log(2) < -4 ? -4 : log(r) / log(2)
    fmt_h(r) = r >= 9.95 ? sprintf("%.0f×", r) : r >= 0.0995 ? sprintf("%.2f×", r) : sprintf("%.2g×", r)
    plot $HEAT using 1:($4 > 0 ? $2 : NaN):(0.49):(0.49):(log2c($3)) with boxxyerror fs solid 1.0 noborder lc palette, \
         $HEAT using 1:($4 > 0 ? NaN : $2):(0.49):(0.49) with boxxyerror fs solid 1.0 noborder lc rgb "#f0f0f0", \
         $HEAT using 1:2:(fmt_h($3)) with labels font "Sans,10" textcolor rgb "#222222"
    unset label
    unset colorbox
    unset output
    if (publish(png_heat) ne "ok") {
        print "plot.gnuplot: error: could not write " . png_heat . " (is it a folder, or the disk full?)"
        exit status 1
    }
    print "plot.gnuplot: wrote " . png_heat
    set terminal pngcairo size 1600,900 font "Sans,11" noenhanced linewidth 1.2
}

# ---------------------------------------------------------------------------------------------
# Charts 2 and 3: one panel per case, one line per strategy, against the x values.
#   lines: median (with its interval). Without a sweep: against scale, log-log, written as
#          X.scaling.png when there are several scales. In a sweep: against the swept value,
#          written as X.sweep.png.
#   ratio: in a sweep only, each strategy's median over the baseline's at the same value and
#          case (log y), written as X.sweep-ratio.png; skipped, with a warning, without
#          the baseline's rows.
# ---------------------------------------------------------------------------------------------

# x axis: scales always log; sweep values log when all are positive and span more than a
# factor of 4 (skew starts at 0), else linear.
xlog = !issweep || (nx > 1 && XV[1] > 0 && XV[nx] / XV[1] > 4)
if (xlog) {
    xmin = XV[1] / 1.25; xmax = XV[nx] * 1.25
} else {
    _span = XV[nx] - XV[1]
    _pad = _span > 0 ? _span * 0.06 : (abs(XV[1]) > 0 ? abs(XV[1]) * 0.5 : 0.5)
    xmin = XV[1] - _pad; xmax = XV[nx] + _pad
}
# strategies are nudged apart along x (k-th of n) so whiskers do not overlap:
# a few % in log space, or a fraction of the range on a linear axis
nudge(x, k, n) = xlog ? x * 10.0 ** ((k - (n + 1) / 2.0) * 0.008) : x + (k - (n + 1) / 2.0) * 0.004 * (xmax - xmin)

do for [chart in "lines ratio"] {
    ratio = chart eq "ratio"
    if (ratio && !issweep) { continue }
    if (!ratio && !issweep && nx < 2) { continue }
    if (ratio && !has_ratio) {
        print "plot.gnuplot: warning: " . nobaseline . png_ratio . " not written"
        continue
    }
    png = ratio ? png_ratio : (issweep ? png_sweep : png_scaling)

    reset
    set encoding utf8
    set termoption noenhanced
    set output partial(png)

    # grid of panels, roughly the 16:9 shape of the image: 12 cases -> 4 × 3
    ncols = ceil(sqrt(ncase * 4.0 / 3.0))
    nrows = ceil(1.0 * ncase / ncols)

    # the top strip holds the title and one shared legend; panels share the rest
    topstrip = 0.12
    panelw = 1.0 / ncols
    panelh = (1.0 - topstrip) / nrows

    if (!issweep) {
        title = "Median time per repetition against scale (" . hiername . "), by strategy, log-log" \
                . (has_ci ? ";  whiskers: the median's confidence interval" : "")
    } else {
        if (ratio) {
            title = "Median time over " . baseline . "'s at the same " . xname . " (" . hiernote . "), by strategy, log y;  above 1×: slower than " . baseline
        } else {
            title = "Median time per repetition against " . xname . " (" . hiernote . "), by strategy, " \
                    . (xlog ? "log-log" : "log y") . (has_ci ? ";  whiskers: the median's confidence interval" : "")
        }
    }

    set multiplot
    # an empty plot in the top strip carrying only the title lines and the one legend
    set origin 0, 1.0 - topstrip
    set size 1, topstrip
    unset border; unset xtics; unset ytics
    set label 101 title at screen 0.5, screen 0.972 center font "Sans,14"
    set label 102 info_all at screen 0.5, screen 0.942 center font "Sans,11" textcolor rgb "#444444"
    set key at screen 0.5, screen 0.905 center center horizontal samplen 3 font "Sans,12"
    set xrange [0:1]; set yrange [0:1]
    plot for [s = 1:nstrat] NaN with linespoints lt s title STRAT[s]
    unset label
    unset key

    set border
    set logscale y 10
    if (xlog) { set logscale x 10 }
    set xrange [xmin : xmax]
    set xtics () ; set xtics nomirror font "Sans,9"
    if (nx <= 12) {
        do for [i = 1:nx] { set xtics add (fmt_xt(XV[i]) XV[i]) }
    } else {
        set xtics autofreq
    }
    if (xlog) { set mxtics default }
    set ytics nomirror font "Sans,9"
    unset mytics
    set grid xtics ytics lc rgb "#e0e0e0"
    set bars 0.5
    set lmargin 8; set rmargin 1.5; set tmargin 1.8; set bmargin 1.6
    if (issweep) {
        set xlabel xname font "Sans,9" offset 0, 0.9
        set bmargin 2.6
    }

    do for [c = 1:ncase] {
        set origin ((c - 1) % ncols) * panelw, (1.0 - topstrip) - (int((c - 1) / ncols) + 1) * panelh
        set size panelw, panelh
        # y range padded by a tenth of the span (at least a little) on the log axis
        if (ratio) {
            _l = log10(RLO[c]); _h = log10(RHI[c])
        } else {
            _l = log10(CLO[c]); _h = log10(CHI[c])
        }
        _pad = (_h - _l) * 0.1 + 0.04
        set yrange [10.0 ** (_l - _pad) : 10.0 ** (_h + _pad)]
        set ytics ()
        do for [e = floor(_l - _pad):ceil(_h + _pad)] {
            do for [m in mantissas(tickstep(10.0 ** (_l - _pad), 10.0 ** (_h + _pad)))] {
                _v = m * 10.0 ** e
                if (ratio) { set ytics add (fmt_r(_v) _v) } else { set ytics add (fmt_ms(_v) _v) }
            }
        }
        set label 1 CASE[c] at graph 0.5, graph 1.0 center offset 0, 0.8 font "Sans,11"
        if (ratio) {
            _n = words(RSTRATS[c])
            if (_n == 0) {
                set label 2 "no " . baseline . " rows for this case" at graph 0.5, graph 0.5 center font "Sans,9" textcolor rgb "#666666"
                plot NaN notitle
                unset label 2
            } else {
                plot for [k = 1:_n] $RATIO index (RBLOCK[c] + k - 1) \
                     using (nudge($1, k, _n)):2 with linespoints lt int(word(RSTRATS[c], k)) pointsize 0.8 notitle
            }
        } else {
            _n = words(CASESTRATS[c])
            if (has_ci) {
                plot for [k = 1:_n] $LINES index (CASEBLOCK[c] + k - 1) \
                     using (nudge($1, k, _n)):2:3:4 \
                     with yerrorlines lt int(word(CASESTRATS[c], k)) pointsize 0.8 notitle
            } else {
                plot for [k = 1:_n] $LINES index (CASEBLOCK[c] + k - 1) \
                     using 1:2 with linespoints lt int(word(CASESTRATS[c], k)) pointsize 0.8 notitle
            }
        }
    }
    unset multiplot
    unset output
    if (publish(png) ne "ok") {
        print "plot.gnuplot: error: could not write " . png . " (is it a folder, or the disk full?)"
        exit status 1
    }
    print "plot.gnuplot: wrote " . png
}
