#!/bin/bash
# sandbox.sh HIDE SECONDS [VAR=VALUE...] COMMAND... - run a submission's step on the untrusted side.
# sandbox.sh --reap [KEEP...] - end and remove what a step left behind that its namespaces did not.
#
# Run as root (the grader on Gradescope, make check-grade), COMMAND runs:
#   - as GRADE_UID (default 61000), no supplementary groups, no
#     capabilities, no_new_privs, so a set-user-ID file gives it nothing;
#   - in a pid namespace of its own, with its own /proc: when the step
#     ends, the kernel kills whatever it left running (a process that left
#     its group, a daemon), and nothing else.  Two gradings side by side,
#     as the same user, each end only their own processes;
#   - in a mount namespace of its own where each path listed in the file
#     HIDE (one a line) is covered by an empty, unreadable tmpfs (a file by
#     /dev/null): the solutions of the stage graded and later ones, the
#     course's .git, other copies of the course;
#   - with a scratch area of its own: /tmp, /var/tmp, /dev/shm, /run/lock
#     and any other world-writable directory near the root (others, below)
#     are each a fresh tmpfs of SCRATCH_MB (below), gone with the step, so a
#     temporary file or a POSIX shared-memory segment cannot outlive it
#     (a grading copy under /tmp stays reachable: it is bound back in);
#   - in a network namespace of its own (a loopback that is down: no
#     connection, no DNS) and an IPC namespace of its own (its SysV IPC
#     objects and POSIX message queues die with it);
#   - under a seccomp filter that refuses socket() (tests/grade/netdeny.c,
#     built as build/tools/netdeny, or GRADE_NETDENY): this is the network
#     ban where there is no network namespace, and it also keeps a step from
#     the machine's Unix-domain services (a name service, a resolver);
#   - under the limits below (prlimit), each one measured against the
#     references (README, "Grading a course");
#   - with an environment of PATH, HOME, LANG, TMPDIR=/tmp and the
#     VAR=VALUE given, plus the tests' knobs (KTEST_HANG_BUDGET_S,
#     CK_DEFAULT_TIMEOUT, CK_TIMEOUT_MULTIPLIER, KSIM_SOFTLOCKUP_TIMEOUT_MS)
#     when set;
#   - for at most SECONDS, then killed (and its namespace with it), and, with
#     a pid namespace, for at most GRADE_STEP_CPU_S CPU-seconds (default 20)
#     for all of its processes together, counted twice a second.
# Where the kernel refuses namespaces (a container without CAP_SYS_ADMIN), or
# the trusted caller sets GRADE_SANDBOX_NONS=1 (to test this), the step runs
# without them, says so on standard error, and --reap does their work after
# it: it kills every process of GRADE_UID (so two gradings at once there
# need two users: grade.sh gives each its own GRADE_UID), deletes that user's files in the world-writable
# directories (/tmp, /var/tmp, /dev/shm, /run/lock, the others; but the paths
# KEEP, the grading's own copies) and its SysV IPC objects.
# The scratch area is then not size-limited (each file still is:
# FSIZE_MB), no per-step CPU total is kept (each process still has CPU_S),
# and no path is hidden (grade from a per-stage bundle).  As another user,
# COMMAND runs as that user, with the same environment and time limit,
# nothing is hidden nor limited (a student grading their own checkout) and
# --reap does nothing.  Exit status: COMMAND's (124 when it ran out of time,
# wall or CPU); 2 for bad arguments or a sandbox that cannot be set up.
set -u
uid=${GRADE_UID:-61000}
# The limits of every process of a step (prlimit).  Measured on the five
# references' gradings (make grade, every stage, sampled every 50 ms): at
# most 15 tasks of the user at once, 934 MB of address space (test_stress:
# each of its threads reserves a malloc arena and a stack), 41 open files,
# a largest file of 0.75 MB (a test binary), 0.6 CPU-seconds in one process
# and 5.7 for a whole stage's grading (stage 4, the grader's own work included).
#   NPROC counts every task of the user (threads too) on the machine, not
#   the step's: two gradings at once as one user would share it, so it is
#   set for both, with room; grade.sh gives each grading run as root a user
#   of its own all the same, so that a fork bomb in one takes nothing from
#   the other.  AS bounds one process:
#   only a cgroup would bound them all together.
NPROC=256 AS_MB=4096 FSIZE_MB=16 CPU_S=20 NOFILE=256 SCRATCH_MB=32
scratch=(/tmp /var/tmp /dev/shm /run/lock)
# others SKIP... - the machine's other world-writable directories, where a
# system keeps them (at most four levels down: /var/crash, /var/lib/php/sessions),
# but for SKIP's (the grading's own) and those under or above them; one a line.
others() {
	local d k
	find / /dev/shm /run -xdev -maxdepth 4 -type d -perm -0002 2>/dev/null | sort -u | while IFS= read -r d; do
		case $d/ in /tmp/*|/var/tmp/*|/dev/shm/*|/run/lock/*) continue ;; esac
		for k in "$@"; do
			case $d/ in "$k"/*) continue 2 ;; esac
			case $k/ in "$d"/*) continue 2 ;; esac
		done
		echo "$d"
	done
}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
netdeny=${GRADE_NETDENY:-$here/../../build/tools/netdeny}
root=
[ "$(id -u)" = 0 ] && root=1
# The namespaces a step runs in, the best the kernel allows: its processes, its
# mounts, its /proc (so the thread ids the soft-lockup watchdog looks up there
# are the namespace's), its network and its IPC; else its mounts only; else none.
ns=() pidns= mntns=
if [ -n "$root" ] && [ "${GRADE_SANDBOX_NONS:-}" != 1 ]; then
	for try in "unshare --pid --fork --kill-child --mount-proc --propagation private --net --ipc" \
		   "unshare --mount --propagation private"; do
		read -ra ns <<<"$try"
		"${ns[@]}" true 2>/dev/null && break
		ns=()
	done
fi
[ "${ns[1]:-}" != --pid ] || pidns=1
[ ${#ns[@]} = 0 ] || mntns=1

# reap [KEEP...] - what the namespaces would have ended and removed, done by user.
# alive - some process has GRADE_UID as its real uid (read from /proc: procps is not a dependency).
alive() { grep -qs "^Uid:[[:space:]]*${uid}[[:space:]]" /proc/[0-9]*/status; }
reap() {
	local i d t col ids keep=()
	for d in "$@"; do keep+=(-path "$d" -prune -o); done
	for i in $(seq 50); do
		alive || break
		# (a fork bomb forks between two rounds: stop them all, then kill)
		# (-- before -1: Debian 13's procps kill takes "-1" after a signal for an option and kills nothing)
		setpriv --reuid="$uid" --regid="$uid" --clear-groups kill -STOP -- -1 2>/dev/null
		setpriv --reuid="$uid" --regid="$uid" --clear-groups kill -KILL -- -1 2>/dev/null
		sleep 0.02
	done
	! alive || echo "sandbox.sh: processes of user $uid survive" >&2
	while IFS= read -r d; do
		[ -d "$d" ] && find "$d" -xdev -mindepth 1 "${keep[@]}" -user "$uid" -prune -exec rm -rf {} + 2>/dev/null
	done < <(printf '%s\n' "${scratch[@]}"; others "$@")
	# SysV IPC: the objects the user owns or made (/proc/sysvipc: the owner's uid in column 8
	# of shm and msg, 5 of sem; the creator's in 10, 7).
	for t in shm:m:8:10 sem:s:5:7 msg:q:8:10; do
		IFS=: read -r d i col ids <<<"$t"
		awk -v u="$uid" -v a="$col" -v b="$ids" 'NR > 1 && ($a == u || $b == u) { print $2 }' "/proc/sysvipc/$d" 2>/dev/null |
			while read -r id; do ipcrm "-$i" "$id" 2>/dev/null; done
	done
}
if [ "${1:-}" = --reap ]; then
	shift
	[ -z "$root" ] || [ -n "$pidns" ] || reap "$@"
	exit 0
fi
[ $# -ge 3 ] || { echo "usage: sandbox.sh HIDE SECONDS [VAR=VALUE...] COMMAND..." >&2; exit 2; }
hide=$1 secs=$2
shift 2
case $secs in ''|*[!0-9]*) echo "sandbox.sh: '$secs' is not a number of seconds" >&2; exit 2 ;; esac
cpu=${GRADE_STEP_CPU_S:-20}
case $cpu in ''|*[!0-9]*) echo "sandbox.sh: GRADE_STEP_CPU_S='$cpu' is not a number of seconds" >&2; exit 2 ;; esac
envs=(PATH=/usr/local/bin:/usr/bin:/bin HOME=/nonexistent LANG=C.UTF-8 TMPDIR=/tmp)
for v in KTEST_HANG_BUDGET_S CK_DEFAULT_TIMEOUT CK_TIMEOUT_MULTIPLIER KSIM_SOFTLOCKUP_TIMEOUT_MS; do
	[ -z "${!v:-}" ] || envs+=("$v=${!v}")
done
while [ $# -gt 0 ] && [[ $1 == [A-Za-z_]*=* ]]; do envs+=("$1"); shift; done
[ $# -gt 0 ] || { echo "sandbox.sh: no command" >&2; exit 2; }

if [ -z "$root" ]; then
	exec timeout -k 5 "$secs" env -i "${envs[@]}" "$@"
fi
# Invariant: no step runs without the socket filter (fail closed).
deny=("$netdeny")
"${deny[@]}" true 2>/dev/null || { echo "sandbox.sh: $netdeny does not run: no step runs without its network ban (make grade-prebuild)" >&2; exit 2; }
limits=(prlimit --nproc="$NPROC" --as=$((AS_MB << 20)) --fsize=$((FSIZE_MB << 20)) --cpu="$CPU_S:$((CPU_S + 5))"
	--nofile="$NOFILE" --core=0)
drop=(setpriv --reuid="$uid" --regid="$uid" --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs)
[ -n "$pidns" ] || echo "sandbox.sh: no pid namespace here: what a step leaves running is ended" \
	"by user, so two gradings at once need two users (GRADE_UID)" >&2
if [ -n "$mntns" ]; then
	# shellcheck disable=SC2016 # expanded by the inner shell
	exec timeout -k 5 "$secs" "${deny[@]}" "${ns[@]}" bash -c '
		hide=$1 mb=$2 cpu=$3 scratch=$4; shift 4
		# The scratch area: a fresh tmpfs on each, but the grading copy this
		# step runs in, when it is in one of them, bound back in (through a
		# descriptor opened before the tmpfs covers it).
		while IFS= read -r s; do
			[ -d "$s" ] || continue
			keep=
			case $PWD/ in "$s"/*/*) keep=${PWD#"$s"/}; keep=$s/${keep%%/*}; exec 9<"$keep" ;; esac
			# (the usual four must be covered; another that cannot be is said, and stays as it is)
			mount -t tmpfs -o size="$mb"m,mode=1777,nosuid,nodev none "$s" || case $s in
				/tmp|/var/tmp|/dev/shm|/run/lock) echo "sandbox.sh: cannot mount the scratch area $s" >&2; exit 2 ;;
				*) echo "sandbox.sh: cannot cover $s: what the step writes there stays" >&2 ;;
				esac
			[ -z "$keep" ] || { mkdir -p "$keep" && mount --no-canonicalize --rbind /proc/$$/fd/9 "$keep" &&
				exec 9<&-; } || { echo "sandbox.sh: cannot keep $keep" >&2; exit 2; }
		done <<<"$scratch"
		cd "$PWD" || exit 2
		while IFS= read -r p; do
			[ -n "$p" ] && [ -e "$p" ] || continue
			if [ -d "$p" ]; then mount -t tmpfs -o size=4k,mode=000 none "$p"
			else mount --bind /dev/null "$p"; fi || { echo "sandbox.sh: cannot hide $p" >&2; exit 2; }
		done <"$hide"
		[ "$$" = 1 ] || exec "$@"
		# The namespace'"'"'s init: the kernel gives it no signal it has no handler for,
		# so it stays, forwards the time limit'"'"'s TERM as a KILL to all, and reports
		# the step'"'"'s status.
		trap "kill -KILL -1 2>/dev/null; exit 143" TERM
		"$@" <&0 &
		step=$!
		# The CPU time of the whole step: every live process'"'"'s own and that of
		# the children it reaped (utime, stime, cutime, cstime; orphans are
		# reaped by this init, whose own line counts them).
		# (A name may hold spaces and parentheses: fields count from the last ")".)
		(
			hz=$(getconf CLK_TCK)
			while sleep 0.5; do
				t=$(cat /proc/[0-9]*/stat 2>/dev/null |
					awk "{ sub(/^.*\\) /, \"\"); s += \$12 + \$13 + \$14 + \$15 } END { printf \"%d\", s }")
				if [ "$t" -gt $((cpu * hz)) ]; then
					echo "sandbox.sh: the step used more than $cpu CPU-seconds and was stopped" >&2
					kill -KILL -1 2>/dev/null
					exit 3
				fi
			done
		) &
		watch=$!
		wait $step
		rc=$?
		# The watcher exits 3 only when it stopped the step; else it is ended here.
		kill $watch 2>/dev/null
		wait $watch
		[ $? != 3 ] || exit 124
		exit $rc' sandbox "$hide" "$SCRATCH_MB" "$cpu" "$(printf '%s\n' "${scratch[@]}"; others "$(dirname "$PWD")")" "${limits[@]}" "${drop[@]}" env -i "${envs[@]}" "$@"
fi
echo "sandbox.sh: no mount namespace here; the paths in $hide stay visible (grade from a per-stage bundle)" >&2
exec timeout -k 5 "$secs" "${deny[@]}" "${limits[@]}" "${drop[@]}" env -i "${envs[@]}" "$@"
