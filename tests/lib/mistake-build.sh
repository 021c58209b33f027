#!/bin/bash
# mistake-build.sh PATCH SUITES OUTDIR - build a stage's reference with one mistake (or variant) patched in.
#
# The patch names one file of the reference stage (its first "--- PATH"
# line).  That file is copied to OUTDIR, patched, compiled with the stage's
# flags and linked, with the reference's other objects, into OUTDIR/ksim and
# into OUTDIR/SUITE (tests/stageN/SUITE.c) for each SUITE of SUITES (one
# name, or several separated by spaces: tests/lib/patched.sh builds them
# all).  Exit 0 if all built; 1 with a message if the patch no longer
# applies or the result does not build.
#
# From the environment (tests/lib/stage-checks.mk): CC, STAGE_CFLAGS,
# STAGE_DIR (the reference build, with obj/ and the modules), KERNEL_OBJ,
# SHELL_OBJ, TESTLIB_OBJ, LINK_FLAGS, CHECK_CFLAGS, CHECK_LIBS; and
# MISTAKE_TESTS, the suites' directory, for a patch kept elsewhere than
# tests/stageN/DIR/ (make mutants writes its patches under build/).
set -u
patchfile=$1 suites=$2 d=$3
tests=${MISTAKE_TESTS:-$(dirname "$(dirname "$patchfile")")}	# tests/stageN
command -v patch >/dev/null || { echo "patch: not installed; run make deps"; exit 1; }
rm -rf "$d" && mkdir -p "$d/obj"
src=$(sed -n 's/^--- //p' "$patchfile" | head -n 1)
base=${src##*/}
obj=${base%.c}.o
cp "$src" "$d/$base"
if ! patch -s "$d/$base" < "$patchfile"; then
	echo "$patchfile no longer applies to $src (regenerate it)"
	exit 1
fi
objs=()
for o in "$STAGE_DIR"/obj/*.o; do
	[ "${o##*/}" = "$obj" ] && objs+=("$d/obj/$obj") || objs+=("$o")
done
# The reference's modules, by absolute path (one ln for all of them).
ln -sf "$(cd "$STAGE_DIR" && pwd -P)"/*.so "$d/"
if ! $CC $STAGE_CFLAGS -c "$d/$base" -o "$d/obj/$obj" ||
   ! $CC $STAGE_CFLAGS -o "$d/ksim" $KERNEL_OBJ $SHELL_OBJ "${objs[@]}" $LINK_FLAGS; then
	echo "$patchfile: does not build"
	exit 1
fi
for suite in $suites; do
	$CC $STAGE_CFLAGS -Itests/lib $CHECK_CFLAGS -o "$d/$suite" "$tests/$suite.c" \
		"${objs[@]}" $KERNEL_OBJ $TESTLIB_OBJ $CHECK_LIBS $LINK_FLAGS ||
		{ echo "$patchfile: $suite does not build"; exit 1; }
done
