#!/bin/sh
# deps.sh PACKAGE... - install the Debian packages that are missing, and say so truthfully.
#
# The list is complete on purpose: apt-get runs with --no-install-recommends
# (Recommends would add hundreds of MB, and a package that is only
# recommended, such as libc6-dev for gcc, is not guaranteed anyway), so every
# package a build, a test or a tool calls is named in DEB_PACKAGES.
#
# As root, installs with apt-get; as another user, with sudo if sudo works
# without a password.  Otherwise it installs nothing, says so, and prints the
# command to run as root.  After installing it checks again: it names any
# package that is still missing and fails, so `make check` never half-works.
#
# Exit status: 0 every package is installed; 1 some are missing (named).
set -u
# missing PACKAGE... - " a b" for those not installed.  One dpkg-query for
# all: it reads dpkg's whole database each time, and make grade asks on
# every run (a quarter of a second for eleven packages one by one).
missing() {
	local have
	have=$(dpkg-query -W -f='${Package} ${Status}\n' "$@" 2>/dev/null |
		awk '$2 " " $3 " " $4 == "install ok installed" { printf " %s", $1 }')
	for p in "$@"; do
		case "$have " in *" $p "*) ;; *) printf ' %s' "$p" ;; esac
	done
}
need=$(missing "$@")
[ -z "$need" ] && exit 0

cmd="apt-get update && apt-get install -y --no-install-recommends$need"
if [ "$(id -u)" = 0 ]; then
	SUDO=
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	SUDO="sudo -n"
else
	echo "deps: not installed:$need" >&2
	echo "deps: nothing was installed: that needs root. As root, run:" >&2
	echo "  $cmd" >&2
	echo "deps: (for example: su -c '$cmd'), then run make again." >&2
	exit 1
fi

# One install at a time: make check's parts run side by side, and two of
# them that each lack a package would meet at apt's lock and one would fail.
# The second waits here, then installs only what the first did not.
if [ -z "$SUDO" ] && command -v flock >/dev/null 2>&1; then
	exec 9>/var/cache/lifetime-workbook-deps.lock
	flock 9
	need=$(missing "$@")
	[ -z "$need" ] && exit 0
	cmd="apt-get update && apt-get install -y --no-install-recommends$need"
fi
echo "deps: installing with apt-get (and what they depend on):$need"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || echo "deps: apt-get update failed; trying the install anyway" >&2
$SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null ||
	echo "deps: apt-get install failed (its messages are above)" >&2
still=$(missing $need)
if [ -n "$still" ]; then
	echo "deps: could not install:$still" >&2
	got=
	for p in $need; do case " $still " in *" $p "*) ;; *) got="$got $p" ;; esac; done
	[ -z "$got" ] || echo "deps: installed:$got" >&2
	echo "deps: as root, try: $cmd" >&2
	exit 1
fi
echo "deps: installed:$need"
