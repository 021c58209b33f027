#!/bin/bash
# variants.sh TSV OUTDIR - build a stage with each correct variant patched in; the whole check must pass.
#
# The other side of mistakes.sh: a mistake must fail the test aimed at it,
# a correct solution written another way (another of the kernel's orders,
# no delay_point(), the plain try_module_get() instead of a tracing one,
# a loop written differently) must pass every test of its stage, or a
# student who writes it loses points for where the instrumentation sits.
# Each TSV line names a patch against one file of the reference stage and
# says in words what the variant does.  The patched file is built by
# tests/lib/mistake-build.sh, with every Check suite of the stage, and
# graded as check-stageN grades (tests/lib/runtests.sh, the suites and the
# scenario table, under the controlled scheduler).
#
# From the environment: as mistakes.sh.  One line per variant ("ok NAME:
# ..." or "FAIL NAME: ..." and the failures), then the last line,
# "check-stageN-variants: P passed, F failed", counting each variant as one
# check.  Exit status: 0 all passed, 1 not.
set -u
tsv=$1 out=$2
tests=$(dirname "$tsv")
name_of_run="check-$(basename "$tests")-variants"
status=0 n=0 good=0
variants=$(grep -cvE '^(#|$)' "$tsv")
[ "$variants" -gt 0 ] || { echo "variants.sh: no line in $tsv" >&2; exit 1; }
if ! command -v patch >/dev/null 2>&1; then
	echo "FAIL $name_of_run: patch: not installed; run make deps"
	echo "$name_of_run: 0 passed, $variants failed"
	exit 1
fi
suites=$(for t in "$tests"/test_*.c; do basename "$t" .c; done)
while IFS=$'\t' read -r patchfile what; do
	case $patchfile in ''|'#'*) continue ;; esac
	n=$((n + 1))
	name=$(basename "$patchfile" .patch)
	d=$out/$name
	# shellcheck disable=SC2086 # suites: names without spaces
	if ! why=$(tests/lib/mistake-build.sh "$patchfile" "$suites" "$d"); then
		echo "FAIL $name: $why"
		status=1
		continue
	fi
	bins=()
	for s in $suites; do bins+=("$d/$s"); done
	scen=()
	[ -f "$tests/scenarios.tsv" ] && scen=(--scenarios "$tests/scenarios.tsv")
	res=$(KSIM="$d/ksim --sched nonpreemptive" KSIM_DIR=$d \
		tests/lib/runtests.sh "$name" "${scen[@]}" "${bins[@]}" 2>&1)
	if [ $? -eq 0 ]; then
		echo "ok $name: $what"
		good=$((good + 1))
	else
		echo "FAIL $name ($what): $(tail -n 1 <<<"$res")"
		grep -E -A3 '^ *(FAIL|[^ ]+:[0-9]+:[FE]:)' <<<"$res" | cut -c1-300 | head -n 40 | sed 's/^/    | /'
		status=1
	fi
done < "$tsv"
echo "$name_of_run: $good passed, $((n - good)) failed"
exit $status
