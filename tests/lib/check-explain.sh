#!/bin/bash
# check-explain.sh MISTAKEDIR REFDIR OUT [S5DIR] - a failing explorer harness leaves a drawing that names the student's functions.
#
# MISTAKEDIR holds stage 4's explorer built with a mistake
# (tests/stage4/mistakes/remove-self-wakes-before-unbreak.patch, which
# remove-self-race catches), REFDIR the reference's build.  Each runs the
# explorer's suite's schedules case through tests/lib/runtests.sh, as
# check-stageN runs it (KSIM_DIR: a directory in OUT), which draws what
# failed; then tests/lib/explain.sh (what make explain-stageN runs) draws
# again.  Holds if
#   - the mistake's run fails and its message names the SVG and the
#     replay command;
#   - the run drew the SVG, and it names, as a step's function, a function
#     that solutions/stage4/sysfs_active.c (the student's file) defines;
#   - explain.sh prints the SVG's path and the replay command;
#   - the reference's run passes and leaves nothing to draw.
# With S5DIR, stage 5's explorer built with
# tests/stage5/mistakes/index-in-a-static.patch (a withdrawal that lowers
# another SRCU counter than its access raised: revoke waits for ever):
#   - its access-vs-revoke drawing gives every access and withdrawal its
#     SRCU index (idx=), draws red the withdrawal whose index is not its
#     access's, and calls the run's end a deadlock, not an oops.
# T2D is trace2dot.  Exit status 0 if all holds, 1 otherwise.
set -u
mis=$1 ref=$2 out=$3 s5=${4:-}
fail=0
bad() { echo "check-explain: FAIL: $*"; fail=1; }
rm -rf "$out" && mkdir -p "$out/mistake" "$out/reference"
student=solutions/stage4/sysfs_active.c
fns=$(awk '/^[a-z].*[ *][A-Za-z_][A-Za-z_0-9]*\(/ && !/;[ \t]*$/ {
	f = $0; sub(/\(.*/, "", f); sub(/.*[ *]/, "", f); print f }' "$student" | sort -u)

# run DIR EXPLORER KSIMDIR - the suite's schedules case, as check-stageN runs it, into DIR/run.out.
run() {
	local rc
	ln -sf "$(cd "$3" && pwd -P)"/*.so "$1/" 2>/dev/null
	KSIM_DIR=$1 KSIM="$3/ksim --sched nonpreemptive" CK_RUN_CASE=schedules \
		tests/lib/runtests.sh check-explain "$2" >"$1/run.out" 2>&1
	rc=$?
	cat "$1"/results/*.msg >>"$1/run.out" 2>/dev/null
	return $rc
}

run "$out/mistake" "$mis/test_explore" "$mis"
rc=$?
[ $rc != 0 ] || bad "the explorer passed with the mistake in it ($out/mistake/run.out)"
svg=$out/mistake/explain/remove-self-race.svg
grep -qF "$svg" "$out/mistake/run.out" || bad "the failure's message does not name $svg ($out/mistake/run.out)"
grep -q -e '--harness remove-self-race --sched replay:' "$out/mistake/run.out" ||
	bad "the failure's message has no replay command ($out/mistake/run.out)"
[ -s "$svg" ] || bad "the run drew no SVG: $svg"
rm -f "$svg"
said=$(tests/lib/explain.sh "$out/mistake" 2>&1) || bad "explain.sh failed: $said"
[ -s "$svg" ] || bad "explain.sh drew no SVG: $svg"
grep -q -e '--harness remove-self-race --sched replay:' <<<"$said" || bad "explain.sh prints no replay command: $said"
grep -qF "$svg" <<<"$said" || bad "explain.sh does not print the SVG's path: $said"
if [ -s "$svg" ]; then
	named=$(grep -oE '[A-Za-z_][A-Za-z_0-9]*\(\)' "$svg" | tr -d '()' | sort -u | comm -12 - <(echo "$fns"))
	[ -n "$named" ] || bad "$svg names no function of $student (it names: $(grep -oE '[A-Za-z_0-9]+\(\)' "$svg" | sort -u | tr '\n' ' '))"
	[ -z "$named" ] || echo "check-explain: $svg names $(tr "\n" " " <<<"$named")of $student"
fi
run "$out/reference" "$ref/tests/test_explore" "$ref" || bad "the reference's explorer failed ($out/reference/run.out)"
[ ! -e "$out/reference/explain" ] || [ -z "$(ls "$out/reference/explain")" ] ||
	bad "the reference's passing run left traces to draw: $out/reference/explain"
said=$(tests/lib/explain.sh "$out/reference")
grep -q "no failing schedule" <<<"$said" || bad "explain.sh on a passing run says: $said"
if [ -n "$s5" ]; then
	mkdir -p "$out/stage5"
	run "$out/stage5" "$s5/test_explore" "$s5" && bad "stage 5's explorer passed with index-in-a-static.patch ($out/stage5/run.out)"
	svg=$out/stage5/explain/access-vs-revoke.svg
	if [ ! -s "$svg" ]; then
		bad "stage 5: the shared index's run drew no SVG: $svg"
	else
		box() { grep -oE ">[0-9]+ $1<" "$svg" | head -n 1; }
		[ -n "$(box 'active_get idx=[01]')" ] && [ -n "$(box 'active_put idx=[01]')" ] ||
			bad "stage 5: $svg does not give the accesses' and withdrawals' SRCU index (idx=)"
		grep -qE 'active_put [^"]* idx=([01]); its access took idx=[01]' "$svg" &&
			grep -q 'stroke="red" stroke-width="3"' "$svg" ||
			bad "stage 5: $svg does not draw red the withdrawal whose index is not its access's"
		[ -n "$(box deadlock)" ] || bad "stage 5: $svg does not call the run's end a deadlock"
		[ -z "$(box oops)" ] || bad "stage 5: $svg calls a deadlock an oops"
		[ $fail = 1 ] || echo "check-explain: stage 5's shared index is drawn with each access's and withdrawal's index, its end a deadlock"
	fi
fi
[ $fail = 0 ] && echo "check-explain: the failing schedule is drawn, names the student's functions; a passing run leaves none"
exit $fail
