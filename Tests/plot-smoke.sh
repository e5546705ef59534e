#!/usr/bin/env bash
# Smoke test of plot.gnuplot (needs gnuplot 5.4+, Debian package gnuplot-nox).
#
#     bash Tests/plot-smoke.sh results/X.csv
#
# 1. plots the given results CSV and checks that the medians chart is a valid 1600x900 PNG,
#    and so are the scaling and sweep charts when the script reports writing them;
# 2. plots a small CSV made here with two scales and awkward RFC 4180 fields (a quoted comma,
#    doubled quotes, a line break inside quotes, CRLF line ends) and checks both charts, and
#    that no sweep chart is written for it;
# 3. plots small sweep CSVs made here (schema 3 columns, the same awkward fields; an attributes
#    sweep, whose x axis is log, and a skew sweep from 0, whose x axis is linear) and checks the
#    medians, sweep and sweep-ratio charts, that a sweep without single-table gets no ratio
#    chart but a warning, and that a file with a ratio column divides by the baseline it names
#    (the strategy without ratios);
# 4. checks that bad input (no csv variable, a missing file, a CSV without the needed columns,
#    an infinite or overflowing median, interval or scale, a zero or negative scale, an output
#    folder that is missing or cannot be written, a chart name taken by a folder) makes gnuplot
#    exit non-zero, its messages ending with one "plot.gnuplot: error:" line and holding nothing
#    else (no awk program, no gnuplot error), and leaves no PNG (and no .partial) behind.
# PNGs go to a temporary folder, removed at the end; nothing is written next to the CSV.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: bash Tests/plot-smoke.sh <results.csv>" >&2
  exit 2
fi
csv=$1
root="$(cd "$(dirname "$0")/.." && pwd)"
script="$root/plot.gnuplot"

command -v gnuplot >/dev/null || { echo "plot-smoke: gnuplot is not installed (apt-get install gnuplot-nox)" >&2; exit 1; }
[[ -r $csv ]] || { echo "plot-smoke: cannot read $csv" >&2; exit 1; }
gnuplot --version

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

fail() { echo "plot-smoke: FAIL: $*" >&2; exit 1; }

# a gnuplot single-quoted string literal ('' stands for ')
gq() { local s=${1//\'/\'\'}; printf "'%s'" "$s"; }

# run plot.gnuplot on $1 with PNGs into $2; its messages (stderr) into $tmp/log
plot() { gnuplot -e "csv=$(gq "$1"); out=$(gq "$2")" "$script" 2>"$tmp/log"; }

# a non-empty PNG with the PNG signature and the expected 1600x900 size (IHDR bytes 16-23)
check_png() {
  local f=$1
  [[ -s $f ]] || fail "$f missing or empty"
  [[ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" == 89504e470d0a1a0a ]] || fail "$f is not a PNG"
  local wh
  wh="$(od -An -tu1 -j16 -N8 "$f" | tr -s ' \n' ' ')"
  read -r w1 w2 w3 w4 h1 h2 h3 h4 <<<"$wh"
  local w=$(((w1 << 24) | (w2 << 16) | (w3 << 8) | w4)) h=$(((h1 << 24) | (h2 << 16) | (h3 << 8) | h4))
  [[ $w -eq 1600 && $h -eq 900 ]] || fail "$f is ${w}x${h}, expected 1600x900"
  echo "ok: $(basename "$f") ($(wc -c <"$f") bytes, ${w}x${h})"
}

# a non-empty PNG with the PNG signature, of any size (the ratio heatmap grows with the cases)
check_png_any() {
  local f=$1
  [[ -s $f ]] || fail "$f missing or empty"
  [[ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" == 89504e470d0a1a0a ]] || fail "$f is not a PNG"
  echo "ok: $(basename "$f") ($(wc -c <"$f") bytes)"
}

# --- 1. the given CSV ----------------------------------------------------------------------
mkdir "$tmp/given"
plot "$csv" "$tmp/given" || { cat "$tmp/log" >&2; fail "gnuplot failed on $csv"; }
cat "$tmp/log"
base="$(basename "$csv" .csv)"
check_png "$tmp/given/$base.medians.png"
# the answer's heatmap, whenever the file has the baseline's rows
if grep -q "wrote .*\.ratios\.png" "$tmp/log"; then check_png_any "$tmp/given/$base.ratios.png"; else [[ ! -e $tmp/given/$base.ratios.png ]] || fail "a ratios chart was written but not reported"; fi
for chart in scaling sweep sweep-ratio; do
  if grep -q "wrote .*\.$chart\.png" "$tmp/log"; then
    check_png "$tmp/given/$base.$chart.png"
  else
    [[ ! -e $tmp/given/$base.$chart.png ]] || fail "a $chart chart was written but not reported"
  fi
done

# --- 2. a made-up CSV: two scales, quoted fields with commas, quotes and a line break --------
# The columns are a subset of the real header, in another order: the script finds them by name.
mkdir "$tmp/made"
made="$tmp/made/made up.csv"
{
  printf 'run_id,cpu_model,scale,strategy,workload,variant,rows,median_ns,ci_low_ns,ci_high_ns,temp_dir\r\n'
  for scale in 1000 10000; do
    for s in single-table "enum,entity"; do
      q=$([[ $s == *,* ]] && echo "\"$s\"" || echo "$s")
      m=$((scale * 40)); [[ $s == single-table ]] || m=$((m * 2))
      printf 'r1,"CPU, ""fast""\r\nmodel",%d,%s,fetch-by-tag,popular,%d,%d,%d,%d,"/tmp/a,b"\r\n' \
        "$scale" "$q" $((scale / 3)) "$m" $((m * 9 / 10)) $((m * 12 / 10))
      printf 'r1,plain,%d,%s,count-all,,1,%d,%d,%d,/tmp\r\n' "$scale" "$q" 5000 4800 5600
    done
  done
} >"$made"
plot "$made" "$tmp/made" || { cat "$tmp/log" >&2; fail "gnuplot failed on the made-up CSV"; }
cat "$tmp/log"
grep -q "warning" "$tmp/log" && fail "unexpected warning on the made-up CSV"
check_png "$tmp/made/made up.medians.png"
check_png "$tmp/made/made up.scaling.png"
check_png_any "$tmp/made/made up.ratios.png"
for chart in sweep sweep-ratio; do
  [[ ! -e "$tmp/made/made up.$chart.png" ]] || fail "a $chart chart was written for a file that is not a sweep"
done

# --- 3. made-up sweeps: schema 3 columns, one row per (value, strategy, workload) -----------
# sweep_csv <file> <parameter> <values> <strategies...>: every strategy at every value, for
# fetch-by-tag/popular (awkward fields) and count-all; times grow with the value.
sweep_csv() {
  local file=$1 param=$2 values=$3 v s q i m
  shift 3
  {
    printf 'run_id,cpu_model,scale,hierarchy,sweep_parameter,sweep_value,strategy,workload,variant,rows,median_ns,ci_low_ns,ci_high_ns,temp_dir\r\n'
    i=0
    for v in $values; do
      i=$((i + 1))
      for s in "$@"; do
        q=$([[ $s == *,* ]] && echo "\"$s\"" || echo "$s")
        m=$((40000 * i)); [[ $s == single-table ]] || m=$((m * (i + 1)))
        printf 'r1,"CPU, ""fast""\r\nmodel",20000,synthetic,%s,%s,%s,fetch-by-tag,popular,%d,%d,%d,%d,"/tmp/a,b"\r\n' \
          "$param" "$v" "$q" $((100 * i)) "$m" $((m * 9 / 10)) $((m * 12 / 10))
        printf 'r1,plain,20000,synthetic,%s,%s,%s,count-all,,1,%d,%d,%d,/tmp\r\n' "$param" "$v" "$q" $((5000 + i)) 4800 5600
      done
    done
  } >"$file"
}
mkdir "$tmp/sweep"
sweep_csv "$tmp/sweep/attr sweep.csv" attributes "1 4 16" single-table "enum,entity"
sweep_csv "$tmp/sweep/skew sweep.csv" skew "0 0.5 2" single-table "enum,entity"
for name in "attr sweep" "skew sweep"; do
  plot "$tmp/sweep/$name.csv" "$tmp/sweep" || { cat "$tmp/log" >&2; fail "gnuplot failed on $name.csv"; }
  cat "$tmp/log"
  grep -q "warning" "$tmp/log" && fail "unexpected warning on $name.csv"
  check_png "$tmp/sweep/$name.medians.png"
  check_png "$tmp/sweep/$name.sweep.png"
  check_png "$tmp/sweep/$name.sweep-ratio.png"
  [[ ! -e "$tmp/sweep/$name.scaling.png" ]] || fail "a scaling chart was written for $name.csv"
done
sweep_csv "$tmp/sweep/no single.csv" attributes "1 4 16" "enum,entity" joined
plot "$tmp/sweep/no single.csv" "$tmp/sweep" || { cat "$tmp/log" >&2; fail "gnuplot failed on no single.csv"; }
cat "$tmp/log"
grep -q "warning: no rows of the baseline strategy" "$tmp/log" || fail "no warning about the missing single-table rows"
check_png "$tmp/sweep/no single.sweep.png"
[[ ! -e "$tmp/sweep/no single.sweep-ratio.png" ]] || fail "a ratio chart was written without single-table rows"
[[ ! -e "$tmp/sweep/no single.ratios.png" ]] || fail "a ratios heatmap was written without single-table rows"
# A file with a ratio column names its own baseline: the strategy whose rows have no ratio.
{
  printf 'scale,sweep_parameter,sweep_value,strategy,workload,variant,median_ns,ci_low_ns,ci_high_ns,ratio\n'
  for v in 1 4 16; do
    printf '20000,attributes,%s,joined,count-all,,%d,%d,%d,\n' "$v" $((5000 * v)) $((4500 * v)) $((5500 * v))
    printf '20000,attributes,%s,"enum,entity",count-all,,%d,%d,%d,2.00\n' "$v" $((10000 * v)) $((9000 * v)) $((11000 * v))
  done
} >"$tmp/sweep/own baseline.csv"
plot "$tmp/sweep/own baseline.csv" "$tmp/sweep" || { cat "$tmp/log" >&2; fail "gnuplot failed on own baseline.csv"; }
cat "$tmp/log"
grep -q "warning" "$tmp/log" && fail "unexpected warning on own baseline.csv"
check_png "$tmp/sweep/own baseline.sweep-ratio.png"
check_png_any "$tmp/sweep/own baseline.ratios.png"

# --- 4. bad input: non-zero exit and one clear error line ----------------------------------
# expect_error <description> <gnuplot -e text> [<folder that must hold no PNG> [<PNGs allowed there>]]
expect_error() {
  local rc=0 pngs
  gnuplot -e "$2" "$script" 2>"$tmp/log" || rc=$?
  [[ $rc -ne 0 ]] || { cat "$tmp/log" >&2; fail "$1: gnuplot exited 0"; }
  [[ "$(grep -c '^plot.gnuplot: error:' "$tmp/log")" -eq 1 ]] || { cat "$tmp/log" >&2; fail "$1: not exactly one 'plot.gnuplot: error:' line"; }
  tail -n 1 "$tmp/log" | grep -q '^plot.gnuplot: error:' || { cat "$tmp/log" >&2; fail "$1: the error is not the last line"; }
  if grep -qv '^plot.gnuplot: ' "$tmp/log"; then cat "$tmp/log" >&2; fail "$1: lines other than plot.gnuplot's own (an awk program or a gnuplot error)"; fi
  if [[ -n ${3:-} ]]; then
    pngs="$(cd "$3" && find . -type f \( -name '*.png' -o -name '*.partial' \) | sed 's|^\./||' | sort | tr '\n' ' ')"
    [[ "$pngs" == "${4:-}" ]] || fail "$1: charts left in $3: '$pngs' (expected '${4:-}')"
  fi
  echo "ok: $1 -> exit $rc: $(grep '^plot.gnuplot: error:' "$tmp/log")"
}
expect_error "no csv variable" "out=$(gq "$tmp")"
expect_error "missing file" "csv=$(gq "$tmp/does-not-exist.csv")"
printf 'a,b\n1,2\n' >"$tmp/other.csv"
expect_error "not a results CSV" "csv=$(gq "$tmp/other.csv")"

# bad_csv <file> <scale> <median_ns> <ci_low_ns> <ci_high_ns>: two scales, so that the scaling
# chart would be drawn too; the second data line (line 3) holds the values given.
bad_csv() {
  {
    printf 'strategy,workload,variant,scale,median_ns,ci_low_ns,ci_high_ns\n'
    printf 'single-table,count-all,,1000,5000,4800,5600\n'
    printf 'single-table,count-all,,%s,%s,%s,%s\n' "$2" "$3" "$4" "$5"
    printf '"enum,entity",count-all,,1000,6000,5800,6600\n'
  } >"$1"
}
mkdir "$tmp/bad"
for spec in "infinite median:10000 1e999 4800 5600" "overflowing median:10000 1e300 4800 1e300" \
            "infinite interval:10000 5000 4800 1e999" "infinite scale:1e999 5000 4800 5600" \
            "zero scale:0 5000 4800 5600" "negative scale:-10000 5000 4800 5600"; do
  name=${spec%%:*}
  read -r s m l h <<<"${spec#*:}"
  bad_csv "$tmp/bad/$name.csv" "$s" "$m" "$l" "$h"
  expect_error "$name" "csv=$(gq "$tmp/bad/$name.csv")" "$tmp/bad"
  grep -q "line 3: " "$tmp/log" || fail "$name: the error does not name line 3"
done
# the output folder: missing, not a folder, not writable (/proc refuses new files, even to root)
bad_csv "$tmp/bad/fine.csv" 10000 5000 4800 5600
expect_error "missing out folder" "csv=$(gq "$tmp/bad/fine.csv"); out=$(gq "$tmp/bad/nowhere")" "$tmp/bad"
expect_error "out is a file" "csv=$(gq "$tmp/bad/fine.csv"); out=$(gq "$tmp/bad/fine.csv")" "$tmp/bad"
if [[ -d /proc/self ]]; then
  expect_error "out not writable" "csv=$(gq "$tmp/bad/fine.csv"); out='/proc'" "$tmp/bad"
fi
chmod a-w "$tmp/bad"
if ! ( : >"$tmp/bad/.probe" ) 2>/dev/null; then   # not root: a read-only folder refuses files
  expect_error "read-only out" "csv=$(gq "$tmp/bad/fine.csv")" "$tmp/bad"
fi
chmod u+w "$tmp/bad"; rm -f "$tmp/bad/.probe"
# a chart name taken by a folder: the medians chart is written, the scaling chart is not, and
# no partial file is left
mkdir "$tmp/bad/fine.scaling.png"
expect_error "chart name taken by a folder" "csv=$(gq "$tmp/bad/fine.csv")" "$tmp/bad" "fine.medians.png "
rmdir "$tmp/bad/fine.scaling.png"

echo "plot-smoke: all checks passed"
