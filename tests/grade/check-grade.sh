#!/bin/bash
# check-grade.sh WORK BUNDLES [STAGES] - the grader's own tests (make check-grade; -full: all stages).
#
#  0. tests/grade/points.tsv names every test of every stage (read from the
#     suites' tcase_add_test lines and the scenario tables) and no other;
#     exercises.tsv has every exercise of each stage's hints.txt and the
#     exercises points.tsv names, and no other.
#  1. The formats and the trusted reading (check-formats.py: hostile
#     output, forged and partial reports, the scoring model, read back by
#     json, xmllint with tests/grade/junit.xsd, TAP::Parser and tappy,
#     PyYAML, and classroom.json as Classroom's reporter prints it).
#  2. The per-stage bundles (BUNDLES/stageN/autograder.zip): tracked files
#     only, no solutions/stageK or tests/stageK/mistakes but for the stages K
#     that N builds on (code/tools/stage-chain.sh), no
#     text only those hold (markers.py), setup.sh and run_autograder.
#  3. make grade on the skeletons, STAGES (default 1 2): 0 points in each.
#  4. Gradescope, in a scratch /autograder (WORK/root/autograder) with
#     stage 1's bundle, run as Gradescope runs it (as root): a correct
#     submission zipped with one top folder scores full; an empty one 0
#     with the paths expected; one that does not compile 0 with the
#     compiler's error; the submission gate refuses the adversary below
#     (its file graded as handed out, the refusal said); behind the gate
#     (GRADE_GATE=0) an adversary (wrong code that reads solutions,
#     writes the grader's files, forges result lines, exits early and
#     floods its output) scores 0, changes none of the grader's files, and
#     no solution text appears in anything the run left.  Every copy of the
#     course on this machine but the bundle is hidden from the submission
#     (GRADE_HIDE), as on Gradescope, where none exists.  Needs root, as
#     Gradescope and CI run it: as another user, part 4 fails and says so.
#     check-grade-full also grades stages 3 and 4's bundles on their correct
#     files laid at the root: each scores its own stage's points.
#  4b. Two gradings at once as one user (root, pid namespaces): one step's
#     end and --reap leave the other's step running, and a process a step
#     left behind (setsid) ends with it.
#  4c. The sandbox's limits, with namespaces and without
#     (GRADE_SANDBOX_NONS=1): a hostile stage-1 submission (fork bomb, sleep
#     forever, disk fill, two 50 MB floods, a connection and a DNS query to a
#     listener on 127.0.0.1, leftover files, shared memory, SysV objects and
#     a daemon) scores 0, each limit holds and the feedback says which
#     stopped it; a spinning step is stopped at its CPU-seconds; the network
#     namespace alone keeps a step off the listener; symbolic links (a
#     folder, with make grade SUBMISSION=DIR; a file and a folder on
#     Gradescope) are refused.
#  5. The Classroom workflow (python3's yaml) and its grading step: the
#     log names each failed exercise and one total, equal to Gradescope's;
#     a grading run that fails records 0 of the stages' points.
#  6. The verdicts' own layer (tests/grade/check-verdicts.sh, as root): with
#     the submission gate off (GRADE_GATE=0), stage 1's skeleton plus each
#     attack of tests/grade/attacks/ (Check's log rewritten at exit, a helper
#     editing the results, _exit/exit/abort or waitpid redefined, a test
#     that exits 0) scores 0 and the grading says it was tampered with, in
#     the namespaces and in the fallback without them; a helper that reads
#     the suite's memory for the key signs nothing; the reference scores
#     full marks and the skeleton 0, canaries present and failed.
# Parts 0 and 2 cover every stage with exercises: GRADED_STAGES (the
# Makefile's), else code/tools/stages.sh --graded.
set -u
work=$1 bundles=$2 stages=${3:-1 2}
graded=${GRADED_STAGES:-$(code/tools/stages.sh --graded)}
py=/usr/bin/python3	# Debian's, with python3-yaml (not a pyenv shim)
pass=0 fail=0
ok() { echo "ok $*"; pass=$((pass + 1)); }
# cpu WHAT - the CPU seconds the checks' children have used so far (bash's times), said once per part.
cpu() { times >"$work/times"; echo "  ($1; CPU so far, user and system: $(tail -n 1 "$work/times"))"; }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
rm -rf "$work" && mkdir -p "$work"
work=$(cd "$work" && pwd)
bundles=$(cd "$bundles" && pwd)
src=$(pwd)

# ---- 0. points.tsv and exercises.tsv against the sources
for n in $graded; do
	diff <( { for f in tests/stage$n/test_*.c; do
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
	diff <(awk -v hints_list="exercises/stage$n/hints.txt" -f code/tools/hints.awk | sort) \
		<(awk -F'\t' -v n="$n" '$1 == n { print $2 }' tests/grade/exercises.tsv | sort) >"$work/ex-$n.diff" &&
		diff <(awk -F'\t' -v n="$n" '$1 == n && $3 != "-" { k = split($3, e, ","); for (i = 1; i <= k; i++) print e[i] }' \
			tests/grade/points.tsv | sort -u) \
			<(awk -F'\t' -v n="$n" '$1 == n { print $2 }' tests/grade/exercises.tsv | sort) >>"$work/ex-$n.diff" &&
		ok "tests/grade/exercises.tsv lists stage $n's exercises (hints.txt), each named by a test of points.tsv" ||
		{ bad "stage $n: exercises.tsv, hints.txt and points.tsv disagree:"; sed 's/^/    /' "$work/ex-$n.diff"; }
done

cpu "1. formats"
# ---- 1. formats and the trusted reading, on made-up runs
$py tests/grade/check-formats.py "$work/formats" >"$work/formats.log" 2>&1
r=$?
grep '^FAIL' "$work/formats.log"
summary=$(tail -n 1 "$work/formats.log")
[ $r = 0 ] && ok "$summary" || bad "$summary"

cpu "2. the bundles"
# ---- 2. the bundles
for n in $graded; do
	z=$bundles/stage$n/autograder.zip
	[ -f "$z" ] || { bad "no bundle $z (make gradescope-bundle STAGE=$n)"; continue; }
	d=$work/bundle$n
	mkdir -p "$d" && unzip -q "$z" -d "$d"
	# Secret: the solutions of every stage but those stage n builds on.
	secret=$(cd "$d" && find solutions tests -path "*/stage*" \( -path 'solutions/stage*' -o -path 'tests/stage*/mistakes' \) \
		-maxdepth 2 2>/dev/null | awk -v chain="$(code/tools/stage-chain.sh "$n")" '
		BEGIN { m = split(chain, c, " "); for (i = 1; i < m; i++) base[c[i]] = 1 }
		{ k = $0; sub(/.*stage/, "", k); if (!((k + 0) in base)) print }')
	extra=$(comm -23 <(cd "$d" && find . -type f | sed 's|^\./||' | sort) \
		<( { git ls-files; printf '%s\n' setup.sh run_autograder GRADE_STAGE; } | sort))
	if [ -z "$secret" ] && [ -z "$extra" ] && [ "$(cat "$d/GRADE_STAGE")" = "$n" ] &&
		[ -x "$d/setup.sh" ] && [ -x "$d/run_autograder" ] && ! grep -q @GRADE_PACKAGES@ "$d/setup.sh" &&
		$py tests/grade/markers.py "$src" "$n" "$d" >"$work/bundle$n.leaks"; then
		ok "stage $n's bundle: tracked files only, no solutions but those of the stages it builds on, none of the others' text ($(du -k "$z" | cut -f1) KiB)"
	else
		bad "stage $n's bundle: solutions '$secret', untracked '$(head -c 300 <<<"$extra")', $(head -n 3 "$work/bundle$n.leaks")"
	fi
	[ "$n" = 1 ] || rm -rf "$d"
done

cpu "3. the skeletons"
# ---- 3. the skeletons score 0 in every stage
make --no-print-directory grade STAGES="$stages" >"$work/skeletons.log" 2>&1
for n in $stages; do
	line=$(grep "^grade stage$n:" "$work/skeletons.log")
	case $line in
	"grade stage$n: 0 of "*) ok "the skeleton of stage $n scores 0 (${line#*: })" ;;
	*) bad "the skeleton of stage $n: '${line:-no grade line}'; exercises that score on it:"
	   grep -h "^stage $n: " build/grade/summary.txt 2>/dev/null
	   $py tests/grade/results.py scoring build/grade/results.json "$n" | sed 's/^/    /' ;;
	esac
done

cpu "4. Gradescope in"
# ---- 4. Gradescope in a scratch /autograder
root=$work/root/autograder
if [ "$(id -u)" != 0 ]; then
	bad "the Gradescope tests run the grader as Gradescope does, as root (CI does): run make check-grade as root"
else
mkdir -p "$root/source"
unzip -q "$bundles/stage1/autograder.zip" -d "$root/source"
cp "$root/source/run_autograder" "$root/run_autograder"
# The image setup.sh builds holds the course's objects and the skeleton's
# build, compiled once.  This checkout built them from the same sources
# (make check-grade's prerequisites): they are copied in, older sources
# first, rather than compiled a second time (about 25 CPU-s).
find "$root/source" -exec touch -h -d @1 {} +
for d in kernel shell tests/lib student/stage1; do
	mkdir -p "$(dirname "$root/source/build/$d")" && cp -pr "build/$d" "$root/source/build/$d"
done
rm -rf "$root/source/build/student/stage1/results" "$root/source/build/student/stage1/progress"*
(cd "$root/source" && find . -path ./build -prune -o -type f -print0 | sort -z | xargs -0 sha256sum) >"$work/source.sums"
# Everything on this machine that holds a solution, but the bundle: hidden from the submission.
hide=()
while read -r w; do
	if [ "$w" = "$src" ]; then
		hide+=("$src/solutions" "$src/.git")
		for f in "$src"/tests/stage*/mistakes "$src"/build/* "$work"/*; do
			case $f in "$work"|"$work/root") ;; *) hide+=("$f") ;; esac
		done
	else
		hide+=("$w")
	fi
done < <(git worktree list --porcelain 2>/dev/null | sed -n 's/^worktree //p')
hide+=("$(git rev-parse --path-format=absolute --git-common-dir)")
export GRADE_HIDE="${hide[*]}"

# layout NAME - an empty submission directory, and what it is for
layout() {
	rm -rf "$root/submission" "$root/results" && mkdir -p "$root/submission" "$root/results"
}
# gradescope NAME [VAR=VALUE...] - run_autograder; prints "score max" from results.json.
gradescope() {
	local name=$1
	shift
	# CK_TIMEOUT_MULTIPLIER: make check runs beside other checks, and a correct
	# submission's tests (the scenarios, the explorer's schedules) must not run
	# out of time there; the grader's handling of a test that does is not what
	# this checks.
	(cd "$root" && env AUTOGRADER_ROOT="$root" CK_TIMEOUT_MULTIPLIER=3 "$@" ./run_autograder) >"$work/gs-$name.log" 2>&1
	$py tests/grade/results.py score "$root/results/results.json"
}
# reason TEXT - some failed test's output in results.json holds TEXT
reason() {
	$py tests/grade/results.py reason "$root/results/results.json" "$1"
}

# A correct submission as GitHub's "Download ZIP" makes it: one folder, the repository's layout inside.
layout
mkdir -p "$work/zip/workbook-main/exercises/stage1/modules"
cp solutions/stage1/kobject_ref.c "$work/zip/workbook-main/exercises/stage1/"
cp solutions/stage1/modules/mouse.c "$work/zip/workbook-main/exercises/stage1/modules/"
cp README.md "$work/zip/workbook-main/"
(cd "$work/zip" && zip -qr ../correct.zip workbook-main) && unzip -q "$work/correct.zip" -d "$root/submission"
if read -r score max < <(gradescope correct); then
	[ "$score" = "$max" ] && [ "$max" -gt 0 ] && ok "Gradescope, a correct zip with one top folder: $score of $max" ||
		bad "Gradescope, a correct zip with one top folder scores $score of $max: $(grep -m3 '^FAILED' "$root/source/build/grade/summary.txt")"
	cp -r "$root/source/build/grade" "$work/correct-grade"
	cp "$root/results/results.json" "$work/correct-grade/gradescope-results.json"
else bad "Gradescope, a correct submission: no valid results.json"; fi

# Empty: 0, and the paths expected.
layout
if read -r score max < <(gradescope empty); then
	[ "$score" = 0 ] && reason "exercises/stage1/kobject_ref.c  or  stage1/kobject_ref.c  or  kobject_ref.c" &&
		ok "Gradescope, an empty submission: 0 of $max, with the paths expected" ||
		bad "Gradescope, an empty submission: $score of $max, or no list of the paths expected"
else bad "Gradescope, an empty submission: no valid results.json"; fi

# Does not compile.
layout
mkdir -p "$root/submission/stage1"
# (a syntax error inside an exercise, where the submission gate lets it through to the compiler)
sed 's/^\tkref_get(&kobj->kref);$/\tkref_get(\&kobj->kref) kobj;/' solutions/stage1/kobject_ref.c >"$root/submission/stage1/kobject_ref.c"
if read -r score max < <(gradescope broken); then
	[ "$score" = 0 ] && reason "does not compile" && grep -q "kobject_ref.c:[0-9]*:[0-9]*: error" "$root/results/results.json" &&
		ok "Gradescope, a submission that does not compile: 0 of $max, with the compiler's error" ||
		bad "Gradescope, a submission that does not compile: $score of $max, or no compiler's error"
else bad "Gradescope, a submission that does not compile: no valid results.json"; fi

# The adversary: kobject_get takes no reference (every exercise fails on its own),
# and a constructor, in ksim and in every suite, that does all the rest:
# reads every solution it can name, writes the grader's files, forges lines
# on its output and in its own report, exits early in test_stage1 (whose
# report must then say so), swaps test_stage1's finished report for one of
# passes from a later suite, and floods its output.
layout
mkdir -p "$root/submission/stage1/modules" "$root/submission/tests/stage1"
cp solutions/stage1/modules/mouse.c "$root/submission/stage1/modules/"
printf 'int main(void) { return 0; }\n' >"$root/submission/tests/stage1/test_stage1.c"
reads=() writes=()
for f in solutions/stage*/*.c solutions/stage*/modules/*.c; do
	reads+=("\"$src/$f\"" "\"$root/source/$f\"")
done
for f in tests/grade/gradefmt.py tests/grade/points.tsv tests/grade/exercises.tsv tests/grade/grade.sh tests/lib/runtests.sh; do
	writes+=("\"$root/source/$f\"")
done
writes+=("\"$root/results/results.json\"" "\"$root/source/build/grade/results.json\"" "\"$root/run_autograder\""
	"\"$root/source/build/grade/stage1/units/test_stage1.status\"" "\"$root/source/build/grade/submission.txt\"")
sed 's/^\tkref_get(&kobj->kref);$/\t(void)0;/' solutions/stage1/kobject_ref.c >"$root/submission/stage1/kobject_ref.c"
cat >>"$root/submission/stage1/kobject_ref.c" <<EOF

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
extern char *program_invocation_short_name;
static const char *steal[] = { $(IFS=,; echo "${reads[*]}") };
static const char *forge[] = { $(IFS=,; echo "${writes[*]}") };
__attribute__((constructor)) static void adversary(void)
{
	char buf[65536], path[4096];
	const char *outdir = getenv("KTEST_OUTPUT_DIR");
	unsigned i;
	int fd;
	ssize_t n;

	for (i = 0; i < sizeof(steal) / sizeof(steal[0]); i++) {
		fd = open(steal[i], O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n > 0) {
			printf("STOLEN %s:\n", steal[i]);
			fwrite(buf, 1, n, stdout);
		}
		close(fd);
	}
	for (i = 0; i < sizeof(forge) / sizeof(forge[0]); i++) {
		fd = open(forge[i], O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd >= 0 && write(fd, "{\"score\": 1000}\n", 16) > 0)
			printf("FORGED %s\n", forge[i]);
		if (fd >= 0)
			close(fd);
	}
	/* Exit early: a suite that reports nothing. */
	if (strcmp(program_invocation_short_name, "test_stage1") == 0)
		_exit(0);
	/* Forged result lines: on the output, and into this unit's own results. */
	printf("check\ttest_stage1\tkobject_get_takes_a_reference\tpass\t-\t-\t-\n100%%: Checks: 9, Failures: 0, Errors: 0\n");
	if (outdir) {
		snprintf(path, sizeof(path), "%s/../results.tsv", outdir);
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0666);
		if (fd >= 0) {
			dprintf(fd, "check\ttest_explore\tread_vs_unplug_shows_the_use_after_free\tpass\t-\t-\t-\n");
			close(fd);
		}
	}
	/* Another suite's finished report, swapped for a forged one (the last suite). */
	if (outdir && strcmp(program_invocation_short_name, "test_file_io") == 0) {
		char from[4096];

		snprintf(path, sizeof(path), "%s/../../test_stage1", outdir);
		snprintf(from, sizeof(from), "%s/../../moved", outdir);
		if (rename(path, from) == 0)
			printf("RENAMED %s\n", path);
		mkdir(path, 0777);
		strncat(path, "/results.tsv", sizeof(path) - strlen(path) - 1);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd >= 0) {
			dprintf(fd, "%s", "$(awk -F'	' '$1 == 1 && $2 ~ /^test_stage1:/ { sub(/^test_stage1:/, "", $2); printf "check\\ttest_stage1\\t%s\\tpass\\t-\\t-\\t-\\n", $2 }' tests/grade/points.tsv)");
			close(fd);
		}
	}
	/* A flood: 1 MB on each stream, from one suite (each process that floods costs the check CPU). */
	memset(buf, 'F', 99);
	buf[99] = '\n';
	for (i = 0; strcmp(program_invocation_short_name, "test_explore") == 0 && i < 10486; i++) {
		fwrite(buf, 1, 100, stdout);
		fwrite(buf, 1, 100, stderr);
	}
	fflush(stdout);
}
EOF
# The layers behind the submission gate, alone: the gate would refuse this
# file (GRADE_GATE=0, which only the grader's own environment can set).
cp -r "$root/submission" "$work/adversary-submission"
if read -r score max < <(gradescope adversary GRADE_GATE=0); then
	[ "$score" = 0 ] && ok "Gradescope, the adversary (wrong code that reads, writes, forges, exits early, floods) scores 0 of $max" ||
		bad "Gradescope, the adversary scores $score of $max"
	(cd "$root/source" && sha256sum --quiet -c "$work/source.sums") >"$work/source.changed" 2>&1 &&
		! grep -q '^{"score": 1000}' "$root/results/results.json" "$root/source/build/grade/submission.txt" &&
		[ "$(head -c 11 "$root/run_autograder")" = '#!/bin/bash' ] &&
		ok "Gradescope, the adversary changed none of the grader's files, results.json nor run_autograder" ||
		bad "Gradescope, the adversary changed the grader's files: $(head -n 5 "$work/source.changed")"
	if $py tests/grade/markers.py "$src" 1 "$root" "$work/gs-adversary.log" >"$work/adversary.leaks"; then
		ok "Gradescope, no solution text in anything the adversary's grading left ($(du -sk "$root" | cut -f1) KiB searched)"
	else
		bad "Gradescope, solution text leaked: $(head -n 3 "$work/adversary.leaks")"
	fi
	reason "test_stage1 died before or outside its tests" && reason "printed a malformed or forged result line" &&
		ok "Gradescope, the early exit and the forged line are named in the feedback" ||
		bad "Gradescope, the adversary's feedback does not name the early exit and the forged line"
	size=$(stat -c %s "$root/results/results.json")
	[ "$size" -lt 200000 ] && [ "$(stat -c %s "$work/gs-adversary.log")" -lt 100000 ] &&
		ok "Gradescope, 2 MB of flood leave results.json at $size bytes and the log under 100 kB" ||
		bad "Gradescope, the flood made results.json $size bytes"
	not_used=$(grep -c "not used (the course's copy is graded): tests/stage1/test_stage1.c" "$root/results/results.json")
	[ "$not_used" -gt 0 ] && ok "Gradescope, the submission's edited test is named as not used" ||
		bad "Gradescope, the edited test is not reported as not used"
else bad "Gradescope, the adversary: no valid results.json"; fi
# And with the gate: the file is refused before anything compiles, graded as handed out, the refusal said.
layout
cp -r "$work/adversary-submission/." "$root/submission/"
if read -r score max < <(gradescope gated); then
	[ "$score" = 0 ] && grep -q "kobject_ref.c was refused, so its exercises score 0" "$root/results/results.json" &&
		grep -q "kobject_ref.c:[0-9]*: a preprocessor line" "$root/results/results.json" &&
		! grep -q "STOLEN\|FORGED" "$work/gs-gated.log" "$root/results/results.json" &&
		ok "Gradescope, the submission gate refuses the adversary's file: 0 of $max, the refusal in the feedback" ||
		bad "Gradescope, the adversary with the gate: $score of $max, or no refusal in the feedback"
else bad "Gradescope, the adversary with the gate: no valid results.json"; fi

# ---- 4c. the sandbox's limits, in both of its modes: with namespaces, and
# without (GRADE_SANDBOX_NONS=1, as in a container without CAP_SYS_ADMIN).
# One hostile submission, the stage-1 skeleton plus C that calls libc
# itself, each suite doing part of it (its constructor runs in every suite
# and ksim): test_stage1 leaves files in every world-writable directory,
# POSIX and SysV shared memory, a semaphore, a message queue and a daemon,
# connects to a port a listener here holds on 127.0.0.1 and sends a DNS
# query to it, and floods the output of the test that takes a reference
# (and of a canary the grader runs with its body: 50 MB); test_explore fills
# the disk, forks a fork bomb and sleeps forever; test_file_io floods its
# own output (50 MB).  What each attack saw, it appends to a report file
# outside the sandbox's reach of the grading (REPORT).  It runs as a user of
# its own (a make check elsewhere on the machine grades as 61000), with a
# short step limit (GRADE_STEP_S=4: the sleep) and a small disk (48 MB).
sbuid=$((61300 + $$ % 500))
# A world-writable directory besides the usual ones, where a system keeps such (/var/crash on Ubuntu).
ww=/var/lib/lifetime-ww-$$
mkdir -p "$ww" && chmod 1777 "$ww"
# The attacks' report: world-writable, but not where the sandbox cleans up
# (not in /tmp, where this checkout may be, and deeper than the four levels
# it searches for world-writable directories), so that it outlives the
# grading it reports on and is not taken for a leftover.
repdir=/var/lib/lifetime-grade-test-$$/attacks/report
mkdir -p "$repdir" && chmod 1777 "$repdir"
cat >"$work/listen.py" <<'EOF'
import select, socket, sys, time
t = socket.socket(); t.bind(("127.0.0.1", 0)); t.listen(8)
port = t.getsockname()[1]
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", port))
log = open(sys.argv[1], "w", buffering=1)
print(port, file=open(sys.argv[2], "w"))
end = time.time() + 600
while time.time() < end:
    r, _, _ = select.select([t, u], [], [], 1)
    if t in r:
        c, a = t.accept(); log.write("TCP connection from %s\n" % (a,)); c.close()
    if u in r:
        d, a = u.recvfrom(4096); log.write("UDP datagram of %d bytes from %s\n" % (len(d), a))
EOF
$py "$work/listen.py" "$work/listen.log" "$work/listen.port" &
listener=$!
for _ in $(seq 50); do [ -s "$work/listen.port" ] && break; sleep 0.1; done
port=$(cat "$work/listen.port" 2>/dev/null)
# hostile MAXFILES - the stage-1 skeleton's kobject_ref.c and the attacks (MAXFILES: the disk fill's files of 16 MB at most).
hostile() {
	echo 'void hx_test_flood(void);'
	cat exercises/stage1/kobject_ref.c
	cat <<EOF

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
extern char *program_invocation_short_name;
static char hx_buf[1 << 20];

static void hx_note(const char *fmt, ...)
{
	va_list ap;
	int fd = open("$repdir/hx.log", O_WRONLY | O_APPEND | O_CREAT, 0666);

	if (fd < 0)
		return;
	dprintf(fd, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vdprintf(fd, fmt, ap);
	va_end(ap);
	dprintf(fd, "\n");
	close(fd);
}

static int hx_is(const char *name)
{
	return strcmp(program_invocation_short_name, name) == 0;
}

static void hx_leftovers(void)
{
	const char *files[] = { "/tmp/hx-left", "/var/tmp/hx-left", "/dev/shm/hx-left", "/run/lock/hx-left", "$ww/hx-left" };
	unsigned i;
	int fd, made = 0;
	pid_t pid;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		fd = open(files[i], O_WRONLY | O_CREAT, 0644);
		if (fd >= 0) {
			made++;
			close(fd);
		}
	}
	fd = shm_open("/hx-posix", O_RDWR | O_CREAT, 0600);
	hx_note("left: %d files, posix shm %s, sysv shm %d, sem %d, msg %d", made, fd >= 0 ? "made" : strerror(errno),
		shmget(0x68780001, 4096, IPC_CREAT | 0600), semget(0x68780002, 1, IPC_CREAT | 0600),
		msgget(0x68780003, IPC_CREAT | 0600));
	pid = fork();
	if (pid == 0) {
		setsid();
		if (fork() == 0) {
			close(0);
			close(1);
			close(2);
			for (;;)
				pause();
		}
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	hx_note("left: a daemon");
}

static void hx_net(void)
{
	unsigned char query[] = { 0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0,
				  7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 3, 'c', 'o', 'm', 0, 0, 1, 0, 1 };
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons($port) };
	int s, r;

	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	s = socket(AF_INET, SOCK_STREAM, 0);
	r = s < 0 ? -1 : connect(s, (struct sockaddr *)&a, sizeof(a));
	hx_note("net: tcp: %s", r == 0 ? "CONNECTED" : strerror(errno));
	s = socket(AF_INET, SOCK_DGRAM, 0);
	r = s < 0 ? -1 : (int)sendto(s, query, sizeof(query), 0, (struct sockaddr *)&a, sizeof(a));
	hx_note("net: dns: %s", r > 0 ? "QUERY SENT" : strerror(errno));
}

static void hx_fill(void)
{
	char path[4096];
	const char *dir = getenv("KTEST_OUTPUT_DIR");
	long mb = 0, total = 0;
	int fd, i, err = 0;

	signal(SIGXFSZ, SIG_IGN);
	memset(hx_buf, 'D', sizeof(hx_buf));
	fd = open("/tmp/hx-fill", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	while (fd >= 0 && mb < 200 && write(fd, hx_buf, sizeof(hx_buf)) == (ssize_t)sizeof(hx_buf))
		mb++;
	hx_note("fill: /tmp: %ld MB, then %s", mb, strerror(errno));
	for (i = 0; dir && i < $1 && err != ENOSPC; i++) {
		snprintf(path, sizeof(path), "%s/hx-fill.%d", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		for (mb = 0; fd >= 0 && mb < 20 && write(fd, hx_buf, sizeof(hx_buf)) == (ssize_t)sizeof(hx_buf); mb++)
			;
		err = errno;
		total += mb;
		close(fd);
	}
	hx_note("fill: output: %ld MB in %d files, then %s", total, i, strerror(err));
}

static void hx_bomb(void)
{
	int n = 0, e = 0, first = 1;
	pid_t pid;

	/* Every process forks until the kernel refuses, then waits forever. */
	for (;;) {
		pid = fork();
		if (pid < 0) {
			e = errno;
			break;
		}
		if (pid == 0)
			n = 0, first = 0;
		else if (++n > 100000)
			break;
	}
	if (first)
		hx_note("bomb: %d forks, then %s", n, e ? strerror(e) : "no refusal");
	for (;;)
		pause();
}

/* One flood, of 50 MB, on standard output (SIGPIPE and SIGXFSZ ignored: write until refused). */
static void hx_flood(void)
{
	long mb;

	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	memset(hx_buf, 'F', sizeof(hx_buf));
	for (mb = 0; mb < 50 && write(1, hx_buf, sizeof(hx_buf)) == (ssize_t)sizeof(hx_buf); mb++)
		;
	hx_note("flood: %ld MB, then %s", mb, mb < 50 ? strerror(errno) : "nothing");
}

__attribute__((constructor)) static void hx_attack(void)
{
	if (hx_is("test_stage1")) {
		hx_leftovers();
		hx_net();
	} else if (hx_is("test_explore")) {
		hx_fill();
		hx_bomb();
	} else if (hx_is("test_file_io")) {
		hx_flood();
	}
}

/*
 * Each test of test_stage1 that takes a reference floods its own output, once
 * (each test is a process of its own): kobject_get_takes_a_reference, and the
 * canary the grader may run with its body, at a random place, before it.  A
 * flood in the first such test only would land in that canary one grading in
 * about 24, whose output no feedback shows (a canary's name is the grader's).
 */
void hx_test_flood(void)
{
	static int flooded;

	if (!hx_is("test_stage1") || !getenv("KTEST_OUTPUT_DIR") || flooded++)
		return;
	hx_flood();
}
EOF
}
for mode in ns nons; do
	layout
	mkdir -p "$root/submission/stage1"
	nons= files=8
	[ "$mode" = ns ] || nons=1 files=2
	hostile $files | sed 's|^\tTODO("kobject_get",|\thx_test_flood();\n&|' >"$root/submission/stage1/kobject_ref.c"
	rm -f "$repdir/hx.log"
	: >"$work/listen.log"
	pgrep -u "$sbuid" >/dev/null && bad "sandbox ($mode): user $sbuid has processes before the grading"
	t0=$SECONDS
	times >"$work/times0"
	read -r score max < <(gradescope "hostile-$mode" GRADE_UID="$sbuid" GRADE_SANDBOX_NONS="$nons" GRADE_STEP_S=4 GRADE_DISK_MB=48 GRADE_GATE=0)
	took=$((SECONDS - t0))
	cp "$root/results/results.json" "$work/gs-hostile-$mode.json" 2>/dev/null
	rep=$repdir/hx.log
	log=$work/gs-hostile-$mode.log
	[ "${score:-x}" = 0 ] && ok "sandbox ($mode): the hostile submission scores 0 of $max, graded in $took s" ||
		bad "sandbox ($mode): the hostile submission scores '${score:-no results.json}' of ${max:-?}"
	# The fork bomb met the process limit; the sleep ended at the step's limit, said so.
	grep -q "^test_explore: bomb: [0-9]* forks, then Resource temporarily unavailable" "$rep" &&
		reason "exit status 124: stopped by the grader's limits" &&
		ok "sandbox ($mode): the fork bomb met the process limit (its first process forked $(grep -m1 "bomb:" "$rep" | cut -d" " -f3) times before the refusal), the sleep was stopped at the step's limit, said in the feedback" ||
		bad "sandbox ($mode): fork bomb or sleep: $(grep 'bomb' "$rep" | head -n 2 | tr '\n' ' '); feedback: $(grep -o 'test_explore[^"]\{0,120\}' "$root/results/results.json" | head -n 2)"
	# Nothing of the user survives: processes, files, SysV IPC, POSIX shared memory.
	left=$(pgrep -u "$sbuid" -a; find /tmp /var/tmp /dev/shm /run/lock "$ww" -xdev -user "$sbuid" 2>/dev/null | head -n 5
		awk -v u="$sbuid" 'FNR > 1 && $(FILENAME ~ /sem$/ ? 5 : 8) == u { print FILENAME ": " $2 }' /proc/sysvipc/shm /proc/sysvipc/sem /proc/sysvipc/msg)
	grep -q "^test_stage1: left: 5 files, posix shm made, sysv shm [0-9]*, sem [0-9]*, msg [0-9]*$" "$rep" &&
		grep -q "^test_stage1: left: a daemon" "$rep" && [ -z "$left" ] &&
		ok "sandbox ($mode): files in /tmp, /var/tmp, /dev/shm, /run/lock and $ww, POSIX and SysV shared memory, a semaphore, a message queue and a daemon: none outlives the grading" ||
		bad "sandbox ($mode): leftovers: $(grep 'left:' "$rep" | tr '\n' ' '); after the grading: $(head -c 300 <<<"$left")"
	# No network: the listener on 127.0.0.1 heard nothing, and the attempts were refused.
	[ ! -s "$work/listen.log" ] && grep -q "^test_stage1: net: tcp: " "$rep" && ! grep -q "CONNECTED\|QUERY SENT" "$rep" &&
		ok "sandbox ($mode): no connection to 127.0.0.1:$port, no DNS query reached it ($(grep -h 'net:' "$rep" | cut -d' ' -f3- | tr '\n' ';'))" ||
		bad "sandbox ($mode): network: $(cat "$work/listen.log") $(grep 'net:' "$rep" | tr '\n' ' ')"
	# The disk fill: one file stops at the file-size limit; the grading's disk (with namespaces) at its size.
	if [ "$mode" = ns ]; then
		grep -q "^test_explore: fill: /tmp: 16 MB, then File too large" "$rep" &&
			grep -q "^test_explore: fill: output: [0-9]* MB in [0-9]* files, then No space left on device" "$rep" &&
			ok "sandbox ($mode): the disk fill stopped at 16 MB a file and at the grading's 48 MB ($(grep -h 'fill: output' "$rep" | cut -d' ' -f4-))" ||
			bad "sandbox ($mode): disk fill: $(grep 'fill' "$rep" | tr '\n' ' ')"
	else
		grep -q "^test_explore: fill: /tmp: 16 MB, then File too large" "$rep" &&
			grep -q "^test_explore: fill: output: 32 MB in 2 files, then File too large" "$rep" &&
			ok "sandbox ($mode): the disk fill stopped at 16 MB a file (no namespace: the grading's disk is not bounded as a whole)" ||
			bad "sandbox ($mode): disk fill: $(grep 'fill' "$rep" | tr '\n' ' ')"
	fi
	# The floods: cut at the cap, the test and the suite fail and say why, and little is kept.
	kept=$(du -sk "$root/source/build/grade" | cut -f1)
	reason "printed more than 1048576 bytes (the most a test may print)" &&
		reason "the suite printed more than 1048576 bytes" && [ "$kept" -lt 12000 ] &&
		[ "$(stat -c %s "$log")" -lt 100000 ] &&
		ok "sandbox ($mode): two floods of 50 MB: cut at 1 MB, the test and the suite fail and say why, $kept KiB kept" ||
		bad "sandbox ($mode): floods: $kept KiB kept, log $(stat -c %s "$log") bytes; $(grep flood "$rep" | tr '\n' ' ')"
	times >"$work/times1"
	echo "  (sandbox, $mode: $took s; CPU of the checks' children before and after: $(tail -n 1 "$work/times0") / $(tail -n 1 "$work/times1"))"
done
# A step that spins is stopped at its CPU-seconds (counted with a pid namespace), and says so;
# and the network namespace alone, without the socket filter (GRADE_NETDENY=env), keeps a step off the listener.
if unshare --pid --fork --kill-child --mount-proc true 2>/dev/null; then
	: >"$work/hide-none"
	GRADE_UID=$sbuid GRADE_NETDENY=env tests/grade/sandbox.sh "$work/hide-none" 20 $py -c '
import socket
try:
    socket.create_connection(("127.0.0.1", '"$port"'), timeout=5); print("CONNECTED")
except OSError as e:
    print("refused:", e)' >"$work/netns.log" 2>&1
	grep -q "^refused: .*Network is unreachable" "$work/netns.log" && [ ! -s "$work/listen.log" ] &&
		ok "sandbox: the network namespace alone keeps a step from 127.0.0.1:$port ($(cat "$work/netns.log"))" ||
		bad "sandbox: the network namespace alone: $(head -c 200 "$work/netns.log")"
	GRADE_UID=$sbuid GRADE_STEP_CPU_S=1 tests/grade/sandbox.sh "$work/hide-none" 60 bash -c 'while :; do :; done' >"$work/spin.log" 2>&1
	rc=$?
	[ $rc = 124 ] && grep -q "used more than 1 CPU-seconds and was stopped" "$work/spin.log" &&
		ok "sandbox: a step that spins is stopped at its CPU-seconds, and says so" ||
		bad "sandbox: a step that spins: exit $rc, $(head -c 200 "$work/spin.log")"
fi
kill "$listener" 2>/dev/null; wait "$listener" 2>/dev/null
rmdir "$ww"
rm -rf "/var/lib/lifetime-grade-test-$$"

# Symbolic links anywhere in a submission are refused, never followed: a
# folder linked to the course's solutions (make grade SUBMISSION=DIR, inside
# the checkout, as the hostile tester did) and, on Gradescope, a file and a
# folder linked to them.
mkdir -p "$work/symsub"
ln -s ../../../solutions "$work/symsub/exercises"
GRADE_PACKAGES= tests/grade/grade.sh --submission "$work/symsub" --stages 1 --out "$work/symgrade" >"$work/symgrade.log" 2>&1
if read -r score max < <($py tests/grade/results.py score "$work/symgrade/results.json"); then
	[ "$score" = 0 ] && grep -q "refused (symbolic link): exercises -> ../../../solutions" "$work/symgrade/submission.txt" &&
		ok "make grade SUBMISSION=DIR: exercises -> ../../../solutions is refused and scores 0 of $max" ||
		bad "make grade SUBMISSION=DIR: a symlinked exercises/ scores $score of $max: $(head -n 3 "$work/symgrade/submission.txt")"
else bad "make grade SUBMISSION=DIR, a symlinked exercises/: no results.json ($(tail -n 2 "$work/symgrade.log"))"; fi
layout
mkdir -p "$root/submission/stage1"
ln -s "$src/solutions/stage1/kobject_ref.c" "$root/submission/stage1/kobject_ref.c"
ln -s "$src/solutions/stage1/modules" "$root/submission/stage1/modules"
if read -r score max < <(gradescope symlinks); then
	[ "$score" = 0 ] && grep -q "refused (symbolic link): stage1/kobject_ref.c" "$root/results/results.json" &&
		grep -q "refused (symbolic link): stage1/modules" "$root/results/results.json" &&
		ok "Gradescope: a symlinked file and a symlinked folder are refused, named, and score 0 of $max" ||
		bad "Gradescope: symlinks score $score of $max, or are not named: $(grep -o 'refused[^"]\{0,80\}' "$root/results/results.json" | head -n 2)"
else bad "Gradescope, symlinks: no valid results.json"; fi

# check-grade-full: every later stage's bundle, on its correct files laid at the
# submission's root (as dragged into Gradescope's upload), scores that stage's points.
for n in $stages; do
	[ "$n" -gt 2 ] || continue
	rn=$work/root$n/autograder
	mkdir -p "$rn/source" "$rn/submission" "$rn/results"
	unzip -q "$bundles/stage$n/autograder.zip" -d "$rn/source"
	cp "$rn/source/run_autograder" "$rn/run_autograder"
	find "$rn/source" -exec touch -h -d @1 {} +
	for d in kernel shell tests/lib student/stage$n; do
		mkdir -p "$(dirname "$rn/source/build/$d")" && cp -pr "build/$d" "$rn/source/build/$d"
	done
	rm -rf "$rn/source/build/student/stage$n/results" "$rn/source/build/student/stage$n/progress"*
	(cd "solutions/stage$n" && find . -name '*.c' -exec cp --parents {} "$rn/submission/" \;)
	(cd "$rn" && env AUTOGRADER_ROOT="$rn" CK_TIMEOUT_MULTIPLIER=3 ./run_autograder) >"$work/gs-stage$n.log" 2>&1
	read -r score max < <($py tests/grade/results.py score "$rn/results/results.json")
	want=$(awk -F'\t' -v n="$n" '$1 == n { s += $3 } END { print s }' tests/grade/exercises.tsv)
	[ "$score" = "$max" ] && [ "$max" = "$want" ] &&
		ok "Gradescope, stage $n's bundle on its correct files at the root: $score of $max, stage $n's points" ||
		bad "Gradescope, stage $n's bundle on its correct files: $score of $max (stage $n has $want points)"
done
fi

# ---- 4b. two gradings at once, as one user: a step's end (and --reap) ends only its own processes
if [ "$(id -u)" = 0 ] && unshare --pid --fork --kill-child --mount-proc true 2>/dev/null; then
	: >"$work/hide-none"
	uid=${GRADE_UID:-61000}
	tests/grade/sandbox.sh "$work/hide-none" 60 sleep 3131 >/dev/null 2>&1 &	# the other grading's step
	other=$!
	# Wait for the other step to stand (polled, not slept on: up to its own 60 s on a loaded machine).
	for _ in $(seq 600); do pgrep -u "$uid" -xf 'sleep 3131' >/dev/null && break; sleep 0.1; done
	# This grading's step leaves a process behind that left its group and session.
	tests/grade/sandbox.sh "$work/hide-none" 20 bash -c '(setsid sleep 3132 &)' >/dev/null 2>&1
	tests/grade/sandbox.sh --reap
	pgrep -u "$uid" -xf 'sleep 3131' >/dev/null && kill -0 "$other" 2>/dev/null &&
		ok "sandbox, two gradings as one user: one's step ending (and its --reap) leaves the other's running" ||
		bad "sandbox, two gradings as one user: one's step ending killed the other's"
	pgrep -u "$uid" -xf 'sleep 3132' >/dev/null &&
		bad "sandbox: a process the step left running (setsid) outlived it" ||
		ok "sandbox: a process the step left running (setsid) ended with the step"
	kill "$other" 2>/dev/null; wait "$other" 2>/dev/null
	pgrep -u "$uid" -xf 'sleep 313[12]' >/dev/null && bad "sandbox: a step killed by its time limit left its processes"
fi

cpu "5. the Classroom"
# ---- 5. the Classroom workflow and its step
wf=.github/workflows/classroom.yml
step=$($py - "$wf" <<'EOF'
import sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
text = open(sys.argv[1]).read()
assert "secrets." not in text, "a secret is handed to a workflow the student can edit"
job = w["jobs"]["run-autograding-tests"]
steps = job["steps"]
grade = [s for s in steps if s.get("id") == "grade"][0]
rep = [s for s in steps if "autograding-grading-reporter" in s.get("uses", "")][0]
assert rep["with"]["runners"] == "grade" and "steps.grade.outputs.result" in rep["env"]["GRADE_RESULTS"]
assert all("repository" not in (s.get("with") or {}) for s in steps), "a second repository is checked out"
print(grade["run"])
EOF
)
if [ -z "$step" ]; then
	bad "$wf: no grading step feeding the reporter, or a secret or a second repository in it"
else
	ok "$wf parses, hands no secret and checks out no other repository; its reporter reads the grading step"
	# The step on the correct stage-1 submission's grading: classroom.sh with
	# CLASSROOM_GRADED reads a finished grading (what make grade left there).
	gh=$work/classroom
	mkdir -p "$gh"
	(GITHUB_OUTPUT=$gh/output CLASSROOM_GRADED="$work/correct-grade" tests/grade/classroom.sh . .) >"$gh/log" 2>&1
	if sed -n 's/^result=//p' "$gh/output" | base64 -d >"$gh/result.json" 2>/dev/null &&
		$py - "$gh/result.json" "$work/correct-grade/gradescope-results.json" "$gh/log" <<'EOF' >"$gh/check" 2>&1
import json, re, sys
c = json.load(open(sys.argv[1]))
r = json.load(open(sys.argv[2]))
log = open(sys.argv[3]).read()
# What the reporter computes: the table (pass fraction times max_score) and the recorded sum.
frac = sum(t["status"] == "pass" for t in c["tests"]) / len(c["tests"]) * c["max_score"]
total = sum(t["score"] for t in c["tests"])
m = re.findall(r"^grade: (\S+) of (\S+) points", log, re.M)
assert len(m) == 1, "want one total in the log, found %s" % m
assert float(m[0][0]) == frac == total == r["score"], (m, frac, total, r["score"])
# What the reporter prints of a test: " - line N" unless line_no is 0, the reason only in test_code
# (or in the message, for status "error"); see tests/grade/gradefmt.py's write_classroom.
assert all(t.get("line_no") == 0 for t in c["tests"]), "a test without line_no 0: the reporter prints 'line undefined'"
assert all(t["status"] == "pass" or t.get("test_code") or (t["status"] == "error" and t.get("message"))
           for t in c["tests"] if "(see part 1)" != t.get("message")), "a failure the reporter shows without its reason"
print(total, c["max_score"])
EOF
	then
		ok "Classroom step: one total in its log, the reporter's two sums agree, each test as it prints (no 'line undefined', a failure's reason): $(cat "$gh/check")"
	else
		bad "Classroom step: $(tail -n 3 "$gh/check" "$gh/log" 2>/dev/null)"
	fi
	# A grading run that fails still records 0 of the stages' points, with the reason.
	(GITHUB_OUTPUT=$gh/output2 GRADE_STAGES=9 tests/grade/classroom.sh . .) >"$gh/log2" 2>&1
	if sed -n 's/^result=//p' "$gh/output2" | base64 -d | $py -c '
import json, sys
r = json.load(sys.stdin)
assert r["max_score"] > 0 and r["tests"] and all(t["score"] == 0 for t in r["tests"]), r
assert all("grading failed" in t["message"] and t["status"] == "error" and t.get("line_no") == 0 for t in r["tests"]), r
print(r["max_score"])' >"$gh/check2" 2>&1 && grep -q "grading failed" "$gh/log2"; then
		ok "Classroom step: a failed grading records 0 of $(cat "$gh/check2") points, and its log says why"
	else
		bad "Classroom step, failed grading: $(tail -n 3 "$gh/check2")"
	fi
fi

cpu "6. the verdicts"
# ---- 6. the verdicts' own layer against attacks, gate off, both sandbox modes (check-verdicts.sh)
if [ "$(id -u)" != 0 ]; then
	bad "the verdicts' attacks run the grader as root, as Gradescope does: run make check-grade as root"
else
	while IFS= read -r l; do
		case $l in
		'ok '*) ok "verdicts: ${l#ok }" ;;
		'FAIL '*) bad "verdicts: ${l#FAIL }" ;;
		esac
	done < <(tests/grade/check-verdicts.sh "$work/verdicts" 2>&1)
fi

cpu "the end"
echo "check-grade: $pass passed, $fail failed"
[ $fail = 0 ]
