#!/bin/bash
# check-handout.sh WORK HANDOUT - the handout works as a student uses it (make check-handout).
#
# A clone of HANDOUT (make handout), as a student makes it, in WORK/clone:
#   - make check-stage1 on the skeleton builds and ends with its tally, exercises failing;
#   - make grade STAGES="1 2" scores 0 on the skeleton;
#   - with the reference of stages 1 and 2 copied into its exercises/, make
#     grade STAGES="1 2" scores full marks: stage 2 is built on the
#     student's own stage 1 there (no solutions/);
#   - SOLUTIONS=1, plain make, make check and make book stop at once with a
#     message that the reference is not in the handout, not a compiler error.
# Prints "ok"/"FAILED" lines and a tally; exit 1 if one failed.
set -u
work=$1 handout=$2
pass=0 fail=0
ok() { echo "  ok      $*"; pass=$((pass + 1)); }
bad() { echo "  FAILED  $*"; fail=$((fail + 1)); }
rm -rf "$work" && mkdir -p "$work" && work=$(cd "$work" && pwd)
src=$(pwd)
if ! git clone -q "$handout" "$work/clone" 2>"$work/clone.log"; then
	bad "git clone $handout: $(head -n 3 "$work/clone.log")"
	echo "check-handout: $pass passed, $fail failed"; exit 1
fi
cd "$work/clone" || exit 1
# The clone is a student's checkout, not part of this make's build: its makes
# get no jobserver of ours (under make -jN they would warn about it first).
unset MAKEFLAGS MFLAGS MAKELEVEL
if [ ! -e solutions ]; then ok "a clone of the handout has no solutions/"; else bad "a clone of the handout has solutions/"; fi

# What needs the reference stops with the reason.
for goal in "check-stage1 SOLUTIONS=1" "" "check" "book" "check-stage4-mistakes"; do
	# shellcheck disable=SC2086 # goal: words
	out=$(make --no-print-directory $goal 2>&1); rc=$?
	if [ $rc != 0 ] && [ "$(echo "$out" | wc -l)" = 1 ] && grep -q "not in this handout\|this handout does not hold" <<<"$out"; then
		ok "make ${goal:-(no target)} stops at once: ${out#*\*\*\* }"
	else
		bad "make ${goal:-(no target)}: exit $rc, not the handout's message: $(head -c 300 <<<"$out")"
	fi
done

# The skeleton: check-stage1 runs its tests, grade scores 0.
make --no-print-directory check-stage1 >"$work/check-stage1.log" 2>&1
tally=$(grep "^check-stage1: " "$work/check-stage1.log" | tail -n 1)
case $tally in
"check-stage1: "*" passed, 0 failed"|*"build failed"*|"") bad "make check-stage1 on the skeleton: '$tally' (log: $work/check-stage1.log)" ;;
"check-stage1: "*" passed, "*" failed") ok "make check-stage1 on the skeleton builds and runs (its tally, ${tally#*: }, not counted here)" ;;
*) bad "make check-stage1 on the skeleton ends with '$tally', not its tally" ;;
esac
make --no-print-directory grade STAGES="1 2" >"$work/grade-skeleton.log" 2>&1
line=$(grep '^grade: ' "$work/grade-skeleton.log")
case $line in
"grade: 0 of 70 points"*) ok "make grade on the skeleton: ${line%% (*}" ;;
*) bad "make grade on the skeleton: '${line:-no grade line}' (log: $work/grade-skeleton.log)" ;;
esac

# The reference of stages 1 and 2 in exercises/: full marks, stage 2 built on this stage 1.
for n in 1 2; do cp -r "$src/solutions/stage$n/." "exercises/stage$n/"; done
make --no-print-directory grade STAGES="1 2" >"$work/grade-reference.log" 2>&1
line=$(grep '^grade: ' "$work/grade-reference.log")
case $line in
"grade: 70 of 70 points"*) ok "make grade with the reference in exercises/: ${line%% (*}, stage 2 on the student's stage 1" ;;
*) bad "make grade with the reference in exercises/: '${line:-no grade line}' (log: $work/grade-reference.log)" ;;
esac
echo "check-handout: $pass passed, $fail failed"
[ $fail = 0 ]
