#!/bin/bash
# check-tour-list.sh STAGE... - every run the tour announces is one that make check runs.
#
# Each "run SCRIPT EXIT" of stage N in code/tools/tour.list (or in
# tests/stageN/tour.list, which replaces it for that stage) must be a row of
# tests/stageN/scenarios.tsv with the same exit status (and the same ksim
# options after the script: "SCRIPT --no-lockdep").  make check runs
# those rows, so what the tour says about a run is tested without running
# the tour; a run moved to the wrong stage, or an exit status that changed,
# fails here, with the list's file and line.
set -u
status=0
for n in "$@"; do
	tsv=tests/stage$n/scenarios.tsv
	if [ -r "tests/stage$n/tour.list" ]; then
		list=tests/stage$n/tour.list
		runs=$(awk '$1 == "run" { r = $2; for (i = 4; i <= NF; i++) r = r " " $i
			print FILENAME ":" FNR "\t" r "\t" $3 }' "$list")
	else
		list=code/tools/tour.list
		runs=$(awk -v n="$n" '$1 == "stage" { s = $2 } $1 == "run" && s == n {
			r = $2; for (i = 4; i <= NF; i++) r = r " " $i
			print FILENAME ":" FNR "\t" r "\t" $3 }' "$list")
	fi
	while IFS=$'\t' read -r where script exit; do
		[ -n "$where" ] || continue
		if ! awk -F'\t' -v s="$script" -v e="$exit" '$1 == s && $2 == e { found = 1 } END { exit !found }' "$tsv"; then
			echo "$where: stage $n's tour runs $script expecting exit $exit, but $tsv has no such row"
			status=1
		fi
	done <<<"$runs"
done
# A stage with no runs in a list tours its scenarios.tsv, each run
# introduced by the whole comment above its row (comments run over lines).
plan=$(STAGES="$*" TOUR_PLAN=1 code/tools/tour.sh) || status=1
for n in "$@"; do
	grep -q "^run " "tests/stage$n/tour.list" 2>/dev/null && continue
	awk -v n="$n" '$1 == "stage" { s = $2 } $1 == "run" && s == n { f = 1 } END { exit !f }' code/tools/tour.list && continue
	want=$(awk -F'\t' -v n="$n" '/^# SCRIPT\t/ { next }
		/^#/ { sub(/^# */, ""); c = c (c == "" ? "" : " ") $0; next }
		/^$/ { next } { print n "\t" $1 "\t" c; c = "" }' "tests/stage$n/scenarios.tsv")
	got=$(awk -F'\t' -v n="$n" '$1 == n' <<<"$plan")
	if [ "$got" != "$want" ]; then
		echo "code/tools/tour.sh: stage $n's tour of tests/stage$n/scenarios.tsv does not introduce each row with the whole comment above it:"
		diff <(echo "$want") <(echo "$got") | head -n 6
		status=1
	fi
done
[ $status -eq 0 ] && echo "check-tour-list: every run of the tour is a tested scenario row; a scenarios.tsv tour says each row's whole comment (stages $*)"
exit $status
