#!/bin/bash
# check-stages.sh WORK - every part that walks stages reads code/tools/stages.sh (make check-stages).
#
#  1. No script, makefile or workflow writes a list of stages itself: no
#     "1 2 3" (a run of numbers from 1, as in "for n in 1 2 3 4"), no
#     "1-4" or "{1..4}" range (a character class, [1-9], is a digit), in the Makefile, */*.mk, the scripts, the
#     Gradescope runner and CI's files, but on the lines ALLOW below says
#     why.  A list written down falls behind when a stage lands (issue:
#     stage 5 joined make check but not the grader, the tour or progress).
#  2. In a copy of the tracked tree (WORK/tree) with a throw-away stage
#     (code/stageM/BASE naming the last stage, nothing else: a stage that
#     has landed without exercises), stages.sh and the Makefile's STAGES
#     list M, GRADED_STAGES and stages.sh --graded do not, make defines
#     check-stageM, stageM and run-stageM, and what walks stages without
#     building (the tour's plan, check-tour-list, check-hints, make progress
#     on the skeletons) takes the stage in its stride: exit 0, stage M said
#     to have nothing yet where the script says so.
# Last line: "check-stages: N passed, M failed".
set -u
work=$1
pass=0 fail=0
ok() { echo "ok $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# ---- 1. no list of stages written down
# ALLOW: FILE<TAB>TEXT ON THE LINE - a run of numbers that is not the list of stages.
ALLOW="code/tools/stages.sh	# stages.sh [--graded] - the workbook's stages, lowest first, on one line (\"1 2 3 4\").
Makefile	stage_lower = \$(wordlist 1,\$(words \$(wordlist 2,\$(1),1 2 3 4 5 6 7 8 9)),1 2 3 4 5 6 7 8 9)
code/bench/bench.sh	for i in 1 2 3; do
tests/grade/check-formats.py	PIECES = [\"1..7\", \"1..0 # SKIP all\"
tests/grade/check-formats.py	set(range(1, 10)))
code/tools/check-stages.sh	*"
# (stages.sh shows what it prints.  stage_lower counts: the numbers below N, to check that a BASE names a lower
# stage.  bench.sh repeats a measurement three times.  check-formats.py
# forges TAP plans and numbers fuzzed tests.  This file quotes the
# patterns it looks for.)
files=$(git ls-files -co --exclude-standard -- Makefile '*.mk' '*.sh' '*.py' .ci/run \
	tests/grade/gradescope/run_autograder '.github/workflows/*' | grep -v '^build/' | sort -u)
# shellcheck disable=SC2086 # files: paths without spaces (git ls-files of this tree)
hits=$(grep -nE '(^|[^0-9.])1 2 3([^0-9.]|$)|(^|[^0-9.[])1 ?(-|\.\.) ?[2-9]([^0-9.]|$)|\{1\.\.[0-9]+\}|range\(1, *[0-9]+\)' $files 2>/dev/null |
	while IFS= read -r hit; do
		f=${hit%%:*} text=${hit#*:*:}
		while IFS=$'\t' read -r af at; do
			[ "$f" = "$af" ] || continue
			# shellcheck disable=SC2053 # at: a glob on purpose (this file's own line is "*")
			[[ $text == *"$at"* || $text == $at ]] && continue 2
		done <<<"$ALLOW"
		echo "$hit"
	done)
if [ -z "$hits" ]; then
	ok "no script, makefile or workflow writes its own list of stages ($(wc -w <<<"$files") files read)"
else
	bad "a list of stages written down (read it from code/tools/stages.sh, or the Makefile's STAGES):"
	sed 's/^/    /' <<<"$hits"
fi

# ---- 2. a throw-away stage in a copy
rm -rf "$work" && mkdir -p "$work/tree"
work=$(cd "$work" && pwd)
git ls-files -co --exclude-standard | grep -v '^build/' | tar -cf - -T - | tar -xf - -C "$work/tree" ||
	{ bad "cannot copy the tree"; echo "check-stages: $pass passed, $fail failed"; exit 1; }
cd "$work/tree" || exit 1
all=$(code/tools/stages.sh)
graded=$(code/tools/stages.sh --graded)
last=${all##* }
m=$((last + 1))
mkdir -p "code/stage$m" && echo "$last" >"code/stage$m/BASE"
smake() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES make --no-print-directory "$@"; }
got=$(code/tools/stages.sh)
[ "$got" = "$all $m" ] && ok "stages.sh lists the new stage $m: $got" || bad "stages.sh with code/stage$m/BASE: '$got', not '$all $m'"
got=$(code/tools/stages.sh --graded)
[ "$got" = "$graded" ] && ok "stages.sh --graded leaves out stage $m, which has no exercises: $got" ||
	bad "stages.sh --graded with an exercise-less stage $m: '$got', not '$graded'"
got=$(smake -s --eval 'print-stages: ; @echo "$(STAGES)|$(GRADED_STAGES)"' print-stages 2>&1)
[ "$got" = "$all $m|$graded" ] && ok "the Makefile's STAGES has stage $m, GRADED_STAGES has not" ||
	bad "the Makefile's STAGES|GRADED_STAGES: '$got', not '$all $m|$graded'"
got=$(smake -s --eval 'print-stages: ; @echo "$(STAGES)"' STAGES="1 2" print-stages 2>&1)
[ "$got" = "1 2" ] && ok "make STAGES=\"1 2\" still narrows the list" || bad "make STAGES=\"1 2\": STAGES is '$got'"
# (make -n, which still runs the recipes that call make: a rule's absence is what is looked for.)
for t in check-stage$m stage$m run-stage$m hint-stage$m explain-stage$m; do
	smake -n "$t" SCRIPT=x 2>&1 | grep -q "No rule to make target '$t'" && bad "make has no rule for $t" || ok "make knows $t"
done
got=$(smake -s --eval 'print-checks: ; @echo $(CHECK_TARGETS)' print-checks 2>&1)
[[ " $got " == *" check-stage$m-reference "* ]] && ok "make check runs check-stage$m-reference" ||
	bad "make check's targets leave out check-stage$m-reference"
if out=$(STAGES="$all $m" TOUR_PLAN=1 code/tools/tour.sh 2>&1); then
	ok "the tour's plan takes in stage $m ($(wc -l <<<"$out") runs planned)"
else
	bad "the tour's plan fails with stage $m: $(tail -n 3 <<<"$out")"
fi
out=$(code/tools/check-tour-list.sh $all $m 2>&1) && ok "check-tour-list passes with stage $m" ||
	bad "check-tour-list with stage $m: $(tail -n 3 <<<"$out")"
out=$(code/tools/check-hints.sh "$m" 2>&1)	# (the default list is part 1's)
grep -qx "stage $m: no exercises" <<<"$out" && grep -qE '^check-hints: [0-9]+ passed, 0 failed$' <<<"$out" &&
	ok "check-hints walks stage $m and says it has no exercises" ||
	bad "check-hints with stage $m: $(tail -n 3 <<<"$out")"
out=$(tests/lib/progress.sh --tsv 2>&1) && ! grep -q "^$m	" <<<"$out" &&
	ok "make progress (the skeletons) runs, and lists no exercise of stage $m" ||
	bad "make progress with stage $m: $(tail -n 3 <<<"$out")"
echo "check-stages: $pass passed, $fail failed"
[ $fail = 0 ]
