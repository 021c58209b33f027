#!/bin/bash
# stages.sh [--graded] - the workbook's stages, lowest first, on one line ("1 2 3 4").
#
# The one list every part that walks stages reads: the Makefile's STAGES
# (make check, tour, grade, progress, check-stageN...) and the scripts run
# without make (the Gradescope bundle's run_autograder, the Classroom step,
# check-clang, check-hints).  It is read from the tree, not written down:
# stage 1 is code/stage1, and every later stage is a code/stageN that names
# its base (code/stageN/BASE, code/tools/stage-chain.sh), which a stage must
# have to build at all.  So a new stage joins every one of them when its
# directory lands, and no list can fall behind the tree (check-stages
# fails on a stage list written into a script).
#
# --graded: only the stages with exercises (exercises/stageN/hints.txt, the
# list make exercises writes from solutions/stageN): what grading, make
# progress and the first-screen check walk.  A stage that has landed
# without exercises yet is built, checked and toured; those leave it out
# until it has some.
#
# Run from the workbook's root.  Exit status 0; 2 if there is no code/stage1.
set -u
graded=
case ${1:-} in
--graded) graded=1 ;;
'') ;;
*) echo "stages.sh: unknown argument '$1'" >&2; exit 2 ;;
esac
[ -d code/stage1 ] || { echo "stages.sh: no code/stage1: run me from the workbook's root" >&2; exit 2; }
{
	echo 1
	for b in code/stage*/BASE; do
		[ -f "$b" ] || continue
		n=${b#code/stage}; n=${n%/BASE}
		case $n in ''|*[!0-9]*) continue ;; esac
		echo "$n"
	done
} | sort -n -u | while read -r n; do
	[ -z "$graded" ] || [ -f "exercises/stage$n/hints.txt" ] || continue
	echo "$n"
done | paste -s -d ' '
