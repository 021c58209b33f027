#!/bin/bash
# scenarios.sh TSV - run each scenario of a table and check its outcome.
#
# Each line: SCRIPT <TAB> EXIT <TAB> PATTERN [<TAB> PATTERN]...
# SCRIPT is run by $KSIM, with the ksim options that follow it if any
# ("code/scenarios/x.ksh --no-lockdep"); EXIT is the status it must end with; every
# PATTERN (an extended regex) must match somewhere in what it printed, or,
# written !PATTERN, must not.  '#' lines are comments.
set -u
tsv=$1
status=0 timeouts=0
while IFS=$'\t' read -r script want rest; do
	case $script in ''|'#'*) continue ;; esac
	# Two runs killed for time: the code under test loops; the rest would
	# only take 10 s each to say so again.
	if [ $timeouts -ge 2 ]; then
		echo "FAIL $script: not run: two scenarios before it ran out of time"
		status=1
		continue
	fi
	read -r path opts <<<"$script"
	# shellcheck disable=SC2086 # opts: ksim options, words
	out=$(timeout -k 5 10 $KSIM $opts "$path" 2>&1); rc=$?
	[ $rc = 124 ] && timeouts=$((timeouts + 1)) && out="$out
(killed after 10 s: an endless loop in your code, or a wait that nothing ends?)"
	bad=
	[ "$rc" = "$want" ] || bad="exit $rc, expected $want"
	IFS=$'\t' read -r -a pats <<<"$rest"
	for p in "${pats[@]}"; do
		[ -n "$p" ] || continue
		if [ "${p:0:1}" = '!' ]; then
			grep -qE -- "${p:1}" <<<"$out" && bad="${bad:+$bad; }printed /${p:1}/"
		else
			grep -qE -- "$p" <<<"$out" || bad="${bad:+$bad; }did not print /$p/"
		fi
	done
	if [ -n "$bad" ]; then
		echo "FAIL $script: $bad"
		printf '%s\n' "$out" | tail -n 25 | sed 's/^/    | /'
		status=1
	else
		echo "ok $script"
	fi
done < "$tsv"
exit $status
