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
# Each failed test must also name a function of the file the mistake is in
# (in its message, or in what it printed: a call trace, a lockdep report,
# the functions of an explorer's failing run), so the student is told where
# to look; one that does not is a FAIL too.  Two kinds are left out: a
# mistake in the given code (code/stageN/, a design's classic mistake no
# student writes), and a test that ran out of time, whose report is every
# task's call trace at that moment, and whose time limit a busy machine
# meets too.
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
# functions FILE - the functions FILE defines, one a line.
functions() {
	awk '/^[a-z].*[ *][A-Za-z_][A-Za-z_0-9]*\(/ && !/;[ \t]*$/ {
		f = $0; sub(/\(.*/, "", f); sub(/.*[ *]/, "", f); print f }' "$1" | sort -u
}

# names_a_function PATCH DIR - every test that failed in DIR (its Check XML
# log, its outputs in DIR/out) names a function of the file PATCH changes;
# else says which test does not, with its message.
names_a_function() {
	local src fns seq st id where tcase o
	src=$(sed -n 's/^--- //p' "$1" | head -n 1)
	case $src in solutions/*) ;; *) return 0 ;; esac
	fns=$(functions "$src")
	[ -n "$fns" ] || { echo "$src defines no function"; return 1; }
	while IFS=$'\t' read -r seq st id where tcase; do
		[ "$st" = fail ] || continue
		! grep -q '^ran out of time after' "$2/msg.$seq.msg" 2>/dev/null || continue
		o=$(ls "$2/out/"*".$seq.out" 2>/dev/null | head -n 1)
		if ! cat "$2/msg.$seq.msg" ${o:+"$o"} 2>/dev/null | grep -qwF -- "$fns"; then
			echo "$id ($where) names no function of $src in its message or output; its message: $(head -c 300 "$2/msg.$seq.msg")"
			return 1
		fi
	done < <(awk -v prefix="$2/msg" -f tests/lib/ckxml.awk "$2/check.xml" 2>/dev/null)
}

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
	# A short watchdog: a mistake that hangs should say so quickly.  Each
	# test's output is kept apart (ktest.h), as check-stageN keeps it, and
	# then read with the rest.
	rm -rf "$d/out" && mkdir -p "$d/out"
	res=$(CK_RUN_CASE=$case KSIM="$d/ksim --hung-timeout 500" KSIM_DIR=$d CK_DEFAULT_TIMEOUT=20 \
		KTEST_OUTPUT_DIR=$d/out CK_XML_LOG_FILE_NAME=$d/check.xml ${MISTAKE_RUN_PREFIX:-} "$d/$suite" 2>&1)
	rc=$?
	outs=$(find "$d/out" -name '*.out' | sort -t. -k2,2n)
	# shellcheck disable=SC2086 # outs: file names without spaces
	[ -z "$outs" ] || res="$res"$'\n'"$(cat $outs)"
	if [ $rc -eq 0 ]; then
		echo "FAIL $name: $suite passed with the mistake in it"
		status=1
	elif ! grep -qE -- "$regex" <<<"$res"; then
		echo "FAIL $name: $suite failed, but not with /$regex/:"
		printf '%s\n' "$res" | grep -E ':[FE]:' | sed 's/^/    | /' | cut -c1-300
		status=1
	elif ! why=$(names_a_function "$patchfile" "$d"); then
		echo "FAIL $name: caught, but $why"
		status=1
	else
		echo "ok $name: caught by $(grep -oE -- "$regex" <<<"$res" | head -n 1 | sed "s/:[0-9]*:.*//")"
		caught=$((caught + 1))
	fi
done < "$tsv"
echo "$name_of_run: $caught passed, $((n - caught)) failed"
exit $status
