#!/usr/bin/python3
"""answers.py [--bases "K ..."] [--list] SRC TARGET... - answer lines found in what a student can read.

An answer line: a line of a reference exercise body (SRC/solutions/stageK/*.c,
between its /* BEGIN EXERCISE name */ and /* END EXERCISE */ lines; the
/* STUB: */ line is the skeleton's, not the answer's) that appears nowhere
in the given code (every file under SRC/code/ and SRC/exercises/, the
skeletons included), not even inside a longer line.  Lines are compared
with their whitespace normalised (runs of blanks made one space, both ends
stripped), so `}` or `return 0;` is never an answer (nor `first = true;`,
which `bool first = true;` gives away), and a reindented copy still is.

TARGET: a directory (walked), or an archive (.zip, .tar, .tar.gz, .tgz:
its members are read; an archive inside one is opened too).  A file's
line matches if, normalised, it is an answer line, or holds one of at
least MIN characters: a patch's `+`/`-`/` ` prefix, a Python string or a
table's column around the code do not hide it.

--bases "K ...": the stages whose solutions the targets may hold (a stage
N bundle holds those of the stages it builds on, code/tools/stage-chain.sh):
their exercise bodies are given code there, not answers.  Without it (the
handout), every stage's answers count.

Prints "ANSWER FILE:LINE: stage K: TEXT" for each match (FILE inside an
archive is ARCHIVE!MEMBER), and exits 1 if there is one, 0 if none, 2 on
bad input.  --list prints the answer lines instead.

Python, not C or awk: this is the course's side (make check, where the
grader already runs python3: tests/grade/gradefmt.py), and zipfile and
tarfile read the bundle as Gradescope unpacks it.  A student's build never
runs it.
"""
import io
import os
import re
import sys
import tarfile
import zipfile

MIN = 12  # an answer this long is also found inside a longer line
BLANKS = re.compile(r"\s+")
ROW_BLANKS = re.compile(r"[^\S\n]+")  # blanks but the newline


def norm(line):
    return BLANKS.sub(" ", line).strip()


def norm_lines(text):
    """norm() of each line of text (one substitution for the whole text: the scan's cost)."""
    return [l.strip() for l in ROW_BLANKS.sub(" ", text).split("\n")]


def fail(msg):
    print("answers.py: " + msg, file=sys.stderr)
    sys.exit(2)


def files_under(d):
    for root, dirs, names in os.walk(d):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(root, n)
            if os.path.isfile(p) and not os.path.islink(p):
                yield p


def read_text(p):
    with open(p, "rb") as f:
        return f.read().decode("utf-8", errors="replace")


def exercise_bodies(path):
    """The normalised lines inside the fences of one solution file."""
    inside, out = False, []
    for l in read_text(path).split("\n"):
        if "BEGIN EXERCISE" in l:
            inside = True
        elif "END EXERCISE" in l:
            inside = False
        elif inside and not l.strip().startswith("/* STUB"):
            out.append(norm(l))
    return out


def answer_lines(src, bases):
    """{normalised line: stage} of every stage not in bases."""
    given = []
    for d in ["code", "exercises"] + ["solutions/stage%d" % b for b in bases]:
        if os.path.isdir(os.path.join(src, d)):
            for p in files_under(os.path.join(src, d)):
                given.extend(norm_lines(read_text(p)))
    given = "\n".join(given)
    sols = os.path.join(src, "solutions")
    if not os.path.isdir(sols):
        fail("%s has no solutions/: run this in the course's checkout, not in a handout" % src)
    answers = {}
    for sd in sorted(os.listdir(sols)):
        m = re.fullmatch(r"stage(\d+)", sd)
        if not m or int(m.group(1)) in bases:
            continue
        for p in files_under(os.path.join(sols, sd)):
            if p.endswith(".c"):
                for l in exercise_bodies(p):
                    if l and l not in given:
                        answers.setdefault(l, int(m.group(1)))
    if not answers:
        fail("no answer lines in %s/solutions: are the exercise fences there?" % src)
    return answers


class Scanner:
    def __init__(self, answers):
        self.answers = answers
        self.long = [a for a in answers if len(a) >= MIN]
        self.found = 0

    def text(self, name, data):
        lines = norm_lines(data.decode("utf-8", errors="replace"))
        # (the long answers this file holds at all, looked for in one pass each)
        joined = "\n".join(lines)
        held = [a for a in self.long if a in joined]
        for i, n in enumerate(lines, 1):
            if not n:
                continue
            hit = n if n in self.answers else None
            if hit is None and n[0] in "+-" and norm(n[1:]) in self.answers:
                hit = norm(n[1:])
            if hit is None:
                hit = next((a for a in held if a in n), None)
            if hit is not None:
                print("ANSWER %s:%d: stage %d: %s" % (name, i, self.answers[hit], hit))
                self.found += 1

    def blob(self, name, data):
        """A file's bytes: an archive is opened, anything else read as text."""
        if name.endswith(".zip") or data[:4] == b"PK\x03\x04":
            try:
                with zipfile.ZipFile(io.BytesIO(data)) as z:
                    for info in z.infolist():
                        if not info.is_dir():
                            self.blob(name + "!" + info.filename, z.read(info))
                return
            except zipfile.BadZipFile:
                pass
        if re.search(r"\.(tar|tar\.gz|tgz|tar\.xz|tar\.bz2)$", name):
            try:
                with tarfile.open(fileobj=io.BytesIO(data)) as t:
                    for m in t:
                        if m.isfile():
                            self.blob(name + "!" + m.name, t.extractfile(m).read())
                return
            except tarfile.TarError:
                pass
        self.text(name, data)

    def target(self, t):
        if os.path.isdir(t):
            for p in files_under(t):
                with open(p, "rb") as f:
                    self.blob(p, f.read())
        elif os.path.isfile(t):
            with open(t, "rb") as f:
                self.blob(t, f.read())
        else:
            fail("%s: no such file or directory" % t)


def main(argv):
    bases, listing = set(), False
    while argv and argv[0].startswith("--"):
        if argv[0] == "--bases" and len(argv) > 1:
            try:
                bases = {int(k) for k in argv[1].split()}
            except ValueError:
                fail("--bases takes stage numbers, not '%s'" % argv[1])
            argv = argv[2:]
        elif argv[0] == "--list":
            listing, argv = True, argv[1:]
        else:
            fail("unknown option '%s'" % argv[0])
    if not argv or (not listing and len(argv) < 2):
        fail("usage: answers.py [--bases \"K ...\"] [--list] SRC TARGET...")
    answers = answer_lines(argv[0], bases)
    if listing:
        for a, k in sorted(answers.items(), key=lambda x: (x[1], x[0])):
            print("stage %d: %s" % (k, a))
        return 0
    s = Scanner(answers)
    for t in argv[1:]:
        s.target(t)
    return 1 if s.found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
