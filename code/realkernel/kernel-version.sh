#!/bin/sh
# kernel-version.sh - print the ABI name of Debian's current 6.1 kernel, e.g. 6.1.0-57.
#
# linux-image-amd64 is the meta-package that always depends on the newest
# linux-image-6.1.0-NN-amd64; NN moves with Debian's security updates, so
# it is read from the package index at run time, never written down here.
set -e
lookup() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: linux-image-\([0-9][0-9.]*-[0-9][0-9]*\)-amd64$/\1/p' | head -n 1
}
v=$(lookup)
# A fresh machine may have no package lists yet; as root, fetch them once.
if [ -z "$v" ] && [ "$(id -u)" = 0 ]; then
	echo "kernel-version.sh: no linux-image-amd64 in the package lists; running apt-get update" >&2
	apt-get update -qq >&2
	v=$(lookup)
fi
if [ -z "$v" ]; then
	echo "kernel-version.sh: apt-cache knows no linux-image-amd64 depending on linux-image-6.1.0-NN-amd64;" >&2
	echo "  run 'apt-get update' (as root) and try again" >&2
	exit 1
fi
echo "$v"
