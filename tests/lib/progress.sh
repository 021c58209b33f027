#!/bin/bash
# progress.sh [--stages "N..."] [--exercises DIR] [--build DIR] [--results DIR] [--tsv] [-- MAKE-ARGS...]
# - every exercise of every stage: done, failing or not started (make progress).
#
# An exercise is
#   not started  while its TODO("name", ...) stub is still in DIR/stageN
#                (default exercises/);
#   failing      when a failed test blames it, or the stage does not compile.
#                A test depends on exercises (tests/grade/points.tsv, 3rd
#                column); a failed one blames those of them whose own tests
#                (of that exercise alone) fail, else those without such tests
#                passing, else all (the detail then names the others: one of
#                them is wrong); a test that needs an exercise not started
#                blames none;
#   done         otherwise (the detail names tests still waiting for another
#                exercise).
# The exercises and their order come from DIR/stageN/hints.txt; the stages
# (--stages) default to every stage with exercises (code/tools/stages.sh --graded).
#
# Fast: a stage whose exercises are all stubs is neither built nor run; the
# others are built by make (DIR/../build: --build, default build/student;
# MAKE-ARGS go to that make) and their Check suites and scenario table run
# without the explorer (test_explore) and without Valgrind.  Results newer
# than the build and the scenarios are reused: those of the last
# check-stageN (BUILD/stageN/results) or of the last progress run
# (BUILD/stageN/progress).
#
# --results DIR: the results of a run just made (DIR/results.tsv, written by
# tests/lib/runtests.sh for check-stageN's first screen): nothing is built
# or run, every started exercise is judged by them.  One stage only.
#
# Prints a table and "progress: D done, F failing, N not started"; --tsv
# prints STAGE<TAB>EXERCISE<TAB>STATUS<TAB>DETAIL<TAB>WHERE lines instead
# (make hint-stageN reads them).  Exit status 0; 2 on bad arguments.
set -u
stages=$(code/tools/stages.sh --graded) ex=exercises build=build/student tsv= given=
while [ $# -gt 0 ]; do
	case $1 in
	--stages) stages=$2; shift 2 ;;
	--exercises) ex=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	--results) given=$2; shift 2 ;;
	--tsv) tsv=1; shift ;;
	--) shift; break ;;
	*) echo "progress.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
here=$(dirname "$0")
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT

# fenced_in STAGE NAME - the function of solutions/stageN whose body holds exercise NAME's fence
# (NAME itself where there is no solutions/stageN: a course's handout).
fenced_in() {
	local f
	[ -d "solutions/stage$1" ] || { echo "$2"; return; }
	f=$(awk -v e="BEGIN EXERCISE $2 " '
		/^[a-z].*[ *][A-Za-z_0-9]+\(/ && !/;[ \t]*$/ { fn = $0; sub(/\(.*/, "", fn); sub(/.*[ *]/, "", fn) }
		index($0 " ", e) { print fn; exit }' $(find "solutions/stage$1" -name '*.c' | sort))
	echo "${f:-$2}"
}

# where STAGE NAME - the exercise's stub (FILE:LINE), else the line of the function it is in.
where() {
	local w
	w=$(grep -rnF "TODO(\"$2\"," "$ex/stage$1" --include=*.c | head -n 1 | cut -d: -f1,2)
	# Started: the function the reference fences it in (sysfs_schedule_callback
	# is written inside sysfs_schedule_callback_owner()), found by its exact
	# name, so sysfs_deactivate never lands on sysfs_deactivate_start.
	[ -n "$w" ] || w=$(grep -rnE "^[a-z].*[ *]$(fenced_in "$1" "$2")\(" "$ex/stage$1" --include=*.c |
		head -n 1 | cut -d: -f1,2)
	echo "${w:-$ex/stage$1}"
}

# fresh DIR STAGEDIR - DIR/results.tsv is complete and newer than the build and the scenarios.
fresh() {
	[ -s "$1/summary" ] && [ -s "$1/results.tsv" ] || return 1
	[ -z "$(find "$2" -maxdepth 2 \( -name ksim -o -name '*.so' -o -path '*/tests/*' \) -newer "$1/summary" -print -quit)" ] &&
	[ -z "$(find tests/stage"$3"/scenarios.tsv code/scenarios tests/grade/points.tsv -newer "$1/summary" -print -quit 2>/dev/null)" ]
}

for n in $stages; do
	hints=$ex/stage$n/hints.txt
	[ -f "$hints" ] || hints=solutions/stage$n/hints.txt
	if [ ! -f "$hints" ]; then
		echo "progress.sh: no $ex/stage$n/hints.txt: its list of exercises is missing (git checkout it)" >&2
		exit 2
	fi
	names=$(awk -v hints_list="$hints" -f code/tools/hints.awk 2>&1) ||
		{ echo "$names" >&2; exit 2; }
	todo= started=
	for e in $names; do
		if grep -rqF "TODO(\"$e\"," "$ex/stage$n" --include=*.c; then todo="$todo $e"; else started="$started $e"; fi
	done
	sd=$build/stage$n
	[ -n "$given" ] || mkdir -p "$sd"
	res= built=1
	if [ -n "$given" ]; then
		res=$given
	elif [ -n "$started" ]; then
		tests=$(for t in tests/stage$n/test_*.c; do
			b=$(basename "$t" .c); [ "$b" = test_explore ] || echo "$sd/tests/$b"; done)
		# shellcheck disable=SC2086 # tests: paths without spaces
		if ! make --no-print-directory -s "$@" "$sd/ksim" $tests >"$sd/progress-build.log" 2>&1; then
			built=
		elif fresh "$sd/results" "$sd" "$n"; then
			res=$sd/results
		elif fresh "$sd/progress" "$sd" "$n"; then
			res=$sd/progress
		else
			res=$sd/progress
			# shellcheck disable=SC2086
			KSIM="$sd/ksim --sched nonpreemptive" KSIM_DIR=$sd KSIM_SOFTLOCKUP_TIMEOUT_MS=2000 \
				"$here/runtests.sh" "progress-stage$n" --results "$res" \
				$([ -f tests/stage$n/scenarios.tsv ] && echo "--scenarios tests/stage$n/scenarios.tsv") \
				$tests >"$sd/progress.log" 2>&1
		fi
	fi
	for e in $names; do printf '%s\t%s\t%s\n' "$n" "$e" "$(where "$n" "$e")"; done >"$rows.where"
	awk -F'\t' -v n="$n" -v todo="$todo" -v built="$built" -v res="${res:+$res/results.tsv}" \
	    -v wherefile="$rows.where" '
		BEGIN {
			split(todo, t, " "); for (i in t) TODO[t[i]] = 1
			while ((getline l < wherefile) > 0) { split(l, w, "\t"); order[++ne] = w[2]; WHERE[w[2]] = w[3] }
			if (res != "")
				while ((getline l < res) > 0) { split(l, r, "\t"); RESULT[r[2] ":" r[3]] = r[4] }
		}
		# points.tsv: STAGE TEST EXERCISES
		FILENAME ~ /points/ && $1 == n && !/^#/ { ntest++; TEST[ntest] = $2; DEPS[ntest] = $3 }
		END {
			# Which exercise a failed test blames.  A test of one exercise alone
			# (a "solo" test) speaks for it: all pass, it is proven; one fails,
			# it is proven wrong.  A failed test of several exercises blames
			# those proven wrong among them, else those not proven right, else
			# all of them; a test that also needs an exercise not started
			# blames nobody (it waits).
			for (k = 1; k <= ntest; k++) {
				if (!(TEST[k] in RESULT) || DEPS[k] == "-" || DEPS[k] ~ /,/) continue
				if (RESULT[TEST[k]] == "pass") SOLO_OK[DEPS[k]]++; else SOLO_BAD[DEPS[k]]++
			}
			for (k = 1; k <= ntest; k++) {
				if (!(TEST[k] in RESULT) || RESULT[TEST[k]] == "pass" || DEPS[k] == "-") continue
				m = split(DEPS[k], d, ",")
				waits = 0
				for (j = 1; j <= m; j++) if (d[j] in TODO) waits = 1
				if (waits) continue
				nb = 0
				for (j = 1; j <= m; j++) if (d[j] in SOLO_BAD) blame[++nb] = d[j]
				if (!nb) for (j = 1; j <= m; j++) if (!(d[j] in SOLO_OK)) blame[++nb] = d[j]
				if (!nb) for (j = 1; j <= m; j++) blame[++nb] = d[j]
				for (j = 1; j <= nb; j++) {
					e = blame[j]
					FAILS[e]++
					if (!(e in FIRST)) FIRST[e] = TEST[k]
					for (q = 1; q <= nb; q++)
						if (q != j && index("," WITH[e] ",", "," blame[q] ",") == 0)
							WITH[e] = WITH[e] (WITH[e] == "" ? "" : ",") blame[q]
				}
			}
			for (i = 1; i <= ne; i++) {
				e = order[i]
				if (e in TODO) { print n "\t" e "\tnot started\tstill the TODO stub\t" WHERE[e]; continue }
				if (!built) { print n "\t" e "\tfailing\tthe stage does not compile (make check-stage" n " shows why)\t" WHERE[e]; continue }
				total = waits = passes = 0; other = ""
				for (k = 1; k <= ntest; k++) {
					m = split(DEPS[k], d, ",")
					mine = 0; blocked = ""
					for (j = 1; j <= m; j++) {
						if (d[j] == e) mine = 1
						else if (d[j] in TODO) blocked = d[j]
					}
					if (!mine || !(TEST[k] in RESULT)) continue
					total++
					if (RESULT[TEST[k]] == "pass") passes++
					else if (blocked != "") { waits++; if (other == "") other = blocked }
				}
				if (e in FAILS)
					print n "\t" e "\tfailing\t" FAILS[e] " of " total " tests fail, first " FIRST[e] \
						(WITH[e] != "" ? " (it also tests " WITH[e] ": one of them is wrong)" : "") "\t" WHERE[e]
				else if (waits)
					print n "\t" e "\tdone\t" passes " tests pass; " waits " more wait for " other "\t" WHERE[e]
				else
					print n "\t" e "\tdone\t" "all " total " tests pass\t" WHERE[e]
			}
			# Tests of code given to the student ("-"), or of nothing done yet: said once.
			g = 0
			for (k = 1; k <= ntest; k++)
				if (DEPS[k] == "-" && (TEST[k] in RESULT) && RESULT[TEST[k]] != "pass") g++
			if (g)
				print n "\t(given code)\tfailing\t" g " tests of the code given to you fail: make check-stage" n "\t-"
		}' tests/grade/points.tsv >>"$rows"
done

if [ -n "$tsv" ]; then
	cat "$rows"
	exit 0
fi
printf '%-6s %-30s %-12s %s\n' stage exercise status detail
awk -F'\t' '{ printf "%-6s %-30s %-12s %s (%s)\n", $1, $2, $3, $4, $5 }' "$rows"
awk -F'\t' '$2 !~ /^\(/ { c[$3]++ } END {
	printf "progress: %d done, %d failing, %d not started\n", c["done"], c["failing"], c["not started"] }' "$rows"
