#!/bin/sh
# mkexercises.sh SOLUTIONS_DIR OUT_DIR [SHAPES_DIR] - write every skeleton of solutions/ into OUT_DIR.
# Files without a fence are copied as they are (hints.txt among them: the
# student's make hint-stageN reads the copy).  A fence's TODO() gets level 1
# of its exercise's hints from SOLUTIONS_DIR/hints.txt (code/tools/hints.awk).
set -e
src=$1 out=$2 shapes=${3:-}
here=$(dirname "$0")
hints=
[ ! -f "$src/hints.txt" ] || hints=$src/hints.txt
rm -rf "$out.tmp" && mkdir -p "$out.tmp"
(cd "$src" && find . -type f | sort) | while read -r f; do
	mkdir -p "$out.tmp/$(dirname "$f")"
	awk -v hints="$hints" -f "$here/hints.awk" -f "$here/mkexercise.awk" "$src/$f" > "$out.tmp/$f"
done
rm -rf "$out" && mv "$out.tmp" "$out"
[ -n "$shapes" ] || exit 0
rm -rf "$shapes.tmp" && mkdir -p "$shapes.tmp"
(cd "$src" && find . -type f -name '*.c' | sort) | while read -r f; do
	mkdir -p "$shapes.tmp/$(dirname "$f")"
	awk -v hints="$hints" -v shape=1 -f "$here/hints.awk" -f "$here/mkexercise.awk" "$src/$f" > "$shapes.tmp/$f"
done
rm -rf "$shapes" && mv "$shapes.tmp" "$shapes"
