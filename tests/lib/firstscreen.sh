#!/bin/bash
# firstscreen.sh NAME STAGE EXDIR RESULTS LOG - what check-stageN shows a student while exercises are unfinished.
#
# tests/lib/runtests.sh calls it after a run of the student's build
# (--exercises), the full report already in LOG.  A skeleton fails dozens
# of tests, and their reports, one after another, hid the list of what to
# do at their very end; so the screen opens with that list instead:
# the exercises not started or failing, in the chapter's order (the order
# of EXDIR/stageN/hints.txt), each with its FILE:LINE, the command of its
# next hint level, and what failed: its first failed test, and under it
# the first line of that test's message, wrapped on at most two lines.
# With one exercise left, the full reports of that exercise's failed tests
# follow (the failures a student works on then); with three failed tests
# or fewer, all of them.  The first line says where every report is.
#
# Which exercise a failed test blames is tests/lib/progress.sh's rule
# (tests/grade/points.tsv says which exercises each test depends on), read
# from RESULTS/results.tsv: nothing is built or run again.
#
# Exit status: 0 the screen is printed; 1 no exercise is unfinished (every
# failure is then of the given code, and the caller shows the full report).
set -u
name=$1 n=$2 exdir=$3 res=$4 log=$5
exparent=$(dirname "$exdir")
state=${HINT_STATE:-build/hints}
rows=$(tests/lib/progress.sh --stages "$n" --exercises "$exparent" --results "$res" --tsv 2>/dev/null) || exit 1
todo=$(awk -F'\t' '$3 != "done" && $2 !~ /^\(/' <<<"$rows")
[ -n "$todo" ] || exit 1
ntodo=$(wc -l <<<"$todo")
nall=$(awk -F'\t' '$2 !~ /^\(/' <<<"$rows" | wc -l)
hints=$exdir/hints.txt

# next_level EXERCISE - the level make hint-stageN EX=EXERCISE shows next (tests/lib/hint.sh keeps the last).
next_level() {
	local last max
	last=$(cat "$state/stage$n/$1" 2>/dev/null || echo 0)
	max=$(awk -v hints_show="$hints" -v name="$1" -v level=1 -f code/tools/hints.awk 2>/dev/null | head -n 1)
	case $last in '' | *[!0-9]*) last=0 ;; esac
	[ "$last" -lt "${max:-3}" ] && echo $((last + 1)) || echo "${max:-3}"
}

# failed_of EXERCISE - the failed results.tsv rows of the tests that depend on it, in the order they ran.
failed_of() {
	awk -F'\t' -v n="$n" -v e="$1" '
		FILENAME ~ /points/ { if ($1 == n && index("," $3 ",", "," e ",")) DEP[$2] = 1; next }
		$4 != "pass" && (($2 ":" $3) in DEP)' tests/grade/points.tsv "$res/results.tsv"
}

# block ROW - one failed test's full report, as runtests.sh prints it.
block() {
	local suite id where msg out
	IFS=$'\t' read -r _ suite id _ where msg out <<<"$1"
	echo "$where: FAIL $id ($suite):"
	sed 's/^/    /' "$msg" 2>/dev/null
	awk -F'\t' -v n="$n" -v k="$suite:$id" '$1 == n && $2 == k && $3 != "-" {
		m = split($3, d, ","); printf "  next hint: make hint-stage%s EX=%s", n, d[1]
		for (i = 2; i <= m; i++) printf "%s EX=%s", i == 2 ? " (it tests these too:" : ",", d[i]
		print (m > 1 ? ")" : "") }' tests/grade/points.tsv
	if [ -s "$out" ]; then
		echo "  what it printed (the last 30 lines; all in $out):"
		tail -n 30 "$out" | sed 's/^/    | /'
	fi
}

# wrap TEXT - TEXT indented under its test, cut with "..." only past WRAP_LINES lines:
# 4 lines an exercise keeps the first screen of seven within its 40 (check-first-screen).
WRAP_WIDTH=114 WRAP_LINES=2
wrap() {
	local text=$1 max=$((WRAP_WIDTH * WRAP_LINES)) lines
	[ "${#1}" -le "$max" ] || text="${1:0:$((max - 3 * WRAP_LINES))}"
	lines=$(fold -s -w "$WRAP_WIDTH" <<<"$text" | sed 's/ *$//')
	if [ "$(wc -l <<<"$lines")" -gt "$WRAP_LINES" ] || [ "$text" != "$1" ]; then
		lines="$(head -n "$WRAP_LINES" <<<"$lines")..."
	fi
	sed 's/^/         /' <<<"$lines"
}

shown=${log#"$PWD/"}
if [ "$ntodo" = 1 ]; then
	echo "$name: one exercise left; its failed tests in full below (every report: $shown):"
else
	echo "$name: $ntodo of $nall exercises to do, in this order (every report in full: $shown):"
fi
k=0
while IFS=$'\t' read -r _ ex status detail where; do
	k=$((k + 1))
	lv=$(next_level "$ex")
	echo "  $k. $ex  $where  $status  (hint: make hint-stage$n EX=$ex, level $lv)"
	failed=$(failed_of "$ex")
	if [ -z "$failed" ]; then
		echo "       no test of it ran: $detail"
		continue
	fi
	# The failure to show: the one progress.sh blames a failing exercise
	# for; for one not started, the first whose message names its stub,
	# so the line says what this exercise is missing, not another's.
	first=
	if [[ $detail == *", first "* ]]; then
		t=${detail##*, first }; t=${t%% *}
		first=$(awk -F'\t' -v t="$t" '($2 ":" $3) == t' <<<"$failed" | head -n 1)
	fi
	line=
	if [ -z "$first" ]; then
		# Its stub in a message, else in what a test printed (a test stops
		# at the first stub it meets, often another exercise's).  One grep
		# over all the files: a fork per test is seconds on a busy machine.
		# shellcheck disable=SC2046 # file names without spaces
		hit=$(grep -lF "TODO($ex)" $(cut -f6 <<<"$failed") 2>/dev/null | head -n 1)
		[ -z "$hit" ] || first=$(awk -F'\t' -v f="$hit" '$6 == f' <<<"$failed" | head -n 1)
		if [ -z "$first" ]; then
			# shellcheck disable=SC2046
			hit=$(grep -lF "TODO($ex): not done yet" $(cut -f7 <<<"$failed") 2>/dev/null | head -n 1)
			[ -z "$hit" ] || { first=$(awk -F'\t' -v f="$hit" '$7 == f' <<<"$failed" | head -n 1)
					   line=$(grep -m 1 -F "TODO($ex): not done yet" "$hit"); }
		fi
	fi
	[ -n "$first" ] || first=$(head -n 1 <<<"$failed")
	IFS=$'\t' read -r _ suite id _ twhere msg _ <<<"$first"
	# An explorer's failure without its harness's claim: what went wrong, and when.
	[ -n "$line" ] || line=$(grep -m 1 . "$msg" 2>/dev/null | sed 's/^exercise not done yet: //; s/^ksim ran an unfinished exercise: //
		s/^harness \([^ ]*\) (.*): \([^:]*, on schedule [0-9]*\.\)$/harness \1: \2/')
	# Its own stub's text: the exercise is named on the line above.
	line=${line/#"TODO($ex): not done yet - "/not done yet: }
	# Another's (the one this exercise's tests reach first): its name and text.
	line=$(sed -E 's/^TODO\(([A-Za-z0-9_]+)\): not done yet - /TODO(\1): /' <<<"$line")
	# Where the test is, unless that is the explorer's shared code.
	case $twhere in tests/lib/*) twhere= ;; esac
	nf=$(wc -l <<<"$failed")
	echo "       $nf test$([ "$nf" = 1 ] || echo s) failed, first $id${twhere:+ ($twhere)}:"
	# Its reason under it, whole: at most WRAP_LINES lines of WRAP_WIDTH,
	# broken at spaces, so a stub's TODO text reaches the student in full.
	wrap "$line"
	if [ "$ntodo" = 1 ]; then
		while IFS= read -r r; do block "$r"; done <<<"$failed"
	fi
done <<<"$todo"
awk -F'\t' '$2 ~ /^\(/ { print "  and " $4 }' <<<"$rows"
# A few failures in all (a race the explorer found, one slip): each in full.
all=$(awk -F'\t' '$4 != "pass"' "$res/results.tsv")
if [ "$ntodo" -gt 1 ] && [ -n "$all" ] && [ "$(wc -l <<<"$all")" -le 3 ]; then
	while IFS= read -r r; do block "$r"; done <<<"$all"
fi
exit 0
