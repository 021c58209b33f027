#!/bin/bash
# check-debug.sh DIR WORK - make debug-stageN's own test, on stage 1's reference build DIR.
#
#  1. A test under gdb -batch (tests/lib/debug.sh, as make debug-stage1
#     TEST=... runs it): gdb stops at the test's breakpoint, which it can
#     only do if the test runs in the suite's own process (CK_FORK=no), and
#     the test still passes, with only its case run (CK_RUN_CASE).
#  2. The control: the same without CK_FORK=no (Check's fork mode) never
#     reaches the breakpoint, so step 1 proves the switch is honoured.
#  3. A scenario that oopses (seed example 1, stage 1): gdb stops at the
#     fault, in the stale call.
#  4. A name that is no test: exit status 2 and the list of the stage's tests.
# Last line: "check-debug: N passed, M failed".
set -u
dir=$1 work=$2
pass=0 fail=0
ok() { echo "ok $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
rm -rf "$work" && mkdir -p "$work"
t=kobject_put_releases_on_the_last_reference_only

# ---- 1. one test under gdb
GDB_BATCH=1 TEST=$t timeout 120 tests/lib/debug.sh 1 "$dir" >"$work/test.out" 2>&1
if grep -q "^Breakpoint 1, ${t}_fn" "$work/test.out" && grep -qE '^100%: Checks: [0-9]+, Failures: 0, Errors: 0' "$work/test.out"; then
	ok "debug-stage1 TEST=$t: gdb stops in the test, which then passes ($(grep -oE 'Checks: [0-9]+' "$work/test.out"), its case only)"
else
	bad "debug-stage1 TEST=$t: no stop in ${t}_fn, or the test did not pass; gdb said:"; tail -n 20 "$work/test.out" | sed 's/^/    /'
fi

# ---- 2. the control: fork mode never stops there
sed 's/^export CK_FORK=no /export /' tests/lib/debug.sh >"$work/debug-fork.sh"
GDB_BATCH=1 TEST=$t timeout 120 bash "$work/debug-fork.sh" 1 "$dir" >"$work/fork.out" 2>&1
# (Only the stop is looked at: in fork mode the case's tests have their time
# limits, which a test of two spinning tasks can overrun on a busy host.)
if ! grep -q "^Breakpoint 1, ${t}_fn" "$work/fork.out" && grep -qE '^[0-9]+%: Checks: [0-9]+' "$work/fork.out"; then
	ok "the control: in Check's fork mode the test runs in a child and gdb never stops in it"
else
	bad "the control: without CK_FORK=no, gdb stopped in the test (or the suite did not run):"; tail -n 20 "$work/fork.out" | sed 's/^/    /'
fi

# ---- 3. a scenario that oopses
GDB_BATCH=1 SCRIPT=code/scenarios/seed-example1.ksh timeout 120 tests/lib/debug.sh 1 "$dir" >"$work/script.out" 2>&1
if grep -q 'received signal SIGSEGV' "$work/script.out"; then
	ok "debug-stage1 SCRIPT=code/scenarios/seed-example1.ksh: gdb stops at the fault"
else
	bad "debug-stage1 SCRIPT=...: gdb did not stop at a SIGSEGV; it said:"; tail -n 20 "$work/script.out" | sed 's/^/    /'
fi

# ---- 4. a name that is no test
TEST=no_such_test tests/lib/debug.sh 1 "$dir" >"$work/none.out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q "no test named 'no_such_test'" "$work/none.out" && grep -q "^  $t$" "$work/none.out"; then
	ok "debug-stage1 TEST=no_such_test: exit 2, and the stage's tests listed"
else
	bad "debug-stage1 TEST=no_such_test: exit $rc; it said:"; sed 's/^/    /' "$work/none.out"
fi
echo "check-debug: $pass passed, $fail failed"
[ "$fail" = 0 ]
