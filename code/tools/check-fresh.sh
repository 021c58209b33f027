#!/bin/bash
# check-fresh.sh SUITE CACHE LOGS - the README's two commands on a fresh Debian
# machine of release SUITE (bookworm: Debian 12, trixie: Debian 13), as a
# newcomer types them.
#
# CI's own machine has every package installed already, so `make check` there
# cannot notice that the deps step forgot one, or that a name is gone from a
# release.  This does: it builds a fresh root of SUITE with `debootstrap
# --variant=minbase` (plus git and make, the two things the README assumes),
# from the Debian archive this machine itself installs from, copies a clean
# clone of the current commit into it, and runs, inside it:
#   1. as root, with an empty environment: make tour
#   2. the same: make check, which must pass and end with its tally
#   3. as a user who is not root: make check-stage1 SOLUTIONS=1
#   4. as that user: the deps step with a package missing installs nothing,
#      names the package and prints a command; that command, run as root,
#      installs it.
# and ends with "N passed, M failed" over those four.
#
# CACHE (make check-fresh: /var/cache/lifetime-workbook/fresh-SUITE, outside
# the clone, so that the next clone's CI run on this machine finds it) keeps:
#   pristine/    the root as debootstrap left it, so a second run copies it in
#                seconds; pristine.ok says what it was made from (the suite,
#                the archive, its sources, this recipe's version) and when:
#                when any of that differs, or it is older than FRESH_MAX_AGE_DAYS
#                (30: a point release later, the install would upgrade half of
#                it), it is made anew
#   debs/        the .deb files apt downloaded (the root's /var/cache/apt/archives):
#                a rerun installs the same packages without downloading them
#                again; apt-get autoclean drops those the archive no longer has
#   root/        this run's root (removed when every check passed)
#   lock         held for the whole run: two runs of one suite wait for each other
# LOGS (build/fresh/SUITE) keeps the whole output of each step.
#
# Everything runs in a mount namespace of its own: the root's /proc, /sys,
# /dev, /dev/pts and /dev/shm are never seen by the rest of the machine, and
# they are unmounted on every way out (a trap), the namespace taking the rest.
#
# From the environment: FRESH_HOST_PACKAGES (what the host needs: debootstrap, git).
# Exit status: 0 all passed; 1 a check failed; 2 cannot run here (not root, no source).
set -u
RECIPE=2	# the version of how the pristine root is made: a change here remakes it
FRESH_MAX_AGE_DAYS=${FRESH_MAX_AGE_DAYS:-30}
PATH_ROOT=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
PATH_USER=/usr/local/bin:/usr/bin:/bin
STUDENT=student
PROBE_PACKAGE=hello	# small, and not in the workbook's list: what a user would lack

if [ "$(id -u)" != 0 ]; then
	echo "check-fresh: needs root (debootstrap, chroot and mount do); as root: make check-fresh" >&2
	exit 2
fi
if [ -z "${CHECK_FRESH_NS:-}" ]; then
	CHECK_FRESH_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi

[ $# = 3 ] || { echo "usage: check-fresh.sh SUITE CACHE LOGS" >&2; exit 2; }
SUITE=$1
top=$(git rev-parse --show-toplevel) || exit 2
cd "$top" || exit 2
dir=$(realpath -m "$2") logs=$(realpath -m "$3")
pristine=$dir/pristine root=$dir/root debs=$dir/debs
mkdir -p "$dir" "$logs" || exit 2
exec 9>"$dir/lock"
flock -n 9 || { echo "check-fresh: $SUITE: another run holds $dir/lock; waiting for it"; flock 9; }
start=$SECONDS
passed=0 failed=0

say() { printf 'check-fresh: %s\n' "$*"; }
pass() { passed=$((passed + 1)); printf 'ok   %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$*"; }
tally() { echo "check-fresh: $passed passed, $failed failed"; }

# ---------------------------------------------------------------- mounts
MOUNTS=(proc sys dev dev/pts dev/shm var/cache/apt/archives)
unmount_all() {
	local m pid
	# A process the run left behind in the root (a stuck ksim) would keep it busy.
	for pid in /proc/[0-9]*; do
		# -ef: the same directory, without a readlink process per pid.
		[ "$pid/root" -ef "$root" ] && kill -KILL "${pid#/proc/}" 2>/dev/null
	done
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		m=$root/${MOUNTS[i]}
		mountpoint -q "$m" 2>/dev/null && { umount "$m" 2>/dev/null || umount -l "$m"; }
	done
}
mounted_below() { grep -q " $1/" /proc/self/mountinfo; }
on_exit() { unmount_all; }
# A step runs in the background (in_background) so that a signal interrupts
# the wait at once: timeout(1) puts the step in a process group of its own,
# which a Ctrl-C on the terminal does not reach.  unmount_all kills what runs
# in the root; the timeout then ends too.
step_pid=
on_signal() {
	echo; say "interrupted; stopping the step and unmounting"
	{ unmount_all; [ -z "$step_pid" ] || wait "$step_pid"; } 2>/dev/null
	fail "interrupted"; tally; exit 130
}
trap on_exit EXIT
trap on_signal INT TERM HUP

mount_all() {
	mount -t proc proc "$root/proc" &&
	mount --bind /sys "$root/sys" &&
	mount --bind /dev "$root/dev" &&
	mount --bind /dev/pts "$root/dev/pts" &&
	mount -t tmpfs -o mode=1777 shm "$root/dev/shm" &&
	mkdir -p "$debs/partial" && mount --bind "$debs" "$root/var/cache/apt/archives" &&
	chroot "$root" chown _apt:root /var/cache/apt/archives/partial
}

# ---------------------------------------------------------------- the archive
# The fresh root installs from the Debian archive this machine installs from,
# with its suites renamed to SUITE's: bookworm, bookworm-updates and
# bookworm-security on a Debian 12 host become trixie, trixie-updates and
# trixie-security for a Debian 13 root (the archive's layout is the same).
# HOST_SUITE: this machine's release, whose stanzas are taken.
HOST_SUITE=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
# debian_sources - the Debian stanzas of this machine's apt sources for
# HOST_SUITE's own suites (a third-party repository's key would not be in the
# fresh root), renamed to SUITE: deb822 files (/etc/apt/sources.list.d/*.sources)
# first, else the one-line format.
debian_sources() {
	local f out=
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		out+=$(awk -v suite="$HOST_SUITE" -v to="$SUITE" '
			function flush() {
				if (st != "" && deb && !off && suites ~ ("(^| )" suite "(-[a-z]+)?( |$)")) printf "%s\n", st
				st = ""; deb = 0; off = 0; suites = ""
			}
			/^[ \t]*$/ { flush(); next }
			/^#/ { next }
			tolower($1) == "suites:" {
				$1 = ""; suites = $0; sub(/^ +/, "", suites)
				s = suites; gsub("(^| )" suite, " " to, s); sub(/^ /, "", s)
				st = st "Suites: " s "\n"; next
			}
			{ st = st $0 "\n" }
			tolower($1) == "types:" && / deb( |$)/ { deb = 1 }
			tolower($1) == "enabled:" && tolower($2) == "no" { off = 1 }
			END { flush() }' "$f")$'\n\n'
	done
	if [ -n "${out//$'\n'/}" ]; then
		printf '%s' "$out"
		return
	fi
	[ ! -r /etc/apt/sources.list ] ||
		awk -v suite="$HOST_SUITE" -v to="$SUITE" '$1 == "deb" {
				i = 2; if ($2 ~ /^\[/) while ($i !~ /\]$/) i++
				if ($2 ~ /^\[/) i++
				if ($(i + 1) ~ ("^" suite "(-[a-z]+)?$")) { sub("^" suite, to, $(i + 1)); print } }' /etc/apt/sources.list
}

# mirror - the URI of the main archive (the stanza whose suites include SUITE itself).
mirror() {
	debian_sources | awk -v suite="$SUITE" '
		/^(URIs|Suites):/ { v = $0; sub(/^[^:]*: */, "", v); f[$1] = v }
		/^$/ { if (f["Suites:"] ~ ("(^| )" suite "( |$)")) { split(f["URIs:"], u, " "); print u[1]; exit } delete f }
		$1 == "deb" { i = 2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
			if ($(i + 1) == suite) { print $i; exit } }'
}

# ---------------------------------------------------------------- go
if [ -n "${FRESH_HOST_PACKAGES:-}" ]; then
	code/tools/deps.sh $FRESH_HOST_PACKAGES || exit 2
fi
uri=$(mirror)
if [ -z "$uri" ]; then
	echo "check-fresh: no Debian source for this machine's release ('$HOST_SUITE') in /etc/apt/sources.list.d/*.sources (URIs:) or /etc/apt/sources.list" >&2
	exit 2
fi
sha=$(git rev-parse HEAD)
say "commit $(git rev-parse --short HEAD), Debian $SUITE from $uri; logs in $logs/"
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	say "note: the working tree has uncommitted changes; they are not in the clone tested here"

rm -f "$logs"/*.log
if mounted_below "$root" || mounted_below "$pristine"; then
	echo "check-fresh: something is still mounted under $dir; unmount it first:" >&2
	grep -o " $dir/[^ ]*" /proc/self/mountinfo >&2
	exit 2
fi

# The pristine root, made once: debootstrap is most of a cold run's set-up.
# It is kept while what it was made from is the same and it is young enough.
want="recipe $RECIPE: $SUITE minbase git,make $uri $(debian_sources | sha256sum | cut -c1-16)"
pristine_ok() {
	[ "$(head -n 1 "$dir/pristine.ok" 2>/dev/null)" = "$want" ] &&
	[ -n "$(find "$dir/pristine.ok" -mtime -"$FRESH_MAX_AGE_DAYS" 2>/dev/null)" ] &&
	[ "$(. "$pristine/etc/os-release" 2>/dev/null && echo "${VERSION_CODENAME:-}")" = "$SUITE" ] &&
	[ -x "$pristine/usr/bin/git" ] && [ -x "$pristine/usr/bin/make" ]
}
if ! pristine_ok; then
	say "debootstrap --variant=minbase --include=git,make $SUITE (once; kept in $pristine)"
	t=$SECONDS
	rm -rf "$pristine" "$pristine.tmp" "$dir/pristine.ok"
	if ! debootstrap --variant=minbase --include=git,make "$SUITE" "$pristine.tmp" "$uri" \
			>"$logs/debootstrap.log" 2>&1; then
		tail -n 20 "$logs/debootstrap.log"
		fail "debootstrap (see $logs/debootstrap.log)"
		tally; exit 1
	fi
	# The machine's own sources, as an installed Debian has them.
	rm -f "$pristine.tmp/etc/apt/sources.list"
	debian_sources >"$pristine.tmp/etc/apt/sources.list.d/debian.sources.tmp"
	if grep -q '^deb ' "$pristine.tmp/etc/apt/sources.list.d/debian.sources.tmp"; then
		mv "$pristine.tmp/etc/apt/sources.list.d/debian.sources.tmp" "$pristine.tmp/etc/apt/sources.list"
	else
		mv "$pristine.tmp/etc/apt/sources.list.d/debian.sources.tmp" "$pristine.tmp/etc/apt/sources.list.d/debian.sources"
	fi
	rm -rf "$pristine.tmp/var/cache/apt/archives"/*.deb
	mv "$pristine.tmp" "$pristine" && echo "$want" >"$dir/pristine.ok"
	echo "made $(date -u +%FT%TZ) in $((SECONDS - t)) s" >>"$dir/pristine.ok"
	say "pristine root made in $((SECONDS - t)) s ($(du -sh "$pristine" | cut -f1))"
fi

t=$SECONDS
rm -rf "$root"
cp -a "$pristine" "$root" || { fail "copying the pristine root"; tally; exit 1; }
mount_all || { fail "mounting /proc, /sys, /dev, /dev/pts, /dev/shm in the root"; tally; exit 1; }
# Two clean clones of the commit: root's, and the user's own.
clone() {
	git clone --quiet --no-hardlinks "$top" "$1" && git -C "$1" checkout --quiet --detach "$sha"
}
chroot "$root" useradd --create-home --shell /bin/bash "$STUDENT" &&
	clone "$root/root/workbook" && clone "$root/home/$STUDENT/workbook" &&
	chroot "$root" chown -R "$STUDENT:$STUDENT" "/home/$STUDENT/workbook" ||
	{ fail "cloning $sha into the root"; tally; exit 1; }
uid=$(chroot "$root" id -u "$STUDENT") gid=$(chroot "$root" id -g "$STUDENT")
say "fresh root ready in $((SECONDS - t)) s: $root"

# as_root LOG LIMIT COMMAND / as_user LOG LIMIT COMMAND - COMMAND in the
# root's clone with nothing of this machine's environment; the whole output
# in LOG, the progress lines here.
# in_background LOG COMMAND... - COMMAND, its output in LOG (only COMMAND's:
# a trap that runs meanwhile still writes here).
in_background() {
	local log=$1 st; shift
	"$@" </dev/null >"$log" 2>&1 & step_pid=$!
	wait "$step_pid"; st=$?
	step_pid=
	return $st
}
as_root() {
	local log=$1 limit=$2; shift 2
	in_background "$log" timeout -k 10 "$limit" chroot "$root" \
		/usr/bin/env -i HOME=/root PATH=$PATH_ROOT \
		/bin/sh -c "cd /root/workbook && $*"
}
as_user() {
	local log=$1 limit=$2; shift 2
	in_background "$log" timeout -k 10 "$limit" chroot --userspec="$uid:$gid" "$root" \
		/usr/bin/env -i HOME=/home/$STUDENT USER=$STUDENT LOGNAME=$STUDENT PATH=$PATH_USER \
		/bin/sh -c "cd /home/$STUDENT/workbook && $*"
}

# shown LOG - the end of a failed step's output.
shown() { echo "  the end of $1:"; tail -n 25 "$1" | sed 's/^/  | /'; }

say "as root, empty environment: make tour"
t=$SECONDS
if as_root "$logs/tour.log" 30m make tour; then
	pass "make tour, as root on a fresh root ($((SECONDS - t)) s, the package install included)"
else
	st=$?
	shown "$logs/tour.log"
	fail "make tour exited $st ($((SECONDS - t)) s)"
fi
grep '^deps: ' "$logs/tour.log" | sed 's/^/  /'

say "as root, empty environment: make check"
t=$SECONDS
as_root "$logs/check.log" 40m make check
st=$?
last=$(tail -n 1 "$logs/check.log")
if [ $st = 0 ] && [[ $last =~ ^[0-9]+\ passed,\ 0\ failed$ ]]; then
	pass "make check: $last ($((SECONDS - t)) s)"
else
	shown "$logs/check.log"
	fail "make check exited $st, last line '$last' ($((SECONDS - t)) s)"
fi

say "as $STUDENT (uid $uid): make check-stage1 SOLUTIONS=1"
t=$SECONDS
if as_user "$logs/stage1-user.log" 10m make check-stage1 SOLUTIONS=1; then
	pass "make check-stage1 SOLUTIONS=1 as $STUDENT: $(tail -n 1 "$logs/stage1-user.log") ($((SECONDS - t)) s)"
else
	st=$?
	shown "$logs/stage1-user.log"
	fail "make check-stage1 SOLUTIONS=1 as $STUDENT exited $st"
fi

# The deps step as a user: installs nothing, names what is missing, and the
# command it prints is the one that works, run as root.
say "as $STUDENT: the deps step with $PROBE_PACKAGE missing"
as_user "$logs/deps-user.log" 2m code/tools/deps.sh $PROBE_PACKAGE
st=$?
cmd=$(grep -A1 'As root, run:' "$logs/deps-user.log" | sed -n '2s/^ *//p')
if [ $st = 0 ]; then
	fail "deps.sh as $STUDENT exited 0 with $PROBE_PACKAGE not installed"
elif ! grep -q "not installed: $PROBE_PACKAGE$" "$logs/deps-user.log" || [ -z "$cmd" ]; then
	shown "$logs/deps-user.log"
	fail "deps.sh as $STUDENT did not name $PROBE_PACKAGE and a command for root"
elif chroot "$root" dpkg-query -W -f='${Status}' "$PROBE_PACKAGE" 2>/dev/null | grep -q 'install ok installed'; then
	fail "deps.sh as $STUDENT: $PROBE_PACKAGE is installed after all?"
elif ! as_root "$logs/deps-root.log" 5m "$cmd" || ! as_user "$logs/deps-user2.log" 1m code/tools/deps.sh $PROBE_PACKAGE; then
	shown "$logs/deps-root.log"
	fail "the command deps.sh printed for root, '$cmd', did not install $PROBE_PACKAGE"
else
	pass "deps.sh as $STUDENT installs nothing, names $PROBE_PACKAGE, and its command for root works: $cmd"
fi

# Downloaded packages that the archive no longer has are of no use to the next run.
chroot "$root" apt-get autoclean -qq >/dev/null 2>&1
unmount_all
if [ $failed = 0 ]; then
	rm -rf "$root"
	say "the root is removed; took $((SECONDS - start)) s in all"
else
	say "the root is kept for a look: chroot $root (took $((SECONDS - start)) s)"
fi
tally
[ $failed = 0 ]
