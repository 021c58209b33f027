#!/bin/sh
# mkexercises.sh SOLUTIONS_DIR OUT_DIR - write every skeleton of solutions/ into OUT_DIR.
# Files without a fence are copied as they are.
set -e
src=$1 out=$2
here=$(dirname "$0")
rm -rf "$out.tmp" && mkdir -p "$out.tmp"
(cd "$src" && find . -type f | sort) | while read -r f; do
	mkdir -p "$out.tmp/$(dirname "$f")"
	awk -f "$here/mkexercise.awk" "$src/$f" > "$out.tmp/$f"
done
rm -rf "$out" && mv "$out.tmp" "$out"
