#!/bin/bash
# stage-chain.sh N - the stages stage N is built from, lowest first, one line ("1 3 4" for stage 4).
#
# Each stage but the first names the stage it builds on in code/stageN/BASE
# (one number); the chain follows those files down to stage 1.  The
# Makefile's stage_chain is the same walk.  Run from the workbook's root.
# Exit status 0; 2 if N is not a stage, a BASE is not a lower stage's number,
# or the chain does not end at stage 1.
set -u
n=${1:-}
chain=
while :; do
	case $n in ''|*[!0-9]*) echo "stage-chain.sh: '$n' is not a stage number" >&2; exit 2 ;; esac
	[ -d "code/stage$n" ] || { echo "stage-chain.sh: there is no code/stage$n" >&2; exit 2; }
	chain="$n${chain:+ $chain}"
	[ -f "code/stage$n/BASE" ] || break
	b=$(head -n 1 "code/stage$n/BASE")
	case $b in ''|*[!0-9]*) echo "code/stage$n/BASE:1:1: not a stage number: '$b'" >&2; exit 2 ;; esac
	[ "$b" -lt "$n" ] || { echo "code/stage$n/BASE:1:1: stage $n cannot build on stage $b, which is not lower" >&2; exit 2; }
	n=$b
done
[ "$n" = 1 ] || { echo "stage-chain.sh: the chain $chain ends at stage $n, which names no BASE; only stage 1 may" >&2; exit 2; }
echo "$chain"
