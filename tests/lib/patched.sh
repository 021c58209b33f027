#!/bin/bash
# patched.sh fail|pass TSV OUTDIR - build a stage with each patch of TSV in; each must fail, or pass, as said.
#
# fail (check-stageN-mistakes): each line names a classic mistake, a patch
# against one file of the reference stage, with a Check suite, a test case
# of it and a regex.  The suite is built with the patched file and the
# case run: it must fail, and its output must match the regex (the test's
# name or its message), so each mistake is shown to be caught by the test
# meant for it.
#
# pass (check-stageN-variants): each line names a correct solution written
# another way (another of the kernel's orders, no delay_point(), the plain
# try_module_get() instead of a tracing one, a loop written differently)
# and says in words what it does.  Every suite of the stage is built with
# it and graded as check-stageN grades (tests/lib/runtests.sh, the suites
# and the scenario table, under the controlled scheduler): all must pass,
# or a student who writes it loses points for where the instrumentation
# sits.
#
# The suites are the ones next to the TSV (tests/stageN/); each patched
# build is tests/lib/mistake-build.sh's.  From the environment
# (tests/lib/stage-checks.mk's mistake_env): CC, STAGE_CFLAGS, STAGE_DIR,
# KERNEL_OBJ, SHELL_OBJ, TESTLIB_OBJ, LINK_FLAGS, CHECK_CFLAGS, CHECK_LIBS;
# MISTAKE_RUN_PREFIX, what a mistake's suite runs under (setarch -R for
# ThreadSanitizer), if anything.
#
# A caught mistake's failed tests must also name a function of the file the
# mistake is in (in the message, or in what the test printed: a call trace,
# a lockdep report, the functions of an explorer's failing run), so the
# student is told where to look; one that does not is a FAIL too.  Two kinds
# are left out: a mistake in the given code (code/stageN/, a design's classic
# mistake no student writes), and a test that ran out of time, whose report
# is every task's call trace at that moment, and whose time limit a busy
# machine meets too.
#
# One line per patch ("ok NAME: ..." or "FAIL NAME: ..."), then the last
# line, "check-stageN-mistakes: P passed, F failed" (or -variants), counting
# each patch as one check (code/tools/tally.sh reads it).  Exit status: 0
# every patch did as expected, 1 not, 2 bad arguments.
set -u
expect=${1:-} tsv=${2:-} out=${3:-}
case $expect in
fail) kind=mistakes ;;
pass) kind=variants ;;
*) echo "usage: patched.sh fail|pass TSV OUTDIR" >&2; exit 2 ;;
esac
tests=$(dirname "$tsv")
name_of_run="check-$(basename "$tests")-$kind"
status=0 n=0 good=0
lines=$(grep -cvE '^(#|$)' "$tsv")
[ "$lines" -gt 0 ] || { echo "patched.sh: no line in $tsv" >&2; exit 1; }
# Without patch(1) nothing can be put in: say that, not "no longer applies".
if ! command -v patch >/dev/null 2>&1; then
	echo "FAIL $name_of_run: patch: not installed; run make deps"
	echo "$name_of_run: 0 passed, $lines failed"
	exit 1
fi
all_suites=$(for t in "$tests"/test_*.c; do basename "$t" .c; done)

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

# mistake_caught PATCH NAME DIR SUITE CASE REGEX - the case fails, matching
# REGEX, and names a function of the patched file.
mistake_caught() {
	local patchfile=$1 name=$2 d=$3 suite=$4 case=$5 regex=$6 res rc outs why
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
		return 1
	elif ! grep -qE -- "$regex" <<<"$res"; then
		echo "FAIL $name: $suite failed, but not with /$regex/:"
		printf '%s\n' "$res" | grep -E ':[FE]:' | sed 's/^/    | /' | cut -c1-300
		return 1
	elif ! why=$(names_a_function "$patchfile" "$d"); then
		echo "FAIL $name: caught, but $why"
		return 1
	fi
	echo "ok $name: caught by $(grep -oE -- "$regex" <<<"$res" | head -n 1 | sed "s/:[0-9]*:.*//")"
}

# variant_passes NAME DIR WHAT - every suite and the scenario table pass.
variant_passes() {
	local name=$1 d=$2 what=$3 res s bins=() scen=()
	for s in $all_suites; do bins+=("$d/$s"); done
	[ -f "$tests/scenarios.tsv" ] && scen=(--scenarios "$tests/scenarios.tsv")
	if res=$(KSIM="$d/ksim --sched nonpreemptive" KSIM_DIR=$d \
		tests/lib/runtests.sh "$name" "${scen[@]}" "${bins[@]}" 2>&1); then
		echo "ok $name: $what"
		return 0
	fi
	echo "FAIL $name ($what): $(tail -n 1 <<<"$res")"
	grep -E -A3 '^ *(FAIL|[^ ]+:[0-9]+:[FE]:)' <<<"$res" | cut -c1-300 | head -n 40 | sed 's/^/    | /'
	return 1
}

while IFS=$'\t' read -r patchfile f2 f3 f4; do
	case $patchfile in ''|'#'*) continue ;; esac
	n=$((n + 1))
	name=$(basename "$patchfile" .patch)
	d=$out/$name
	suites=$all_suites
	[ "$expect" = fail ] && suites=$f2
	if ! why=$(tests/lib/mistake-build.sh "$patchfile" "$suites" "$d"); then
		echo "FAIL $name: $why"
		status=1
		continue
	fi
	if [ "$expect" = fail ]; then
		mistake_caught "$patchfile" "$name" "$d" "$f2" "$f3" "$f4"
	else
		# The description is the rest of the line, tabs and all.
		variant_passes "$name" "$d" "$f2${f3:+	$f3}${f4:+	$f4}"
	fi && good=$((good + 1)) || status=1
done < "$tsv"
echo "$name_of_run: $good passed, $((n - good)) failed"
exit $status
