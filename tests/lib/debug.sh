#!/bin/bash
# debug.sh N DIR (TEST=NAME | SCRIPT=FILE) - one test of stage N's suites, or one scenario, under gdb (make debug-stageN).
#
# DIR is the build (build/student/stageN, or build/stageN for the
# reference).  TEST names a Check test (START_TEST(NAME) in tests/stageN/
# or a test header its suites include): the suite that has it runs in one
# process (CK_FORK=no, Check's own switch: in its usual fork mode each test
# runs in a child gdb does not follow), only the test case that holds it
# (CK_RUN_CASE), with a breakpoint on the test's body, NAME_fn (what
# START_TEST names it).  SCRIPT runs ksim on a scenario script under the
# controlled scheduler (--sched nonpreemptive, as check-stageN grades it),
# where gdb stops at a fault (SIGSEGV: the stale access itself; continue,
# and ksim prints its oops report) and at the end of every oops or BUG
# report (oops_end).
#
# GDB (default gdb) is the debugger; GDB_BATCH=1 runs it without a prompt
# (gdb -batch: run, a backtrace at the breakpoint, continue to the end),
# as make check-debug does.  Exit status: gdb's; 2 when TEST or SCRIPT is
# missing or unknown.
set -u
n=$1 dir=$2 test=${TEST:-} script=${SCRIPT:-}
gdb=${GDB:-gdb}
usage() {
	echo "debug-stage$n: say what to debug: make debug-stage$n TEST=NAME (a test of tests/stage$n/), or SCRIPT=FILE (a scenario)" >&2
	exit 2
}
command -v "${gdb%% *}" >/dev/null || { echo "debug-stage$n: $gdb is not installed (make deps installs gdb)" >&2; exit 2; }
[ -n "$test$script" ] || usage
batch=()
[ "${GDB_BATCH:-0}" = 1 ] && batch=(-batch -ex run -ex 'bt 3' -ex continue)
export KSIM_DIR=$dir	# as check-stageN runs the suites (with KSIM, below)

if [ -n "$script" ]; then
	[ -f "$script" ] || { echo "debug-stage$n: no scenario $script" >&2; exit 2; }
	echo "debug-stage$n: gdb --args $dir/ksim --sched nonpreemptive $script" >&2
	exec $gdb -q -ex 'break oops_end' "${batch[@]}" \
		--args "$dir/ksim" --sched nonpreemptive "$script"
fi

# Where START_TEST(TEST) is: a suite's source, or a header of tests/ it includes.
where=$(grep -lE "^START_TEST\($test\)" tests/stage"$n"/test_*.c tests/stage*/*.h tests/lib/*.h 2>/dev/null | head -n 1)
[ -n "$where" ] || {
	echo "debug-stage$n: no test named '$test' in tests/stage$n/ (the name in its START_TEST(...)); its tests:" >&2
	grep -ohE "^START_TEST\([a-z0-9_]+\)" tests/stage"$n"/test_*.c | sed 's/START_TEST(\(.*\))/  \1/' >&2
	exit 2
}
suite=
for f in tests/stage"$n"/test_*.c; do
	if [ "$f" = "$where" ] || grep -qE "^#include \"([^\"]*/)?${where##*/}\"" "$f"; then suite=${f##*/}; suite=${suite%.c}; break; fi
done
[ -n "$suite" ] || { echo "debug-stage$n: $where is not part of any suite of tests/stage$n/" >&2; exit 2; }
# Its test case: the last ktest_case(s, "CASE", ...) before the tcase_add_test() that adds it.
tcase=$(awk -v t="$test" '
	/ktest_case\(/ && split($0, q, "\"") >= 3 { c = q[2] }
	$0 ~ "tcase_add_(loop_)?test\\([a-z]+, " t "[,)]" { print c; exit }' "$where")
[ -x "$dir/tests/$suite" ] || { echo "debug-stage$n: $dir/tests/$suite is not built" >&2; exit 2; }
export CK_FORK=no KSIM="$dir/ksim --sched nonpreemptive"
[ -z "$tcase" ] || export CK_RUN_CASE=$tcase
echo "debug-stage$n: CK_FORK=no${tcase:+ CK_RUN_CASE=$tcase} gdb $dir/tests/$suite, breakpoint on ${test}_fn ($where)" >&2
exec $gdb -q -ex "break ${test}_fn" "${batch[@]}" "$dir/tests/$suite"
