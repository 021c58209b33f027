#!/bin/bash
# stress-tools.sh BINARY LOGDIR - the stage-3 stress test under memcheck, helgrind and drd: 0 errors each.
#
# The suite runs its test in a forked child, which Valgrind follows: every
# ERROR SUMMARY line of the log (the parent's and the child's) must say 0,
# and the test itself must pass.  The stress runs for KSIM_STRESS_MS
# (1500 ms here), whatever the tool's slowdown.
set -u
bin=$1 logdir=$2
mkdir -p "$logdir"
status=0
for tool in memcheck helgrind drd; do
	case $tool in
	helgrind) flags="--free-is-write=yes --history-level=approx" ;;
	drd) flags="--free-is-write=yes" ;;
	memcheck) flags="--leak-check=no" ;;
	esac
	log=$logdir/$tool-stress.log
	out=$(KSIM_STRESS_MS=${KSIM_STRESS_MS:-1500} KSIM_HUNG_TASK_TIMEOUT_MS=30000 CK_TIMEOUT_MULTIPLIER=4 \
		timeout -k 5 300 valgrind --tool=$tool $flags --vgdb=no --log-file="$log" "$bin" 2>&1)
	rc=$?
	sums=$(sed -nE 's/.*ERROR SUMMARY: ([0-9]+) errors.*/\1/p' "$log")
	errors=0
	for e in $sums; do errors=$((errors + e)); done
	line=$(grep -m1 '^stress:' <<<"$out")
	if [ -z "$sums" ] || [ $rc -ne 0 ] || [ $errors -ne 0 ]; then
		echo "$tool stress: FAIL ($errors errors, exit $rc)   [$log]"
		printf '%s\n' "$out" | grep -E ':[FE]:|^stress' | sed 's/^/    | /'
		# The kernel's own report, if the run ended in one (an oops, a hung task).
		printf '%s\n' "$out" | awk '/^(BUG|WARNING|INFO: task|kernel BUG)/{p=1} p&&c<30{print "    | " $0;c++} /end trace/{p=0}'
		awk '/^==[0-9]+== (Possible data race|Conflicting|Invalid|Thread #|Lock at)/{p=1} p&&c<40{print;c++}' "$log"
		status=1
	else
		echo "$tool stress: 0 errors; ${line#stress: }   [$log]"
	fi
done
exit $status
