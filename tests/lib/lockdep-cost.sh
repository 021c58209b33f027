#!/bin/bash
# lockdep-cost.sh ROUNDS KSIM:TSV... - what lockdep costs the scenarios, as one ratio.
#
# Runs every scenario of each table ROUNDS times with lockdep and ROUNDS
# times without (--no-lockdep), alternating, and adds up the CPU time
# (user + system) of each side.  KSIM may carry arguments: make check runs
# it under the controlled scheduler, whose clock is virtual, so a delay
# point costs no waiting (free threads, the same runs took 18 s of sleep).
# Prints both sums and their ratio; fails if the ratio is above 2.
set -u
rounds=$1; shift
TIMEFORMAT='%U %S'
on=0 off=0 runs=0
cpu() {	# cpu KSIM ARGS... - the CPU seconds of one run, on stdout
	local t
	t=$( { time { "$@" >/dev/null 2>&1; echo "rc $?" >&2; }; } 2>&1 )
	# A run that did not run (no such file, 126-127) or ran out of time
	# (124) would make a ratio of nothing: it is an error instead.
	case $t in
	*"rc 12"[4-7]*) echo "lockdep-cost: $* did not run to its end (${t%%$'\n'*})" >&2; echo x; return ;;
	esac
	awk '/^[0-9.]+ [0-9.]+$/ { print $1 + $2 }' <<<"$t"
}
for pair in "$@"; do
	ksim=${pair%%:*} tsv=${pair#*:}
	scripts=$(awk -F'\t' '!/^#/ && NF { split($1, w, " "); print w[1] }' "$tsv" | sort -u)
	for r in $(seq "$rounds"); do
		for s in $scripts; do
			# shellcheck disable=SC2086 # ksim: a path and its arguments
			a=$(cpu timeout 10 $ksim "$s")
			# shellcheck disable=SC2086
			b=$(cpu timeout 10 $ksim --no-lockdep "$s")
			[ "$a" = x ] || [ "$b" = x ] && exit 1
			on=$(awk -v x="$on" -v y="$a" 'BEGIN { print x + y }')
			off=$(awk -v x="$off" -v y="$b" 'BEGIN { print x + y }')
			runs=$((runs + 1))
		done
	done
done
awk -v on="$on" -v off="$off" -v n="$runs" 'BEGIN {
	r = off > 0 ? on / off : 0
	printf "lockdep-cost: %d scenario runs each way: %.3f s CPU with lockdep, %.3f s without: ratio %.2f (limit 2)\n", n, on, off, r
	exit r > 2
}'
