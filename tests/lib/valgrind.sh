#!/bin/bash
# valgrind.sh TOOL TSV LOGDIR [--quiet] - run a stage's scenarios under one Valgrind tool.
#
# Each TSV line: TOOL <TAB> SCRIPT <TAB> WANT [<TAB> REGEX]..., WANT being "0"
# (the tool must report no error) or ">0" (it must report at least one:
# error counts vary from run to run, see TOOLING.md, so never an exact
# number).  The count is the tool's own "ERROR SUMMARY" line; each REGEX
# (extended) must match the report, so what a chapter says the report
# names is checked too.  The whole report is kept in LOGDIR.
set -u
tool=$1 tsv=$2 logdir=$3 quiet=${4:-}
mkdir -p "$logdir"
case $tool in
helgrind) flags="--free-is-write=yes --history-level=approx" ;;
drd) flags="--free-is-write=yes" ;;
memcheck) flags="--leak-check=no" ;;
*) echo "valgrind.sh: unknown tool $tool" >&2; exit 2 ;;
esac
status=0 n=0
while IFS=$'\t' read -r t script want rest; do
	case $t in ''|'#'*) continue ;; esac
	[ "$t" = "$tool" ] || continue
	n=$((n + 1))
	log=$logdir/$tool-$(basename "$script" .ksh).log
	# Everything is slower under Valgrind: give the hung-task watchdog room.
	KSIM_HUNG_TASK_TIMEOUT_MS=30000 timeout -k 5 300 valgrind --tool="$tool" $flags --vgdb=no \
		--log-file="$log" $KSIM "$script" >"$log.out" 2>&1
	rc=$?
	errors=$(sed -nE 's/.*ERROR SUMMARY: ([0-9]+) errors.*/\1/p' "$log" | tail -n 1)
	if [ -z "$errors" ]; then
		verdict="FAIL (no ERROR SUMMARY; ksim exit $rc)"
	elif [ "$want" = 0 ] && [ "$errors" -eq 0 ]; then
		verdict=ok
	elif [ "$want" = '>0' ] && [ "$errors" -gt 0 ]; then
		verdict=ok
	else
		verdict="FAIL (want $want)"
	fi
	IFS=$'\t' read -r -a pats <<<"$rest"
	for p in "${pats[@]}"; do
		[ -n "$p" ] || continue
		grep -qE -- "$p" "$log" || verdict="FAIL (report does not match /$p/)"
	done
	echo "$tool $script: $errors errors, ksim exit $rc: $verdict   [$log]"
	case $verdict in ok) ;; *) status=1 ;; esac
	if [ -z "$quiet" ]; then
		# The first report in full: what a reader should learn to read.
		awk '/^==[0-9]+== (Possible data race|Conflicting|Invalid|Jump|Thread #|Lock at|This conflicts|Address|Process terminating)/{p=1} p&&c<60{print;c++}' "$log"
		echo
	fi
done < "$tsv"
[ $n -gt 0 ] || { echo "valgrind.sh: no $tool scenario in $tsv" >&2; exit 1; }
exit $status
