#!/bin/bash
# objgate.sh - the submission gate's object half: may this compiled exercise file be run?
#
#	objgate.sh --api OUT OBJ...
# writes to OUT the global symbols OBJ... define (the kernel's objects and
# the stage's), one a line: what a student's object may call.
#
#	objgate.sh API GLOBALS SOURCE OBJ
# checks OBJ, compiled from SOURCE (the name the refusals give), before
# anything of it runs:
#   - each symbol it uses without defining is in API, or one of the few C
#     library functions the stage's headers and exercises call (LIBC below,
#     found by building every reference and variant, and every header's
#     inline functions, at -O1 and -O0: glibc's atoi is strtol inlined);
#   - each global symbol it defines is in GLOBALS, the names the handed-out
#     file defines (tests/grade/gate.c --globals), so it cannot put its own
#     exit(), _exit() or srunner_run_all() in place of the library's;
#   - no section that runs code by itself (.init_array, .fini_array,
#     .preinit_array, .ctors, .dtors: constructors and destructors, but the
#     given code's delay points; .init, .fini), no executable stack;
#   - no system-call instruction (syscall, sysenter, int $0x80; svc on arm64).
# The source gate (gate.c) refuses what leads to these; this half holds the
# object to them whatever the source did.  Each refusal is one line,
# "SOURCE:LINE: rule: what to do instead", on standard output.  With SAN
# set (a sanitizer build), the sanitizers' own entry points are allowed too.
# Exit status: 0 accepted, 1 refused, 2 the gate could not run.
set -u
LIBC=" strcmp strncmp strlen strnlen strchr strrchr strchrnul strstr strtol atoi memcpy memmove memset memcmp snprintf "
# The names a toolchain gives the same calls: _FORTIFY_SOURCE's checked ones
# (Ubuntu's gcc, Gradescope's images, turns it on), glibc 2.38's C23 strtol
# (with _GNU_SOURCE), and the stack protector's.
for f in $LIBC; do LIBC+="__${f}_chk __isoc23_$f "; done
LIBC+="__stack_chk_fail __stack_chk_fail_local __stack_chk_guard _GLOBAL_OFFSET_TABLE_ "
for t in nm objdump readelf; do
	command -v $t >/dev/null || { echo "objgate.sh: $t not found (binutils): run make deps" >&2; exit 2; }
done
if [ "${1:-}" = --api ]; then
	out=$2; shift 2
	nm -g --defined-only "$@" >"$out.tmp" || exit 2
	awk 'NF == 3 { print $3 }' "$out.tmp" | sort -u >"$out" && rm -f "$out.tmp"
	exit
fi
[ $# = 4 ] || { echo "usage: objgate.sh API GLOBALS SOURCE OBJ | objgate.sh --api OUT OBJ..." >&2; exit 2; }
api=$1 globals=$2 src=$3 obj=$4
[ -r "$api" ] && [ -r "$globals" ] && [ -r "$obj" ] || { echo "objgate.sh: cannot read $api, $globals or $obj" >&2; exit 2; }
undef=$(nm -u "$obj") || exit 2
def=$(nm -g --defined-only "$obj") || exit 2
sections=$(readelf -S -W "$obj") || exit 2
code=$(objdump -d -l -r --no-show-raw-insn "$obj") || exit 2
status=0

# line_of SYMBOL - the source line of OBJ's first use of SYMBOL (its debug line table), or 0.
# (objdump -l's "PATH:LINE" lines; a header's, code inlined from it, keep the file's own last line)
base=${src##*/}
line_of() {
	awk -v sym="$1" -v base="$base" '
		/^[^ \t]+\.[ch]:[0-9]+/ { n = split($1, a, ":"); p = a[1]; sub(/.*\//, "", p); if (p == base) line = a[n] + 0 }
		/R_[A-Z0-9_]+[ \t]/ { s = $NF; sub(/[-+]0x[0-9a-f]+$/, "", s); if (s == sym) { print line; exit } }
		END { }' <<<"$code" | grep . || echo 0
}
say() { echo "$src:$1: $2"; status=1; }

# not_in LIST - the lines of standard input (TYPE NAME, or ADDRESS TYPE NAME) whose NAME is not a line of LIST.
not_in() { awk 'NR == FNR { ok[$1] = 1; next } NF >= 2 && !($NF in ok) { print $(NF - 1), $NF }' "$1" -; }
allowed=$(mktemp) || exit 2
trap 'rm -f "$allowed"' EXIT
tr ' ' '\n' <<<"$LIBC" | cat - "$api" >"$allowed"
if [ -n "${SAN:-}" ]; then
	undef=$(grep -vE ' (__asan_|__ubsan_|__tsan_|__sanitizer_|__lsan_)' <<<"$undef")
fi
while read -r _ sym; do
	[ -n "$sym" ] || continue
	say "$(line_of "$sym")" "the compiled code uses '$sym', which is neither the stage's nor a C function an exercise may call: use the stage's API (the headers this file includes)"
done < <(not_in "$allowed" <<<"$undef")

while read -r kind sym; do
	[ -n "$sym" ] || continue
	ln=$(nm -l -g --defined-only "$obj" | awk -v s="$sym" '$3 == s { n = split($NF, a, ":"); print a[n] + 0; exit }')
	say "${ln:-0}" "the compiled code defines the global symbol '$sym' ($kind), which the handed-out file does not: a helper must be static; never define a function of the C library, Check or the kernel"
done < <(not_in "$globals" <<<"$def")

# A constructor: only the given code's, the delay points DELAY_POINT()
# registers (code/kernel/delay.h; the function it makes is the macro's).
symtab=$(objdump -t "$obj") || exit 2
bad=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\.(init_array|fini_array|preinit_array|ctors|dtors)/) print $i }' <<<"$sections" | sort -u)
# .init and .fini: code pasted into the program's own start and end.
for s in $(awk '{ for (i = 1; i <= NF; i++) if ($i == ".init" || $i == ".fini") print $i }' <<<"$sections" | sort -u); do
	say 0 "the compiled code has a $s section (code run at the program's start or end): remove it; an exercise runs only when called"
done
# An executable stack (GCC's nested functions ask for one): no code on the stack.
if awk '$0 ~ /\.note\.GNU-stack/ && $0 ~ / [A-Z]*X[A-Z]* / { found = 1 } END { exit !found }' <<<"$sections"; then
	say 0 "the compiled code asks for an executable stack (a function inside a function): write each function at file scope"
fi
# With SAN, a sanitizer's own: GCC's _sub_I_/_sub_D_ functions, clang's asan.module_ctor and the like.
ok_ctor='^__delay_reg_'
[ -z "${SAN:-}" ] || ok_ctor='^(__delay_reg_|_sub_[ID]_[0-9]+_[0-9]+$|[a-z]+san\.module_[cd]tor)'
for s in $bad; do
	others=$(objdump -r -j "$s" "$obj" | awk '$2 ~ /^R_/ { print $3 }' | while read -r v; do
		sec=${v%%+*} off=0 name=$v
		[ "$sec" = "$v" ] || off=$((${v#*+}))
		# A section and an offset: the function there (objdump -t: VALUE FLAGS... SECTION SIZE NAME).
		while read -r val rest; do
			set -- $rest
			[ $# -ge 3 ] && [ "${*: -3:1}" = "$sec" ] && [ $((16#$val)) = "$off" ] &&
				[[ " $rest " == *" F "* ]] && name=${*: -1}
		done < <(grep -E '^[0-9a-f]+ ' <<<"$symtab")
		echo "$name"
	done | grep -vE "$ok_ctor")
	# (a section with no entry the gate can name is refused too)
	if [ -z "$others" ] && objdump -r -j "$s" "$obj" | grep -q 'R_'; then
		continue
	fi
	case $s in
	.init_array*|.preinit_array*|.ctors*)
		say 0 "the compiled code has a constructor (${others:-in $s}), run before the tests: remove it; an exercise runs only when called" ;;
	*)
		say 0 "the compiled code has a destructor (${others:-in $s}), run after the tests: remove it; an exercise runs only when called" ;;
	esac
done

# A system call, whatever the source looked like: the simulated kernel is the only kernel an exercise talks to.
awk -v base="$base" '
	/^[^ \t]+\.[ch]:[0-9]+/ { n = split($1, a, ":"); p = a[1]; sub(/.*\//, "", p); if (p == base) line = a[n] + 0 }
	/^[ \t]+[0-9a-f]+:/ {
		insn = $0; sub(/^[ \t]+[0-9a-f]+:[ \t]+/, "", insn)
		if (insn ~ /^(syscall|sysenter|sysexit|sysret)([ \t]|$)/ || insn ~ /^int[ \t]+\$0x80/ || insn ~ /^svc[ \t]/ ||
		    insn ~ /^(hvc|smc)[ \t]/)
			printf "%d %s\n", line, insn
	}' <<<"$code" | while read -r ln insn; do
	echo "$src:$ln: the compiled code holds a system-call instruction ($insn): an exercise talks to the simulated kernel only, through its functions"
done | grep . && status=1
exit $status
