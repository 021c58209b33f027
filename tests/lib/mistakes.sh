#!/bin/bash
# mistakes.sh TSV OUTDIR - build a stage with each classic mistake patched in; the named test must catch it.
#
# Each TSV line names a patch against one file of the reference stage, a
# Check suite, a test case of it and a regex.  The patched file is compiled
# with the stage's flags and linked, with the reference's other objects,
# into a ksim and the suite of its own; the case must then fail, and its
# output must match the regex (the test's name and its message), so each
# mistake is shown to be caught by the test meant for it.  The suites are
# the ones next to the TSV (tests/stageN/).
#
# From the environment (tests/stageN/stageN.mk): CC, STAGE_CFLAGS, STAGE_DIR
# (the reference build, with obj/ and the modules), KERNEL_OBJ, SHELL_OBJ,
# TESTLIB_OBJ, LINK_FLAGS, CHECK_CFLAGS, CHECK_LIBS; MISTAKE_RUN_PREFIX, what
# the suite runs under (setarch -R for ThreadSanitizer), if anything.
#
# Each mistake is built by tests/lib/mistake-build.sh, from the same
# environment.  One line per mistake ("ok NAME: ..." or "FAIL NAME: ..."), then the last
# line, "check-stageN-mistakes: P passed, F failed", counts each mistake as
# one check (code/tools/tally.sh reads it).  Exit status: 0 all caught, 1 not.
set -u
tsv=$1 out=$2
tests=$(dirname "$tsv")
name_of_run="check-$(basename "$tests")-mistakes"
status=0 n=0 caught=0
mistakes=$(grep -cvE '^(#|$)' "$tsv")
[ "$mistakes" -gt 0 ] || { echo "mistakes.sh: no line in $tsv" >&2; exit 1; }
# Without patch(1) no mistake can be put in: say that, not "no longer applies".
if ! command -v patch >/dev/null 2>&1; then
	echo "FAIL $name_of_run: patch: not installed; run make deps"
	echo "$name_of_run: 0 passed, $mistakes failed"
	exit 1
fi
while IFS=$'\t' read -r patchfile suite case regex; do
	case $patchfile in ''|'#'*) continue ;; esac
	n=$((n + 1))
	name=$(basename "$patchfile" .patch)
	d=$out/$name
	# The patched build (tests/lib/mistake-build.sh says why it could not).
	if ! why=$(tests/lib/mistake-build.sh "$patchfile" "$suite" "$d"); then
		echo "FAIL $name: $why"
		status=1
		continue
	fi
	# A short watchdog: a mistake that hangs should say so quickly.
	res=$(CK_RUN_CASE=$case KSIM="$d/ksim --hung-timeout 500" KSIM_DIR=$d CK_DEFAULT_TIMEOUT=20 \
		${MISTAKE_RUN_PREFIX:-} "$d/$suite" 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "FAIL $name: $suite passed with the mistake in it"
		status=1
	elif ! grep -qE -- "$regex" <<<"$res"; then
		echo "FAIL $name: $suite failed, but not with /$regex/:"
		printf '%s\n' "$res" | grep -E ':[FE]:' | sed 's/^/    | /' | cut -c1-300
		status=1
	else
		echo "ok $name: caught by $(grep -oE -- "$regex" <<<"$res" | head -n 1 | sed "s/:[0-9]*:.*//")"
		caught=$((caught + 1))
	fi
done < "$tsv"
echo "$name_of_run: $caught passed, $((n - caught)) failed"
exit $status
