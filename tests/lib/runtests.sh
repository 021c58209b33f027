#!/bin/bash
# runtests.sh NAME [--exercises DIR [--full]] [--warnings "FILE..."] [--scenarios TSV] [--results DIR] BINARY... - run Check suites and scenario tables.
#
# Every suite runs even if an earlier one failed; a suite that dies as a
# whole (a crash outside a test, a missing binary) counts as one failure.
# A failed test is shown with its message and with what it printed itself
# (each test's output is kept apart, ktest.h): the output of the tests
# that passed, such as the deliberately leaky objects of a test that
# checks the leak is found, is not shown.
#
# Every outcome is also kept in the results directory (--results, else
# $KSIM_DIR/results, else a temporary one), one line per test in
# results.tsv:
#	KIND <TAB> SUITE <TAB> TEST <TAB> pass|fail <TAB> FILE:LINE <TAB> MESSAGE-FILE <TAB> OUTPUT-FILE
# KIND is check or scenario; `make progress` and `make hint` read it, and
# `make grade` takes from it only the failures' messages and Check's own
# claims: a graded run's verdicts reach the grader through the descriptors
# it hands the suites (KTEST_KEY_FD, KTEST_VERDICT_FD: ktest.h), which this
# script passes on untouched, and a graded table is run by the grader
# itself (tests/grade/grade.sh).  The last line is "NAME: N passed, M
# failed", the line CI reads.
#
# What a suite, a test or a scenario prints is read up to KTEST_OUTPUT_CAP
# bytes (default 1 MiB): past that it fails, its message says so, and a
# test's own output file is cut there (the grader's sandbox also stops any
# file at 16 MiB).
#
# --warnings names the files in which the build kept what the compiler said
# about a student's files (the Makefile's KEEP_WARNINGS): a student's build
# does not stop at a warning, so the report says, before the tally, "NAME:
# your code compiles with N warnings" with the first of them, and keeps
# them all in the results directory, warnings.txt (make grade carries the
# line into its results).
#
# --exercises DIR says the build is a student's, of DIR (exercises/stageN).
# While an exercise of it is unfinished, the screen shows the list of what
# to do and one line of what failed per exercise (tests/lib/firstscreen.sh),
# not every report: those go to the results directory's check.log, whose
# path the screen prints.  --full (make check-stageN V=1) prints every
# report as it comes, as for the reference.
#
# The suites and tables are independent, so they run side by side, at most
# $KTEST_JOBS at once (default: the number of CPUs; 1 runs them one after
# another).  Each one's report is kept apart and printed whole, in the
# order they were given, as soon as it and those before it are done; the
# rows of results.tsv keep that order too.  The hang budget stays one for
# the whole run: every suite and table charges the same file.
set -u
name=$1; shift
exdir= tsvs=() res= warnfiles= full=
while [ $# -gt 0 ]; do
	case $1 in
	--exercises) exdir=$2; shift 2 ;;
	--full) full=1; shift ;;
	--warnings) warnfiles=$2; shift 2 ;;
	--scenarios) tsvs+=("$2"); shift 2 ;;
	--results) res=$2; shift 2 ;;
	*) break ;;
	esac
done
tmpres=
if [ -z "$res" ]; then
	if [ -n "${KSIM_DIR:-}" ]; then res=$KSIM_DIR/results; else res=$(mktemp -d); tmpres=$res; fi
fi
rm -rf "$res" && mkdir -p "$res/out" && : >"$res/results.tsv"
res=$(cd "$res" && pwd)	# results.tsv names files by absolute path
# A grader that runs the suites one runtests.sh each (tests/grade/grade.sh)
# hands them one hang file, so the budget stays one for the whole stage.
[ -n "${KTEST_HANG_FILE:-}" ] || { KTEST_HANG_FILE=$res/hang; : >"$KTEST_HANG_FILE"; }
export KTEST_OUTPUT_DIR=$res/out KTEST_HANG_FILE
# The most a suite, or one test, may print (bytes): past it, it fails and says so.
cap=${KTEST_OUTPUT_CAP:-1048576}
export CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-20}
# A scenario that spins is reported by ksim's soft-lockup watchdog (with the
# spinning task's stack) well before the tests' own time limits.
export KSIM_SOFTLOCKUP_TIMEOUT_MS=${KSIM_SOFTLOCKUP_TIMEOUT_MS:-4000}
passed=0 failed=0
# screen: a student's build, whose reports go to $log until the end decides what to show.
screen= log=$res/check.log
[ -z "$exdir" ] || [ -n "$full" ] || [ -n "$tmpres" ] || screen=1
: >"$log"
# say - a line of the report: on the screen, or in the log.
say() { if [ -n "$screen" ]; then cat >>"$log"; else cat; fi; }
[ -z "$screen" ] || echo "$name: running the tests (every report goes to ${log#"$PWD/"})"

# hint_for KEY - for a student's build, the hint command of the exercises
# the test KEY ("SUITE:TEST", tests/grade/points.tsv) depends on: each
# failure's report ends with where to get the next hint.
stage=${exdir%/}; stage=${stage##*stage}
hint_for() {
	local deps
	[ -n "$exdir" ] || return 0
	deps=$(awk -F'\t' -v n="$stage" -v k="$1" '$1 == n && $2 == k { print $3; exit }' tests/grade/points.tsv 2>/dev/null)
	case $deps in '' | -) return 0 ;; esac
	case $deps in
	*,*) echo "  next hint: make hint-stage$stage EX=${deps%%,*} (it tests these too: EX=${deps#*,})" | sed 's/,/, EX=/g' ;;
	*) echo "  next hint: make hint-stage$stage EX=$deps" ;;
	esac
}

# show FILE [PREFIX] - a message or an output, indented; long outputs keep their end.
show() {
	local n
	[ -s "$1" ] || return 0
	n=$(wc -l <"$1")
	[ "$n" -le 40 ] || echo "    | ... ($((n - 40)) lines before these, all in $1)"
	tail -n 40 "$1" | cut -c1-500 | sed 's/^/    | /'
}

# suite BINARY - run one Check suite; prints its report, appends its rows
# to $rows, and writes its "passed failed" counts to $sum.new.
suite() {
	local t=$1 s out rc line l recs nrec nout outs seq st id where tcase o passed=0 failed=0
	# Counted and matched in bash, not by a grep, wc or tail each: make
	# check runs a suite a few hundred times.
	s=${t##*/}
	rm -f "$res/$s.xml" "$res/out/$s".*
	# At most $cap bytes of what the suite prints are read (past them it gets SIGPIPE).
	out=$(CK_XML_LOG_FILE_NAME=$res/$s.xml "$t" 2>&1 | head -c "$cap"; exit "${PIPESTATUS[0]}"); rc=$?
	if [ "$(LC_ALL=C; echo ${#out})" -ge "$cap" ]; then
		line= recs=
		echo "the suite printed more than $cap bytes (the most a suite or a test may print); the rest was not read, and it fails" >"$res/$s.cap.msg"
	fi
	line=
	while IFS= read -r l; do [[ $l =~ ^[0-9]+%:\ Checks:\  ]] && line=$l; done <<<"$out"
	[ -e "$res/$s.cap.msg" ] || { recs=
	[ -s "$res/$s.xml" ] && recs=$(awk -v prefix="$res/$s" -f tests/lib/ckxml.awk "$res/$s.xml"); }
	# The tests whose own output passed the cap (each is cut there by the sandbox's file-size limit, or not).
	big=" $(find "$res/out" -maxdepth 1 -name "$s.*.out" -size +"$cap"c -printf '%f ' -exec truncate -s "$cap" {} \; 2>/dev/null)"
	nrec=0
	while IFS= read -r l; do [ -z "$l" ] || nrec=$((nrec + 1)); done <<<"$recs"
	outs=("$res/out/$s".*.out)
	nout=${#outs[@]}
	[ -e "${outs[0]}" ] || nout=0
	if [ -z "$line" ] || [ "$nrec" = 0 ]; then
		# No result at all: the suite died before or outside its tests.
		failed=$((failed + 1))
		# (at most $cap bytes, its newline included: the grader deletes what a unit left past that)
		printf '%s\n' "$out" | head -c "$cap" >"$res/out/$s.suite.out"
		echo "the suite itself failed (exit $rc) before it could report its tests" >"$res/$s.suite.msg"
		[ ! -e "$res/$s.cap.msg" ] || cat "$res/$s.cap.msg" >>"$res/$s.suite.msg"
		printf 'check\t%s\t(suite)\tfail\t%s\t%s\t%s\n' "$s" "$t" "$res/$s.suite.msg" "$res/out/$s.suite.out" \
			>>"$rows"
		echo "$s: FAIL: the suite itself failed (exit $rc); everything it printed:"
		show "$res/out/$s.suite.out"
		echo "$s: no result"
		echo "0 1" >"$sum.new"
		return
	fi
	while IFS=$'\t' read -r seq st id where tcase; do
		o=$res/out/$s.$seq.out
		# Outputs are matched to tests by the order they ran; if the counts
		# disagree the match cannot be trusted: keep the suite's whole output.
		[ "$nout" = "$nrec" ] || { printf '%s\n' "$out" | head -c "$cap" >"$res/out/$s.suite.out"; o=$res/out/$s.suite.out; }
		if [ "${big#* "${o##*/}" }" != "$big" ]; then
			[ "$st" = fail ] || : >"$res/$s.$seq.msg"
			st=fail
			echo "$id printed more than $cap bytes (the most a test may print): it fails, and what it printed was cut there" >>"$res/$s.$seq.msg"
		fi
		printf 'check\t%s\t%s\t%s\t%s\t%s\t%s\n' "$s" "$id" "$st" "$where" "$res/$s.$seq.msg" "$o" >>"$rows"
		if [ "$st" = pass ]; then
			passed=$((passed + 1))
			continue
		fi
		failed=$((failed + 1))
		echo "$where: FAIL $id ($s, case $tcase):"
		sed 's/^/    /' "$res/$s.$seq.msg"
		hint_for "$s:$id"
		if [ -s "$o" ] && [ "$o" != "$res/out/$s.suite.out" ]; then
			echo "  what $id printed:"
			show "$o"
		fi
	done <<<"$recs"
	if [ "$nout" != "$nrec" ] && [ $rc -ne 0 ]; then
		echo "  ($s printed, all tests together; $nout outputs for $nrec tests, so they could not be told apart:)"
		show "$res/out/$s.suite.out"
	fi
	echo "$s: $line"
	echo "$passed $failed" >"$sum.new"
}

# table TSV - run one scenario table, the same way.  scenarios.sh keeps its
# rows' messages and outputs, and its rows, in the unit's own directory.
table() {
	local tsv=$1 out l n=0 f=0
	out=$(tests/lib/scenarios.sh "$tsv" "$dir" 2>&1 | head -c "$cap")
	[ "$(LC_ALL=C; echo ${#out})" -lt "$cap" ] ||
		echo "${tsv##*/}: FAIL: the table printed more than $cap bytes (the most it may print); the rest was not read"
	while IFS= read -r l; do
		case $l in
		'ok '*) n=$((n + 1)) ;;
		'FAIL '*) f=$((f + 1)); printf '%s\n' "$l"; l=${l#FAIL }; hint_for "${tsv##*/}:${l%% *}" ;;
		'scenarios:'*) ;;
		*) printf '%s\n' "$l" ;;
		esac
	done <<<"$out"
	echo "${tsv##*/}: $n scenarios passed, $f failed"
	echo "$n $f" >"$sum.new"
}

# Every unit K (suites first, then tables) reports into $res/part/K.log,
# K.tsv (its results.tsv rows; a table's are in K/results.tsv) and K.sum,
# written last: its existence says the unit is done.
units=() kinds=()
for t in "$@"; do units+=("$t"); kinds+=(suite); done
for tsv in "${tsvs[@]}"; do units+=("$tsv"); kinds+=(table); done
rm -rf "$res/part" && mkdir -p "$res/part"
# The explorer's suite leaves the traces of its failing schedules in
# $KSIM_DIR/explain (tests/lib/explore_grade.c): those of this run only.
# With T2D (trace2dot) they are drawn once the run is over (tests/lib/explain.sh).
explain=
for t in "$@"; do [ "${t##*/}" != test_explore ] || [ -z "${KSIM_DIR:-}" ] || explain=$KSIM_DIR; done
[ -z "$explain" ] || rm -rf "$explain/explain"
jobs=${KTEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
shown=0

# flush - print, in order, the reports of the units done so far.
flush() {
	local k=$shown
	while [ "$k" -lt ${#units[@]} ] && [ -f "$res/part/$k.sum" ]; do
		say <"$res/part/$k.log"
		read -r p f <"$res/part/$k.sum"
		passed=$((passed + p)); failed=$((failed + f))
		k=$((k + 1))
	done
	shown=$k
}

running=0
for k in "${!units[@]}"; do
	while [ "$running" -ge "$jobs" ]; do
		wait -n
		running=$((running - 1))
		flush
	done
	rows=$res/part/$k.tsv sum=$res/part/$k.sum dir=$res/part/$k
	: >"$rows"
	# A unit that ended without its counts (killed) is one failure.
	( "${kinds[$k]}" "${units[$k]}" >"$res/part/$k.log" 2>&1
	  [ -s "$sum.new" ] || { echo "${units[$k]}: ended without a result"; echo "0 1" >"$sum.new"; } >>"$res/part/$k.log"
	  mv "$sum.new" "$sum" ) &
	running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
	wait -n
	running=$((running - 1))
	flush
done
# results.tsv in the order the units were given.
for k in "${!units[@]}"; do
	cat "$res/part/$k.tsv"
	[ ! -f "$res/part/$k/results.tsv" ] || cat "$res/part/$k/results.tsv"
done >>"$res/results.tsv"
[ -z "$explain" ] || [ -z "${T2D:-}" ] || [ ! -d "$explain/explain" ] || tests/lib/explain.sh --quiet "$explain" | say
spent=$(awk '{ s += $1 } END { printf "%d", s }' "$KTEST_HANG_FILE")
[ "$spent" = 0 ] || echo "Tests and scenarios that hung or ran out of time cost ${spent} s (at most ${KTEST_HANG_BUDGET_S:-15} s a run; the rest were not run)." | say
if [ $failed -gt 0 ] && [ -n "$exdir" ] && [ -d "$exdir" ]; then
	todo=$(grep -rhoE 'TODO\("[^"]+", "[^"]*"\)' "$exdir" | sed -E 's/TODO\("([^"]+)", "([^"]*)"\)/  \1: \2/' | sort -u)
	if [ -n "$todo" ]; then
		echo "Exercises still to do in $exdir (each is a TODO stub):"
		echo "$todo"
	fi | say
fi
# The first screen, once the results are all in; with no exercise
# unfinished, every failure is shown as it would have been.
if [ -n "$screen" ]; then
	n=${exdir%/}; n=${n##*stage}
	if [ $failed = 0 ] || ! tests/lib/firstscreen.sh "$name" "$n" "$exdir" "$res" "$log"; then
		cat "$log"
	fi
fi
# shellcheck disable=SC2086 # warnfiles: file names without spaces
[ -z "$warnfiles" ] || cat $warnfiles 2>/dev/null >"$res/warnings.txt"
nwarn=0
[ ! -s "$res/warnings.txt" ] || nwarn=$(grep -c ': warning: ' "$res/warnings.txt")
if [ "$nwarn" -gt 0 ]; then
	where=$res/warnings.txt
	[ -z "$tmpres" ] || where="the compiler's output above"
	echo "$name: your code compiles with $nwarn warning$([ "$nwarn" = 1 ] || echo s) (all in ${where#"$PWD/"}); the first:"
	grep -m 5 -A 3 ': warning: ' "$res/warnings.txt" | head -n 20 | sed 's/^/    /'
fi
echo "$passed $failed" >"$res/summary"
[ -z "$tmpres" ] || rm -rf "$tmpres"
echo "$name: $passed passed, $failed failed"
[ $failed -eq 0 ]
