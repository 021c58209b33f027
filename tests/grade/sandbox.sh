#!/bin/bash
# sandbox.sh HIDE SECONDS [VAR=VALUE...] COMMAND... - run a submission's step on the untrusted side.
# sandbox.sh --reap - end what a step left running, where steps get no pid namespace.
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
#   - with an environment of PATH, HOME, LANG and the VAR=VALUE given, plus
#     the tests' knobs (KTEST_HANG_BUDGET_S, CK_DEFAULT_TIMEOUT,
#     CK_TIMEOUT_MULTIPLIER, KSIM_SOFTLOCKUP_TIMEOUT_MS) when set;
#   - for at most SECONDS, then killed (and its namespace with it).
# Where the kernel refuses a namespace (a container without CAP_SYS_ADMIN)
# the step runs without it, and says so on standard error: without the
# mount namespace the per-stage bundle holds no hidden solution in the
# first place; without the pid namespace --reap kills every process of
# GRADE_UID, so two gradings at once there need two users (GRADE_UID).  As another user, COMMAND runs as
# that user, with the same environment and time limit, nothing is hidden
# (a student grading their own checkout) and --reap does nothing.  Exit
# status: COMMAND's (124 when it ran out of time); 2 for bad arguments.
set -u
uid=${GRADE_UID:-61000}
root=
[ "$(id -u)" = 0 ] && root=1
# The namespaces a step runs in, the best the kernel allows: its processes, its mounts and
# its /proc (so the thread ids the soft-lockup watchdog looks up there are the namespace's);
# else its mounts only; else none.
ns=()
if [ -n "$root" ]; then
	for try in "unshare --pid --fork --kill-child --mount-proc --propagation private" \
		   "unshare --mount --propagation private"; do
		read -ra ns <<<"$try"
		"${ns[@]}" true 2>/dev/null && break
		ns=()
	done
fi
if [ "${1:-}" = --reap ]; then
	[ -z "$root" ] || [ "${ns[1]:-}" = --pid ] ||
		setpriv --reuid="$uid" --regid="$uid" --clear-groups kill -KILL -1 2>/dev/null
	exit 0
fi
[ $# -ge 3 ] || { echo "usage: sandbox.sh HIDE SECONDS [VAR=VALUE...] COMMAND..." >&2; exit 2; }
hide=$1 secs=$2
shift 2
case $secs in ''|*[!0-9]*) echo "sandbox.sh: '$secs' is not a number of seconds" >&2; exit 2 ;; esac
envs=(PATH=/usr/local/bin:/usr/bin:/bin HOME=/nonexistent LANG=C.UTF-8 TMPDIR=/tmp)
for v in KTEST_HANG_BUDGET_S CK_DEFAULT_TIMEOUT CK_TIMEOUT_MULTIPLIER KSIM_SOFTLOCKUP_TIMEOUT_MS; do
	[ -z "${!v:-}" ] || envs+=("$v=${!v}")
done
while [ $# -gt 0 ] && [[ $1 == [A-Za-z_]*=* ]]; do envs+=("$1"); shift; done
[ $# -gt 0 ] || { echo "sandbox.sh: no command" >&2; exit 2; }

if [ -z "$root" ]; then
	exec timeout -k 5 "$secs" env -i "${envs[@]}" "$@"
fi
drop=(setpriv --reuid="$uid" --regid="$uid" --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs)
[ "${ns[1]:-}" = --pid ] || echo "sandbox.sh: no pid namespace here: what a step leaves running is ended" \
	"by user, so two gradings at once need two users (GRADE_UID)" >&2
if [ ${#ns[@]} -gt 0 ]; then
	# shellcheck disable=SC2016 # expanded by the inner shell
	exec timeout -k 5 "$secs" "${ns[@]}" bash -c '
		hide=$1; shift
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
		wait $!' sandbox "$hide" "${drop[@]}" env -i "${envs[@]}" "$@"
fi
echo "sandbox.sh: no mount namespace here; the paths in $hide stay visible (grade from a per-stage bundle)" >&2
exec timeout -k 5 "$secs" "${drop[@]}" env -i "${envs[@]}" "$@"
