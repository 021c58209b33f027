#!/bin/bash
# test-outcomes.sh - outcomes.awk on console logs made up for the purpose,
# and compare.awk on made-up results (make check-realkernel-scripts, part
# of make check: no VM needed).
#
# The serial console is one character stream for the kernel and the guest's
# shell, so a kernel line can land on the same line as a step's marker.
# Each case is a console, and the "KEY<TAB>OUTCOME" lines outcomes.awk must
# print for it.  Ends with "realkernel-scripts: N passed, M failed".
set -u
here=code/realkernel
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect NAME [KEYS] - the console on fd 3, the expected outcomes on stdin.
# With KEYS (one step's key a line) the console is ksim's --echo output.
expect() {
	cat >"$tmp/want"
	cat <&3 >"$tmp/console"
	if [ $# -gt 1 ]; then
		printf '%s\n' "$2" >"$tmp/keys"
		awk -v side=ksim -f $here/outcomes.awk $here/outcomes.tsv "$tmp/keys" "$tmp/console" >"$tmp/got" 2>&1
	else
		awk -v side=linux -f $here/outcomes.awk $here/outcomes.tsv "$tmp/console" >"$tmp/got" 2>&1
	fi
	if cmp -s "$tmp/want" "$tmp/got"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $1:"; diff "$tmp/want" "$tmp/got" | sed 's/^/  /'
	fi
}

expect "a kernel line after a step's start marker" 3<<'C' <<'W'
@@ 1 $ rmmod ahci[   20.979554] ata1.00: Entering standby power mode
@@ 1 rc=0
@@ 2 $ rmmod libata
rmmod: can't unload module 'libata': Resource temporarily unavailable
@@ 2 rc=1
@@ done 0
C
rmmod ahci	ok
rmmod libata	in-use
W

expect "a kernel line after a step's status" 3<<'C' <<'W'
@@ 1 $ echo 1 > /sys/block/sda/device/delete
@@ 1 rc=0[    9.204483] ata1.00: disable device
@@ done 0
C
echo 1 > /sys/block/sda/device/delete	ok
W

expect "an oops printed on the start marker's line" 3<<'C' <<'W'
@@ 1 $ wait[   12.5] BUG: unable to handle page fault for address: ffffffffc0a01000
@@ done 0
C
wait	oops
W

expect "a step that never returns, reported by khungtaskd" 3<<'C' <<'W'
@@ 1 $ echo 1 > /sys/devices/selfremove0/remove
[    9.7] INFO: task sh:91 blocked for more than 2 seconds.
@@ hung
C
echo 1 > /sys/devices/selfremove0/remove	hung
W

# ksim runs under the controlled scheduler (check.sh): a deadlock is
# reported at once, "blocked for ever", not after the watchdog's limit.
expect "ksim's controlled scheduler reports a deadlock" "await pci_store_entry
echo 1 > /sys/module/selfremove/parameters/unplug" 3<<'C' <<'W'
# await pci_store_entry
# unplug pci0
INFO: deadlock: no task can run and none sleeps, so no wake-up can come (controlled scheduler)
INFO: task sh[1] blocked for ever.
C
await pci_store_entry	ok
echo 1 > /sys/module/selfremove/parameters/unplug	hung
W

# compare.awk: which scenarios need ksim's steps.  Each case is a
# predictions.tsv and a RESULTS file; the failures compare.awk prints (its
# "FAIL ..." lines and the table's rows marked FAIL) must be the expected
# ones (none, or those on stdin).
compare() {
	local name=$1
	shift
	cat >"$tmp/want"
	printf '%s' "$P" >"$tmp/pred.tsv"
	printf '%s' "$R" >"$tmp/results"
	awk "$@" -f $here/compare.awk "$tmp/pred.tsv" "$tmp/results" 2>&1 | grep -E '^FAIL |FAIL$' >"$tmp/got"
	if cmp -s "$tmp/want" "$tmp/got"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name:"; diff "$tmp/want" "$tmp/got" | sed 's/^/  /'
	fi
}
T=$'\t'
P="both${T}rmmod ahci${T}ok${T}=${T}
linuxonly${T}cat <&3${T}-${T}ok${T}Linux only
"
R="both${T}ksim${T}rmmod ahci${T}ok
both${T}linux${T}rmmod ahci${T}ok
linuxonly${T}linux${T}exec 3< /dev/x${T}ok
linuxonly${T}linux${T}cat <&3${T}ok
"
compare "a scenario whose rows are all Linux only needs no ksim steps" </dev/null
R="both${T}linux${T}rmmod ahci${T}ok
linuxonly${T}linux${T}cat <&3${T}ok
"
compare "a scenario with a KSIM row still needs ksim's steps" -v stages=both=4 <<'W'
both                   rmmod ahci                                     4     ok       (not run) ok         FAIL
FAIL both: no steps from ksim (see its log)
W
R="linuxonly${T}linux${T}cat <&3${T}ok
"
compare "SCENARIOS=: the rows of a scenario that did not run are not held" -v scenarios=linuxonly </dev/null
compare "without SCENARIOS= they are" -v stages=both=4 <<'W'
both                   rmmod ahci                                     4     ok       (not run) (not run)  FAIL
FAIL both: no steps from ksim (see its log)
W

# A scenario's rows after ksim's first oops come from a second run
# (check.sh): its set-up and its rows follow the first run's, and the
# failures name the stage that predicts the scenario.
P="uaf${T}cat <&3${T}oops${T}ok${T}SLUB poisons, ksim fences
uaf${T}echo 1 >&3${T}oops${T}=${T}
"
R="uaf${T}ksim${T}insmod mousedev_naive${T}ok
uaf${T}ksim${T}cat <&3${T}oops
uaf${T}ksim${T}insmod mousedev_naive${T}ok
uaf${T}ksim${T}echo 1 >&3${T}oops
uaf${T}linux${T}cat <&3${T}ok
uaf${T}linux${T}echo 1 >&3${T}oops
"
compare "a second ksim run's steps follow the first's" -v stages=uaf=5 </dev/null
R="uaf${T}ksim${T}insmod mousedev_naive${T}ok
uaf${T}ksim${T}cat <&3${T}ok
uaf${T}linux${T}cat <&3${T}ok
uaf${T}linux${T}echo 1 >&3${T}oops
"
compare "the stage that predicts a row is named where ksim differs" -v stages=uaf=5 <<'W'
uaf                    cat <&3                                        5     oops     ok       ok         FAIL
uaf                    echo 1 >&3                                     5     oops     (not run) oops       FAIL
FAIL uaf: 'cat <&3': stage 5 predicts oops, ksim did ok (predictions.tsv line 1)
FAIL uaf: 'echo 1 >&3' never ran on ksim (predictions.tsv line 2)
W

echo "realkernel-scripts: $pass passed, $fail failed"
[ "$fail" = 0 ]
