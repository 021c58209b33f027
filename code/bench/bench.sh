#!/bin/bash
# bench.sh PART... - run the parts of `make bench`, merge their rows, print the table, draw the plots.
#
# Each PART prints tab-separated rows (code/bench/bench.h): "pair" rows with
# the median ns per get+put pair and the median ratio to the bare atomic
# pair measured in the same process and repetition, "drain" rows, "size"
# rows.  This script adds the schedule explorer's rate ($EXPLORE), prints
# one table, writes the data to $BENCH_DIR/*.dat and the table to
# figures/bench-table.txt, and draws figures/bench-*.svg with gnuplot.
# BENCH_REPS (default 5) repetitions; BENCH_MS (default 10) ms per timed loop.
set -u
dir=${BENCH_DIR:-build/bench}
mkdir -p "$dir"
rows=$dir/rows.tsv
: > "$rows"
start=$(date +%s)

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
ncpu=$(nproc)
load=$(cut -d' ' -f1 /proc/loadavg)
reps=${BENCH_REPS:-5}
machine="$cpu, $ncpu CPUs, load $load at the start, $(date +%Y-%m-%d)"

for part in "$@"; do
	echo "  RUN     $part" >&2
	"$part" >> "$rows" || { echo "bench: $part failed (exit $?)" >&2; exit 1; }
done

# The schedule explorer: schedules per second of a real harness (each in a forked process).
if [ -n "${EXPLORE:-}" ]; then
	echo "  RUN     $EXPLORE" >&2
	for i in 1 2 3; do
		"$EXPLORE" --explore --harness get-vs-deactivate --sched pct:3 --seed $i --runs 300 2>&1 |
			sed -n 's/.*(\([0-9.]*\)\/s).*/\1/p'
	done | sort -n | sed -n 2p | awk '{ printf "explore\tget-vs-deactivate\t%s\n", $1 }' >> "$rows"
fi

table=$dir/table.txt
awk -F'\t' -v machine="$machine" -v reps="$reps" -v dir="$dir" '
# The names the plots give the cases.
function label(c) {
	if (c == "floor") return "bare atomic"
	if (c == "atomic_t") return "atomic_t"
	if (c == "kref") return "kref"
	if (c == "module") return "module ref"
	if (c == "percpu_ref") return "percpu_ref"
	if (c == "percpu_ref_live") return "percpu_ref tryget_live"
	if (c == "stage3_active" || c == "stage3") return "stage 3 (rwsem)"
	if (c == "stage3_op") return "stage 3 get_active_two"
	if (c == "stage4_active" || c == "stage4") return "stage 4 (bias)"
	if (c == "stage4_op") return "stage 4 operation"
	return c
}
function dlabel(c) { return c == "percpu_ref" ? "percpu_ref kill" : label(c) }
function r(c, k) { return (c SUBSEP k) in ratio ? sprintf("%6.2fx", ratio[c, k]) : "      -" }
function n(c, k) { return (c SUBSEP k) in ns ? sprintf("%8.1f", ns[c, k]) : "       -" }
$1 == "pair" {
	# The floor of the kernel part is the table'"'"'s; the stages measure their own for their ratios.
	if ($2 == "floor" && (("floor" SUBSEP $3) in ns)) next
	ns[$2, $3] = $4; ratio[$2, $3] = $5; what[$2] = $6
	if (!($2 in seen)) { seen[$2] = 1; order[++norder] = $2 }
}
$1 == "event" { event[$2] = $4; what[$2] = $5 }
$1 == "drain" { drain[$2, $3] = $4; if (!($2 in dseen)) { dseen[$2] = 1; dorder[++nd] = $2 }; ks[$3] = 1 }
$1 == "size" { size[++ns_] = sprintf("%-22s %4d bytes  %s", $2, $3, $4) }
$1 == "explore" { explore = $3 }
END {
	printf "make bench: %s\n", machine
	printf "median of %d repetitions; ratios to the bare atomic pair measured in the same run\n", reps
	printf "(same process, same repetition, same threads); times are CPU time per get+put pair;\n"
	printf "lockdep off, as in a production kernel, except in the rows that say it is on\n\n"
	printf "%-21s %17s %17s %17s %7s\n", "get+put pair", "1 thread", "2 thr, same node", "2 thr, diff nodes", "diff/1"
	printf "%-21s %17s %17s %17s %7s\n", "", "ns    ratio", "ns    ratio", "ns    ratio", ""
	for (i = 1; i <= norder; i++) {
		c = order[i]
		sc = ((c SUBSEP "diff") in ns) && ns[c, "1"] > 0 ? sprintf("%6.2fx", ns[c, "diff"] / ns[c, "1"]) : "      -"
		printf "%-21s %s %s %s %s %s %s %s\n", c, n(c, "1"), r(c, "1"), n(c, "same"), r(c, "same"), n(c, "diff"), r(c, "diff"), sc
	}
	printf "\n"
	for (i = 1; i <= norder; i++) printf "  %-21s %s\n", order[i], what[order[i]]
	printf "\n"
	if ("trace_on" in event) printf "one trace event, tracing on: %.1f ns (buffered)\n", event["trace_on"]
	if ((("stage4_active" SUBSEP "1") in ratio) && (("stage4notrace_active" SUBSEP "1") in ratio))
		printf "stage 4 pair, tracing compiled in but off vs compiled out: %+.1f%%\n",
		       (ratio["stage4_active", "1"] / ratio["stage4notrace_active", "1"] - 1) * 100
	if (explore != "") printf "schedule explorer (stage 4, get-vs-deactivate, pct:3): %s schedules/s\n", explore
	printf "\ndrain: from the deletion'"'"'s start to its return, K tasks operating on the node all along (us, median)\n"
	printf "%-12s", "K"
	nk = 0; for (k in ks) kk[++nk] = k + 0
	for (i = 1; i <= nk; i++) for (j = i + 1; j <= nk; j++) if (kk[j] < kk[i]) { t = kk[i]; kk[i] = kk[j]; kk[j] = t }
	for (i = 1; i <= nk; i++) printf " %9d", kk[i]
	printf "\n"
	for (d = 1; d <= nd; d++) {
		printf "%-12s", dorder[d]
		for (i = 1; i <= nk; i++) printf " %9.1f", drain[dorder[d], kk[i]] / 1000
		printf "\n"
	}
	printf "\nsizes (ours carry a 96-byte trace name the kernel has not):\n"
	for (i = 1; i <= ns_; i++) print "  " size[i]

	# Data for the plots.
	pd = dir "/pairs.dat"
	printf "# case 1-thread same-node diff-nodes (ratio to the bare atomic pair)\n" > pd
	for (i = 1; i <= norder; i++) {
		c = order[i]
		if (c ~ /traced|notrace|sched_point|trace_off|lockdep/) continue
		printf "\"%s\" %.3f %.3f %.3f\n", label(c), ratio[c, "1"], ratio[c, "same"], ratio[c, "diff"] > pd
	}
	dd = dir "/drain.dat"
	printf "# microseconds\n\"K\"" > dd
	for (d = 1; d <= nd; d++) printf " \"%s\"", dlabel(dorder[d]) > dd
	printf "\n" > dd
	for (i = 1; i <= nk; i++) {
		printf "%d", kk[i] > dd
		for (d = 1; d <= nd; d++) printf " %.1f", drain[dorder[d], kk[i]] / 1000 > dd
		printf "\n" > dd
	}
}' "$rows" > "$table" || exit 1
cat "$table"

# The bars of issue 18, said plainly; a shared machine can miss one by noise, so they do not fail the run.
awk -F'\t' '$1 == "pair" { r[$2, $3] = $5; ns[$2, $3] = $4 } $1 == "event" { e[$2] = $4 }
function bar(name, v, limit, unit) { printf "bar: %-52s %7.2f%s (at most %s%s) %s\n", name, v, unit, limit, unit, v <= limit ? "met" : "NOT MET" }
END {
	print ""
	bar("stage 4 get+put / bare atomic pair, 1 thread", r["stage4_active", "1"], 1.5, "x")
	bar("stage 4, 2 threads on different nodes / 1 thread", ns["stage4_active", "diff"] / ns["stage4_active", "1"], 1.5, "x")
	bar("stage 4, tracing compiled in but off", (r["stage4_active", "1"] / r["stage4notrace_active", "1"] - 1) * 100, 3, "%")
	bar("one trace event with tracing on", e["trace_on"], 100, " ns")
}' "$rows" | tee -a "$table"

cp "$table" figures/bench-table.txt
if command -v gnuplot >/dev/null; then
	gnuplot -e "machine='$machine'; pairs='$dir/pairs.dat'; drain='$dir/drain.dat'" code/bench/plots.gp ||
		{ echo "bench: gnuplot failed" >&2; exit 1; }
	echo "  PLOT    figures/bench-pairs.svg figures/bench-drain.svg" >&2
else
	echo "bench: gnuplot is missing (make bench installs gnuplot-nox)" >&2
	exit 1
fi
echo "bench: $(( $(date +%s) - start )) s; the table is in figures/bench-table.txt, the data in $dir/"
