#!/bin/bash
# check-gate.sh OUT - the submission gate's own test (make check-gate).
#
# From the environment (tests/grade/gate.mk): GATE, the compiled gate;
# BUILD; STAGES; KERNEL_OBJ; CC and CFLAGS_N, how the reference of stage N
# is compiled.
#
# Honest code passes, both halves: every stage's reference (build/stageN),
# skeleton (build/student/stageN) and correct variant
# (tests/stageN/variants/*.patch on the reference, compiled as the
# reference is).  Each attack below, put in place of the first exercise of
# each of every stage's exercise files, is refused with its message (exit
# status 1); the allowed cases are not.  A file-scope exercise (none of the
# course's is; a shape made here) takes a static helper and refuses
# anything else.  The object half alone refuses hand-made objects with what
# the source half would have stopped: a system call, a constructor, a
# destructor, a redefined _exit, a C library call.  make grade
# (tests/grade/grade.sh, stage 1) scores a stage whose object is refused 0,
# saying why (check-grade shows a file the source half refuses graded as
# handed out).  An internal error is exit status 2.  One line per check, "ok ..." or "FAIL ...", then
# "check-gate: P passed, F failed".
set -u
out=$1
rm -rf "$out" && mkdir -p "$out" || exit 2
pass=0 fail=0
ok() { echo "ok $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
# expect NAME WANT REGEX GOT LOG - the gate ended with GOT, which must be WANT, and its output
# LOG must match REGEX (empty REGEX: LOG must be empty).
expect() {
	if [ "$2" != "$4" ]; then
		bad "$1: exit status $4, expected $2"; sed 's/^/    /' "$5" | head -n 5
	elif [ -n "$3" ] && ! grep -qE -- "$3" "$5"; then
		bad "$1: no message matching /$3/:"; sed 's/^/    /' "$5" | head -n 5
	elif [ -z "$3" ] && [ -s "$5" ]; then
		bad "$1: said something:"; sed 's/^/    /' "$5" | head -n 5
	else
		ok "$1"
	fi
}
# cpu PART - the CPU time this check has taken so far (its children's), after PART.
cpu() { times >"$out/times"; echo "  ($1; CPU so far, user and system: $(tail -n 1 "$out/times"))"; }
# ex_files N - the exercise files of stage N, relative to its directory.
ex_files() { (cd "tests/grade/shapes/stage$1" && find . -name '*.c' | sed 's|^\./||' | sort); }

# ---- honest code: references, skeletons, variants
for n in $STAGES; do
	tests/grade/gate.sh "$GATE" "$n" "solutions/stage$n" "$BUILD/stage$n" $KERNEL_OBJ >"$out/ref$n.log" 2>&1
	expect "stage $n: the reference passes" 0 "" $? "$out/ref$n.log"
	tests/grade/gate.sh "$GATE" "$n" "exercises/stage$n" "$BUILD/student/stage$n" $KERNEL_OBJ >"$out/skel$n.log" 2>&1
	expect "stage $n: the skeleton passes" 0 "" $? "$out/skel$n.log"
	for p in tests/stage$n/variants/*.patch; do
		[ -f "$p" ] || continue
		v=$out/variant$n-$(basename "$p" .patch)
		src=$(sed -n 's/^--- //p' "$p" | head -n 1) rel=${src#solutions/stage$n/}
		mkdir -p "$v/ex" "$v/build/obj/modules"
		cp -r "solutions/stage$n/." "$v/ex/"
		cp "$BUILD/stage$n/obj/"*.o "$v/build/obj/"
		rm -f "$v/build/obj/$(basename "$rel" .c).o"
		cflags=CFLAGS_$n
		case $rel in modules/*) o=$v/build/obj/modules/$(basename "$rel" .c).o mod="-fPIC -DKSIM_MODULE" ;;
		*) o=$v/build/obj/$(basename "$rel" .c).o mod= ;; esac
		# shellcheck disable=SC2086 # flags, word by word
		if ! patch -s "$v/ex/$rel" <"$p" || ! $CC ${!cflags} $mod -c "$v/ex/$rel" -o "$o" 2>"$v/cc.log"; then
			bad "stage $n: variant $(basename "$p"): does not apply or build"; continue
		fi
		tests/grade/gate.sh "$GATE" "$n" "$v/ex" "$v/build" $KERNEL_OBJ >"$v/gate.log" 2>&1
		expect "stage $n: variant $(basename "$p" .patch) passes" 0 "" $? "$v/gate.log"
	done
done

cpu "1. references, skeletons, variants"
# A student's build with CFLAGS=-O0 (make check-stageN CFLAGS=-O0, to debug): the header's
# inline functions are not inlined then, and their calls (glibc's atoi) must pass too.
for n in $STAGES; do
	for rel in $(ex_files "$n"); do
		v=$out/O0-$n-${rel//\//_}
		mkdir -p "$v/obj/modules"
		case $rel in modules/*) o=$v/obj/modules/$(basename "$rel" .c).o mod="-fPIC -DKSIM_MODULE" ;;
		*) o=$v/obj/$(basename "$rel" .c).o mod= ;; esac
		cflags=CFLAGS_$n
		# shellcheck disable=SC2086 # flags, word by word
		if ! $CC ${!cflags} $mod -O0 -c "solutions/stage$n/$rel" -o "$o" 2>"$v/cc.log"; then
			bad "stage $n: $rel does not build at -O0"; continue
		fi
		# shellcheck disable=SC2046 # the -I flags, word by word
		"$GATE" $(GATE_INCS=1 tests/grade/gate.sh "$GATE" "$n" "solutions/stage$n") --globals "$v/globals" \
			"tests/grade/shapes/stage$n/$rel" "solutions/stage$n/$rel" >/dev/null
		[ -f "$out/api$n" ] || tests/grade/objgate.sh --api "$out/api$n" $KERNEL_OBJ "$BUILD/stage$n"/obj/*.o
		tests/grade/objgate.sh "$out/api$n" "$v/globals" "$rel" "$o" >"$v/gate.log" 2>&1
		expect "stage $n: the reference's $rel built at -O0 passes" 0 "" $? "$v/gate.log"
	done
done

cpu "2. the references at -O0"
# ---- attacks, each in place of a file's first TODO(): REGEX<TAB>CODE (@NL@: a newline)
attacks=$(cat <<'EOF'
preprocessor line	#include <stdio.h>
preprocessor line	%:define X 1
preprocessor line	  #  if 0
asm is not C	__asm__ volatile ("syscall");
asm is not C	asm("nop");
'__asm': asm is not C	__asm ("nop");
__attribute__ is the given code's	static void __attribute__((constructor)) ctor(void) { }
'_exit': a test's process is the grader's	void _exit(int s) { (void)s; }
'exit': a test's process is the grader's	int exit = 0; (void)exit;
'abort': a test's process is the grader's	abort();
'atexit': a test's process is the grader's	atexit(NULL);
'printf': not available in kernel code: use printk\(\)	printf("%d", 1);
'fopen': not available in kernel code	fopen("results.json", "w");
'fork': not available in kernel code	fork();
'system': not available in kernel code	system("sh");
a function pointer	void (*p)(const char *, ...) = printk; (void)p;
a function pointer	int (*p)(int) = 0; (void)p;
a cast to a function pointer	((void (*)(void))0)();
a function pointer type|'work_func_t' is not declared	work_func_t w = 0; (void)w;
a call through an expression	(*(void (**)(void))0)();
a call through an expression	((int)0)();
a call through the member 'release'	kobj->ktype->release(kobj);
a call through an array element	int a[1]; ((void **)a)[0]();
'release' holds a function pointer	kobj->ktype->release = 0;
'strlen' may only be called	uintptr_t p = (uintptr_t)strlen; (void)p;
a line continuation	_ex\@NL@it(0);
_Pragma is a preprocessor line	_Pragma("GCC diagnostic ignored \"-Wall\"")
typeof is not needed	typeof(1) x = 0; (void)x;
only L, u, U and u8 may prefix	(void)R"(x)";
a trigraph	??=define X
'extern': extern declares	extern int puts(const char *);
a compiler builtin	__builtin_trap();
closes what the given code opened	} int z; void q(void) {
leaves a bracket open	{
a function declared inside a function	int helper(int x) { return x; }
'system' is not declared|'system': not	int x = system; (void)x;
'__x': names beginning with __	int __x = 0; (void)__x;
'@' is not C	@
a computed goto	void *p = 0; goto *p;
a label's address	void *p = &&here; here: (void)p;
EOF
)
allowed=$(cat <<'EOF'
comments	/* #include <stdio.h> printf asm _exit */ // atexit(0); ??=
strings	(void)"#define X printf(\"%s\", asm) ??= _exit \\"; (void)'"'; (void)u8"%:";
local names	{ int local_name = 1, other[2] = { 0 }; local_name += other[0]; (void)local_name; }
a loop's own name	for (int i = 0; i < 1; i++) { (void)i; }
a label	goto out; out: ;
a logical and, a condition	int a = 1, b = 0; if (a && b && (a) && !b) (void)(a); while (a && 0) (void)b; if (a++ && b-- && 1) (void)0;
stdatomic	atomic_int a = ATOMIC_VAR_INIT(0); atomic_fetch_add(&a, 1);
a string function	(void)strlen("x");
C's own types	size_t n = 0; ssize_t m = 0; atomic_long a = 0; (void)n; (void)m; (void)a;
a cast before parentheses	(void)(uintptr_t)(1 + 1); (void)(char *)(0);
EOF
)
# put SHAPE PREFIX LIST - for each line N of LIST (REGEX-or-WHAT<TAB>CODE), PREFIX-N.c: the
# skeleton of SHAPE with CODE in place of its first TODO() (@NL@: a newline). One awk for all.
put() {
	awk -v prefix="$2" -F'\t' '
		FILENAME == ARGV[1] { if ($0 !~ /^[ \t]*@(EXERCISE .*|END)$/) skel[++n] = $0; next }
		{
			c = $0; sub(/^[^\t]*\t/, "", c); gsub(/@NL@/, "\n", c); f = prefix "-" FNR ".c"; done = 0
			for (i = 1; i <= n; i++) {
				l = skel[i]
				if (!done && index(l, "TODO(\"")) { l = substr(l, 1, index(l, "TODO(") - 1) c; done = 1 }
				print l > f
			}
			close(f)
		}' "$1" "$3"
}
for n in $STAGES; do
	incs=$(GATE_INCS=1 tests/grade/gate.sh "$GATE" "$n" "exercises/stage$n")
	for rel in $(ex_files "$n"); do
		shape=tests/grade/shapes/stage$n/$rel
		printf '%s\n' "$attacks" >"$out/attacks.list"
		printf '%s\n' "$allowed" >"$out/allowed.list"
		put "$shape" "$out/attack$n-${rel//\//_}" "$out/attacks.list"
		put "$shape" "$out/allowed$n-${rel//\//_}" "$out/allowed.list"
		k=0
		while IFS=$'\t' read -r re code; do
			k=$((k + 1)); f=$out/attack$n-${rel//\//_}-$k.c
			# shellcheck disable=SC2086 # flags, word by word
			"$GATE" $incs "$shape" "$f" >"$f.log" 2>&1
			expect "stage $n $rel: refused: $code" 1 "\.c:[0-9]+: .*($re)" $? "$f.log"
		done <<<"$attacks"
		k=0
		while IFS=$'\t' read -r what code; do
			k=$((k + 1)); f=$out/allowed$n-${rel//\//_}-$k.c
			# shellcheck disable=SC2086 # flags, word by word
			"$GATE" $incs "$shape" "$f" >"$f.log" 2>&1
			expect "stage $n $rel: allowed: $what" 0 "" $? "$f.log"
		done <<<"$allowed"
		# Given code changed: a line added after the exercises, one before, one edited.
		for change in 'end:$a int sneaky;' 'start:1i #include <stdio.h>' 'edit:0,/^}/s/^}/} int sneaky2;/'; do
			f=$out/outside$n-${rel//\//_}-${change%%:*}.c
			sed "${change#*:}" "exercises/stage$n/$rel" >"$f"
			# shellcheck disable=SC2086 # flags, word by word
			"$GATE" $incs "$shape" "$f" >"$f.log" 2>&1
			expect "stage $n $rel: a change outside the exercises (${change%%:*}) is refused" 1 \
				"\.c:[0-9]+: .*(outside an exercise|is not there as handed out)" $? "$f.log"
		done
	done
done

cpu "3. attacks and allowed code at every exercise file"
# An editor's byte order mark and CRLF line ends: the same tokens.
{ printf '\xef\xbb\xbf'; sed 's/$/\r/' solutions/stage1/kobject_ref.c; } >"$out/bom.c"
# shellcheck disable=SC2046 # the -I flags, word by word
"$GATE" $(GATE_INCS=1 tests/grade/gate.sh "$GATE" 1 exercises/stage1) tests/grade/shapes/stage1/kobject_ref.c "$out/bom.c" >"$out/bom.log" 2>&1
expect "a byte order mark and CRLF line ends are allowed" 0 "" $? "$out/bom.log"

# A C file of the student's own in the stage's directory: named, refused (check-stageN would link it).
d=$out/extra
mkdir -p "$d" && cp -r exercises/stage1/. "$d/" && echo 'int helper;' >"$d/helper.c"
tests/grade/gate.sh "$GATE" 1 "$d" >"$d/gate.log" 2>&1
expect "a C file of the student's own is refused" 1 "helper.c:1: not a handed-out file" $? "$d/gate.log"

# An exercise's object that is a symbolic link (make grade reads objects as root): refused.
d=$out/objlink
mkdir -p "$d/obj/modules" && cp "$BUILD/stage1/obj/"*.o "$d/obj/" && cp "$BUILD/stage1/obj/modules/"*.o "$d/obj/modules/"
ln -sf "$(pwd)/$BUILD/stage1/obj/device.o" "$d/obj/kobject_ref.o"
tests/grade/gate.sh "$GATE" 1 solutions/stage1 "$d" $KERNEL_OBJ >"$d/gate.log" 2>&1
expect "an exercise's object that is a symbolic link is refused" 1 "kobject_ref.o is a symbolic link" $? "$d/gate.log"

# ---- a file-scope exercise (none in the course): a static helper only
d=$out/filescope
mkdir -p "$d"
cat >"$d/shape.c" <<'EOF'
#include <kernel.h>
@EXERCISE helpers
TODO("helpers", "write static helpers here, if you want some");
@END
int twice(int x)
{
	@EXERCISE twice
	TODO("twice", "return 2x");
	return 0;
	@END
}
EOF
fs() {	# fs NAME STATUS REGEX HELPERS
	printf '#include <kernel.h>\n%s\nint twice(int x)\n{\n\treturn helper(x);\n}\n' "$4" >"$d/$1.c"
	"$GATE" -Icode/kernel "$d/shape.c" "$d/$1.c" >"$d/$1.log" 2>&1
	expect "file scope: $1" "$2" "$3" $? "$d/$1.log"
}
fs static-helper 0 "" 'static int helper(int x) { return 2 * x; }'
fs static-helper-and-table 0 "" 'static const int k[2] = { 2, 2 }; static int helper(int x) { return k[0] * x; }'
fs global-helper 1 "must be a static helper" 'int helper(int x) { return 2 * x; }'
fs global-variable 1 "a variable at file scope must be static" 'int k = 2; static int helper(int x) { return k * x; }'
fs prototype-only 1 "must be a static helper with its body" 'static int helper(int x);'
fs redefined-exit 1 "'_exit': a test's process" 'static void _exit(int s) { (void)s; } static int helper(int x) { return x; }'
fs constructor 1 "__attribute__ is the given code's" 'static void __attribute__((constructor)) c(void) { } static int helper(int x) { return x; }'

cpu "4. file scope"
# ---- the object half alone, on hand-made objects
d=$out/objects
mkdir -p "$d"
tests/grade/objgate.sh --api "$d/api" $KERNEL_OBJ || bad "objgate.sh --api failed"
echo f >"$d/globals"
case $(uname -m) in aarch64|arm64) sys='svc #0' ;; *) sys=syscall ;; esac
obj() {	# obj NAME STATUS REGEX C-CODE
	printf '%s\n' "$4" >"$d/$1.c"
	if ! $CC -c -g -O1 "$d/$1.c" -o "$d/$1.o" 2>"$d/$1.cc"; then bad "object $1: does not compile"; return; fi
	tests/grade/objgate.sh "$d/api" "$d/globals" "$d/$1.c" "$d/$1.o" >"$d/$1.log" 2>&1
	expect "object: $1" "$2" "$3" $? "$d/$1.log"
}
obj honest 0 "" 'void kfree(const void *p); static int h(int x) { return x + 1; } int f(void *p) { kfree(p); return h(1); }'
obj syscall 1 "syscall.c:[0-9]+: the compiled code holds a system-call instruction" \
	"void f(void) { __asm__ volatile(\"$sys\"); }"
obj syscall-in-a-static 1 "system-call instruction" \
	"static void g(void) { __asm__ volatile(\"nop\\n$sys\"); } void f(void) { g(); }"
obj constructor 1 "a constructor \\(c\\)" 'void kfree(const void *); static void __attribute__((constructor)) c(void) { kfree(0); } void f(void) { }'
obj destructor 1 "a destructor \\(c\\)" 'void kfree(const void *); static void __attribute__((destructor)) c(void) { kfree(0); } void f(void) { }'
obj init-section 1 "a \\.init section" 'void f(void) { } __attribute__((section(".init"))) void g(void) { }'
obj nested-function 1 "executable stack" 'void kfree(const void *); static void run(void (*fn)(void)) { fn(); } void f(void) { int x = 0; void inner(void) { x++; kfree(0); } run(inner); }'
obj redefined-exit 1 "defines the global symbol '_exit'" 'void _exit(int s) { for (;;) (void)s; } void f(void) { }'
obj redefined-srunner 1 "defines the global symbol 'srunner_run_all'" 'void srunner_run_all(void *r, int m) { (void)r; (void)m; } void f(void) { }'
obj libc-call 1 "uses 'puts'" 'int puts(const char *); void f(void) { puts("x"); }'
obj atexit-call 1 "uses 'atexit'" 'int atexit(void (*)(void)); static void g(void) { } void f(void) { atexit(g); }'
obj function-pointer-to-libc 1 "uses 'system'" 'int system(const char *); int (*f)(const char *) = system;'

# A sanitizer's build (check-stageN SAN=...): its entry points and module constructor pass with SAN set, only then.
if [ -n "${CFLAGS_2:-}" ]; then
	# shellcheck disable=SC2086 # flags, word by word
	if $CC $CFLAGS_2 -fsanitize=address,undefined -c solutions/stage2/sysfs_callback.c -o "$d/san.o" 2>"$d/san.cc"; then
		# shellcheck disable=SC2046 # the -I flags, word by word
		"$GATE" $(GATE_INCS=1 tests/grade/gate.sh "$GATE" 2 solutions/stage2) --globals "$d/san.globals" \
			tests/grade/shapes/stage2/sysfs_callback.c solutions/stage2/sysfs_callback.c >/dev/null
		tests/grade/objgate.sh --api "$d/san.api" $KERNEL_OBJ "$BUILD"/stage2/obj/*.o
		SAN=address+undefined tests/grade/objgate.sh "$d/san.api" "$d/san.globals" san.c "$d/san.o" >"$d/san.log" 2>&1
		expect "object: a sanitizer's build passes with SAN" 0 "" $? "$d/san.log"
		tests/grade/objgate.sh "$d/san.api" "$d/san.globals" san.c "$d/san.o" >"$d/nosan.log" 2>&1
		expect "object: a sanitizer's build is refused without SAN" 1 "uses '__asan_init'.*|constructor \\(_sub_I_" $? "$d/nosan.log"
	else
		bad "object: the stage-2 reference does not compile with -fsanitize=address,undefined"
	fi
fi

cpu "5. hand-made objects"
# ---- make grade's object path (tests/grade/grade.sh, stage 1): code the
# source half lets through but whose object calls outside the stage (C's
# complex multiplication, libgcc's __muldc3) scores the stage 0, said why.
# (The source path, a file graded as handed out, is check-grade's gated adversary.)
if [ -n "${GATE_GRADE:-1}" ]; then
	g=$out/grade
	mkdir -p "$g/obj-sub"
	cp solutions/stage1/modules/mouse.c "$g/obj-sub/"
	sed 's|/\* BEGIN EXERCISE kobject_get \*/|&\n\tvolatile double _Complex z = 2; z *= z;|' \
		solutions/stage1/kobject_ref.c >"$g/obj-sub/kobject_ref.c"
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
		tests/grade/grade.sh --stages 1 --submission "$g/obj-sub" --out "$g/obj-out" >"$g/obj.log" 2>&1
	grep -q "stage 1's compiled code was refused" "$g/obj-out/submission.txt" &&
		grep -q "kobject_ref.c:[0-9]*: the compiled code uses '__muldc3'" "$g/obj-out/submission.txt" &&
		grep -q "grade stage1: 0 of 40 points" "$g/obj.log"
	expect "make grade: a refused object scores its stage 0, the refusal in the note" 0 "" $? /dev/null
fi

cpu "6. make grade"
# ---- status 2: the gate itself cannot run
tests/grade/gate.sh /nonexistent/gate 1 exercises/stage1 >"$out/internal.log" 2>&1
expect "gate.sh without its tool: exit status 2" 2 "not built" $? "$out/internal.log"
"$GATE" /nonexistent/shape.c exercises/stage1/kobject_ref.c >"$out/internal2.log" 2>&1
expect "gate without its shape: exit status 2" 2 "cannot read" $? "$out/internal2.log"
printf 'int x;\0\n' >"$out/nul.c"
"$GATE" tests/grade/shapes/stage1/kobject_ref.c "$out/nul.c" >"$out/nul.log" 2>&1
expect "a file with a NUL byte is refused" 1 "cannot read this file as text" $? "$out/nul.log"

{ cat exercises/stage1/kobject_ref.c; head -c 300000 /dev/zero | tr '\0' ' '; } >"$out/big.c"
"$GATE" tests/grade/shapes/stage1/kobject_ref.c "$out/big.c" >"$out/big.log" 2>&1
expect "a file of 300 kB is refused" 1 "far more than an exercise file" $? "$out/big.log"

echo "check-gate: $pass passed, $fail failed"
[ $fail = 0 ]
