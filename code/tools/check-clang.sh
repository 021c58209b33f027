#!/bin/bash
# check-clang.sh - the workbook with clang: every stage built and graded on the reference (make check-clang).
#
# make check builds with gcc; students and instructors also use clang, whose
# warnings differ (-Werror holds for both) and whose -O1 inlines more.  This
# builds everything with CC=clang (in build/cc-clang/), runs check-overlay
# with it, and grades each stage's reference solutions with it (STAGES, default
# every stage: code/tools/stages.sh).  Each is one
# check; the last line is "check-clang: N passed, M failed".
set -u
make=${MAKE:-make}
stages=${STAGES:-$(code/tools/stages.sh)}
pass=0 fail=0
ok() { echo "ok $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
v=$(clang --version 2>/dev/null | head -n 1)
[ -n "$v" ] || { bad "clang is not installed"; echo "check-clang: $pass passed, $fail failed"; exit 1; }
echo "check-clang: $v"
if out=$($make --no-print-directory -s CC=clang all 2>&1); then
	ok "make CC=clang: every stage and the demo stage build with -Werror"
else
	bad "make CC=clang does not build:"; grep -E 'error|warning' <<<"$out" | head -n 20 | sed 's/^/    /'
fi
if out=$($make --no-print-directory -s CC=clang check-overlay 2>&1); then
	ok "make CC=clang check-overlay: $(tail -n 1 <<<"$out")"
else
	bad "make CC=clang check-overlay:"; grep -E '^FAIL|^    ' <<<"$out" | head -n 20 | sed 's/^/    /'
fi
for n in $stages; do
	out=$($make --no-print-directory CC=clang SOLUTIONS=1 "check-stage$n" 2>&1)
	last=$(tail -n 1 <<<"$out")
	if [[ $last =~ ^check-stage$n\ SOLUTIONS=1:\ [0-9]+\ passed,\ 0\ failed$ ]]; then
		ok "make CC=clang check-stage$n SOLUTIONS=1: ${last#*: }"
	else
		bad "make CC=clang check-stage$n SOLUTIONS=1: $last"; grep -E 'FAIL' <<<"$out" | head -n 10 | sed 's/^/    /'
	fi
done
echo "check-clang: $pass passed, $fail failed"
[ "$fail" = 0 ]
