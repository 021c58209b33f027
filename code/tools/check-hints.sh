#!/bin/bash
# check-hints.sh [STAGE...] - every exercise has its hints, and the hints name only what exists.
#
# For each stage N (default every stage, code/tools/stages.sh) that has
# exercises, solutions/stageN/hints.txt (format:
# code/tools/hints.awk) must
#   - list exactly the exercises fenced in solutions/stageN (BEGIN EXERCISE),
#     each with levels 1, 2 and 3, level 1 without a quote or a backslash
#     (it becomes the skeleton's TODO string);
#   - name only what exists: every `backquoted` span's C identifiers must
#     appear in the code a student of stage N has (code/kernel, code/stage1..N,
#     the solutions of the stages before, stage N's skeleton), comments left
#     out, and so must a call (name()) or a constant (NAME_X) written outside
#     backquotes; a span that is a file name (`kref.h`) must be such a file;
#     `delay_point("X")` needs a DELAY_POINT(X);
#   - mention `delay_point("X")` for every delay point an exercise's solution
#     calls (a scenario may depend on it: it is part of the exercise);
#   - never give the solution verbatim: no statement of a fence's solution
#     appears in a hint.
# Problems are FILE:LINE:COL: message.  The last line is
# "check-hints: N passed, M failed" (one check per exercise); exit status 0,
# 1 if a check failed, 2 if a hints file cannot be read as hints.
set -u
here=$(dirname "$0")
stages=${*:-$(code/tools/stages.sh)}
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
pass=0 fail=0 bad_input=0

# existing PATH... - those of the paths that are files, one per line.
existing() { local f; for f; do [ -f "$f" ] && printf '%s\n' "$f"; done; return 0; }

# skeleton FILE... - each FILE with the fenced solutions left out (their STUB lines kept), as make exercises writes it.
skeleton() {
	awk '/\/\* BEGIN EXERCISE/ { inside = 1; next }
	     /\/\* END EXERCISE \*\// { inside = 0; next }
	     inside && /\/\* STUB: / { s = $0; sub(/^.*\/\* STUB: /, "", s); sub(/ *\*\/.*$/, "", s); print s; next }
	     !inside' "$@"
}

for n in $stages; do
	hints=solutions/stage$n/hints.txt
	# A stage without exercises (none fenced, no hints) has nothing to check yet.
	if [ ! -f "$hints" ] && ! grep -rqs 'BEGIN EXERCISE' "solutions/stage$n"; then
		echo "stage $n: no exercises"
		continue
	fi
	if [ ! -f "$hints" ]; then
		echo "$hints:0:0: missing: every stage's exercises need their hints"
		fail=$((fail + 1))
		continue
	fi
	# The code a student of stage N sees, comments removed (gcc -fpreprocessed
	# drops comments and expands nothing): one stream, one process per kind.
	mapfile -t own < <(existing solutions/stage$n/*.c solutions/stage$n/modules/*.c)
	# The stages its build is made of: its bases down to stage 1, and itself.
	chain=$(code/tools/stage-chain.sh "$n") || { fail=$((fail + 1)); continue; }
	{
		for k in $chain; do
			mapfile -t f < <(existing code/stage$k/*.[ch] code/stage$k/modules/*.[ch])
			[ ${#f[@]} = 0 ] || cat "${f[@]}"
			[ "$k" = "$n" ] && continue
			mapfile -t f < <(existing solutions/stage$k/*.c solutions/stage$k/modules/*.c)
			[ ${#f[@]} = 0 ] || cat "${f[@]}"
		done
		[ ${#own[@]} = 0 ] || skeleton "${own[@]}"
		cat code/kernel/*.[ch]
	} | gcc -fpreprocessed -dD -E -P -x c - 2>/dev/null >"$work/code$n"
	grep -ohE '[A-Za-z_][A-Za-z0-9_]*|"[^"]*"' "$work/code$n" | sort -u >"$work/words$n"
	sed -nE 's/.*DELAY_POINT\(([A-Za-z0-9_]+)\).*/\1/p' "$work/code$n" | sort -u >"$work/delays$n"
	# Files a hint may name: the stage's sources and headers by base name, and the scenarios.
	{ for k in $chain; do ls code/stage$k solutions/stage$k code/stage$k/modules 2>/dev/null; done
	  ls code/kernel code/scenarios; } | sort -u >"$work/files$n"
	# The fences: NAME <TAB> FILE:LINE, and the solutions' lines and delay points per exercise.
	: >"$work/body$n"
	[ ${#own[@]} = 0 ] || awk -v out="$work/body$n" '
		/\/\* BEGIN EXERCISE/ { name = $0; sub(/^.*BEGIN EXERCISE /, "", name); sub(/[ :].*$/, "", name)
			print name "\t" FILENAME ":" FNR; inside = 1; next }
		/\/\* END EXERCISE \*\// { inside = 0; next }
		inside && !/\/\* STUB: / { l = $0; gsub(/^[ \t]+|[ \t]+$/, "", l); print name "\t" l >> out }' \
		"${own[@]}" >"$work/fences$n"
	awk -v dbg=${DBG:-0} -F'\t' -v hints="$hints" -v words="$work/words$n" -v files="$work/files$n" \
	    -v fences="$work/fences$n" -v delays="$work/delays$n" -v body="$work/body$n" -v stage="$n" \
	    -f "$here/hints.awk" -f "$here/check-hints.awk" >"$work/out$n"
	rc=$?
	if [ $rc = 2 ]; then bad_input=1; fail=$((fail + 1)); fi
	grep -v '^ok \|^FAIL ' "$work/out$n"
	p=$(grep -c '^ok ' "$work/out$n"); f=$(grep -c '^FAIL ' "$work/out$n")
	grep -q "has no hints in" "$work/out$n" && f=$((f + $(grep -c "has no hints in" "$work/out$n")))
	echo "stage $n: $p exercises' hints ok, $f not"
	pass=$((pass + p)) fail=$((fail + f))
done
echo "check-hints: $pass passed, $fail failed"
[ $bad_input = 0 ] || exit 2
[ $fail = 0 ]
