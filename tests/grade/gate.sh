#!/bin/bash
# gate.sh GATE STAGE EXDIR [BUILD KERNEL_OBJ...] - the submission gate, before a stage's exercises run.
#
# The same code in make grade (tests/grade/grade.sh, and so the Gradescope
# bundle) and make check-stageN.  Run from the course's tree.  GATE is the
# compiled tests/grade/gate.c; EXDIR the stage's exercise files
# (exercises/stageN, or a grading copy's); each is held to its shape,
# tests/grade/shapes/stageN/ (gate.c says how), with the headers of the
# stage's build, in the compiler's order: code/kernel (KSIM_CFLAGS), then
# the -I directories of its layers, highest first (solutions/stageK, or
# exercises/stageK in a handout, or EXDIR for STAGE itself, then
# code/stageK; the chain of
# code/tools/stage-chain.sh, as the Makefile's stage_layers; check-gate
# shows the references pass with them).
#
# With BUILD (the stage's build directory, its obj/) and the kernel's
# objects, each exercise file's object (BUILD/obj/NAME.o, or
# BUILD/obj/modules/NAME.o) is held to tests/grade/objgate.sh as well; an
# object not there yet is skipped.
#
# Prints each refusal, "FILE:LINE: rule: what to do instead"; with
# GATE_REFUSED=FILE, writes there the refused files (relative to EXDIR),
# one a line, each with its letter: S (the source) or O (the object).
# GATE_ONLY=source or objects prints one half's refusals only (check-stageN
# runs the source half before its build, the objects' after).
# Exit status: 0 every file accepted, 1 one refused at least, 2 the gate
# itself failed.
set -u
gate=$1 n=$2 ex=$3
shift 3
build=${1:-}
[ $# = 0 ] || shift
shapes=tests/grade/shapes/stage$n
[ -x "$gate" ] || { echo "gate.sh: $gate: not built" >&2; exit 2; }
[ -d "$shapes" ] || { echo "gate.sh: no $shapes: run me from the workbook's root" >&2; exit 2; }
chain=$(code/tools/stage-chain.sh "$n") || exit 2
incs=()
for k in $chain; do
	# (a base stage's files: the reference's, or in a handout, which has none, the student's own; Makefile's base_tree)
	if [ "$k" = "$n" ]; then own=$ex; elif [ -d "solutions/stage$k" ]; then own=solutions/stage$k; else own=exercises/stage$k; fi
	incs=("-I$own" "-Icode/stage$k" "${incs[@]}")
done
incs=(-Icode/kernel "${incs[@]}")
# GATE_INCS=1: print those flags and stop (check-gate calls the tool itself, many times).
[ -z "${GATE_INCS:-}" ] || { echo "${incs[@]}"; exit 0; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
refused=${GATE_REFUSED:-$tmp/refused}
: >"$refused"
status=0
api=
if [ -n "$build" ]; then
	api=$tmp/api
	tests/grade/objgate.sh --api "$api" "$@" "$build"/obj/*.o || exit 2
fi
while read -r rel; do
	f=$ex/$rel
	if [ ! -f "$f" ]; then
		echo "$f: missing: put back the handed-out file"
		echo "S $rel" >>"$refused"
		status=1
		continue
	fi
	if [ "${GATE_ONLY:-}" = objects ]; then
		"$gate" "${incs[@]}" --globals "$tmp/globals" "$shapes/$rel" "$f" >/dev/null
		rc=$?
		[ $rc = 1 ] && rc=0
	else
		"$gate" "${incs[@]}" --globals "$tmp/globals" "$shapes/$rel" "$f"
		rc=$?
	fi
	case $rc in
	0) ;;
	1) echo "S $rel" >>"$refused"; status=1 ;;
	*) exit 2 ;;
	esac
	[ -n "$api" ] && [ "${GATE_ONLY:-}" != source ] || continue
	case $rel in
	modules/*) o=$build/obj/modules/$(basename "$rel" .c).o ;;
	*) o=$build/obj/$(basename "$rel" .c).o ;;
	esac
	[ -f "$o" ] || continue
	if [ -L "$o" ]; then	# (the build makes none: the objects are read as root in make grade)
		echo "$f: its object $o is a symbolic link: the build's own object is graded"
		echo "O $rel" >>"$refused"
		status=1
		continue
	fi
	tests/grade/objgate.sh "$api" "$tmp/globals" "$f" "$o"
	rc=$?
	case $rc in
	0) ;;
	1) echo "O $rel" >>"$refused"; status=1 ;;
	*) exit 2 ;;
	esac
done < <(cd "$shapes" && find . -name '*.c' | sed 's|^\./||' | sort)
# A C file of the student's own: check-stageN's build takes it in, the grader never does.
while read -r rel; do
	[ -f "$shapes/$rel" ] && continue
	[ "${GATE_ONLY:-}" = objects ] || echo "$ex/$rel:1: not a handed-out file: the grader takes only those; move its code into the exercises"
	echo "S $rel" >>"$refused"
	status=1
done < <(cd "$ex" && find . -name '*.c' | sed 's|^\./||' | sort)
exit $status
