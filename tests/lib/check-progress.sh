#!/bin/bash
# check-progress.sh WORK [STAGES] - make progress's own test (make check-progress).
#
#  1. The skeletons, freshly generated from solutions/ into WORK/skeletons:
#     every exercise of every stage is "not started", and nothing is built.
#  2. The solutions copied into a scratch exercises directory, WORK/ex,
#     built as a student's (PROGRESS_EX, tests/lib/student.mk): every
#     exercise of STAGES (default 1 2) is "done".
#  3. The same copy with one wrong solution (kobject_put never releases):
#     that exercise is "failing", the others of its stage "done"; and with
#     mouse_release forgetting its kfree(), which only tests shared with
#     mouse_unplug see: both "failing", the detail saying why.
#  4. A copy that does not compile: every started exercise "failing".
# Last line: "check-progress: N passed, M failed".
set -u
work=$1 stages=${2:-1 2}
pass=0 fail=0
ok() { echo "ok $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
rm -rf "$work" && mkdir -p "$work"
work=$(cd "$work" && pwd)
build=build/progress-build
rm -rf "$build"

# statuses FILE - "STAGE EXERCISE STATUS" per line, from progress.sh --tsv.
statuses() { awk -F'\t' '{ print $1 " " $2 " " $3 }' "$1"; }
# expect FILE WANT-FILE WHAT
expect() {
	if diff <(statuses "$1") "$2" >"$work/diff"; then
		ok "$3"
	else
		bad "$3 (< progress says, > expected):"; sed 's/^/    /' "$work/diff"
	fi
}
# every STAGES STATUS - the expected lines: every exercise of STAGES with STATUS.
every() {
	for n in $1; do
		awk -v hints_list=solutions/stage$n/hints.txt -f code/tools/hints.awk | sed "s/^/$n /; s/\$/ $2/"
	done
}

# ---- 1. skeletons
for d in solutions/stage*; do code/tools/mkexercises.sh "$d" "$work/skeletons/${d#solutions/}" || exit 2; done
start=$SECONDS
tests/lib/progress.sh --exercises "$work/skeletons" --build "$work/skeletons-build" --tsv >"$work/skeletons.tsv" 2>"$work/skeletons.err"
graded=$(code/tools/stages.sh --graded)
every "$graded" "not started" >"$work/want"
expect "$work/skeletons.tsv" "$work/want" "the skeletons: all $(wc -l <"$work/want") exercises of stages $graded not started, in $((SECONDS - start)) s"
[ -z "$(find "$work/skeletons-build" -name ksim 2>/dev/null)" ] &&
	ok "the skeletons: nothing built (no exercise started)" || bad "the skeletons: progress built a stage"
tests/lib/progress.sh --exercises "$work/skeletons" --build "$work/skeletons-build" >"$work/skeletons.table"
grep -qx "progress: 0 done, 0 failing, $(wc -l <"$work/want") not started" "$work/skeletons.table" &&
	ok "the skeletons: the table's last line counts them" || bad "the skeletons: table ends '$(tail -n 1 "$work/skeletons.table")'"

# ---- 2. the solutions, copied as a student's exercises
mkdir -p "$work/ex"
for n in $stages; do cp -r solutions/stage$n "$work/ex/"; done
start=$SECONDS
tests/lib/progress.sh --stages "$stages" --exercises "$work/ex" --build "$build" --tsv -- PROGRESS_EX="$work/ex" \
	>"$work/solutions.tsv" 2>"$work/solutions.err"
every "$stages" done >"$work/want"
expect "$work/solutions.tsv" "$work/want" "the solutions in a scratch exercises dir: every exercise of stages $stages done, in $((SECONDS - start)) s"
[ -x "$build/stage1/ksim" ] && ok "the scratch copy was built as a student's build ($build)" ||
	bad "no student build in $build"
# Reuse is judged by what the second run writes, not by its wall time (which
# a busy machine decides): no result of any stage may be newer than the mark.
touch "$work/mark"
tests/lib/progress.sh --stages "$stages" --exercises "$work/ex" --build "$build" --tsv -- PROGRESS_EX="$work/ex" \
	>"$work/again.tsv" 2>&1
rerun=$(find "$build" -path '*/progress/*' -newer "$work/mark" -print | head -n 3)
cmp -s "$work/again.tsv" "$work/solutions.tsv" && [ -z "$rerun" ] &&
	ok "run again with nothing changed: the same answer, and no result rewritten" ||
	bad "run again: another answer, or results rewritten (${rerun:-none})"

# Each exercise is placed at the line that opens the function its fence is in
# (the copy keeps the fences): the next definition after that line is not
# reached before the fence.  sysfs_deactivate is not sysfs_deactivate_start.
misplaced=$(awk -F'\t' '{ for (i = 3; i <= NF; i++) if ($i ~ /:[0-9]+$/) print $2 "\t" $i }' "$work/solutions.tsv" |
	while IFS=$'\t' read -r e at; do
		awk -v from="${at##*:}" -v e="BEGIN EXERCISE $e " '
			FNR == from { if (!/^[a-z].*\(/) exit 1; inside = 1; next }
			inside && /^[a-z].*[ *][A-Za-z_0-9]+\(/ && !/;[ \t]*$/ { exit 1 }
			inside && index($0 " ", e) { found = 1; exit }
			END { exit !found }' "${at%:*}" || echo "$e at $at"
	done)
[ -z "$misplaced" ] && ok "every done exercise is placed at the line that opens its function" ||
	bad "exercises placed at another function's line: $misplaced"

# ---- 3. one wrong solution at a time
# wrong WHAT FILE SED WANT-SED - break FILE (of WORK/ex/stage1) with SED; progress must say WANT.
wrong() {
	cp -r "$work/ex/stage1" "$work/stage1.good"
	sed -i "$3" "$work/ex/stage1/$2"
	cmp -s "$work/ex/stage1/$2" "$work/stage1.good/$2" && bad "could not break $2 in the copy"
	tests/lib/progress.sh --stages 1 --exercises "$work/ex" --build "$build" --tsv -- PROGRESS_EX="$work/ex" \
		>"$work/wrong.tsv" 2>"$work/wrong.err"
	every 1 done | sed "$4" >"$work/want"
	expect "$work/wrong.tsv" "$work/want" "$1"
	# Put back by copying, so the files are newer than the broken build and make rebuilds.
	rm -rf "$work/ex/stage1" && cp -r "$work/stage1.good" "$work/ex/stage1" && rm -rf "$work/stage1.good"
}
# kobject_put never releases: its own tests fail, and the blame of the
# scenario tests it shares with the mouse's exercises is its alone.
wrong "one wrong solution (kobject_put never releases): it alone is failing, the rest of stage 1 done" \
	kobject_ref.c 's/^\tkref_put(&kobj->kref, kobject_release);/\tkref_put(\&kobj->kref, NULL);/' \
	's/^1 kobject_put done$/1 kobject_put failing/'
grep -q "kobject_put	failing	[0-9]* of [0-9]* tests fail, first test_stage1:kobject_put" "$work/wrong.tsv" &&
	ok "the failing exercise names its first failing test: $(awk -F'\t' '$2 == "kobject_put" { print $4 }' "$work/wrong.tsv")" ||
	bad "the failing exercise does not name its failing test: $(grep kobject_put "$work/wrong.tsv")"
# mouse_release keeps its memory: the tests that see it also test
# mouse_unplug, so progress cannot tell them apart, and says so.
wrong "one wrong solution (mouse_release without kfree): failing, with mouse_unplug that shares its tests; kobject_get and kobject_put done" \
	modules/mouse.c 's/^\tkfree(m);/\t(void)m;/' \
	's/^1 \(mouse_release\|mouse_unplug\) done$/1 \1 failing/'
grep -q "mouse_release	failing	.*(it also tests mouse_unplug: one of them is wrong)" "$work/wrong.tsv" &&
	ok "and it names the exercise that shares the blame" || bad "no word of the shared blame: $(grep mouse_release "$work/wrong.tsv")"

# ---- 4. one that does not compile
echo 'this is not C' >>"$work/ex/stage1/kobject_ref.c"
tests/lib/progress.sh --stages 1 --exercises "$work/ex" --build "$build" --tsv -- PROGRESS_EX="$work/ex" \
	>"$work/broken.tsv" 2>"$work/broken.err"
every 1 failing >"$work/want"
expect "$work/broken.tsv" "$work/want" "a stage that does not compile: every started exercise failing"
grep -q "does not compile" "$work/broken.tsv" && ok "and it says the stage does not compile" || bad "no word of the build error"

echo "check-progress: $pass passed, $fail failed"
[ $fail = 0 ]
