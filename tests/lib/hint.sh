#!/bin/bash
# hint.sh STAGE [EXERCISE] [LEVEL] - the next hint for an exercise (make hint-stageN [EX=name] [LEVEL=n]).
#
# Without EXERCISE: the first exercise of the stage, in the chapter's order,
# that is not started or failing (tests/lib/progress.sh says which).  Each
# call shows one level more than the last call showed for that exercise,
# up to the last (3): the idea, then which function and why, then the shape
# of the code.  LEVEL shows that level and starts counting from it again
# (LEVEL=1 starts over).  What was shown is kept per exercise in
# STATE/stageN/EXERCISE (STATE: $HINT_STATE, default build/hints; make
# clean forgets it).  Hints are read from exercises/stageN/hints.txt.
# Exit status 0; 2 for a stage, an exercise or a level that does not exist.
set -u
n=${1:-} ex=${2:-} level=${3:-}
state=${HINT_STATE:-build/hints}
hints=exercises/stage$n/hints.txt
[ -f "$hints" ] || { echo "hint-stage$n: no $hints (stage '$n' does not exist, or git checkout $hints)" >&2; exit 2; }
names=$(awk -v hints_list="$hints" -f code/tools/hints.awk) || exit 2
if [ -z "$ex" ]; then
	row=$(tests/lib/progress.sh --stages "$n" --tsv | awk -F'\t' '$3 != "done" && $2 !~ /^\(/ { print; exit }')
	if [ -z "$row" ]; then
		echo "hint-stage$n: every exercise of stage $n passes its tests (make check-stage$n runs them all)."
		echo "A hint anyway: make hint-stage$n EX=name, one of: $(echo $names)"
		exit 0
	fi
	IFS=$'\t' read -r _ ex status detail where <<<"$row"
else
	grep -qx "$ex" <<<"$names" || {
		echo "hint-stage$n: stage $n has no exercise '$ex'; its exercises: $(echo $names)" >&2; exit 2; }
	status= detail= where=
fi
mkdir -p "$state/stage$n"
last=$(cat "$state/stage$n/$ex" 2>/dev/null || echo 0)
max=$(awk -v hints_show="$hints" -v name="$ex" -v level=1 -f code/tools/hints.awk | head -n 1)
if [ -n "$level" ]; then
	case $level in *[!0-9]*) level=0 ;; esac
	[ "$level" -ge 1 ] && [ "$level" -le "$max" ] ||
		{ echo "hint-stage$n: '$ex' has levels 1 to $max, no level '$3'" >&2; exit 2; }
else
	level=$((last + 1))
	[ "$level" -le "$max" ] || level=$max	# past the last: the last again
fi
out=$(awk -v hints_show="$hints" -v name="$ex" -v level="$level" -f code/tools/hints.awk) || exit 2
echo "$level" >"$state/stage$n/$ex"
echo "hint-stage$n: $ex${where:+ ($where)}${status:+, $status${detail:+: $detail}}"
echo "Level $level of $max:"
tail -n +2 <<<"$out" | fold -s -w 76 | sed 's/ *$//; s/^/  /'
if [ "$level" -lt "$max" ]; then
	echo "(make hint-stage$n${2:+ EX=$ex} again for level $((level + 1)); LEVEL=1 starts over)"
else
	echo "(that was the last level: the chapter and the tests' messages say the rest; LEVEL=1 starts over)"
fi
