#!/bin/bash
# valgrind.sh TOOL TSV LOGDIR [--quiet] [--student] [--build DESC] - run a stage's scenarios under one Valgrind tool.
#
# Each TSV line: TOOL <TAB> SCRIPT <TAB> WANT [<TAB> REGEX]..., WANT being "0"
# (the tool must report no error) or ">0" (it must report at least one:
# error counts vary from run to run, drd's 1 or 2 for one race, so never an exact
# number).  The count is the tool's own "ERROR SUMMARY" line; each REGEX
# (extended) must match the report, so what a chapter says the report
# names is checked too.  The whole report is kept in LOGDIR.
#
# $KSIM is the build run; DESC says which it is (printed first).  With
# --student it is a student's build: the expectations are the reference's,
# so a difference is reported as that, not as a broken tool.
set -u
tool=$1 tsv=$2 logdir=$3
shift 3
quiet= student= build=
while [ $# -gt 0 ]; do
	case $1 in
	--quiet) quiet=1; shift ;;
	--student) student=1; shift ;;
	--build) build=$2; shift 2 ;;
	*) echo "valgrind.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
mkdir -p "$logdir"
# memcheck runs ksim under the controlled scheduler (code/kernel/scheduler.h):
# which access is invalid depends on the order the tasks ran in, not on
# how fast, and under Valgrind on a busy machine a scenario's 100 ms
# window was lost (stage 3's seed example 1 once ran clean).  helgrind and
# drd must see tasks run free: the scheduler hands the CPU from task to
# task through a mutex, which orders everything they could report.
sched=
case $tool in
helgrind) flags="--free-is-write=yes --history-level=approx" ;;
drd) flags="--free-is-write=yes" ;;
memcheck) flags="--leak-check=no" sched="--sched nonpreemptive" ;;
*) echo "valgrind.sh: unknown tool $tool" >&2; exit 2 ;;
esac
echo "$tool: running ${KSIM}${sched:+ $sched}${build:+ ($build)}"
status=0 n=0 np=0
while IFS=$'\t' read -r t script want rest; do
	case $t in ''|'#'*) continue ;; esac
	[ "$t" = "$tool" ] || continue
	n=$((n + 1))
	log=$logdir/$tool-$(basename "$script" .ksh).log
	# Everything is slower under Valgrind: give both watchdogs room.
	KSIM_HUNG_TASK_TIMEOUT_MS=30000 KSIM_SOFTLOCKUP_TIMEOUT_MS=120000 timeout -k 5 300 valgrind --tool="$tool" $flags --vgdb=no \
		--log-file="$log" $KSIM $sched "$script" >"$log.out" 2>&1
	rc=$?
	errors=$(sed -nE 's/.*ERROR SUMMARY: ([0-9]+) errors.*/\1/p' "$log" | tail -n 1)
	if [ -z "$errors" ]; then
		verdict="FAIL (no ERROR SUMMARY; ksim exit $rc)"
	elif [ "$want" = 0 ] && [ "$errors" -eq 0 ]; then
		verdict=ok
	elif [ "$want" = '>0' ] && [ "$errors" -gt 0 ]; then
		verdict=ok
	elif [ -n "$student" ]; then
		verdict="differs from the reference (there: $want errors, here $errors)"
	else
		verdict="FAIL (want $want)"
	fi
	IFS=$'\t' read -r -a pats <<<"$rest"
	for p in "${pats[@]}"; do
		[ -n "$p" ] || continue
		grep -qE -- "$p" "$log" && continue
		if [ -n "$student" ]; then
			verdict="differs from the reference (its report matches /$p/)"
		else
			verdict="FAIL (report does not match /$p/)"
		fi
	done
	[ "$errors" = 1 ] && noun=error || noun=errors
	echo "$tool $script: ${errors:-no} $noun, ksim exit $rc: $verdict   [$log]"
	case $verdict in ok) np=$((np + 1)) ;; *) status=1 ;; esac
	if [ -z "$quiet" ]; then
		# The first report in full: what a reader should learn to read.
		awk '/^==[0-9]+== (Possible data race|Conflicting|Invalid|Jump|Thread #|Lock at|This conflicts|Address|Process terminating)/{p=1} p&&c<60{print;c++}' "$log"
		echo
	fi
done < "$tsv"
[ $n -gt 0 ] || { echo "valgrind.sh: no $tool scenario in $tsv" >&2; exit 1; }
# The tally line make check reads (code/tools/tally.sh).
if [ -n "$student" ]; then
	echo "$tool $(basename "$(dirname "$tsv")"): $np of $n runs as on the reference"
else
	echo "$tool $(basename "$(dirname "$tsv")"): $np passed, $((n - np)) failed"
fi
exit $status
