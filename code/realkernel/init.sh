#!/bin/sh
# init.sh - the guest's /init: run one scenario on the real kernel, then power off.
#
# The scenario is named on the kernel command line (rk.scenario=NAME) and
# was turned into /scenarios/NAME.run by steps.awk: each command between
# "@@ N $ COMMAND" and "@@ N rc=STATUS" lines on the console.  Everything
# goes to the serial console, where the host reads it, kernel messages
# included.  The scenario runs in a child shell: if one of its commands
# oopses, the kernel kills that shell, and this one still reports and
# powers off.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /tmp && mount -t tmpfs tmpfs /tmp
exec </dev/null >/dev/console 2>&1

# Look for hung tasks every second; the scenario that expects one lowers
# the limit from its default of 120 s (a low limit everywhere would report
# any task that a loaded host stalls).  Let every kernel message reach the
# console.
echo 1 >/proc/sys/kernel/hung_task_check_interval_secs
echo 7 >/proc/sys/kernel/printk

scenario=$(sed -n 's/.*rk\.scenario=\([^ ]*\).*/\1/p' /proc/cmdline)
echo "@@ scenario $scenario on $(uname -r)"
# A step the kernel leaves hanging never returns: once the hung-task report
# is out (and a moment for its stacks: a deadlock reports both of its
# tasks, one after the other), end the run from here.
(
	while ! dmesg | grep -q 'blocked for more than'; do sleep 0.5; done
	sleep 2
	echo "@@ hung"
	poweroff -f
) &
cd /lib/modules/"$(uname -r)"/kernel
sh /scenarios/"$scenario".run
echo "@@ done $?"
poweroff -f
