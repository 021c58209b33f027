#!/usr/bin/python3
"""check-formats.py WORK - gradefmt.py's own tests, on made-up runs: no build, no suite.

1. Hostile output (and 1b, the writers fuzzed with texts that look like
   TAP): messages and outputs holding control characters, U+FFFE,
   U+2028, a lone surrogate's bytes and other invalid UTF-8, leading spaces,
   "---"/"..." lines, and one of 1 MB.  Every format is read back by a real
   parser: results.json by json, classroom.json by json, junit.xml by
   xmllint against tests/grade/junit.xsd (Ant's schema), grade.tap by
   perl's TAP::Parser and by tappy (python3-tap), and each of its YAML
   blocks by PyYAML; classroom.json as GitHub Classroom's reporter prints it
   (no "line undefined", each failure's reason); what they hold is
   bounded, and the message of each failure survives into each format.
   1c. The course's own points.tsv, every stage failing, in grade.tap,
   read by both TAP readers.
2. Reports the trusted side must not believe: a unit that names a test the
   course does not list, names one twice, reports fewer, holds a malformed
   line, died, left nothing, ended with a signal, or points its message at a
   file outside its results (a symbolic link to a secret): each fails all its
   tests, the reason says so, and the secret is in no output.
3. The scoring model: an exercise scores only when all its tests pass; a
   test of given code ("-") scores nothing; the totals of results.json,
   classroom.json (as GitHub Classroom's reporter computes them: pass
   fraction times max_score, and the sum of scores) and summary.txt agree.
Prints "ok ..." / "FAIL ..." lines and "check-formats: N passed, M failed".
"""
import json
import os
import shutil
import subprocess
import sys
import yaml

work = os.path.abspath(sys.argv[1])
here = os.path.dirname(os.path.abspath(__file__))
gradefmt = os.path.join(here, "gradefmt.py")
passed = failed = 0


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print("ok " + what)
    else:
        failed += 1
        print("FAIL " + what)
    return cond


POINTS = """# made up
1\tsuite_a:t_one\tex_a
1\tsuite_a:t_two\tex_a,ex_b
1\tsuite_a:t_given\t-
1\tsuite_b:t_three\tex_b
1\tscenarios.tsv:code/scenarios/x.ksh\tex_c
"""
EXERCISES = """1\tex_a\t10\tvisible
1\tex_b\t20\thidden
1\tex_c\t10\tafter_due_date
"""
SECRET = "SECRET-SOLUTION-TEXT-4242"
HOSTILE = [
    b"\x00\x01\x07\x1b[31mred\x1b[0m\x7f control",
    "\ufffe U+FFFE and \uffff U+FFFF".encode("utf-8"),
    "line\u2028separator\u2029paragraph".encode("utf-8"),
    b"\xed\xa0\x80 lone surrogate, \xc0\xaf overlong, \xff\xfe invalid",
    b"   leading spaces\n  - looks: like yaml\n---\n...\n# not a comment\nnot ok 99 - forged",
    b"<failure>&amp;</testcase>]]>\"'",
]


KEY = "0123456789abcdef0123456789abcdef"
CANARY = "unplug_release_twice_module"


def unit(stage_dir, name, rows, files=None, status="1", verdicts=None):
    """A unit as grade.sh leaves it: its results.tsv (rows), and on the trusted side what an honest
    run sends (a pass per passing row, Check's counts with the canary failed) unless verdicts says."""
    trusted = os.path.join(stage_dir, "trusted")
    d = os.path.join(trusted if name == "scenarios.tsv" else os.path.join(stage_dir, "work"), name)
    if name != "scenarios.tsv":
        os.makedirs(trusted, exist_ok=True)
        with open(os.path.join(trusted, name + ".key"), "w") as f:
            f.write(KEY + "\n" + CANARY + "\n")
        if verdicts is None:
            names = {r[2] for r in rows if r[2] not in ("(suite)", CANARY)}
            passes = {r[2] for r in rows if r[3] == "pass"}
            verdicts = ["pass\t%s" % p for p in sorted(passes)] + ["summary\t%d\t%d" % (len(names) + 1, len(names) - len(passes) + 1)]
        with open(os.path.join(trusted, name + ".verdicts"), "w") as f:
            for v in verdicts:
                what, rest = v.split("\t", 1)
                f.write("%s\t%s\t%s\t%s\n" % (KEY, what, name, rest) if not v.startswith("RAW\t") else rest + "\n")
    os.makedirs(os.path.join(d, "out"), exist_ok=True)
    os.makedirs(os.path.join(stage_dir, "units"), exist_ok=True)
    with open(os.path.join(stage_dir, "units", name + ".status"), "w") as f:
        f.write(status + "\n")
    for fn, data in (files or {}).items():
        p = os.path.join(d, fn)
        if isinstance(data, tuple):     # a symbolic link
            os.symlink(data[1], p)
        else:
            with open(p, "wb") as f:
                f.write(data)
    with open(os.path.join(d, "results.tsv"), "w") as f:
        for r in rows:
            f.write("\t".join(r[:5] + [os.path.join(d, r[5]) if r[5] != "-" else "-",
                                       os.path.join(d, r[6]) if r[6] != "-" else "-"] + r[7:]) + "\n")


def run(case, make):
    d = os.path.join(work, case)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for fn, text in (("points.tsv", POINTS), ("exercises.tsv", EXERCISES)):
        with open(os.path.join(d, fn), "w") as f:
            f.write(text)
    with open(os.path.join(d, "secret.c"), "w") as f:
        f.write(SECRET + "\n")
    make(os.path.join(d, "stage1"), d)
    out = os.path.join(d, "out")
    os.makedirs(out)
    with open(os.path.join(d, "note"), "wb") as f:
        f.write(b"a note\n" + HOSTILE[4] + b"\n" + HOSTILE[2] + b"\n")
    p = subprocess.run([sys.executable if False else "/usr/bin/python3", gradefmt, "--points", d + "/points.tsv",
                        "--exercises", d + "/exercises.tsv", "--out", out, "--note", d + "/note",
                        "1=" + os.path.join(d, "stage1")], capture_output=True, text=True)
    if not ok(p.returncode == 0, "%s: gradefmt.py runs (%s)" % (case, p.stderr.strip()[-300:])):
        return None
    return out


def read_back(case, out):
    """Every format parses with a real parser; returns results.json."""
    r = json.load(open(os.path.join(out, "results.json"), encoding="utf-8"))
    c = json.load(open(os.path.join(out, "classroom.json"), encoding="utf-8"))
    x = subprocess.run(["xmllint", "--noout", "--schema", os.path.join(here, "junit.xsd"), os.path.join(out, "junit.xml")],
                       capture_output=True, text=True)
    ok(x.returncode == 0, "%s: junit.xml is valid against tests/grade/junit.xsd %s" % (case, x.stderr.strip()[-300:]))
    t = subprocess.run(["perl", "-MTAP::Parser", "-e", r'''
        my $p = TAP::Parser->new({ source => $ARGV[0] }); my ($n, $y) = (0, 0);
        while (my $r = $p->next) {
            die "not TAP: " . $r->as_string . "\n" if $r->is_unknown && $r->as_string =~ /\S/;
        }
        die "bad plan\n" unless $p->is_good_plan; print scalar($p->passed), " ", scalar($p->failed), "\n";''',
                        os.path.join(out, "grade.tap")], capture_output=True, text=True)
    ok(t.returncode == 0, "%s: grade.tap is TAP (perl's TAP::Parser) %s" % (case, (t.stdout + t.stderr).strip()[-200:]))
    n = len([e for e in r["tests"] if e["max_score"] > 0])
    for reader, got in (("TAP::Parser", tap_parser(os.path.join(out, "grade.tap"))),
                        ("tappy", tappy(os.path.join(out, "grade.tap")))):
        ok(isinstance(got, list) and len(got) == n, "%s: %s reads %s of its %d exercises" % (
            case, reader, len(got) if isinstance(got, list) else got, n))
    ok(all(t.get("line_no") == 0 for t in c["tests"]) and "line undefined" not in classroom_log(c),
       "%s: Classroom's reporter prints no 'line undefined'" % case)
    # Each YAML block, by PyYAML.
    lines = open(os.path.join(out, "grade.tap"), encoding="utf-8").read().split("\n")
    blocks, cur = [], None
    for l in lines:
        if l == "  ---":
            cur = []
        elif l == "  ..." and cur is not None:
            blocks.append("\n".join(x[2:] for x in cur))
            cur = None
        elif cur is not None:
            cur.append(l)
    try:
        docs = [yaml.safe_load(b) for b in blocks]
        good = all(isinstance(d, dict) and isinstance(d.get("message"), str) for d in docs)
    except yaml.YAMLError as e:
        good, docs = False, str(e)
    failing = [e for e in r["tests"] if e["status"] == "failed" and e["max_score"] > 0]
    ok(good and len(blocks) == len(failing), "%s: grade.tap's %d YAML blocks parse (PyYAML), one a failed exercise" % (case, len(blocks)))
    return r, c, docs


def tap_parser(path):
    """What perl's TAP::Parser reads in grade.tap: [(number, ok, YAML message or None)], or why not."""
    p = subprocess.run(["perl", "-MTAP::Parser", "-MJSON::PP", "-e", r'''
        my $p = TAP::Parser->new({ source => $ARGV[0] }); my @t;
        while (my $r = $p->next) {
            die "not TAP: " . $r->as_string . "\n" if $r->is_unknown && $r->as_string =~ /\S/;
            die "bail out: " . $r->as_string . "\n" if $r->is_bailout;
            push @t, [$r->number, $r->is_actual_ok ? 1 : 0, undef] if $r->is_test;
            $t[-1][2] = $r->data->{message} if $r->is_yaml && @t;
        }
        die "bad plan\n" unless $p->is_good_plan && !$p->parse_errors;
        print JSON::PP->new->ascii->encode(\@t);''', path], capture_output=True)
    if p.returncode != 0:
        return p.stderr.decode("utf-8", "replace").strip()[-300:]
    return [tuple(x) for x in json.loads(p.stdout)]


def tappy(path):
    """What tappy (python3-tap) reads in grade.tap: [(number, ok, YAML message or None)], or why not."""
    from tap.parser import Parser
    got, plan = [], None
    for line in Parser().parse_file(path):
        if line.category in ("bail", "unknown"):
            return "tappy read a %s line" % line.category
        if line.category == "plan":
            plan = line.expected_tests
        if line.category == "test":
            y = line.yaml_block
            got.append((line.number, 1 if line.ok else 0, y.get("message") if isinstance(y, dict) else None))
    if plan != len(got) or [g[0] for g in got] != list(range(1, plan + 1)):
        return "tappy: plan %s, tests %s" % (plan, [g[0] for g in got][:20])
    return got


def classroom_log(c):
    """What GitHub Classroom's reporter (classroom-resources/autograding-grading-reporter v1)
    prints of each test, from the fields it reads: the name and " - line " with line_no unless
    that is 0; the message for status "error" only; test_code for any status."""
    out = []
    for t in c["tests"]:
        if t["status"] == "error":
            out.append("Error: %s" % (t.get("message") or "Failed to run test '%s'" % t["name"]))
        else:
            out.append("%s %s%s" % ("ok" if t["status"] == "pass" else "x", t["name"],
                                    "" if t.get("line_no") == 0 else " - line %s" % t.get("line_no", "undefined")))
        if t.get("test_code"):
            out.append("Test code:\n%s" % t["test_code"])
    return "\n".join(out)


def hostile(stage_dir, d):
    files, rows = {}, []
    for i, h in enumerate(HOSTILE):
        files["m%d.msg" % i] = h
        files["out/m%d.out" % i] = h + b"\n" + h
    files["big.out"] = (b"x" * 99 + b"\n") * 10486 + b"END-OF-BIG"
    names = ["t_one", "t_two", "t_given"]
    for i, n in enumerate(names):
        rows.append(["check", "suite_a", n, "fail", "tests/x.c:%d" % i, "m%d.msg" % i, "out/m%d.out" % i])
    unit(stage_dir, "suite_a", rows, files)
    unit(stage_dir, "suite_b", [["check", "suite_b", "t_three", "fail", "-", "m5.msg", "big.out"]],
         {"m5.msg": HOSTILE[5] + HOSTILE[3], "big.out": files["big.out"]})
    unit(stage_dir, "scenarios.tsv", [["scenario", "scenarios.tsv", "code/scenarios/x.ksh", "fail", "-", "m.msg", "-"]],
         {"m.msg": b"   starts with spaces\n\tand a tab\n" + HOSTILE[1]})


out = run("hostile", hostile)
if out:
    r, c, docs = read_back("hostile", out)
    size = max(os.path.getsize(os.path.join(out, f)) for f in ("results.json", "classroom.json", "junit.xml", "grade.tap"))
    ok(size < 200000, "hostile: 1 MB of a test's output leaves every format under 200 kB (largest %d bytes)" % size)
    alltext = "\n".join(t["output"] for t in r["tests"])
    ok("END-OF-BIG" in alltext and "[... " in alltext, "hostile: the end of a long output is kept, and the cut is said")
    ok("\u2028" in alltext and "\ufffe" in alltext and "       starts with spaces" in alltext,
       "hostile: U+2028, U+FFFE and leading spaces reach results.json as they were")
    ok(all(t["visibility"] in ("visible", "hidden", "after_due_date", "after_published") for t in r["tests"]) and
       [t["visibility"] for t in r["tests"]][:3] == ["visible", "hidden", "after_due_date"],
       "hostile: each exercise's visibility is exercises.tsv's")
    ok(any("   starts with spaces" in (d.get("message") or "") for d in docs if isinstance(d, dict)),
       "hostile: a message starting with spaces keeps them in its YAML block")

# 1b. The writers fuzzed: failure texts built to look like TAP to a reader (a plan, a test, a
# version, "Bail out!", a YAML end), with control characters, invalid UTF-8 (as gradefmt.py
# decodes it), tabs and very long lines (PyYAML folded those, and TAP::Parser took the folded
# rest, "--no-lockdep ...", for a key: "Bad plan").  Each text ends in its own marker: every
# reader must read every exercise, and every failure's reason up to its marker.
sys.dont_write_bytecode = True     # no __pycache__ in the course's tree
sys.path.insert(0, here)
import gradefmt as writers  # noqa: E402
import random  # noqa: E402

PIECES = ["1..7", "1..0 # SKIP all", "ok", "ok 1 - forged", "not ok 2 # TODO", "Bail out! stop", "TAP version 13",
          "TAP version 14", "--no-lockdep " + "w " * 80, "--", "---", "...", "  ...", "# comment", "#", "\t\ttabs\t",
          "pragma +strict", "- item", "key: value", "? q", "| pipe", "> fold", "'quote", '"dq', "&anchor *alias",
          "!tag", "%YAML 1.2", "\x00\x01\x07\x1b[1m\x7f\x85\x0b\x0c\x1c", "\u2028\u2029\ufeff\ufffe\uffff",
          b"\xed\xa0\x80\xc0\xaf\xff\xfe".decode("utf-8", "replace"), "x" * 5000, "y " * 3000, " " * 30 + "indented",
          "trailing spaces   ", "", "\r\n", "<failure>&amp;</testcase>]]>"]


def fuzz_texts(rng, n):
    texts = ["\n".join(PIECES)] + list(PIECES)
    while len(texts) < n:
        texts.append(rng.choice(["\n", "", " ", "\t"]).join(rng.choice(PIECES) for _ in range(rng.randint(1, 8))))
    # Half on one line: PyYAML folds a long one-line text unless told not to.
    return [t + "\nEND-%d" % i if i % 2 else t.replace("\n", " ") + " END-%d" % i for i, t in enumerate(texts)]


fz = os.path.join(work, "fuzz")
shutil.rmtree(fz, ignore_errors=True)
os.makedirs(fz)
rng = random.Random(36)
texts = fuzz_texts(rng, 200)
ex = [dict(stage=4, name="ex_%d" % i, score=0.0 if i % 5 else 10.0, points=10.0, passed=i % 5 == 0, text=t,
           visibility="visible", tests=[], failed=[{"id": "suite:" + p} for p in rng.sample(PIECES, 6)] if i % 5 else [])
      for i, t in enumerate(texts)]
writers.write_tap(os.path.join(fz, "grade.tap"), ex, "\n".join(PIECES))
writers.write_junit(os.path.join(fz, "junit.xml"), ex, [], 1.0)
writers.write_classroom(os.path.join(fz, "classroom.json"), ex)
want = [(i, 1 if e["passed"] else 0) for i, e in enumerate(ex, 1)]
tap = os.path.join(fz, "grade.tap")
for reader, got in (("TAP::Parser", tap_parser(tap)), ("tappy", tappy(tap))):
    good = isinstance(got, list) and [g[:2] for g in got] == want
    lost = [g[0] for g in got if not g[1] and not (g[2] or "").rstrip().endswith("END-%d" % (g[0] - 1))] if good else "-"
    ok(good and not lost, "fuzz: %s reads all %d exercises of grade.tap, and each of %d failures' reason to its end (%s)" % (
        reader, len(ex), sum(not e["passed"] for e in ex), got if not good else "lost: %s" % lost[:10]))
x = subprocess.run(["xmllint", "--noout", "--schema", os.path.join(here, "junit.xsd"), os.path.join(fz, "junit.xml")],
                   capture_output=True, text=True)
ok(x.returncode == 0, "fuzz: junit.xml is valid against tests/grade/junit.xsd (Ant's schema) %s" % x.stderr.strip()[-300:])
import xml.etree.ElementTree as ET  # noqa: E402
cases = ET.parse(os.path.join(fz, "junit.xml")).getroot().iter("testcase")
ok(all((c.find("failure") is None) == ex[i]["passed"] and
       (ex[i]["passed"] or c.find("failure").text.rstrip().endswith("END-%d" % i)) for i, c in enumerate(cases)),
   "fuzz: junit.xml holds each failure's reason to its end")
c = json.load(open(os.path.join(fz, "classroom.json")))
log = classroom_log(c)
ok("line undefined" not in log and all(("END-%d" % i) in log for i, e in enumerate(ex) if not e["passed"]),
   "fuzz: Classroom's reporter's log has no 'line undefined' and each failure's reason")

# 1c. The course's own tests, every stage, all failing (a skeleton's grading, without the build):
# stage 4's list of failed tests is one long line with "--no-lockdep" in it.
course_tests, course_ex = writers.load_course(os.path.join(here, "points.tsv"), os.path.join(here, "exercises.tsv"),
                                              set(range(1, 10)))
for t in course_tests:
    t["text"] = "not run"
skel = writers.exercise_results(course_ex)
writers.write_tap(os.path.join(fz, "course.tap"), skel, "")
tap = os.path.join(fz, "course.tap")
for reader, got in (("TAP::Parser", tap_parser(tap)), ("tappy", tappy(tap))):
    ok(isinstance(got, list) and len(got) == len(skel) and all(g[1] == 0 and g[2] for g in got),
       "course: %s reads grade.tap of every stage's exercises failing, %d of them, each with its reason (%s)" % (
           reader, len(skel), got if not isinstance(got, list) else len(got)))

# 2. Reports not to believe.
def forged(stage_dir, d):
    secret = os.path.join(d, "secret.c")
    unit(stage_dir, "suite_a", [
        ["check", "suite_a", "t_one", "pass", "-", "-", "-"],
        ["check", "suite_a", "t_two", "pass", "-", "-", "-"],
        ["check", "suite_a", "t_given", "pass", "-", "-", "-"],
        ["check", "suite_a", "t_one", "pass", "-", "-", "-"]], status="0")
    unit(stage_dir, "suite_b", [["check", "suite_b", "t_three", "fail", "-", "link.msg", "-"]],
         {"link.msg": ("link", secret)}, status="1")
    unit(stage_dir, "scenarios.tsv", [["scenario", "scenarios.tsv", "code/scenarios/x.ksh", "pass", "-", "-", "-"],
                                      ["scenario", "scenarios.tsv", "code/scenarios/extra.ksh", "pass", "-", "-", "-"]], status="0")


out = run("forged", forged)
if out:
    r, c, _ = read_back("forged", out)
    byname = {t["name"]: t for t in r["tests"]}
    ok(r["score"] == 0, "forged: a duplicated line and a test not listed score nothing (%s)" % r["score"])
    ok("twice" in byname["stage 1: ex_a"]["output"], "forged: the duplicate is named")
    ok("does not list" in byname["stage 1: ex_c"]["output"], "forged: the test not listed is named")
    texts = "".join(open(os.path.join(out, f), encoding="utf-8").read() for f in os.listdir(out))
    ok(SECRET not in texts, "forged: a message that is a symbolic link to a secret is not read")


def partial(stage_dir, d):
    unit(stage_dir, "suite_a", [["check", "suite_a", "t_one", "pass", "-", "-", "-"]], status="0")
    unit(stage_dir, "suite_b", [["check", "suite_b", "t_three", "pass", "-", "-", "-"]], status="137")
    unit(stage_dir, "scenarios.tsv", [["scenario", "scenarios.tsv", "code/scenarios/x.ksh", "pass", "-", "-", "-", "extra"]], status="0")


out = run("partial", partial)
if out:
    r, c, _ = read_back("partial", out)
    byname = {t["name"]: t for t in r["tests"]}
    ok(r["score"] == 0, "partial: fewer tests, a killed unit, a malformed line score nothing (%s)" % r["score"])
    ok("reported 1 of its 3 tests" in byname["stage 1: ex_a"]["output"], "partial: the missing tests are named")
    ok("exit status 137" in byname["stage 1: ex_b"]["output"] or "reported 1 of" in byname["stage 1: ex_b"]["output"],
       "partial: a unit that ended with a signal fails")
    ok("malformed" in byname["stage 1: ex_c"]["output"], "partial: a malformed line is named")


# 2b. Tampering: each voids the whole grading (every exercise 0, the reason said), though the rest looks right.
def honest_but(stage_dir, d, a_verdicts=None, a_rows=None):
    a = a_rows or [["check", "suite_a", "t_one", "pass", "-", "-", "-"], ["check", "suite_a", "t_two", "pass", "-", "-", "-"],
                   ["check", "suite_a", "t_given", "pass", "-", "-", "-"], ["check", "suite_a", CANARY, "fail", "-", "-", "-"]]
    unit(stage_dir, "suite_a", a, status="1", verdicts=a_verdicts)
    unit(stage_dir, "suite_b", [["check", "suite_b", "t_three", "pass", "-", "-", "-"]], status="0")
    unit(stage_dir, "scenarios.tsv", [["scenario", "scenarios.tsv", "code/scenarios/x.ksh", "pass", "-", "-", "-"]], status="0")


ALL_A = ["pass\tt_one", "pass\tt_two", "pass\tt_given"]
for case, av, arows, why in (
        ("control", None, None, None),
        ("canary-passed", ALL_A + ["pass\t" + CANARY, "summary\t4\t0"], None, "the canary " + CANARY),
        ("summary-claims-more", ["pass\tt_one", "pass\tt_given", "summary\t4\t0"], None, "Check's own counts say 4 of 4"),
        ("results-claim-more", ["pass\tt_one", "pass\tt_given", "summary\t4\t2"], None, "its results say t_two passed"),
        ("no-key", ALL_A + ["summary\t4\t1", "RAW\tpass\tsuite_a\tt_two"], None, "a line without this grading's key"),
        ("unknown-pass", ALL_A + ["pass\tt_other", "summary\t4\t1"], None, "passes of tests it does not have"),
        ("canary-claimed", None, [["check", "suite_a", n, "pass", "-", "-", "-"] for n in ("t_one", "t_two", "t_given", CANARY)],
         "its results say the canary")):
    out = run("tamper-" + case, lambda sd, d: honest_but(sd, d, av, arows))
    if not out:
        continue
    r, c, _ = read_back("tamper-" + case, out)
    summary = open(os.path.join(out, "summary.txt")).read()
    if why is None:
        ok(r["score"] == 40, "tamper control: the same run, honest, scores 40 of 40 (%s)" % r["score"])
    else:
        ok(r["score"] == 0 and all(t["score"] == 0 for t in r["tests"]) and why in r["output"] and "tampered" in summary
           and all(e["status"] == "fail" for e in c["tests"]),
           "tamper %s: the grading is void, 0 everywhere, and says why (%s)" % (case, why))


# 3. The scoring model.
def mixed(stage_dir, d):
    unit(stage_dir, "suite_a", [["check", "suite_a", "t_one", "pass", "-", "-", "-"],
                                ["check", "suite_a", "t_two", "pass", "-", "-", "-"],
                                ["check", "suite_a", "t_given", "fail", "-", "-", "-"]])
    unit(stage_dir, "suite_b", [["check", "suite_b", "t_three", "fail", "-", "-", "-"]])
    unit(stage_dir, "scenarios.tsv", [["scenario", "scenarios.tsv", "code/scenarios/x.ksh", "pass", "-", "-", "-"]], status="0")


out = run("mixed", mixed)
if out:
    r, c, _ = read_back("mixed", out)
    s = {t["name"]: t["score"] for t in r["tests"]}
    ok(s == {"stage 1: ex_a": 10, "stage 1: ex_b": 0, "stage 1: ex_c": 10, "given code and controls (no points)": 0},
       "mixed: ex_a (all its tests pass) scores, ex_b (one of two fails) does not, given code scores nothing: %s" % s)
    frac = sum(t["status"] == "pass" for t in c["tests"]) / len(c["tests"]) * c["max_score"]
    total = sum(t["score"] for t in c["tests"])
    summary = open(os.path.join(out, "summary.txt")).read().strip().split("\n")[-1]
    ok(r["score"] == 20 and frac == 20 and total == 20 and c["max_score"] == 40 and summary == "grade: 20 of 40 points",
       "mixed: one total everywhere: Gradescope %s, Classroom's pass fraction %s and sum %s of %s, summary '%s'" % (
           r["score"], frac, total, c["max_score"], summary))
    ok(c.get("status") == "fail" and all(t["status"] == ("pass" if t["score"] > 0 else "fail") for t in c["tests"]),
       "mixed: classroom.json's overall status is 'fail' when an exercise fails (it says %r)" % c.get("status"))

# A bad data file is FILE:LINE:COL and exit 2.
bad = os.path.join(work, "bad")
os.makedirs(bad, exist_ok=True)
with open(bad + "/points.tsv", "w") as f:
    f.write("1\tsuite_a:t_one\tex_a\t10\n")
with open(bad + "/exercises.tsv", "w") as f:
    f.write(EXERCISES)
p = subprocess.run(["/usr/bin/python3", gradefmt, "--points", bad + "/points.tsv", "--exercises", bad + "/exercises.tsv",
                    "--out", bad, "1=" + bad], capture_output=True, text=True)
ok(p.returncode == 2 and (bad + "/points.tsv:1:") in p.stderr,
   "a points.tsv line with a 4th column: exit 2 and FILE:LINE:COL (%s)" % p.stderr.strip()[:200])

print("check-formats: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
