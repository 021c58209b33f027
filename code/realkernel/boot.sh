#!/bin/sh
# boot.sh KERNELDIR ABI INITRAMFS DISK SCENARIO LOG - one VM, one scenario, its console in LOG.
#
# QEMU emulates the CPU (TCG): on this project's machines /dev/kvm, where it
# exists, hangs the guest, so KVM is an opt-in (ACCEL=kvm).  One CPU, 512 MB,
# no network, no display; the serial console is the only output.  The disk
# is an empty raw image on an emulated AHCI controller, so that the guest
# has an sda behind ahci, as in the 2007 mail.  The guest powers itself off
# when the scenario is done (or a hung-task report is out); TIMEOUT seconds
# (default 240: a busy host slows a boot of 3 s to a minute) is the hard
# limit for anything else.  nosoftlockup: on a loaded host an emulated CPU
# can stall for seconds, which the soft-lockup detector would report as a
# BUG of the guest.  no_timer_check: at boot
# the kernel checks that the timer interrupt works by busy-waiting, with
# interrupts on, for a fixed number of TSC cycles and counting the ticks
# that arrive meanwhile (check_timer(), timer_irq_works() in
# arch/x86/kernel/apic/io_apic.c); under TCG the guest's TSC follows the
# host's clock while its ticks need the emulator to run, so on a busy host
# too few come, every way of routing the timer "fails", and the guest
# panics: "IO-APIC + timer doesn't work!".  QEMU's timer is wired right;
# the kernel skips the same check itself on KVM and Hyper-V guests.
# preempt=voluntary is Debian's default (PREEMPT_VOLUNTARY, with
# PREEMPT_DYNAMIC), written down because self-vs-locked-unplug
# depends on it: with one CPU and no preemption inside the kernel, nothing
# runs between a store's break of its active protection and its restore.
set -eu
kdir=$1 abi=$2 initrd=$3 disk=$4 scenario=$5 log=$6
accel=${ACCEL:-tcg}
: >"$log"
status=0
timeout -k 5 "${TIMEOUT:-240}" qemu-system-x86_64 \
	-accel "$accel" -m 512 -smp 1 -nodefaults -display none -no-reboot \
	-serial "file:$log" \
	-kernel "$kdir/boot/vmlinuz-$abi" -initrd "$initrd" \
	-append "console=ttyS0 quiet panic=-1 nosoftlockup no_timer_check preempt=voluntary rk.scenario=$scenario" \
	-device ahci,id=ahci -drive if=none,id=d0,file="$disk",format=raw \
	-device ide-hd,drive=d0,bus=ahci.0 </dev/null || status=$?
if [ "$status" = 124 ] || [ "$status" = 137 ]; then
	echo "@@ timeout: the VM was still running after ${TIMEOUT:-240} s" >>"$log"
elif [ "$status" != 0 ]; then
	echo "@@ qemu exited with status $status" >>"$log"
fi
exit 0
