#!/bin/sh
# mkinitramfs.sh KERNELDIR ABI RUNDIR OUT MODULE... - the guest's initramfs.
#
# busybox-static is the whole user space (its sh, insmod, rmmod, modprobe,
# mkfifo...).  Only the modules the scenarios load are copied in, with
# modules.dep rebuilt for them (depmod -b), plus our test modules under
# extra/ (MODULE...).  RUNDIR holds the scenario runners made by steps.awk
# (NAME.run) and, under bin/, the static programs they run besides busybox.
set -eu
kdir=$(cd "$1" && pwd) abi=$2 rundir=$3 out=$4
shift 4
root=$out.root
rm -rf "$root"
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/scenarios" "$root/lib/modules/$abi/extra"
cp /bin/busybox "$root/bin/busybox"
ln -s busybox "$root/bin/sh"	# for /init's #!/bin/sh, before --install makes the rest
# A dynamically linked busybox (package busybox) would find no libc in the guest.
LC_ALL=C ldd /bin/busybox 2>&1 | grep -q "not a dynamic executable" ||
	{ echo "mkinitramfs.sh: /bin/busybox is not statically linked: install busybox-static" >&2; exit 1; }
cp code/realkernel/init.sh "$root/init"
chmod +x "$root/init"
cp "$rundir"/*.run "$root/scenarios/"
# The scenarios' own static programs (uinput-mouse), next to busybox's applets.
[ ! -d "$rundir/bin" ] || cp "$rundir"/bin/* "$root/bin/"
for m in $(/sbin/modprobe -d "$kdir" -S "$abi" --show-depends -a sd_mod ahci uinput | awk '$1 == "insmod" { print $2 }' | sort -u); do
	rel=${m#"$kdir"/}
	mkdir -p "$root/$(dirname "$rel")"
	cp "$m" "$root/$rel"
done
cp "$kdir/lib/modules/$abi"/modules.builtin* "$kdir/lib/modules/$abi/modules.order" "$root/lib/modules/$abi/"
cp "$@" "$root/lib/modules/$abi/extra/"
/sbin/depmod -b "$root" "$abi"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) | gzip -1 >"$out"
rm -rf "$root"
