#!/bin/sh
# boot.sh KERNELDIR ABI INITRAMFS DISK SCENARIO LOG - one VM, one scenario, its console in LOG.
#
# QEMU emulates the CPU (TCG): on this project's machines /dev/kvm, where it
# exists, hangs the guest, so KVM is an opt-in (ACCEL=kvm).  One CPU, 512 MB,
# no network, no display; the serial console is the only output.  The disk
# is an empty raw image on an emulated AHCI controller, so that the guest
# has an sda behind ahci, as in the 2007 mail.  The guest powers itself off
# when the scenario is done (or a hung-task report is out); TIMEOUT seconds
# (default 90) is the hard limit for anything else.  nosoftlockup: on a
# loaded host an emulated CPU can stall for seconds, which the soft-lockup
# detector would report as a BUG of the guest.
set -eu
kdir=$1 abi=$2 initrd=$3 disk=$4 scenario=$5 log=$6
accel=${ACCEL:-tcg}
: >"$log"
status=0
timeout -k 5 "${TIMEOUT:-90}" qemu-system-x86_64 \
	-accel "$accel" -m 512 -smp 1 -nodefaults -display none -no-reboot \
	-serial "file:$log" \
	-kernel "$kdir/boot/vmlinuz-$abi" -initrd "$initrd" \
	-append "console=ttyS0 quiet panic=-1 nosoftlockup rk.scenario=$scenario" \
	-device ahci,id=ahci -drive if=none,id=d0,file="$disk",format=raw \
	-device ide-hd,drive=d0,bus=ahci.0 </dev/null || status=$?
if [ "$status" = 124 ] || [ "$status" = 137 ]; then
	echo "@@ timeout: the VM was still running after ${TIMEOUT:-90} s" >>"$log"
elif [ "$status" != 0 ]; then
	echo "@@ qemu exited with status $status" >>"$log"
fi
exit 0
