#!/bin/bash
# classroom.sh SOURCE SUBMISSION - the grading step of .github/workflows/classroom.yml.
#
# Runs `make grade` in SOURCE (the student's own repository: see README,
# "Grading a course", on why Classroom's grade is feedback and Gradescope's
# the one to record) on SUBMISSION's exercises, and hands the result to
# GitHub Classroom's reporter the way its graders do: the step output
# "result" is classroom.json (tests/grade/gradefmt.py), base64-encoded,
# written to $GITHUB_OUTPUT.  The log shows each failed exercise with its
# reason and one total, the one Gradescope's results.json holds.  When
# grading itself fails, the result is still every exercise of the stages at
# zero (max_score their points, so Classroom records 0, not nothing), with
# the reason.  GRADE_STAGES picks the stages (default every stage with
# exercises: code/tools/stages.sh --graded).
# CLASSROOM_GRADED=DIR reports a grading already done (DIR holds what make
# grade left: classroom.json, summary.txt) instead of grading again; make
# check-grade uses it on the run it has just graded.
set -u
src=$1 sub=$(cd "$2" && pwd)
stages=${GRADE_STAGES:-$(cd "$src" && code/tools/stages.sh --graded)}
out=${CLASSROOM_GRADED:-$src/build/grade}
rc=0
if [ -z "${CLASSROOM_GRADED:-}" ]; then
	mkdir -p "$src/build"
	make -C "$src" --no-print-directory grade SUBMISSION="$sub" STAGES="$stages" >"$src/build/grade.log" 2>&1
	rc=$?
	tail -c 20000 "$src/build/grade.log"
fi
json=$out/classroom.json
echo
if [ $rc = 0 ] && [ -s "$json" ] && [ -s "$out/summary.txt" ]; then
	echo "==== what failed, and why (the whole report: the workflow's artifact 'grade')"
	cat "$out/summary.txt"
else
	json=$(mktemp)
	python3 - "$src/tests/grade/exercises.tsv" "$rc" "$json" $stages <<'PY'
import json, sys
path, rc, out, stages = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
tests = []
for line in open(path, encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    if line.startswith("#") or len(f) != 4 or f[0] not in stages:
        continue
    # line_no 0: the reporter prints "line undefined" without it (tests/grade/gradefmt.py).
    tests.append({"name": "stage %s: %s" % (f[0], f[1]), "status": "error", "score": 0, "points": float(f[2]), "line_no": 0,
                  # The reporter prints an error's message, not its name: the message names it.
                  "message": "stage %s: %s: grading failed (make grade exit %s) before this exercise was graded; see the log"
                  % (f[0], f[1], rc)})
most = sum(t.pop("points") for t in tests)
# Stages that do not exist still record a score: one test, of one point.
if not tests:
    tests, most = [{"name": "grading", "status": "error", "score": 0, "line_no": 0,
                    "message": "grading failed (make grade exit %s): no such stage %s" % (rc, " ".join(stages))}], 1
json.dump({"version": 1, "status": "error", "max_score": most, "tests": tests}, open(out, "w"))
PY
	echo "grading failed (make grade exit $rc): every exercise records 0"
	echo "grade: 0 of $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["max_score"])' "$json") points"
fi
echo "result=$(base64 -w 0 "$json")" >>"${GITHUB_OUTPUT:-/dev/stdout}"
