#!/bin/bash
# checkrun.sh DIR TARGET... - make check's runner: the targets side by side, their reports one after another.
#
# 1. One make builds every file the targets depend on (their prerequisites,
#    read from make's own database), so no two of the runs below ever
#    build the same file at once.  A phony prerequisite (book, whose recipe
#    is a make of its own) is left to its target: run here it would build
#    the same files as this make, at the same time.
# 2. The targets run, at most JOBS at once: make -jN check's N, else
#    $CHECK_JOBS, else one per CPU (CHECK_JOBS=1: one at a time).  Nothing
#    depends on the machine's pace under that load: memcheck runs under the controlled scheduler, ThreadSanitizer leaves
#    the explorer's forked workers alone (Makefile, SAN_SKIP), and what
#    runs free (helgrind, drd, the stress tests) waits on delay points, not
#    on luck.  Those listed in $CHECK_FIRST start first (the long ones: the
#    others fill the CPUs around them).  Each one's output goes to
#    DIR/TARGET.log and its exit status to DIR/TARGET.rc, which
#    code/tools/tally.sh reads; its times to DIR/times.tsv.
# 3. Each report is printed whole, in the order the targets were given,
#    as soon as it and the ones before it are done: never two interleaved.
#
# $MAKE is the make to run (the Makefile passes its own).  Exits 1 if a
# target failed or the build did, 0 otherwise; the tally line is the
# caller's (code/tools/tally.sh).
set -u
dir=$1; shift
targets=("$@")
make=${MAKE:-make}
mkdir -p "$dir"

case " ${MAKEFLAGS:-} " in
*" -j"[0-9]*) jobs=$(sed -E 's/.* -j([0-9]+).*/\1/' <<<" $MAKEFLAGS ") ;;
*) jobs=${CHECK_JOBS:-$(nproc 2>/dev/null || echo 1)} ;;
esac
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
# Under make -jN the sub-makes share its job slots; otherwise the build gets its own.
case " ${MAKEFLAGS:-} " in *" --jobserver"*) jflag= ;; *) jflag=-j$jobs ;; esac

# ---- 1. the build
start=$EPOCHREALTIME
# make -q still runs every recipe line that names $(MAKE), so the
# sub-makes (SAN=address ...) would print their own databases first, with
# their own BUILD: MAKE=true turns those lines into no-ops.  A target's
# variable lines (check-san-address: .SHELLSTATUS := 0) are not its rule.
prereqs=$($make -pq MAKE=true "${targets[@]}" 2>/dev/null | awk -v list="${targets[*]}" '
	BEGIN { n = split(list, t, " "); for (i = 1; i <= n; i++) want[t[i] ":"] = 1 }
	/^# Files/ { files = 1 }
	files && ($1 in want) && !/^[^:]*: [^ ]+ [:+?!]?= / {
		sub(/^[^:]*:/, ""); sub(/\|.*/, ""); print; delete want[$1] }' |
	tr ' ' '\n' | grep / | sort -u)
# shellcheck disable=SC2086 # prereqs: file names, words; jflag: empty or one word
$make --no-print-directory -k $jflag $prereqs >"$dir/build.log" 2>&1
brc=$?
echo $brc >"$dir/build.rc"
btime=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
if [ $brc = 0 ]; then
	echo "== build: everything the checks need, $btime s (its output: ${CHECK_SHOWN_DIR:-$dir}/build.log)"
else
	cat "$dir/build.log"
	echo "== build FAILED (exit $brc, $btime s): the checks that need what did not build fail below"
fi

# ---- 2. the runs
order=()
for t in ${CHECK_FIRST:-}; do
	for u in "${targets[@]}"; do [ "$u" = "$t" ] && order+=("$t"); done
done
for t in "${targets[@]}"; do
	case " ${order[*]} " in *" $t "*) ;; *) order+=("$t") ;; esac
done
printf 'target\treal\tuser\tsys\n' >"$dir/times.tsv"
fail=0 shown=0 running=0

# flush - print the reports of the targets done so far, in the given order.
flush() {
	local t rc
	while [ "$shown" -lt ${#targets[@]} ]; do
		t=${targets[$shown]}
		[ -f "$dir/$t.rc" ] || break
		rc=$(cat "$dir/$t.rc")
		echo "== $t"
		cat "$dir/$t.log"
		[ "$rc" = 0 ] || { fail=1; echo "== $t FAILED"; }
		shown=$((shown + 1))
	done
}

for t in "${order[@]}"; do
	while [ "$running" -ge "$jobs" ]; do
		wait -n
		running=$((running - 1))
		flush
	done
	rm -f "$dir/$t.rc"
	(
		TIMEFORMAT="$t	%R	%U	%S"
		{ time $make --no-print-directory "$t" >"$dir/$t.log" 2>&1; echo $? >"$dir/$t.rc.new"; } 2>>"$dir/times.tsv"
		mv "$dir/$t.rc.new" "$dir/$t.rc"
	) &
	running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
	wait -n
	running=$((running - 1))
	flush
done
[ $brc = 0 ] || fail=1
exit $fail
