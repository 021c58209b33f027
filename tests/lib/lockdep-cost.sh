#!/bin/bash
# lockdep-cost.sh ROUNDS KSIM:TSV... - what lockdep costs the scenarios, as one ratio.
#
# Runs every scenario of each table ROUNDS times with lockdep and ROUNDS
# times without (--no-lockdep), alternating, and adds up the CPU time
# (user + system) of each side: the non-sleeping part, since the
# scenarios mostly sleep in delay points, which lockdep does not change.
# Prints both sums and their ratio; fails if the ratio is above 2.
set -u
rounds=$1; shift
TIMEFORMAT='%U %S'
on=0 off=0 runs=0
cpu() {	# cpu KSIM ARGS... - the CPU seconds of one run, on stdout
	local t
	t=$( { time "$@" >/dev/null 2>&1; } 2>&1 )
	awk '{ print $1 + $2 }' <<<"$t"
}
for pair in "$@"; do
	ksim=${pair%%:*} tsv=${pair#*:}
	scripts=$(awk -F'\t' '!/^#/ && NF { split($1, w, " "); print w[1] }' "$tsv" | sort -u)
	for r in $(seq "$rounds"); do
		for s in $scripts; do
			a=$(cpu timeout 10 "$ksim" "$s")
			b=$(cpu timeout 10 "$ksim" --no-lockdep "$s")
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
