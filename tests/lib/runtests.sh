#!/bin/bash
# runtests.sh NAME [--exercises DIR] [--scenarios TSV] BINARY... - run Check suites and scenario tables.
#
# Every suite runs even if an earlier one failed; a suite that dies as a
# whole (a crash outside a test, a missing binary) counts as one failure.
# The last line is "NAME: N passed, M failed", the line CI reads.
set -u
name=$1; shift
exdir= tsvs=()
while [ $# -gt 0 ]; do
	case $1 in
	--exercises) exdir=$2; shift 2 ;;
	--scenarios) tsvs+=("$2"); shift 2 ;;
	*) break ;;
	esac
done
passed=0 failed=0
export CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-20}

# The suites and tables spend most of their time asleep (delay points, a
# scenario's sleep, the watchdog's limit), so they run side by side, at
# most RUNTESTS_JOBS at once (default 3); their reports are printed
# afterwards, in the order given, so the output reads the same.
jobs=${RUNTESTS_JOBS:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/runtests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
i=0
for t in "$@"; do
	i=$((i + 1))
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	( "$t" > "$tmp/$i.out" 2>&1; echo $? > "$tmp/$i.rc" ) &
done
for tsv in "${tsvs[@]}"; do
	i=$((i + 1))
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	( tests/lib/scenarios.sh "$tsv" > "$tmp/$i.out" 2>&1; echo $? > "$tmp/$i.rc" ) &
done
wait

i=0
for t in "$@"; do
	i=$((i + 1))
	out=$(cat "$tmp/$i.out"); rc=$(cat "$tmp/$i.rc")
	line=$(printf '%s\n' "$out" | grep -E '^[0-9]+%: Checks: ' | tail -n 1)
	if [ -n "$line" ]; then
		n=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$line")
		f=$(sed -E 's/.*Failures: ([0-9]+), Errors: ([0-9]+).*/\1+\2/' <<<"$line")
		f=$((f))
		passed=$((passed + n - f)); failed=$((failed + f))
	else
		failed=$((failed + 1))
	fi
	if [ $rc -ne 0 ]; then
		printf '%s\n' "$out" | grep -vE '^(Running suite|[0-9]+%: Checks)' | sed "s|^|  $(basename "$t"): |"
		[ -n "$line" ] || echo "  $(basename "$t"): the suite itself failed (exit $rc)"
	fi
	echo "$(basename "$t"): ${line:-no result}"
done
for tsv in "${tsvs[@]}"; do
	i=$((i + 1))
	out=$(cat "$tmp/$i.out")
	printf '%s\n' "$out" | grep -v '^ok ' | grep -v '^scenarios:'
	n=$(grep -c '^ok ' <<<"$out"); f=$(grep -c '^FAIL ' <<<"$out")
	passed=$((passed + n)); failed=$((failed + f))
	echo "$(basename "$tsv"): $n scenarios passed, $f failed"
done
if [ $failed -gt 0 ] && [ -n "$exdir" ] && [ -d "$exdir" ]; then
	todo=$(grep -rhoE 'TODO\("[^"]+", "[^"]*"\)' "$exdir" | sed -E 's/TODO\("([^"]+)", "([^"]*)"\)/  \1: \2/' | sort -u)
	if [ -n "$todo" ]; then
		echo "Exercises still to do in $exdir (each is a TODO stub):"
		echo "$todo"
	fi
fi
echo "$name: $passed passed, $failed failed"
[ $failed -eq 0 ]
