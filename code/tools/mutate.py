#!/usr/bin/env python3
"""mutate.py - one-line mutants of a C file, the same list on every run.

    mutate.py list FILE [--regions exercise|all]   one mutant a line: KEY<TAB>LINE<TAB>WHAT
    mutate.py show FILE KEY                         the mutated file on stdout

A mutant is the file with one small change, of the kinds a wrong solution
has:
  drop     a statement dropped (left as an empty statement, so that the
           body of a braceless if stays a body)
  swap     two adjacent statements swapped
  cmp#K    the K-th comparison of the line flipped (== and !=, < and >=,
           > and <=)
  cond     an if or while condition without a comparison negated
  atomic   an atomic read-modify-write split into a read and a set, two
           steps another task can run between (atomic_dec_and_test becomes
           a plain decrement and a test; kref_get and kref_put likewise)
  relaxed  an atomic with ordering replaced by its _relaxed form
           (atomic.h): only a race detector on free threads sees it

Only statements inside function bodies are mutated, only statements that
start and end on their line, and none of the lines that only report
(traces, printk, valgrind's annotations, a message built for the watchdog).
The lines that only check (lockdep_assert_held(), BUG_ON()) are mutated:
a test that makes them fire kills the mutant that drops them.
With --regions exercise (the default for solutions/), only the lines
between /* BEGIN EXERCISE ... */ and /* END EXERCISE */.

A mutant's KEY is FILE:OP:TEXT, TEXT the original line without its
indentation and with each run of blanks made one space (a list ends the
KEY at its first tab): it names the same mutant after lines above it
move, which is what a list of survivors kept in the repository needs.
The order is the file's line order, then the order of the kinds above.
"""
import re
import sys

KINDS = ("drop", "swap", "cmp", "cond", "atomic", "relaxed")

# Lines that only report: dropping or swapping them changes no behaviour a test should see.
QUIET = re.compile(r"^\s*(trace_event|printk|pr_\w+|ANNOTATE_\w+|snprintf|drain_what|\(void\))\b")
DECL = re.compile(r"^\s*(static\s+|const\s+|unsigned\s+|struct\s+\w+\s*\**|enum\s+\w+\s*|"
                  r"(int|bool|char|long|short|size_t|ssize_t|u8|u16|u32|u64|void|atomic_t)\b\s*\**)"
                  r"[\w\s\*]*\w+\s*(\[[^\]]*\])?\s*(=|;)")
NO_DROP = re.compile(r"^\s*(return|break|continue|goto|case|default)\b")

# atomic weakenings: NAME -> (number of args, replacement; {0}, {1} the arguments).  The
# read and the set are each a schedule point (atomic.h), so a task can run between them.
ATOMIC = {
    "atomic_inc": (1, "atomic_set({0}, atomic_read({0}) + 1)"),
    "atomic_dec": (1, "atomic_set({0}, atomic_read({0}) - 1)"),
    "atomic_add": (2, "atomic_set({1}, atomic_read({1}) + ({0}))"),
    "atomic_sub": (2, "atomic_set({1}, atomic_read({1}) - ({0}))"),
    "atomic_or": (2, "atomic_set({1}, atomic_read({1}) | ({0}))"),
    "atomic_inc_return": (1, "({{ int __m = atomic_read({0}) + 1; atomic_set({0}, __m); __m; }})"),
    "atomic_dec_return": (1, "({{ int __m = atomic_read({0}) - 1; atomic_set({0}, __m); __m; }})"),
    "atomic_add_return": (2, "({{ int __m = atomic_read({1}) + ({0}); atomic_set({1}, __m); __m; }})"),
    "atomic_sub_return": (2, "({{ int __m = atomic_read({1}) - ({0}); atomic_set({1}, __m); __m; }})"),
    "atomic_dec_and_test": (1, "({{ int __m = atomic_read({0}) - 1; atomic_set({0}, __m); __m == 0; }})"),
    "atomic_inc_not_zero": (1, "({{ bool __m = atomic_read({0}) != 0; if (__m) atomic_set({0}, atomic_read({0}) + 1); __m; }})"),
    "atomic_inc_unless_negative": (1, "({{ bool __m = atomic_read({0}) >= 0; if (__m) atomic_set({0}, atomic_read({0}) + 1); __m; }})"),
    # kref.h's count is an atomic_t: read by hand, written back with atomic_set() (a schedule point between).
    "kref_get": (1, "({{ int __m = kref_read({0}); atomic_set(&({0})->refcount, __m + 1); }})"),
    "kref_put": (2, "({{ int __m = kref_read({0}) - 1; atomic_set(&({0})->refcount, __m); "
                    "if (!__m) ({1})({0}); !__m; }})"),
}
# The forms atomic.h also has with relaxed ordering (the kernel's _relaxed suffix).
RELAXED = ("atomic_inc_return", "atomic_dec_return", "atomic_add_return", "atomic_sub_return")

CMP_FLIP = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
TOKEN = re.compile(r"""
    (?P<str>"(\\.|[^"\\])*"|'(\\.|[^'\\])*')
  | (?P<op>->|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!~<>=?:;,.(){}\[\]])
  | (?P<word>[A-Za-z_]\w*|\d\w*)
  | (?P<space>\s+)
  | (?P<other>.)
""", re.X)


def strip_comments(text):
    """The text with comments blanked (newlines kept), so columns and lines stay where they were."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text[i] in "\"'":
            m = TOKEN.match(text, i)
            out.append(m.group(0))
            i = m.end()
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def tokens(line):
    """(kind, text, column) of each token of one comment-free line, spaces left out."""
    return [(m.lastgroup, m.group(0), m.start()) for m in TOKEN.finditer(line) if m.lastgroup != "space"]


class Line:
    def __init__(self, no, raw, code, brace, paren):
        self.no, self.raw, self.code = no, raw, code
        self.brace, self.paren = brace, paren	# depths at the start of the line
        self.toks = tokens(code)


def scan(text):
    """Each line with its comment-free code and the brace and paren depths it starts at."""
    code = strip_comments(text).split("\n")
    raw = text.split("\n")
    lines, brace, paren = [], 0, 0
    for i, (r, c) in enumerate(zip(raw, code)):
        if c.lstrip().startswith("#"):
            lines.append(Line(i + 1, r, "", brace, paren))
            continue
        ln = Line(i + 1, r, c, brace, paren)
        for kind, t, _ in ln.toks:
            if kind == "op":
                brace += (t == "{") - (t == "}")
                paren += (t in "([") - (t in ")]")
        lines.append(ln)
    return lines


def regions(lines):
    """The line numbers between BEGIN EXERCISE and END EXERCISE markers."""
    inside, keep = False, set()
    for ln in lines:
        if "BEGIN EXERCISE" in ln.raw:
            inside = True
        elif "END EXERCISE" in ln.raw:
            inside = False
        elif inside:
            keep.add(ln.no)
    return keep


def is_statement(lines, k):
    """Line k is one whole statement inside a function, starting where the last one ended."""
    ln = lines[k]
    t = ln.toks
    if ln.brace < 1 or ln.paren != 0 or not t or t[-1][1] != ";" or t[0][1] in ("{", "}"):
        return False
    depth = 0
    for kind, s, _ in t:
        depth += (s in "([{") - (s in ")]}") if kind == "op" else 0
        if depth < 0:
            return False
    if depth != 0:
        return False
    prev = next((p for p in reversed(lines[:k]) if p.toks), None)
    return prev is not None and prev.toks[-1][1] in (";", "{", "}", ")", ":", "else")


def first_statement_word(ln):
    return ln.toks[0][1] if ln.toks else ""


def plain_statement(lines, k):
    """A statement a mutant may drop or move: not a declaration, not a jump, not one that only reports."""
    ln = lines[k]
    return (is_statement(lines, k) and not DECL.match(ln.code) and not NO_DROP.match(ln.code)
            and not QUIET.match(ln.code) and first_statement_word(ln) not in ("if", "for", "while", "do", "switch"))


def call_args(code, open_col):
    """The argument texts of the call whose '(' is at open_col, and the column after its ')'."""
    depth, args, start = 0, [], open_col + 1
    for m in TOKEN.finditer(code, open_col):
        s = m.group(0)
        if m.lastgroup != "op":
            continue
        if s in "([{":
            depth += 1
        elif s in ")]}":
            depth -= 1
            if depth == 0:
                args.append(code[start:m.start()].strip())
                return args, m.end()
        elif s == "," and depth == 1:
            args.append(code[start:m.start()].strip())
            start = m.end()
    return None, None


def condition_span(ln):
    """(open, close) columns of the parentheses of an if or while on this line, or None."""
    t = ln.toks
    for i, (kind, s, col) in enumerate(t):
        if kind == "word" and s in ("if", "while") and i + 1 < len(t) and t[i + 1][1] == "(":
            depth = 0
            for _, s2, c2 in t[i + 1:]:
                depth += (s2 == "(") - (s2 == ")")
                if depth == 0:
                    return t[i + 1][2], c2
    return None


def line_mutants(lines, k, fname):
    """The mutants of line k: (op, what, {line number: new text}) in a fixed order."""
    ln, out = lines[k], []
    indent = ln.raw[:len(ln.raw) - len(ln.raw.lstrip())]
    if plain_statement(lines, k):
        out.append(("drop", "statement dropped", {ln.no: indent + ";\t/* mutant: dropped */"}))
        nxt = lines[k + 1] if k + 1 < len(lines) else None
        if (nxt and plain_statement(lines, k + 1) and nxt.brace == ln.brace
                and nxt.raw.strip() != ln.raw.strip()):
            out.append(("swap", "swapped with the next statement", {ln.no: nxt.raw, nxt.no: ln.raw}))
    if ln.brace >= 1:
        n = 0
        for kind, s, col in ln.toks:
            if kind == "op" and s in CMP_FLIP:
                n += 1
                new = ln.raw[:col] + CMP_FLIP[s] + ln.raw[col + len(s):]
                out.append(("cmp#%d" % n, "%s flipped to %s" % (s, CMP_FLIP[s]), {ln.no: new}))
        span = condition_span(ln)
        if span and not any(k2 == "op" and s in CMP_FLIP for k2, s, c in ln.toks if span[0] < c < span[1]):
            o, c = span
            new = ln.raw[:o + 1] + "!(" + ln.raw[o + 1:c] + ")" + ln.raw[c:]
            out.append(("cond", "condition negated", {ln.no: new}))
        for kind, s, col in ln.toks:
            if kind != "word" or s not in ATOMIC:
                continue
            after = ln.code[col + len(s):].lstrip()
            if not after.startswith("("):
                continue
            open_col = ln.code.index("(", col + len(s))
            args, end = call_args(ln.code, open_col)
            nargs, tmpl = ATOMIC[s]
            if args is None or len(args) != nargs:
                continue
            rep = tmpl.format(*args)
            out.append(("atomic", "%s split into a read and a set" % s,
                        {ln.no: ln.raw[:col] + rep + ln.raw[end:]}))
            if s in RELAXED:
                out.append(("relaxed", "%s with relaxed ordering" % s,
                            {ln.no: ln.raw[:col] + s + "_relaxed" + ln.raw[col + len(s):]}))
    return out


def mutants(path, text, only_exercise):
    """Every mutant of the file: (key, line, what, {line: text}), in a fixed order."""
    lines = scan(text)
    keep = regions(lines) if only_exercise else None
    out, seen = [], {}
    for k, ln in enumerate(lines):
        if keep is not None and ln.no not in keep:
            continue
        for op, what, change in line_mutants(lines, k, path):
            # Tabs in the line (before a trailing comment) become spaces: lists split a key from its reason at a tab.
            key = "%s:%s:%s" % (path, op, " ".join(ln.raw.split()))
            # The same line twice in a file: the second is told apart by its rank.
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > 1:
                key += "#%d" % seen[key]
            out.append((key, ln.no, what, change))
    return out


def apply(text, change):
    lines = text.split("\n")
    for no, new in change.items():
        lines[no - 1] = new
    return "\n".join(lines)


def main(argv):
    if len(argv) >= 3 and argv[1] == "list":
        only = "--regions" in argv and argv[argv.index("--regions") + 1] == "exercise"
        with open(argv[2]) as f:
            text = f.read()
        for key, no, what, _ in mutants(argv[2], text, only):
            print("%s\t%d\t%s" % (key, no, what))
        return 0
    if len(argv) >= 4 and argv[1] == "show":
        only = "--regions" in argv and argv[argv.index("--regions") + 1] == "exercise"
        with open(argv[2]) as f:
            text = f.read()
        for key, _, _, change in mutants(argv[2], text, only):
            if key == argv[3]:
                sys.stdout.write(apply(text, change))
                return 0
        print("mutate.py: no mutant %s in %s" % (argv[3], argv[2]), file=sys.stderr)
        return 1
    print(__doc__.split("\n\n")[0], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
