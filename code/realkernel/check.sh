#!/bin/bash
# check.sh [--ksim-only] BUILD RUNDIR SCENARIO... - hold the workbook's predictions against ksim and Linux 6.1.
#
# RUNDIR holds each scenario's Linux console log (NAME.log, from boot.sh).
# For each scenario this runs its ksim scripts one step at a time
# (steps.awk) on BUILD/stageN/ksim, names what every step did on both sides
# (outcomes.awk), compares both with predictions.tsv (compare.awk), checks
# the Linux console against console.tsv, prints the table and every
# failure, and ends with "N passed, M failed".  Exit status 0 if nothing
# failed, 1 otherwise, 2 if a data file is malformed.
#
# --ksim-only holds the KSIM column against ksim alone, with no Linux
# logs and no console checks (make check-realkernel-predictions, part of
# make check).
#
# A scenario's "# ksim: stageN SCRIPT..." line says which stage predicts
# it (the first stage that has what it needs: stage 4 for sysfs, stage 5
# for /dev) and which ksim scripts stand for it.  Most have one.  ksim
# ends its run at the first oops (as a kernel booted with panic_on_oops
# would), where Linux's default kills only the task that oopsed and the
# script goes on: the rows after a predicted oops then need a second
# script, a run of their own, whose steps follow the first's.  A scenario
# whose script says "# ksim: none" runs on Linux only, and each of its
# rows has KSIM "-".
#
# ksim runs under the controlled scheduler, on virtual time, as make check
# grades every scenario: the windows the scripts hold open with a delay
# point (and an await of it) then open the same way on every run, whatever the load
# (a free run on two busy cores can let a woken task in where one CPU
# would not, which is what self-vs-locked-unplug turns on).
set -uo pipefail
only=
if [ "${1:-}" = --ksim-only ]; then
	only=ksim
	shift
fi
build=$1 rundir=$2
shift 2
here=code/realkernel
results=$rundir/results.tsv
: >"$results"
fails=0 passes=0
stages=
for s in "$@"; do
	guest=$here/scenarios/$s.sh
	read -r stage kscripts < <(sed -n 's/^# ksim: *//p' "$guest" | head -n 1) || :
	bad=
	case $stage in
	none) [ -z "$kscripts" ] || bad=1 ;;
	stage[1-9]) [ -n "$kscripts" ] || bad=1
		for k in $kscripts; do [ -f "$k" ] || bad=1; done ;;
	*) bad=1 ;;
	esac
	if [ -n "$bad" ]; then
		echo "$guest:1:1: want a line '# ksim: stageN PATH...' naming the stage and its existing ksim scripts, or '# ksim: none'" >&2
		exit 2
	fi
	if [ "$stage" = none ]; then	# Linux only: every row's KSIM is "-"
		[ -n "$only" ] || [ ! -f "$rundir/$s.log" ] ||
			awk -v side=linux -f $here/outcomes.awk $here/outcomes.tsv "$rundir/$s.log" |
			sed "s/^/$s\tlinux\t/" >>"$results"
		continue
	fi
	stages="$stages $s=${stage#stage}"
	ksim=$build/$stage/ksim
	[ -x "$ksim" ] || { echo "check.sh: $s needs $ksim: make $ksim" >&2; exit 2; }
	n=0
	for k in $kscripts; do	# each a run of its own; its steps follow the run before
		n=$((n + 1)) run=$rundir/$s.$n
		awk -v mode=ksim -v keys="$run.ksim-keys" -f $here/steps.awk "$k" >"$run.ksh" || exit 2
		timeout 60 "$ksim" --sched nonpreemptive --echo "$run.ksh" >"$run.ksim.out" 2>&1
		awk -v side=ksim -f $here/outcomes.awk $here/outcomes.tsv "$run.ksim-keys" "$run.ksim.out" |
			sed "s/^/$s\tksim\t/" >>"$results"
	done
	if [ -f "$rundir/$s.log" ]; then
		awk -v side=linux -f $here/outcomes.awk $here/outcomes.tsv "$rundir/$s.log" |
			sed "s/^/$s\tlinux\t/" >>"$results"
	fi
done

out=$(awk -v only="$only" -v scenarios="$*" -v stages="$stages" -f $here/compare.awk $here/predictions.tsv "$results") || exit 2
sed '/^CHECKS /d' <<<"$out"
read -r _ p f < <(grep '^CHECKS ' <<<"$out")
passes=$((passes + p)) fails=$((fails + f))

# The console checks: each ERE of console.tsv is one check.
[ -n "$only" ] || while IFS=$'\t' read -r s res; do
	case $s in '#'*|'') continue ;; esac
	[[ " $* " == *" $s "* ]] || continue
	log=$rundir/$s.log clean=$rundir/$s.console
	sed 's/\r$//' "$log" >"$clean" 2>/dev/null || : >"$clean"	# the serial console's CR LF
	IFS=$'\t' read -r -a res <<<"$res"
	for re in "${res[@]}"; do
		if [[ $re == '!'* ]]; then
			if grep -Eq -- "${re#!}" "$clean"; then
				echo "FAIL $s: the Linux console shows /${re#!}/ ($log)"; fails=$((fails + 1))
			else passes=$((passes + 1)); fi
		else
			if grep -Eq -- "$re" "$clean"; then passes=$((passes + 1))
			else echo "FAIL $s: the Linux console lacks /$re/ ($log)"; fails=$((fails + 1)); fi
		fi
	done
done <$here/console.tsv

name=real-kernel
[ -z "$only" ] || name=realkernel-predictions
echo "$name: $passes passed, $fails failed"
[ "$fails" = 0 ]
