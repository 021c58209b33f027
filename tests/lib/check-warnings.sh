#!/bin/bash
# check-warnings.sh WORK - a student's code with a warning is graded, and the warning reported.
#
# Warnings are errors in our own code, not in a student's: a compiler newer
# than ours may warn about a correct exercise.  The submission here is
# stage 1's reference solutions with one unused variable added to
# kobject_ref.c's kobject_get (inside the exercise, where the submission
# gate lets it through), graded as any submission is (tests/grade/grade.sh: a copy
# of the tree, the student's build and the suites in it):
#  1. the control: with the reference's flags (REF_CFLAGS, -Werror) the
#     same file does not compile;
#  2. the student's build compiles it, runs every test, and all pass;
#  3. the build's log keeps the compiler's line naming the variable;
#  4. the grade's results (results.json) say "your code compiles with 1 warning".
# From the environment (the Makefile): CC, REF_CFLAGS, GRADE_PACKAGES.
# Last line: "check-warnings: N passed, M failed".
set -u
work=$1
pass=0 fail=0
ok() { echo "ok $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
rm -rf "$work" && mkdir -p "$work/sub"
cp -r solutions/stage1 "$work/sub/stage1"
sed -i 's|/\* BEGIN EXERCISE kobject_get \*/|&\n\tint unused_for_the_test;|' "$work/sub/stage1/kobject_ref.c"

# ---- 1. the control: the reference's flags refuse it
# shellcheck disable=SC2086 # REF_CFLAGS: words
if $CC $REF_CFLAGS -c "$work/sub/stage1/kobject_ref.c" -o "$work/ref.o" 2>"$work/ref.err"; then
	bad "the control: kobject_ref.c with an unused variable compiles with the reference's -Werror flags"
else
	grep -q 'unused_for_the_test' "$work/ref.err" &&
		ok "the control: with the reference's flags (-Werror) the unused variable stops the build" ||
		{ bad "the control: the reference's build failed, but not on the unused variable:"; head -n 5 "$work/ref.err" | sed 's/^/    /'; }
fi

# ---- 2-4. graded as a submission
tests/grade/grade.sh --stages 1 --out "$work/grade" --submission "$work/sub" >"$work/grade.out" 2>&1
res=$work/grade/results.json
build=$work/grade/stage1/build.log
score=$(tests/grade/results.py score "$res" 2>/dev/null)
if [[ $score =~ ^([0-9.]+)\ ([0-9.]+)$ ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] &&
   [ "${BASH_REMATCH[2]}" != 0 ]; then
	ok "the student's build compiles it and every test passes: $score"
else
	bad "the student's build: score '${score:-none}' (the grading's output: $work/grade.out)"; tail -n 10 "$work/grade.out" | sed 's/^/    /'
fi
if grep -q "kobject_ref.c:[0-9]*:[0-9]*: warning: .*unused_for_the_test" "$build" 2>/dev/null; then
	ok "the build's log keeps the compiler's line naming the variable"
else
	bad "the build's log ($build) has no warning naming unused_for_the_test"
fi
if grep -q 'compiles with 1 warning' "$res" 2>/dev/null; then
	ok "the grade's results.json carries it"
else
	bad "the grade's results.json does not mention the warning"
fi
echo "check-warnings: $pass passed, $fail failed"
[ "$fail" = 0 ]
