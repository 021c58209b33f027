#!/bin/bash
# record.sh RUNDIR OUTDIR - keep the last make real-kernel run's table and console
# excerpts, small, for the book (chapters/04-after-2007.md includes them).
#
# A run cannot be part of the book's build (it boots VMs), so its outputs
# are recorded and committed.  An excerpt is a run's console cut between two
# EREs, with the runner's step markers written as a shell prompt would show
# them ("# COMMAND"); kernel lines keep their timestamps.  Lines of the clock
# settling (tsc, clocksource), which land wherever boot timing puts them, are
# left out.
set -euo pipefail
run=$1 out=$2
[ -f "$run/check.out" ] || { echo "record.sh: no $run/check.out: run make real-kernel first" >&2; exit 1; }
grep -q 'real-kernel: [0-9]* passed, 0 failed' "$run/check.out" ||
	{ echo "record.sh: the last make real-kernel run failed; not recording it" >&2; exit 1; }
mkdir -p "$out"
sed -n '/^SCENARIO /,/^real-kernel: /p' "$run/check.out" | sed '$d' >"$out/table.txt"

# excerpt NAME FROM TO [SKIP] - run/NAME.log from the first line matching FROM to
# the first line after it matching TO, both included, into out/NAME.txt; lines
# matching SKIP (an ERE) are left out.
excerpt() {
	FROM=$2 TO=$3 SKIP=${4:-} awk '
		BEGIN { from = ENVIRON["FROM"]; to = ENVIRON["TO"]; skip = ENVIRON["SKIP"] }
		{ sub(/\r$/, "") }	# the serial console ends its lines with CR LF
		!on && $0 ~ from { on = 1 }
		on && /^@@ [0-9]+ (rc=|as )/ { if ($0 ~ to) exit; next }
		on && /\] (tsc|clocksource): / { next }	# the clock settling during boot: noise
		on && skip != "" && $0 ~ skip && $0 !~ to { next }
		on { line = $0; if (sub(/^@@ [0-9]+ \$ /, "# ", line) == 0 && line ~ /^@@ /) next; print line }
		on && $0 ~ to { exit }' "$run/run/$1.log" >"$out/$1.txt"
	[ -s "$out/$1.txt" ] || { echo "record.sh: $1: nothing between /$2/ and /$3/" >&2; exit 1; }
	echo "  RECORD  $out/$1.txt ($(wc -l <"$out/$1.txt") lines)"
}
excerpt seed-example1 '^@@ [0-9]+ \$ echo 1 > /sys/block' '^@@ [0-9]+ \$ lsmod'
excerpt seed-example2-write '^@@ [0-9]+ \$ cat > ' '^@@ [0-9]+ \$ lsmod'
excerpt held-open-read '^@@ [0-9]+ \$ exec 3<' '^@@ 4 rc='
excerpt remove-self-deadlock '^@@ [0-9]+ \$ echo 1 >' 'kernfs_fop_write_iter\+'
excerpt remove-self-vs-rmmod '^@@ [0-9]+ \$ echo 1 >' '^\[ *[0-9.]+\] RIP: '
# Two hung-task reports: their register dumps, the frames the unwinder is
# unsure of ("? ") and the lines every report repeats are left out.
excerpt self-vs-locked-unplug '^@@ [0-9]+ \$ echo 1 >' 'remove_store\+0x' \
	'\]  \? |\] (R[0-9A-Z]+|RSP|RIP): |\]       Tainted: |disables this message|\]  <TASK>'
excerpt break-vs-locked-unplug '^@@ [0-9]+ \$ echo 1 >' '^@@ 4 rc='
# Stage 5's character device: the naive driver's read of poison and its
# fault on a poisoned pointer, up to the faulting instruction; the fixed
# driver's ENODEV.
excerpt naive-chardev '^@@ [0-9]+ \$ exec 3<>' '^\[ *[0-9.]+\] RIP: '
excerpt fixed-chardev '^@@ [0-9]+ \$ exec 3<>' '^@@ 8 rc='
# The kernel's own hang-up: a reader asleep in mousedev_read() fails with
# ENODEV when its uinput mouse is destroyed.
excerpt mousedev-hangup '^@@ [0-9]+ \$ exec 3<' '^@@ 8 rc='
