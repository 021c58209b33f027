#!/bin/bash
# check-grade.sh WORK ZIP [STAGES] - the grader's own tests.
#
#  0. tests/grade/points.tsv names every test of every stage (read from
#     the suites' tcase_add_test lines and the scenario tables).
#  1. `make grade` on the skeletons and on the reference solutions, the
#     STAGES given (default all; make check grades 1 and 2, make
#     check-grade-full all four): results.json, classroom.json (python3's json), junit.xml
#     (python3's xml) and grade.tap (perl's TAP::Parser) parse; each
#     stage's passed and failed tests are those of its check-stageN tally;
#     the score is the points of the tests that passed; every test the
#     stage ran has a line in tests/grade/points.tsv and the other way round;
#     the solutions score full marks, the skeletons less.
#  2. The Gradescope bundle ZIP, unpacked in a scratch root laid out as
#     Gradescope does (WORK/root/autograder/{source,submission,results}),
#     runs run_autograder on stage 1 for a correct, a wrong (with an edited
#     test beside it, which must not count), a crashing, a hanging and a
#     non-compiling submission: each leaves a valid results.json with the
#     score and reasons it should have.
#  3. The Classroom workflow's grading step, read from
#     .github/workflows/classroom.yml (python3's yaml) and run as the
#     workflow would, leaves a base64 result the reporter can decode.
set -u
work=$1 zip=$2 stages=${3:-1 2 3 4}
py=/usr/bin/python3	# Debian's, with python3-yaml (not a pyenv shim)
pass=0 fail=0
ok() { echo "ok $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
rm -rf "$work" && mkdir -p "$work"
work=$(cd "$work" && pwd)
src=$(pwd)

# formats DIR - the four files of one grading run parse.
formats() {
	local d=$1 what
	what=$($py - "$d" <<'EOF'
import json, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
r = json.load(open(d + "/results.json", encoding="utf-8"))
assert isinstance(r["tests"], list) and r["tests"], "no tests"
for t in r["tests"]:
    for k in ("name", "score", "max_score", "status", "output"):
        assert k in t, "test without " + k
    assert t["status"] in ("passed", "failed")
    assert t["score"] in (0, t["max_score"])
assert abs(sum(t["score"] for t in r["tests"]) - r["score"]) < 1e-9, "score is not the tests' sum"
c = json.load(open(d + "/classroom.json", encoding="utf-8"))
assert len(c["tests"]) == len(r["tests"]) and c["max_score"] == r["max_score"]
assert abs(sum(t["score"] for t in c["tests"]) - r["score"]) < 1e-9, "classroom score differs"
j = ET.parse(d + "/junit.xml").getroot()
cases = j.findall(".//testcase")
assert len(cases) == len(r["tests"]), "junit has %d cases" % len(cases)
assert int(j.get("failures")) == sum(1 for t in r["tests"] if t["status"] == "failed")
print("%g %g %d" % (r["score"], r["max_score"], len(r["tests"])))
EOF
) || { bad "$d: a format does not parse"; return 1; }
	if ! perl -MTAP::Parser -e '
		my $p = TAP::Parser->new({ source => $ARGV[0] }); my $n = 0;
		while (my $r = $p->next) { die "not TAP: " . $r->as_string . "\n" if $r->is_unknown && $r->as_string =~ /\S/; }
		die "bad plan\n" unless $p->is_good_plan; print scalar($p->passed), " ", scalar($p->failed), "\n";' \
		"$d/grade.tap" >"$d/tap.counts" 2>&1; then
		bad "$d/grade.tap is not valid TAP: $(cat "$d/tap.counts")"
		return 1
	fi
	echo "$what"
}

# tallies DIR STAGES - each stage's grade line agrees with its check-stageN tally and with points.tsv.
tallies() {
	local d=$1 n t g good=1
	for n in $2; do
		t=$(grep -E "^check-stage$n: [0-9]+ passed, [0-9]+ failed$" "$d/stage$n/check.log" | tail -n 1 |
			sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\1 \2/')
		g=$(grep -E "^grade stage$n:" "$d/grade.out" | sed -E 's/.*; ([0-9]+) passed, ([0-9]+) failed/\1 \2/')
		[ -n "$t" ] && [ "$t" = "$g" ] || { bad "stage $n: grade says '$g', check-stage$n's tally '$t'"; good=; }
		# Every test the stage ran is in points.tsv, and every line there ran.
		diff <(cut -f2,3 "$d/stage$n/results.tsv" | tr '\t' : | sort) \
		     <(awk -F'\t' -v n="$n" '$1 == n { print $2 }' tests/grade/points.tsv | sort) >"$d/points.diff" ||
			{ bad "stage $n: tests/grade/points.tsv and the tests that ran differ (< ran, > listed):"; sed 's/^/    /' "$d/points.diff"; good=; }
	done
	[ -n "$good" ]
}

# ---- 0. points.tsv names every test of every stage, read from the sources:
# the tests each suite adds (tcase_add_test) and the rows of each table.
for n in 1 2 3 4; do
	diff <( { for f in tests/stage$n/test_*.c; do
			# A suite's cases, and those of the test headers it includes (found, as
			# the build finds them, in tests/lib: "active_harness.h").
			incs=$(sed -nE 's/^#include "([^"]+\.h)".*/\1/p' "$f" | while read -r h; do
				[ -f "tests/lib/$h" ] && echo "tests/lib/$h"; done)
			# shellcheck disable=SC2086 # incs: file names without spaces
			sed -nE "s/^[[:space:]]*tcase_add_(loop_)?test\(tc, ([a-z0-9_]+).*/$(basename "$f" .c):\2/p" "$f" $incs
		done
		[ ! -f tests/stage$n/scenarios.tsv ] ||
			awk -F'\t' '!/^#/ && NF { print "scenarios.tsv:" $1 }' tests/stage$n/scenarios.tsv
		} | sort) \
		<(awk -F'\t' -v n="$n" '$1 == n { print $2 }' tests/grade/points.tsv | sort) >"$work/points-$n.diff" &&
		ok "tests/grade/points.tsv has a line for each of stage $n's tests, and no other" ||
		{ bad "stage $n: tests/grade/points.tsv and the tests in tests/stage$n differ (< in the tests, > in points.tsv):"
		  sed 's/^/    /' "$work/points-$n.diff"; }
done

# ---- 1. make grade, skeletons and solutions
for kind in skeletons solutions; do
	d=$work/$kind
	args=(STAGES="$stages")
	[ $kind = solutions ] && args+=(SUBMISSION=solutions)
	start=$SECONDS
	make --no-print-directory grade "${args[@]}" >"$work/$kind.log" 2>&1
	rc=$?
	rm -rf "$d" && cp -r build/grade "$d" && grep '^grade' "$work/$kind.log" >"$d/grade.out"
	if [ $rc != 0 ]; then bad "make grade on the $kind exited $rc"; continue; fi
	read -r score max n < <(formats "$d") || continue
	ok "make grade on the $kind, stages $stages: $score of $max points, $n tests, in $((SECONDS - start)) s; all four formats parse"
	tallies "$d" "$stages" && ok "make grade on the $kind: every stage's grade matches its tally and points.tsv"
	if [ $kind = solutions ]; then
		[ "$score" = "$max" ] && ok "the solutions score full marks" || bad "the solutions score $score of $max"
		grep -q "not in the submission\|not used" "$d/submission.txt" &&
			bad "the solutions as a submission: $(cat "$d/submission.txt")" ||
			ok "the solutions as a submission: every exercise file taken, nothing left over"
	else
		$py -c 'import sys; sys.exit(0 if 0 < float(sys.argv[1]) < float(sys.argv[2]) else 1)' "$score" "$max" &&
			ok "the skeletons score some points, not all ($score of $max)" ||
			bad "the skeletons score $score of $max"
	fi
done

# ---- 2. the Gradescope bundle in a scratch root
root=$work/root/autograder
mkdir -p "$root/source"
unzip -q "$zip" -d "$root/source" || { bad "$zip does not unzip"; }
for f in setup.sh run_autograder; do
	[ -x "$root/source/$f" ] && ok "the bundle has an executable $f at its root" || bad "the bundle lacks $f at its root"
done
grep -q "apt-get install .*check" "$root/source/setup.sh" && ! grep -q @GRADE_PACKAGES@ "$root/source/setup.sh" &&
	ok "setup.sh installs the grading packages" || bad "setup.sh does not install the grading packages"
cp "$root/source/run_autograder" "$root/run_autograder"	# where Gradescope puts it

# submission NAME LAYOUT EDIT - lay out one stage-1 submission from the solutions.
submission() {
	local s=$root/submission dir
	rm -rf "$s" "$root/results" && mkdir -p "$s" "$root/results"
	case $2 in
	flat) dir=$s/stage1 ;;
	repo) dir=$s/exercises/stage1 ;;
	esac
	mkdir -p "$dir/modules"
	cp solutions/stage1/kobject_ref.c "$dir/"
	cp solutions/stage1/modules/mouse.c "$dir/modules/"
	(cd "$dir" && eval "$3")
}

# gradescope NAME [VAR=VALUE...] - run_autograder, in the environment given;
# prints "score max", the results.json checked.
gradescope() {
	local name=$1 start=$SECONDS
	shift
	(cd "$root" && env AUTOGRADER_ROOT="$root" GRADE_STAGES=1 "$@" ./run_autograder) >"$work/gs-$name.log" 2>&1
	echo "$((SECONDS - start))" >"$work/gs-$name.time"
	$py - "$root/results/results.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
assert r["tests"], "no tests"
assert abs(sum(t["score"] for t in r["tests"]) - r["score"]) < 1e-9
print(r["score"], sum(t["max_score"] for t in r["tests"]))
EOF
}
# reasons TEXT - how many failed tests' outputs contain TEXT
reasons() {
	$py - "$root/results/results.json" "$1" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
failed = [t for t in r["tests"] if t["status"] == "failed"]
print(sum(1 for t in failed if sys.argv[2] in t["output"]), len(failed))
EOF
}

submission correct flat ""
if read -r score max < <(gradescope correct); then
	[ "$score" = "$max" ] && ok "Gradescope, a correct submission (files only): $score of $max" ||
		bad "Gradescope, a correct submission scores $score of $max"
else bad "Gradescope, a correct submission: no valid results.json"; fi

# Wrong: mouse_release forgets the kfree; beside it, a test edited to pass everything, which must not count.
submission wrong repo "sed -i 's/^\tkfree(m);/\t(void)m;/' modules/mouse.c"
mkdir -p "$root/submission/tests/stage1"
printf 'int main(void) { return 0; }\n' >"$root/submission/tests/stage1/test_stage1.c"
if read -r score max < <(gradescope wrong); then
	[ "${score%.*}" -gt 0 ] && [ "$score" != "$max" ] && ok "Gradescope, a wrong submission: $score of $max" ||
		bad "Gradescope, a wrong submission scores $score of $max"
	grep -q "not used (the course's copy is graded): tests/stage1/test_stage1.c" "$root/results/results.json" &&
		ok "Gradescope, the edited test in the submission is named as not used" ||
		bad "Gradescope: the edited test is not reported as not used"
	read -r k n < <(reasons "mouse_release() must kfree() it")
	[ "$k" -gt 0 ] && ok "Gradescope, the wrong submission's failures say why ($k of $n name the missing kfree)" ||
		bad "Gradescope, no failure of the wrong submission names the missing kfree"
else bad "Gradescope, a wrong submission: no valid results.json"; fi

submission crashing flat "sed -i 's/^\tkref_get(&kobj->kref);/\t*(volatile int *)0 = 0;/' kobject_ref.c"
if read -r score max < <(gradescope crashing); then
	read -r k n < <(reasons "signal 11")
	read -r k2 _ < <(reasons "page fault")
	[ "$score" != "$max" ] && [ $((k + k2)) -gt 0 ] &&
		ok "Gradescope, a crashing submission: $score of $max; $k failures say 'signal 11', $k2 'page fault'" ||
		bad "Gradescope, a crashing submission: $score of $max, $k/$k2 of $n failures name the crash"
else bad "Gradescope, a crashing submission: no valid results.json"; fi

# Hanging: the busy loop in kobject_put of the issue that cost a student 87 s.
# The hang budget is 5 s here, not the 15 s a student gets: the mechanism
# is the same, and each second of it is two CPUs spinning (a suite beside
# a suite) that the rest of make check waits for.  The soft-lockup limit
# is the students' own (runtests.sh, 4 s), so its report is checked as
# they see it.
hang_budget=5
submission hanging flat "sed -i 's/^\tkref_put(&kobj->kref, kobject_release);/\tfor (;;)\n\t\t;/' kobject_ref.c"
if read -r score max < <(gradescope hanging KTEST_HANG_BUDGET_S=$hang_budget); then
	t=$(cat "$work/gs-hanging.time")
	read -r k n < <(reasons "soft lockup")
	read -r k2 _ < <(reasons "ran out of time")
	[ "$score" != "$max" ] && [ $((k + k2)) -gt 0 ] &&
		ok "Gradescope, a hanging submission: $score of $max in $t s; $k failures report a soft lockup, $k2 ran out of time" ||
		bad "Gradescope, a hanging submission: $score of $max, $k/$k2 of $n failures say it hung"
	# What the hangs cost, as the stage's own log says it (runtests.sh).
	cost=$(grep -ohE 'ran out of time cost [0-9]+ s \(at most [0-9]+ s a run' \
		"$root/source/build/grade/stage1/check.log" | grep -oE '[0-9]+' | paste -sd ' ')
	read -r spent most <<<"$cost"
	# Each suite's last hang may overrun the budget by at most one soft-lockup limit.
	[ "${most:-}" = "$hang_budget" ] && [ "$spent" -le $((hang_budget + 2 * 4)) ] && [ "$t" -lt 60 ] &&
		ok "the hanging submission is graded in $t s: its hangs cost $spent s, the budget $most s" ||
		bad "the hanging submission took $t s to grade; its hangs cost '${spent:-?}' s of a budget of '${most:-?}' s (want $hang_budget)"
else bad "Gradescope, a hanging submission: no valid results.json"; fi

submission broken flat "echo 'this is not C' >>kobject_ref.c"
if read -r score max < <(gradescope broken); then
	read -r k n < <(reasons "does not compile")
	[ "$score" = 0 ] && [ "$k" = "$n" ] && [ "$n" -gt 0 ] &&
		ok "Gradescope, a submission that does not compile: 0 of $max, all $n tests say it does not compile" ||
		bad "Gradescope, a submission that does not compile: $score of $max, $k of $n say so"
	grep -q "kobject_ref.c:[0-9]*:[0-9]*: error" "$root/results/results.json" &&
		ok "Gradescope, the compiler's error is in the results" || bad "Gradescope: the compiler's error is missing"
else bad "Gradescope, a submission that does not compile: no valid results.json"; fi

# ---- 3. the GitHub Classroom workflow's grading step
wf=.github/workflows/classroom.yml
step=$($py - "$wf" <<'EOF'
import sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
steps = w["jobs"]["run-autograding-tests"]["steps"]
grade = [s for s in steps if s.get("id") == "grade"][0]
rep = [s for s in steps if "autograding-grading-reporter" in s.get("uses", "")][0]
assert rep["with"]["runners"] == "grade" and "steps.grade.outputs.result" in rep["env"]["GRADE_RESULTS"]
print(grade["run"])
EOF
)
if [ -z "$step" ]; then
	bad "$wf: no grading step feeding the reporter"
else
	ok "$wf parses; its reporter reads the grading step's result"
	gh=$work/classroom
	mkdir -p "$gh"
	tar --exclude=./build --exclude=./.git -cf - . | (mkdir -p "$gh/source" && tar -C "$gh/source" -xf -)
	# A workflow run starts from a checkout and builds everything; that
	# build is the one the Gradescope runs above already made from the
	# same sources, so the step starts from a copy of it (make rebuilds
	# what the submission changes) instead of compiling it all again.
	cp -a "$root/source/build" "$gh/source/build"
	cp -r "$root/submission" "$gh/submission"	# the last one: does not compile
	mkdir -p "$gh/submission/exercises" && mv "$gh/submission/stage1" "$gh/submission/exercises/"
	(cd "$gh" && GITHUB_OUTPUT=$gh/output GRADE_STAGES=1 bash -c "$step") >"$work/classroom.log" 2>&1
	if sed -n 's/^result=//p' "$gh/output" | base64 -d | $py -c '
import json, sys
r = json.load(sys.stdin)
assert r["status"] == "fail" and r["max_score"] > 0 and r["tests"]
assert all(t["score"] == 0 and "does not compile" in t["message"] for t in r["tests"])
print(len(r["tests"]), r["max_score"])' >"$gh/check" 2>&1; then
		ok "Classroom step ($step): its result decodes, $(cut -d' ' -f1 "$gh/check") tests at zero for a build error"
	else
		bad "Classroom step: its result does not decode as the reporter needs: $(tail -n 3 "$gh/check")"
	fi
fi

echo "check-grade: $pass passed, $fail failed"
[ $fail = 0 ]
