#!/bin/sh
# fetch-kernel.sh VERSION DIR - unpack Debian's linux-image-VERSION-amd64 into DIR
# without installing it: the kernel, its config and the modules the scenarios load.
#
# The .deb is fetched with apt-get download (no dpkg database, no boot loader
# touched) and unpacked with dpkg-deb.  Of its ~400 MB only vmlinuz, the
# config, the storage drivers and uinput are kept.  The package ships no
# modules.dep; depmod -b builds it for the kept tree, so that busybox's
# modprobe in the guest finds each module's dependencies.
set -eu
v=$1 dir=$2
abi=$v-amd64
tmp=$dir.tmp
rm -rf "$tmp" && mkdir -p "$tmp/deb"
(
	cd "$tmp/deb"
	# As root, apt's download sandbox user (_apt) could not write here; say root.
	apt-get -q -o APT::Sandbox::User=root download "linux-image-$abi" >/dev/null
)
deb=$(ls "$tmp"/deb/linux-image-"$abi"_*.deb)
echo "  FETCH   $(basename "$deb") ($(du -m "$deb" | cut -f1) MB)"
dpkg-deb -x "$deb" "$tmp/x"
m=lib/modules/$abi
mkdir -p "$tmp/k/boot" "$tmp/k/$m/kernel"
cp "$tmp/x/boot/vmlinuz-$abi" "$tmp/x/boot/config-$abi" "$tmp/k/boot/"
cp "$tmp/x/$m"/modules.builtin* "$tmp/x/$m/modules.order" "$tmp/k/$m/"
# SCSI and ATA, and what sd_mod pulls in for data-integrity checksums.
for d in drivers/scsi drivers/ata block lib crypto arch/x86/crypto; do
	[ -d "$tmp/x/$m/kernel/$d" ] || continue
	mkdir -p "$tmp/k/$m/kernel/$d"
	cp -r "$tmp/x/$m/kernel/$d/." "$tmp/k/$m/kernel/$d/"
done
# uinput, the maker of mousedev-hangup's mouse (Debian builds mousedev itself in).
mkdir -p "$tmp/k/$m/kernel/drivers/input/misc"
cp "$tmp/x/$m/kernel/drivers/input/misc"/uinput.ko* "$tmp/k/$m/kernel/drivers/input/misc/"
depmod -b "$tmp/k" "$abi"
rm -rf "$dir" && mv "$tmp/k" "$dir" && rm -rf "$tmp"
echo "  UNPACK  $dir ($(du -sm "$dir" | cut -f1) MB kept)"
