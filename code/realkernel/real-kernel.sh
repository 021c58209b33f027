#!/bin/bash
# real-kernel.sh - make real-kernel: the workbook's scenarios on Debian's Linux 6.1, under QEMU.
#
#   1. the Debian packages: QEMU, busybox-static, kmod (depmod), cpio, and the
#      headers of the current 6.1 kernel (code/tools/deps.sh);
#   2. that kernel, fetched and unpacked without installing it (fetch-kernel.sh),
#      once per kernel version, under build/real-kernel/linux-VERSION/;
#   3. our test modules (module/selfremove.c, module/naivechr.c) built against its headers;
#   4. a busybox initramfs with the scenarios' runners (steps.awk, mkinitramfs.sh)
#      and their static programs (tools/uinput-mouse.c);
#   5. one VM per scenario, JOBS at a time, each with a hard time limit (boot.sh);
#   6. the check: the predictions of stages 4 and 5 against their ksim and the
#      consoles (check.sh).
#
# Environment: SCENARIOS="a b" runs only those; ACCEL=kvm (default tcg);
# JOBS (default: the number of CPUs); TIMEOUT per VM in seconds (default 240).
set -euo pipefail
here=code/realkernel
B=build/real-kernel
build=${BUILD:-build}
start=$(date +%s)

code/tools/deps.sh qemu-system-x86 busybox-static kmod cpio
V=$($here/kernel-version.sh)
abi=$V-amd64
code/tools/deps.sh "linux-headers-$abi"

mkdir -p "$B"
kdir=$B/linux-$V
# An unpacked tree from before uinput was kept has no uinput.ko: fetch again.
if [ ! -f "$kdir/boot/vmlinuz-$abi" ] || ! ls "$kdir/lib/modules/$abi/kernel/drivers/input/misc/"uinput.ko* >/dev/null 2>&1; then
	# A new kernel version replaces the old one's unpacked tree.
	find "$B" -maxdepth 1 -name 'linux-*' -type d -exec rm -rf {} +
	$here/fetch-kernel.sh "$V" "$kdir"
fi

mod=$B/module-$V
# The test modules, one per concept: selfremove (stage 4's sysfs lines)
# and naivechr (stage 5's character device).
modules="selfremove naivechr"
stale=
for m in $modules; do
	[ -f "$mod/$m.ko" ] && [ ! "$here/module/$m.c" -nt "$mod/$m.ko" ] &&
		[ ! "$here/module/Kbuild" -nt "$mod/$m.ko" ] || stale=1
done
if [ -n "$stale" ]; then
	rm -rf "$mod" && mkdir -p "$mod"
	cp $here/module/*.c $here/module/Kbuild "$mod/"
	make -s -C "/usr/src/linux-headers-$abi" M="$PWD/$mod" modules 2>&1 |
		{ grep -v 'Skipping BTF generation' || true; }
	for m in $modules; do
		[ -f "$mod/$m.ko" ] || { echo "real-kernel: $m.ko did not build against linux-headers-$abi" >&2; exit 1; }
		echo "  MODULE  $mod/$m.ko"
	done
fi

scenarios=${SCENARIOS:-$(cd $here/scenarios && ls *.sh | sed 's/\.sh$//')}
rm -rf "$B/run" && mkdir -p "$B/run/bin"
# The scenarios' programs besides busybox (tools/), static: the guest has no libc.
for t in $here/tools/*.c; do
	${CC:-gcc} -static -O2 -Wall -Wextra -Werror -o "$B/run/bin/$(basename "$t" .c)" "$t"
done
for s in $scenarios; do
	[ -f "$here/scenarios/$s.sh" ] || { echo "real-kernel: no scenario $here/scenarios/$s.sh" >&2; exit 2; }
	awk -v mode=guest -f $here/steps.awk "$here/scenarios/$s.sh" >"$B/run/$s.run"
done
kos=
for m in $modules; do kos="$kos $mod/$m.ko"; done
$here/mkinitramfs.sh "$kdir" "$abi" "$B/run" "$B/initramfs.gz" $kos
echo "  INITRD  $B/initramfs.gz ($(du -k "$B/initramfs.gz" | cut -f1) KB)"
[ -f "$B/disk.img" ] || truncate -s 64M "$B/disk.img"
# The builds of the stages that predict (make builds them before this script runs).
for st in $(sed -n 's/^# ksim: *\(stage[0-9]*\) .*/\1/p' $here/scenarios/*.sh | sort -u); do
	[ -x "$build/$st/ksim" ] || { echo "real-kernel: $build/$st/ksim is missing: make $build/$st/ksim" >&2; exit 1; }
done

vm_start=$(date +%s)
echo "  BOOT    $(wc -w <<<"$scenarios") VMs of Linux $abi (${ACCEL:-tcg}), ${JOBS:-$(nproc)} at a time"
export ACCEL TIMEOUT
# Each VM gets its own copy of the disk: two VMs must not share one image.
printf '%s\n' $scenarios | xargs -P "${JOBS:-$(nproc)}" -I{} sh -c \
	"cp --sparse=always $B/disk.img $B/run/{}.img && $here/boot.sh $kdir $abi $B/initramfs.gz $B/run/{}.img {} $B/run/{}.log && rm -f $B/run/{}.img && echo '  RAN     {}'"
echo "  (VMs: $(($(date +%s) - vm_start)) s)"

status=0
$here/check.sh "$build" "$B/run" $scenarios >"$B/check.out" || status=$?
# The book shows a recorded table (record.sh): one more check, that it is
# still what a run prints, when every scenario ran.
read -r p f < <(tail -n 1 "$B/check.out" | sed -n 's/^real-kernel: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
sed '$d' "$B/check.out"
if [ -z "${SCENARIOS:-}" ]; then
	if sed -n '/^SCENARIO /,/^real-kernel: /p' "$B/check.out" | sed '$d' | grep -v '^FAIL ' |
		cmp -s - $here/recorded/table.txt; then
		p=$((p + 1))
	else
		echo "FAIL the table in $here/recorded/table.txt (shown in the book) is not this run's: make real-kernel-record"
		f=$((f + 1)) status=1
	fi
fi
# The tally stays the last line, as in every check of the workbook.
echo "  (Linux $abi: $(($(date +%s) - start)) s in all)"
echo "real-kernel: $p passed, $f failed"
exit $status
