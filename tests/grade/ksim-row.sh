#!/bin/bash
# ksim-row.sh SANDBOX HIDE KSIM... - one scenario row's ksim, in the sandbox, for a table judged on the trusted side.
#
# tests/grade/grade.sh runs tests/lib/scenarios.sh itself, as the grader's
# user, with KSIM naming this script: only ksim runs as the submission's
# user, once per row, and what it printed and its exit status come back
# through the pipe and the wait of this process, never through a file that
# user can write.  The sandbox's own notes (no namespace here) are not the
# row's output: they are left out of it.  Exit status: ksim's.
set -u
sandbox=$1 hide=$2
shift 2
set -o pipefail
"$sandbox" "$hide" 20 KSIM_SOFTLOCKUP_TIMEOUT_MS="${KSIM_SOFTLOCKUP_TIMEOUT_MS:-4000}" "$@" 2>&1 |
	sed -u '/^sandbox\.sh: no \(pid\|mount\) namespace here/d'
exit "${PIPESTATUS[0]}"
