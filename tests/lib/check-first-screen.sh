#!/bin/bash
# check-first-screen.sh DIR [BUILT] - a student's first make check-stageN, measured on a copy of the tree.
#
# The copy (DIR/tree: the working tree without build/ and .git) gets the
# skeletons make exercises writes, and no results of any run, so each
# stage's first make check-stageN there is a student's first: the run and
# the screen.  The build a student's first run makes is taken from BUILT
# (the tree's build/, whose student builds make check has already made
# for the grader): the build's lines go to its log, not to the screen
# (check-stageN in the Makefile), so the screen is the same, and compiling
# every stage again here was about half of this check's CPU time.  The
# objects keep their times and so do the sources they were built from: a
# skeleton that differs from the tree's exercises/ replaces it in the copy,
# newer, and make rebuilds that stage; without BUILT every stage is built
# here.  For every stage with exercises (code/tools/stages.sh --graded) it
# must
#   - print at most 40 lines before its tally ("check-stageN: P passed, F
#     failed", F > 0),
#   - list every exercise of the stage with its FILE:LINE and its hint's
#     command (make hint-stageN EX=name),
#   - print the path of a log that holds every failure's report;
#   - fail no test of the given code alone (tests/grade/points.tsv's "-":
#     the tools' self-tests, the controls), so a skeleton's failures all
#     point at exercises.
# Then, in stage 1: make check-stage1 V=1 prints every report on the
# screen; and with one exercise left (the reference with kobject_put
# stubbed alone), the screen lists that exercise only and shows the full
# reports of its failed tests, and of no test that does not depend on it
# (tests/grade/points.tsv).
# Exit status 0 if all holds, 1 otherwise (each failure says what and where).
set -u
out=$1
max=40
rm -rf "$out" && mkdir -p "$out/tree"
fail=0
bad() { echo "check-first-screen: FAIL: $*"; fail=1; }
built=${2:+$(cd "$2" && pwd)}
tar -c --exclude=./build --exclude=./.git . | tar -x -C "$out/tree" || { echo "check-first-screen: cannot copy the tree"; exit 1; }
cd "$out/tree" || exit 1
# The make a student types, not the one that runs this check (its -s, -j, jobserver).
smake() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES make "$@"; }
stages=$(code/tools/stages.sh --graded)
# The skeletons make exercises writes; a stage's directory is replaced only
# where it differs, so the others keep the times BUILT was made from.
for d in solutions/stage*; do
	s=${d#solutions/}
	code/tools/mkexercises.sh "$d" "$out/skeletons/$s" || { echo "check-first-screen: make exercises failed"; exit 1; }
	diff -r "exercises/$s" "$out/skeletons/$s" >/dev/null 2>&1 ||
		{ rm -rf "exercises/$s" && mv "$out/skeletons/$s" "exercises/$s" && replaced="${replaced:-} ${s#stage}"; }
done
if [ -n "$built" ]; then
	mkdir -p build
	for p in .deps-ok kernel shell tests/lib tools $(printf 'student/stage%s ' $stages); do
		[ -e "$built/$p" ] || continue
		mkdir -p "build/$(dirname "$p")" && cp -pr "$built/$p" "build/$p"
	done
	# Of a student build, what the compiler made; not what a run left.
	find build/student -mindepth 2 -maxdepth 2 ! -name ksim ! -name stage.a ! -name obj ! -name tests \
		! -name '*.so' ! -name '*.warnings' -exec rm -rf {} +
fi

for n in $stages; do
	o=$out/stage$n.out
	smake check-stage$n >"$o" 2>&1
	t=$(grep -nE "^check-stage$n: [0-9]+ passed, [0-9]+ failed$" "$o" | head -n 1)
	if [ -z "$t" ]; then
		bad "stage $n: make check-stage$n printed no tally (all it printed: $o)"
		continue
	fi
	before=$((${t%%:*} - 1))
	failed=$(sed -E 's/.* ([0-9]+) failed$/\1/' <<<"$t")
	[ "$failed" -gt 0 ] || bad "stage $n: the skeleton passes every test ($t)"
	if [ "$before" -gt "$max" ]; then
		bad "stage $n: the first make check-stage$n printed $before lines before its tally (at most $max; $o)"
	else
		echo "check-first-screen: stage $n: $before lines before the tally ($failed failed)"
	fi
	# What the lent build is for: a stage whose skeleton was the tree's compiles nothing here.
	if [ -n "$built" ] && [[ " ${replaced:-} " != *" $n "* ]] &&
		grep -qE '^  [A-Z]+ +build/' "build/student/stage$n/build.log" 2>/dev/null; then
		bad "stage $n: compiled again in the copy, though $built/student/stage$n was lent (build/student/stage$n/build.log)"
	fi
	for e in $(awk -v hints_list="exercises/stage$n/hints.txt" -f code/tools/hints.awk); do
		grep -qE "^ +[0-9]+\. $e +exercises/stage$n/[^ ]+\.c:[0-9]+ .*make hint-stage$n EX=${e}[,)]" "$o" ||
			bad "stage $n: the screen does not list exercise $e with its FILE:LINE and hint command ($o)"
	done
	# A test of the given code alone (tests/grade/points.tsv: "-") passes on a skeleton.
	! grep -q "tests of the code given to you fail" "$o" ||
		bad "stage $n: on the skeleton, a test of the code given to the student fails ($o)"
	log=$(grep -m 1 -oE "every report in full: [^ )]+" "$o" | sed 's/.*: //')
	if [ -z "$log" ] || [ ! -s "$log" ]; then
		bad "stage $n: the screen names no log of the reports, or an empty one ('$log'; $o)"
	elif [ "$(grep -cE ': FAIL |^FAIL ' "$log")" -lt "$failed" ]; then
		bad "stage $n: $log holds $(grep -cE ': FAIL |^FAIL ' "$log") failure reports, for $failed failures"
	fi
done

# V=1: every report on the screen, as for the reference.
o=$out/stage1-v1.out
smake check-stage1 V=1 >"$o" 2>&1
t=$(grep -E "^check-stage1: [0-9]+ passed, [0-9]+ failed$" "$o")
failed=$(sed -E 's/.* ([0-9]+) failed$/\1/' <<<"$t")
[ -n "$t" ] && [ "$(grep -cE ': FAIL |^FAIL ' "$o")" -ge "$failed" ] ||
	bad "V=1: make check-stage1 V=1 does not print every failure's report ($o)"

# One exercise left: the reference with kobject_put alone stubbed.
left=kobject_put
for f in $(cd solutions/stage1 && find . -name '*.c'); do
	awk -v keep="$left" '
		/\/\* BEGIN EXERCISE / { name = $0; sub(/.*BEGIN EXERCISE /, "", name); sub(/ .*/, "", name)
			if (name != keep) { skip = 1; next } }
		skip && /\/\* STUB: / { next }
		skip && /\/\* END EXERCISE \*\// { skip = 0; next }
		{ print }' "solutions/stage1/$f" |
		awk -v hints=solutions/stage1/hints.txt -f code/tools/hints.awk -f code/tools/mkexercise.awk >"exercises/stage1/$f"
done
o=$out/stage1-one-left.out
smake check-stage1 >"$o" 2>&1
grep -q "one exercise left" "$o" || bad "one left: the screen does not say one exercise is left ($o)"
grep -qE "^ +1\. $left " "$o" || bad "one left: the screen does not list $left ($o)"
! grep -qE "^ +2\. " "$o" || bad "one left: the screen lists more than one exercise ($o)"
shown=$(grep -oE ': FAIL [a-z_0-9]+ ' "$o" | awk '{ print $3 }')
[ -n "$shown" ] || bad "one left: no failed test of $left is shown in full ($o)"
for id in $shown; do
	awk -F'\t' -v id="$id" -v e="$left" '$1 == 1 && $2 ~ (":" id "$") && index("," $3 ",", "," e ",") { f = 1 }
		END { exit !f }' tests/grade/points.tsv || bad "one left: $id is shown, but does not depend on $left"
done
[ $fail = 0 ] && echo "check-first-screen: every stage's first screen fits in $max lines and lists its exercises; V=1 and one exercise left as they should be"
exit $fail
