#!/bin/bash
# classroom.sh SOURCE SUBMISSION - the grading step of .github/workflows/classroom.yml.
#
# SOURCE is the course's tree (its tests grade), SUBMISSION the student's
# repository.  Runs `make grade` in SOURCE on SUBMISSION's exercises and
# hands the result to GitHub Classroom's reporter the way its graders do:
# the step output "result" is classroom.json (tests/grade/gradefmt.c),
# base64-encoded, written to $GITHUB_OUTPUT.  The whole grading output
# stays in SOURCE/build/grade (the workflow uploads it).
set -u
src=$1 sub=$(cd "$2" && pwd)
make -C "$src" --no-print-directory grade SUBMISSION="$sub" ${GRADE_STAGES:+STAGES="$GRADE_STAGES"}
rc=$?
json=$src/build/grade/classroom.json
if [ $rc != 0 ] || [ ! -s "$json" ]; then
	# Still a result: every test failed, with the reason.
	printf '{"version": 1, "status": "error", "max_score": 0, "tests": [{"name": "grading", "status": "error", "score": 0, "message": "make grade failed (exit %s); see the workflow log"}]}\n' "$rc" >"$json.error"
	json=$json.error
fi
echo "result=$(base64 -w 0 "$json")" >>"${GITHUB_OUTPUT:-/dev/stdout}"
