/*
 * gate.c - the submission gate's source half: may this exercise file be compiled?
 *
 *	gate [-I DIR]... [--globals OUT] [--names] SHAPE FILE
 *
 * SHAPE is the handed-out file with each exercise's TODO() and stub
 * between a line "@EXERCISE name" and a line "@END" (tests/grade/shapes/,
 * written by make exercises; without those two lines, it is the skeleton).
 * FILE must hold the same tokens as SHAPE outside the regions (comments
 * and spaces may differ); inside them only C that an exercise needs:
 *   - C's keywords and operators, string and character literals, comments;
 *   - identifiers the stage's headers declare (the headers FILE includes,
 *     found in the -I directories as the compiler would; a header not
 *     found there is the C library's, whose names are not taken), the
 *     names of the given code around the regions, a few of C's own
 *     (NULL, size_t, the E... error numbers), a short list of string
 *     functions, called only, and names the region itself declares;
 *   - at file scope (a region outside any function), static helpers.
 * Refused: any preprocessor line, asm, __attribute__, _Pragma, a
 * __builtin_ the headers do not name, extern, typedef, a function declared
 * inside a function, a function pointer declared or cast to, a line
 * continuation, a byte that is not C.  What cannot be classified is refused.
 *
 * Each refusal is one line, "FILE:LINE: rule: what to do instead", on
 * standard output.  --globals OUT writes the names the given code names at
 * file scope, with the names in the bodies of the headers' macros it uses
 * there (MODULE_INFO defines __this_module_info), one a line: the only
 * global symbols the compiled file may define (tests/grade/objgate.sh
 * holds it to that).  --names lists the names a region may use
 * instead of checking (for a review).
 * Exit status: 0 accepted, 1 refused, 2 the gate could not run.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { T_IDENT, T_NUM, T_STR, T_PUNCT, T_HASH, T_OTHER };

struct tok {
	enum kind kind;
	char *text;
	int line;
	int bol;	/* first token of its line */
	int dir;	/* part of a preprocessor line */
};

struct toks {
	struct tok *v;
	int n, cap;
};

static const char *file_name;
static int refused;

static void fatal(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gate: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		fatal("out of memory");
	return p;
}

static char *xstrndup(const char *s, size_t n)
{
	char *d = xrealloc(NULL, n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* refuse - one refusal of FILE at LINE (the gate goes on, to name them all). */
#define MAX_SUBMISSION (256 * 1024)	/* bytes: a handed-out file is under 10 KiB */
#define MAX_REFUSALS 30	/* a file's first ones; the rest are counted */

static void refuse(int line, const char *fmt, ...)
{
	static char last[1024];
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (refused && strcmp(msg, last) == 0)
		return;	/* the same again (one line's rest, a loop's repeats): said once */
	snprintf(last, sizeof(last), "%s", msg);
	if (refused++ < MAX_REFUSALS)
		printf("%s:%d: %s\n", file_name, line, msg);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, got;

	if (!f)
		return NULL;
	do {
		buf = xrealloc(buf, n + 65536 + 1);
		got = fread(buf + n, 1, 65536, f);
		n += got;
	} while (got > 0);
	fclose(f);
	buf[n] = '\0';
	if (strlen(buf) != n) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int in_dir;	/* the tokenizer is inside a preprocessor line */

static void push(struct toks *t, enum kind k, const char *s, size_t n, int line, int bol)
{
	if (k == T_HASH && bol)
		in_dir = 1;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	t->v[t->n++] = (struct tok){ k, xstrndup(s, n), line, bol, in_dir };
}

static int ident_char(int c)
{
	/* GCC takes $ and UTF-8 bytes into an identifier; so does the gate, so they never split one. */
	return isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

/* The punctuators, longest first; digraphs are spelled as what they stand for. */
static const char *const puncts[][2] = {
	{ "%:%:", "##" }, { "...", "..." }, { "<<=", "<<=" }, { ">>=", ">>=" },
	{ "->", "->" }, { "++", "++" }, { "--", "--" }, { "<<", "<<" }, { ">>", ">>" },
	{ "<=", "<=" }, { ">=", ">=" }, { "==", "==" }, { "!=", "!=" }, { "&&", "&&" },
	{ "||", "||" }, { "*=", "*=" }, { "/=", "/=" }, { "%=", "%=" }, { "+=", "+=" },
	{ "-=", "-=" }, { "&=", "&=" }, { "^=", "^=" }, { "|=", "|=" }, { "##", "##" },
	{ "<:", "[" }, { ":>", "]" }, { "<%", "{" }, { "%>", "}" }, { "%:", "#" },
};

/*
 * tokenize - the tokens of text from line first on.  Comments are dropped.
 * A backslash before a newline (a line continuation, which the compiler
 * splices before anything else) is a refusal when strict: the gate does
 * not splice, so what it reads stays what the compiler reads.
 */
static void tokenize(const char *s, int first, struct toks *out, int strict)
{
	int line = first, bol = 1;

	in_dir = 0;

	while (*s) {
		const char *p = s;

		if (*s == '\\') {
			const char *q = s + 1;

			while (*q == ' ' || *q == '\t' || *q == '\f' || *q == '\v' || *q == '\r')
				q++;
			if (*q == '\n') {
				if (strict)
					refuse(line, "a line continuation (a backslash at the end of a line): join the two lines");
				line++;
				s = q + 1;
				continue;
			}
		}
		if (*s == '\n') {
			line++;
			bol = 1;
			in_dir = 0;
			s++;
			continue;
		}
		if (isspace((unsigned char)*s)) {
			s++;
			continue;
		}
		if (s[0] == '/' && s[1] == '*') {
			const char *e = strstr(s + 2, "*/");

			if (!e) {
				if (strict)
					refuse(line, "a comment that does not end: close it with */");
				return;
			}
			for (; s < e; s++)
				line += *s == '\n';
			s = e + 2;
			continue;
		}
		if (s[0] == '/' && s[1] == '/') {
			while (*s && *s != '\n')
				s++;
			continue;
		}
		if (s[0] == '?' && s[1] == '?' && strchr("=/'()!<>-", s[2]) && s[2]) {
			if (strict)
				refuse(line, "a trigraph (??%c): write the character itself", s[2]);
			s += 3;
			continue;
		}
		if (ident_char((unsigned char)*s) && !isdigit((unsigned char)*s)) {
			while (ident_char((unsigned char)*s))
				s++;
			/* Only the prefixes of C's literals may touch a quote (not R"...", a raw string). */
			if (*s == '"' || *s == '\'') {
				size_t n = (size_t)(s - p);

				if (!((n == 1 && strchr("LuU", *p)) || (n == 2 && p[0] == 'u' && p[1] == '8'))) {
					if (strict)
						refuse(line, "'%.*s' before a quote: only L, u, U and u8 may prefix a literal", (int)n, p);
				} else {
					goto literal;
				}
			}
			push(out, T_IDENT, p, (size_t)(s - p), line, bol);
			bol = 0;
			continue;
		}
		if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
			while (ident_char((unsigned char)*s) || *s == '.' ||
			       ((*s == '+' || *s == '-') && strchr("eEpP", s[-1])))
				s++;
			push(out, T_NUM, p, (size_t)(s - p), line, bol);
			bol = 0;
			continue;
		}
		if (*s == '"' || *s == '\'') {
			char q;
			int start;
literal:
			q = *s++;
			start = line;
			while (*s && *s != q && *s != '\n') {
				if (*s == '\\' && s[1])
					s++;
				if (*s == '\n')
					line++;
				s++;
			}
			if (*s != q) {
				if (strict)
					refuse(start, "a string or character literal that does not end on its line: close it");
				push(out, T_OTHER, p, (size_t)(s - p), start, bol);
				continue;
			}
			s++;
			push(out, T_STR, p, (size_t)(s - p), start, bol);
			bol = 0;
			continue;
		}
		for (size_t i = 0; i < sizeof(puncts) / sizeof(puncts[0]); i++) {
			size_t n = strlen(puncts[i][0]);

			if (strncmp(s, puncts[i][0], n) == 0) {
				push(out, strchr(puncts[i][1], '#') ? T_HASH : T_PUNCT, puncts[i][1], strlen(puncts[i][1]),
				     line, bol);
				s += n;
				goto next;
			}
		}
		if (strchr("[](){}.&*+-~!/%<>^|?:;=,", *s)) {
			push(out, T_PUNCT, s, 1, line, bol);
		} else if (*s == '#') {
			push(out, T_HASH, s, 1, line, bol);
		} else {
			push(out, T_OTHER, s, 1, line, bol);
		}
		s++;
next:
		bol = 0;
	}
}

/* ---------------------------------------------------------------- name sets */

struct set {
	char **v;
	int n, cap;
};

static int set_has(const struct set *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return 1;
	return 0;
}

static void set_add(struct set *s, const char *name)
{
	if (set_has(s, name))
		return;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n++] = xstrndup(name, strlen(name));
}

static int in_list(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (strcmp(*list, name) == 0)
			return 1;
	return 0;
}

static const char *const keywords[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
	"float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short",
	"signed", "sizeof", "static", "struct", "switch", "union", "unsigned", "void", "volatile", "while",
	"_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Noreturn", "_Static_assert",
	"_Thread_local", "__func__", NULL
};
/* Names of C itself (its headers' types and constants), harmless in any exercise. */
static const char *const vocabulary[] = {
	"NULL", "bool", "true", "false", "size_t", "ssize_t", "ptrdiff_t", "uintptr_t", "intptr_t",
	"int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
	"offsetof", "INT_MAX", "INT_MIN", "UINT_MAX", "LONG_MAX", "LONG_MIN", "ULONG_MAX", "SIZE_MAX",
	"static_assert", "loff_t", "off_t", NULL
};
/* C library functions an exercise may call (never take the address of): they touch only memory given to them. */
static const char *const libc_calls[] = {
	"strcmp", "strncmp", "strlen", "strnlen", "strchr", "strrchr", "strchrnul", "strstr",
	"memcpy", "memmove", "memset", "memcmp", "snprintf", NULL
};

/* A name is a refusal of its own, with what to do instead. */
static const char *banned_why(const char *name)
{
	static const char *const asm_words[] = { "asm", "__asm", "__asm__", NULL };
	static const char *const attr_words[] = { "__attribute", "__attribute__", "__declspec", NULL };
	static const char *const print_words[] = { "printf", "fprintf", "dprintf", "vprintf", "vfprintf", "puts",
						   "fputs", "putchar", "fputc", "putc", "perror", "write", NULL };
	static const char *const alloc_words[] = { "malloc", "calloc", "realloc", "free", "strdup", NULL };
	static const char *const exit_words[] = { "exit", "_exit", "_Exit", "abort", "atexit", "on_exit",
						  "at_quick_exit", "quick_exit", NULL };
	static const char *const machine_words[] = { "fopen", "freopen", "fdopen", "open", "openat", "creat", "read",
						     "unlink", "rename", "remove", "fork", "vfork", "clone", "system",
						     "popen", "execl", "execlp", "execle", "execv", "execvp", "execve",
						     "kill", "signal", "sigaction", "raise", "socket", "connect", "dlopen",
						     "dlsym", "syscall", "mmap", "mprotect", "pthread_create", "setenv",
						     "getenv", "putenv", "ptrace", "sleep", "usleep", NULL };

	if (in_list(asm_words, name))
		return "asm is not C an exercise needs: write the code in C";
	if (in_list(attr_words, name))
		return "__attribute__ is the given code's: remove it (the headers' macros, such as __maybe_unused, are there to use)";
	if (strcmp(name, "_Pragma") == 0)
		return "_Pragma is a preprocessor line in disguise: remove it";
	if (strcmp(name, "extern") == 0)
		return "extern declares something from outside: use what the stage's headers declare";
	if (strcmp(name, "typedef") == 0)
		return "typedef is not needed in an exercise: write the type out";
	if (!strcmp(name, "typeof") || !strcmp(name, "__typeof") || !strcmp(name, "__typeof__") ||
	    !strcmp(name, "__auto_type"))
		return "typeof is not needed in an exercise: write the type out";
	if (in_list(print_words, name))
		return "not available in kernel code: use printk()";
	if (in_list(alloc_words, name))
		return "not available in kernel code: use kmalloc() and kfree()";
	if (in_list(machine_words, name))
		return "not available in kernel code: the simulated kernel has no files, processes or network of the machine's; use the stage's API";
	if (in_list(exit_words, name))
		return "a test's process is the grader's, not the exercise's: return an error code instead";
	return NULL;
}

/* The headers' typedefs of a function pointer (work_func_t), which a region may not use. */
static struct set fnptr_types;
/* Every name declared (*NAME): a function pointer a member, variable or parameter holds, which a region may not assign. */
static struct set fnptr_names;

/* The headers' macros, each with the names its body holds (what it may define where it is used). */
static struct macro {
	char *name;
	struct set body;
} macros[1024];
static int n_macros;

static const struct set *macro_body(const char *name)
{
	for (int i = 0; i < n_macros; i++)
		if (strcmp(macros[i].name, name) == 0)
			return &macros[i].body;
	return NULL;
}

/* ---------------------------------------------------------------- reading declarations */

/* skip_group - from an opening bracket at i, the index just past its match. */
static int skip_group(const struct toks *t, int i, int end)
{
	int depth = 0;

	for (; i < end; i++) {
		const char *x = t->v[i].text;

		if (t->v[i].kind != T_PUNCT)
			continue;
		if (!strcmp(x, "(") || !strcmp(x, "[") || !strcmp(x, "{"))
			depth++;
		else if ((!strcmp(x, ")") || !strcmp(x, "]") || !strcmp(x, "}")) && --depth == 0)
			return i + 1;
	}
	return end;
}

static int is(const struct tok *t, const char *s)
{
	return (t->kind == T_PUNCT || t->kind == T_IDENT) && strcmp(t->text, s) == 0;
}

/*
 * declared_names - the names a header declares: every identifier outside
 * function bodies, initializers, macro bodies and __attribute__((...)), and
 * each macro's name, into names; each macro's body into macros[]; each
 * (*NAME) into fnptr_names, and into fnptr_types if a typedef's.
 */
static void declared_names(const struct toks *t, struct set *names)
{
	for (int i = 0; i < t->n; i++) {
		const struct tok *k = &t->v[i];

		if (k->kind == T_HASH && k->bol) {
			struct macro *m = NULL;

			if (i + 2 < t->n && is(&t->v[i + 1], "define") && t->v[i + 2].dir) {
				set_add(names, t->v[i + 2].text);
				if (n_macros < (int)(sizeof(macros) / sizeof(macros[0]))) {
					m = &macros[n_macros++];
					m->name = t->v[i + 2].text;
				}
				i += 2;
			}
			while (i + 1 < t->n && t->v[i + 1].dir && !t->v[i + 1].bol) {
				i++;
				if (m && t->v[i].kind == T_IDENT)
					set_add(&m->body, t->v[i].text);
			}
			continue;
		}
		if (is(k, "__attribute__") || is(k, "__attribute") || is(k, "asm") || is(k, "__asm__")) {
			if (i + 1 < t->n && is(&t->v[i + 1], "("))
				i = skip_group(t, i + 1, t->n) - 1;
			continue;
		}
		/* A function body: a brace after a closing parenthesis. */
		if (is(k, "{") && i > 0 && is(&t->v[i - 1], ")")) {
			i = skip_group(t, i, t->n) - 1;
			continue;
		}
		if (is(k, "=")) {	/* an initializer's names are used, not declared */
			int depth = 0;

			for (; i + 1 < t->n; i++) {
				const struct tok *x = &t->v[i + 1];

				if (is(x, "(") || is(x, "{") || is(x, "["))
					depth++;
				else if (is(x, ")") || is(x, "}") || is(x, "]"))
					depth--;
				if (depth < 0 || (depth == 0 && (is(x, ",") || is(x, ";"))))
					break;
			}
			continue;
		}
		/* typedef ... (*NAME)(...): a function pointer type, which a region may not declare. */
		if (is(k, "(") && i + 3 < t->n && is(&t->v[i + 1], "*") && t->v[i + 2].kind == T_IDENT &&
		    is(&t->v[i + 3], ")")) {
			set_add(&fnptr_names, t->v[i + 2].text);
			for (int j = i - 1; j >= 0 && !is(&t->v[j], ";") && !is(&t->v[j], "}"); j--)
				if (is(&t->v[j], "typedef"))
					set_add(&fnptr_types, t->v[i + 2].text);
		}
		if (k->kind == T_IDENT)
			set_add(names, k->text);
	}
}

/* ---------------------------------------------------------------- headers */

static char *inc_dirs[64];
static int n_inc;
static struct set seen_headers;

static void scan_includes(const struct toks *t, struct set *names);

/* scan_header - the names a project header (and those it includes) declares; a C library header is not read. */
static void scan_header(const char *name, struct set *names)
{
	for (int d = 0; d < n_inc; d++) {
		char path[4096];
		char *text;
		struct toks t = { 0 };

		snprintf(path, sizeof(path), "%s/%s", inc_dirs[d], name);
		text = read_file(path);
		if (!text)
			continue;
		if (set_has(&seen_headers, path)) {
			free(text);
			return;
		}
		set_add(&seen_headers, path);
		tokenize(text, 1, &t, 0);
		free(text);
		declared_names(&t, names);
		scan_includes(&t, names);
		return;
	}
}

static void scan_includes(const struct toks *t, struct set *names)
{
	for (int i = 0; i + 2 < t->n; i++) {
		char name[1024] = "";
		const struct tok *k = &t->v[i];

		if (k->kind != T_HASH || !k->bol || !is(&t->v[i + 1], "include"))
			continue;
		if (t->v[i + 2].kind == T_STR) {
			snprintf(name, sizeof(name), "%.*s", (int)strlen(t->v[i + 2].text) - 2, t->v[i + 2].text + 1);
		} else if (is(&t->v[i + 2], "<")) {
			for (int j = i + 3; j < t->n && t->v[j].dir && !t->v[j].bol && !is(&t->v[j], ">"); j++)
				strncat(name, t->v[j].text, sizeof(name) - strlen(name) - 1);
		}
		if (name[0])
			scan_header(name, names);
	}
}

/* ---------------------------------------------------------------- the shape */

struct region {
	char *name;
	int shape_line;	/* the @EXERCISE line */
	int depth;	/* brace depth of the given code around it: 0 at file scope */
	int start, end;	/* its tokens in the submission */
};

static int brace_delta(const struct toks *t)
{
	int d = 0;

	for (int i = 0; i < t->n; i++)
		d += is(&t->v[i], "{") - is(&t->v[i], "}");
	return d;
}

/* ---------------------------------------------------------------- a region's C */

static struct set allowed, locals;

static int type_word(const char *s)
{
	static const char *const words[] = { "void", "char", "short", "int", "long", "float", "double", "signed",
					     "unsigned", "_Bool", "_Complex", "bool", NULL };
	return in_list(words, s);
}

static int qualifier(const char *s)
{
	static const char *const words[] = { "const", "volatile", "restrict", "static", "register", "auto",
					     "inline", "_Noreturn", "_Atomic", "_Thread_local", NULL };
	return in_list(words, s);
}

/*
 * declaration - at a statement's start i in a region (of the given depth),
 * if it is a declaration, record its names in locals and refuse what may
 * not be declared.  Returns where the declaration ends (the caller reads
 * every token anyway).
 */
static int declaration(const struct toks *t, int i, int end, int depth)
{
	int j = i, is_static = 0, typed = 0;

	while (j < end && t->v[j].kind == T_IDENT && qualifier(t->v[j].text)) {
		is_static |= !strcmp(t->v[j].text, "static");
		j++;
	}
	if (j < end && t->v[j].kind == T_IDENT &&
	    (!strcmp(t->v[j].text, "struct") || !strcmp(t->v[j].text, "union") || !strcmp(t->v[j].text, "enum"))) {
		j++;
		if (j < end && t->v[j].kind == T_IDENT)
			set_add(&locals, t->v[j++].text);
		if (j < end && is(&t->v[j], "{"))
			return j;	/* a type defined here: its members are read as statements */
		typed = 1;
	}
	while (j < end && t->v[j].kind == T_IDENT && (type_word(t->v[j].text) || qualifier(t->v[j].text))) {
		typed = 1;
		j++;
	}
	if (!typed) {
		/* A name the stage gives as a type: a name, stars, a name, then = ; , [ ( or ). */
		int k = j + 1;

		if (j >= end || t->v[j].kind != T_IDENT || in_list(keywords, t->v[j].text) ||
		    !(set_has(&allowed, t->v[j].text) || in_list(vocabulary, t->v[j].text) ||
		      !strncmp(t->v[j].text, "atomic_", 7)))
			return i;
		while (k < end && is(&t->v[k], "*"))
			k++;
		if (k + 4 < end && is(&t->v[k], "(") && is(&t->v[k + 1], "*") && t->v[k + 2].kind == T_IDENT &&
		    is(&t->v[k + 3], ")") && (is(&t->v[k + 4], "(") || is(&t->v[k + 4], "["))) {
			refuse(t->v[k].line, "a function pointer: call the stage's functions by name");
			return k + 4;
		}
		if (k + 1 >= end || t->v[k].kind != T_IDENT)
			return i;
		if (!(is(&t->v[k + 1], "=") || is(&t->v[k + 1], ";") || is(&t->v[k + 1], ",") ||
		      is(&t->v[k + 1], "[") || is(&t->v[k + 1], "(") || is(&t->v[k + 1], ")")))
			return i;
		j++;
	}
	/* The declarators, comma separated. */
	for (;;) {
		while (j < end && (is(&t->v[j], "*") || (t->v[j].kind == T_IDENT && qualifier(t->v[j].text))))
			j++;
		if (j + 1 < end && is(&t->v[j], "(") && is(&t->v[j + 1], "*")) {
			refuse(t->v[j].line, "a function pointer: call the stage's functions by name");
			return skip_group(t, j, end);
		}
		if (j >= end || t->v[j].kind != T_IDENT)
			return j;
		if (!strncmp(t->v[j].text, "__", 2) || (t->v[j].text[0] == '_' && isupper((unsigned char)t->v[j].text[1])))
			refuse(t->v[j].line, "'%s': names beginning with __ or _ and a capital are the C library's: choose another name",
			       t->v[j].text);
		set_add(&locals, t->v[j].text);
		j++;
		if (j < end && is(&t->v[j], "(")) {
			int close = skip_group(t, j, end);

			if (depth > 0) {
				refuse(t->v[j].line, "a function declared inside a function: call the stage's functions, declared by its headers");
				return close;
			}
			if (!is_static || close >= end || !is(&t->v[close], "{")) {
				refuse(t->v[j].line, "a function at file scope must be a static helper with its body here: "
				       "write static before it, or use the stage's functions");
				return close;
			}
			/* The parameters' names. */
			for (int k = j + 1; k < close - 1; k++) {
				if (is(&t->v[k], "(") && k + 1 < close && is(&t->v[k + 1], "*"))
					refuse(t->v[k].line, "a function pointer parameter: call the stage's functions by name");
				if (t->v[k].kind == T_IDENT && (is(&t->v[k + 1], ",") || is(&t->v[k + 1], ")") ||
								is(&t->v[k + 1], "[")))
					set_add(&locals, t->v[k].text);
			}
			return close;	/* the body follows, read statement by statement */
		}
		if (depth == 0 && !is_static)
			refuse(t->v[j - 1].line, "a variable at file scope must be static: write static before it");
		while (j < end && is(&t->v[j], "["))
			j = skip_group(t, j, end);
		if (j < end && is(&t->v[j], "=")) {
			int d = 0;

			for (j++; j < end; j++) {
				if (is(&t->v[j], "(") || is(&t->v[j], "{") || is(&t->v[j], "["))
					d++;
				else if (is(&t->v[j], ")") || is(&t->v[j], "}") || is(&t->v[j], "]"))
					d--;
				else if (d == 0 && (is(&t->v[j], ",") || is(&t->v[j], ";")))
					break;
			}
		}
		if (j < end && is(&t->v[j], ",")) {
			j++;
			continue;
		}
		return j;
	}
}

static int statement_start(const struct toks *t, int i, int start)
{
	if (i == start)
		return 1;
	return is(&t->v[i - 1], ";") || is(&t->v[i - 1], "{") || is(&t->v[i - 1], "}") ||
	       (i >= start + 2 && is(&t->v[i - 1], "(") && is(&t->v[i - 2], "for"));
}

/*
 * cast_before - whether the group that closes at t[close] is a cast (its
 * tokens all type words, names, stars, struct/union/enum and qualifiers),
 * so that "(T)(x)" converts x rather than calling through something; or a
 * statement's condition, as in "if (c) (void)x;".
 */
static int cast_before(const struct toks *t, int close, int start)
{
	int depth = 0, i;

	for (i = close; i >= start; i--) {
		if (is(&t->v[i], ")"))
			depth++;
		else if (is(&t->v[i], "(") && --depth == 0)
			break;
	}
	if (i < start || i + 1 == close)
		return 0;
	/* if (...) (void)x; and the like: a statement's condition, then an expression */
	if (i > start && (is(&t->v[i - 1], "if") || is(&t->v[i - 1], "while") || is(&t->v[i - 1], "for") ||
			  is(&t->v[i - 1], "switch")))
		return 1;
	/* (a call's result called again, f(x)(y), is a name before the group: not a cast) */
	if (i > start && (t->v[i - 1].kind == T_IDENT && !in_list(keywords, t->v[i - 1].text)))
		return 0;
	for (int j = i + 1; j < close; j++) {
		const struct tok *k = &t->v[j];

		if (is(k, "*") || (k->kind == T_IDENT && (type_word(k->text) || qualifier(k->text) ||
							  !strcmp(k->text, "struct") || !strcmp(k->text, "union") ||
							  !strcmp(k->text, "enum") || set_has(&allowed, k->text) ||
							  in_list(vocabulary, k->text))))
			continue;
		return 0;
	}
	return 1;
}

static void check_region(const struct toks *t, const struct region *r)
{
	int depth = 0;

	/* First pass: the names the region declares, and its brackets. */
	for (int i = r->start; i < r->end; i++) {
		const struct tok *k = &t->v[i];

		if (k->kind == T_HASH) {
			refuse(k->line, "a preprocessor line (or # or ##) in an exercise: #include and #define lines are the given code's: remove it");
			continue;
		}
		if (k->kind == T_OTHER) {
			refuse(k->line, "'%s' is not C: remove it", k->text);
			continue;
		}
		if (is(k, "{") || is(k, "(") || is(k, "["))
			depth++;
		if (is(k, "}") || is(k, ")") || is(k, "]")) {
			if (--depth < 0) {
				refuse(k->line, "a '%s' that closes what the given code opened: an exercise's code stays inside its place", k->text);
				depth = 0;
			}
		}
		if (k->kind == T_PUNCT && is(k, "(") && i + 2 < r->end && is(&t->v[i + 1], "*") && is(&t->v[i + 2], ")"))
			refuse(k->line, "a cast to a function pointer: call the stage's functions by name");
		if (k->kind == T_IDENT && set_has(&fnptr_names, k->text) && i + 1 < r->end && is(&t->v[i + 1], "="))
			refuse(k->line, "'%s' holds a function pointer: an exercise calls functions, it does not store them", k->text);
		/* GNU C's computed goto jumps to any address: no goto *, no &&label. */
		if (is(k, "goto") && i + 1 < r->end && is(&t->v[i + 1], "*"))
			refuse(k->line, "a computed goto (goto *): jump to a label by its name");
		if (is(k, "&&") && i + 1 < r->end && t->v[i + 1].kind == T_IDENT &&
		    (i == r->start || (t->v[i - 1].kind == T_PUNCT && !is(&t->v[i - 1], ")") && !is(&t->v[i - 1], "]") &&
					 !is(&t->v[i - 1], "++") && !is(&t->v[i - 1], "--")) ||
		     is(&t->v[i - 1], "return")))
			refuse(k->line, "a label's address (&&label): jump to a label by its name");
		if (k->kind == T_IDENT && set_has(&fnptr_types, k->text))
			refuse(k->line, "'%s' is a function pointer type: call the stage's functions by name", k->text);
		/* A call: what stands before its ( must be a name, not a member, an element or an expression. */
		if (is(k, "(") && i > r->start) {
			const struct tok *b = &t->v[i - 1];

			if (b->kind == T_IDENT && i - 2 >= r->start && (is(&t->v[i - 2], "->") || is(&t->v[i - 2], ".")))
				refuse(k->line, "a call through the member '%s', a function pointer: call the stage's functions by name",
				       b->text);
			else if (is(b, "]"))
				refuse(k->line, "a call through an array element, a function pointer: call the stage's functions by name");
			else if (is(b, ")") && !cast_before(t, i - 1, r->start))
				refuse(k->line, "a call through an expression, a function pointer: call the stage's functions by name");
		}
		if (k->kind == T_IDENT && statement_start(t, i, r->start)) {
			if (i + 1 < r->end && is(&t->v[i + 1], ":") && !set_has(&allowed, k->text))
				set_add(&locals, k->text);	/* a label */
			else
				(void)declaration(t, i, r->end, r->depth + depth);
		}
	}
	if (depth != 0)
		refuse(t->v[r->end - 1].line, "exercise '%s' leaves a bracket open: close it inside the exercise", r->name);
	/* Second pass: every name must be one the region may use. */
	for (int i = r->start; i < r->end; i++) {
		const struct tok *k = &t->v[i];
		const char *why;

		if (k->kind != T_IDENT || k->dir)
			continue;	/* (a preprocessor line's names: the line is refused already) */
		if ((why = banned_why(k->text)) != NULL) {
			refuse(k->line, "'%s': %s", k->text, why);
			continue;
		}
		if (i > r->start && (is(&t->v[i - 1], ".") || is(&t->v[i - 1], "->") || is(&t->v[i - 1], "struct") ||
				     is(&t->v[i - 1], "union") || is(&t->v[i - 1], "enum") || is(&t->v[i - 1], "goto")))
			continue;	/* a member, a tag, a label: no function or object is named */
		if (in_list(libc_calls, k->text)) {
			if (i + 1 >= r->end || !is(&t->v[i + 1], "("))
				refuse(k->line, "'%s' may only be called, not taken as a value: call it", k->text);
			continue;
		}
		if (in_list(keywords, k->text) || in_list(vocabulary, k->text) || set_has(&allowed, k->text) ||
		    set_has(&locals, k->text))
			continue;
		if (k->text[0] == 'E' && k->text[1] && strspn(k->text + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") ==
		    strlen(k->text + 1))
			continue;	/* an error number */
		if (!strncmp(k->text, "atomic_", 7) || !strncmp(k->text, "memory_order_", 13) ||
		    !strncmp(k->text, "ATOMIC_", 7))
			continue;	/* C11's <stdatomic.h>, which the kernel's atomic.h builds on */
		if (!strncmp(k->text, "__builtin", 9))
			refuse(k->line, "'%s': a compiler builtin the stage's headers do not use: write it in C", k->text);
		else
			refuse(k->line, "'%s' is not declared by the stage's headers nor in this file: use the stage's API "
			       "(the headers this file includes) and names you declare", k->text);
	}
}

/* ---------------------------------------------------------------- main */

static int same(const struct tok *a, const struct tok *b)
{
	return a->kind == b->kind && strcmp(a->text, b->text) == 0;
}

/* find - where the n tokens of seg first stand in t[from, to), or -1. */
static int find(const struct toks *t, int from, int to, const struct tok *seg, int n)
{
	for (int i = from; i + n <= to; i++) {
		int k = 0;

		while (k < n && same(&t->v[i + k], &seg[k]))
			k++;
		if (k == n)
			return i;
	}
	return -1;
}

int main(int argc, char **argv)
{
	const char *globals_out = NULL, *shape_path, *sub_path;
	char *shape, *sub, *line, *p = NULL;
	struct toks fixed[64] = { 0 }, all_fixed = { 0 }, st = { 0 };
	struct region regions[64];
	int nreg = 0, depth = 0, header_names, list_names = 0, i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-I") && i + 1 < argc)
			inc_dirs[n_inc++] = argv[++i];
		else if (!strncmp(argv[i], "-I", 2))
			inc_dirs[n_inc++] = argv[i] + 2;
		else if (!strcmp(argv[i], "--globals") && i + 1 < argc)
			globals_out = argv[++i];
		else if (!strcmp(argv[i], "--names"))
			list_names = 1;
		else
			fatal("unknown option '%s' (usage: gate [-I DIR]... [--globals OUT] SHAPE FILE)", argv[i]);
		if (n_inc >= 64)
			fatal("too many -I directories");
	}
	if (argc - i != 2)
		fatal("usage: gate [-I DIR]... [--globals OUT] SHAPE FILE");
	shape_path = argv[i];
	sub_path = argv[i + 1];
	if (!(shape = read_file(shape_path)))
		fatal("%s: cannot read it (or it holds a NUL byte)", shape_path);
	file_name = sub_path;
	if (!(sub = read_file(sub_path))) {
		refuse(1, "cannot read this file as text (a NUL byte, or not a file): submit the C source");
		return 1;
	}
	if (strlen(sub) > MAX_SUBMISSION) {
		refuse(1, "%zu bytes: far more than an exercise file (at most %d): submit the C source of the exercises",
		       strlen(sub), MAX_SUBMISSION);
		return 1;
	}

	/* The shape's given code, cut at its @EXERCISE lines: each piece tokenized whole. */
	file_name = shape_path;
	{
		char *seg = shape;
		int seg_line = 1, ln = 1;

		for (p = shape; p; ln++) {
			char *nl = strchr(p, '\n');
			char *w = p + strspn(p, " \t");

			line = p;
			p = nl ? nl + 1 : NULL;
			if (!strncmp(w, "@END", 4) && (w[4] == '\n' || w[4] == '\0')) {
				seg = p ? p : line + strlen(line);
				seg_line = ln + 1;
				continue;
			}
			if (strncmp(w, "@EXERCISE ", 10) != 0)
				continue;
			if (nreg >= 63)
				fatal("%s: too many exercises", shape_path);
			*line = '\0';
			tokenize(seg, seg_line, &fixed[nreg], 0);
			depth += brace_delta(&fixed[nreg]);
			regions[nreg] = (struct region){ xstrndup(w + 10, strcspn(w + 10, "\n")), ln, depth, 0, 0 };
			nreg++;
			seg = p ? p : line;	/* (until its @END: the skeleton's stub is no given code) */
			seg_line = ln + 1;
		}
		tokenize(seg, seg_line, &fixed[nreg], 0);
		for (int r = 0; r <= nreg; r++)
			for (i = 0; i < fixed[r].n; i++)
				push(&all_fixed, fixed[r].v[i].kind, fixed[r].v[i].text, strlen(fixed[r].v[i].text),
				     fixed[r].v[i].line, fixed[r].v[i].bol);
		for (i = 0, p = NULL; i < all_fixed.n; i++)
			all_fixed.v[i].dir = 0;
		/* (dir again, piece by piece: a directive never spans an @EXERCISE line) */
		{
			int at = 0;

			for (int r = 0; r <= nreg; r++)
				for (i = 0; i < fixed[r].n; i++)
					all_fixed.v[at++].dir = fixed[r].v[i].dir;
		}
	}
	if (refused)
		fatal("%s: the shape itself does not read as C", shape_path);

	file_name = sub_path;
	/* A UTF-8 byte order mark, which some editors write and the compiler skips. */
	tokenize(strncmp(sub, "\xEF\xBB\xBF", 3) ? sub : sub + 3, 1, &st, 1);

	/* The given code must be there, in order, around the regions. */
	{
		int pos = 0, n0 = fixed[0].n, nk = fixed[nreg].n;

		for (int k = 0; k < n0; k++) {
			if (k >= st.n || !same(&st.v[k], &fixed[0].v[k])) {
				refuse(k < st.n ? st.v[k].line : 1, "this differs from the handed-out file (line %d there: '%s'), outside an "
				       "exercise: only the code where a TODO() stood may change; put the given code back as it was",
				       fixed[0].v[k].line, fixed[0].v[k].text);
				return 1;
			}
		}
		pos = n0;
		for (int r = 0; r < nreg; r++) {
			const struct toks *f = &fixed[r + 1];
			int at = r + 1 == nreg ? st.n - nk : find(&st, pos, st.n - nk, f->v, f->n);

			if (r + 1 == nreg && (at < pos || find(&st, at, st.n, f->v, f->n) != at))
				at = -1;
			if (at < 0) {
				refuse(pos < st.n ? st.v[pos].line : 1, "the given code after exercise '%s' (line %d of the handed-out file: "
				       "'%s') is not there as handed out: only the code where a TODO() stood may change; put it back",
				       regions[r].name, f->n ? f->v[0].line : regions[r].shape_line, f->n ? f->v[0].text : "end of file");
				return 1;
			}
			regions[r].start = pos;
			regions[r].end = at;
			pos = at + f->n;
		}
		if (nreg == 0 && st.n != n0) {
			refuse(st.v[n0 < st.n ? n0 : st.n - 1].line, "this file has no exercise, yet differs from the handed-out one: put it back");
			return 1;
		}
	}

	/* What a region may name: the headers' declarations and the given code's names. */
	scan_includes(&all_fixed, &allowed);
	header_names = allowed.n;
	for (i = 0; i + 3 < all_fixed.n; i++)	/* the given code's own (*name): parameters such as func */
		if (is(&all_fixed.v[i], "(") && is(&all_fixed.v[i + 1], "*") && all_fixed.v[i + 2].kind == T_IDENT &&
		    is(&all_fixed.v[i + 3], ")"))
			set_add(&fnptr_names, all_fixed.v[i + 2].text);
	for (i = 0; i < all_fixed.n; i++)
		if (all_fixed.v[i].kind == T_IDENT && !all_fixed.v[i].dir)
			set_add(&allowed, all_fixed.v[i].text);
	if (list_names) {	/* for a review of what a region may name */
		for (i = 0; i < allowed.n; i++)
			printf("%s %s\n", i < header_names ? "header" : "given", allowed.v[i]);
		return 0;
	}
	for (int r = 0; r < nreg; r++)
		if (regions[r].end > regions[r].start)
			check_region(&st, &regions[r]);

	if (globals_out) {
		FILE *f = fopen(globals_out, "w");
		struct set g = { 0 };
		int d = 0;


		if (!f)
			fatal("%s: cannot write it", globals_out);
		/* File scope of the given code: its identifiers outside every brace. */
		for (i = 0; i < all_fixed.n; i++) {
			const struct tok *k = &all_fixed.v[i];

			d += is(k, "{") - is(k, "}");
			if (d == 0 && k->kind == T_IDENT && !k->dir) {
				const struct set *b = macro_body(k->text);

				set_add(&g, k->text);
				/* A macro used at file scope defines what its body names (MODULE_INFO: __this_module_info). */
				for (int m = 0; b && m < b->n; m++) {
					const struct set *b2 = macro_body(b->v[m]);

					set_add(&g, b->v[m]);
					for (int m2 = 0; b2 && m2 < b2->n; m2++)
						set_add(&g, b2->v[m2]);
				}
			}
		}
		for (i = 0; i < g.n; i++)
			fprintf(f, "%s\n", g.v[i]);
		fclose(f);
	}
	if (refused > MAX_REFUSALS)
		printf("%s: ... and %d more refusals\n", file_name, refused - MAX_REFUSALS);
	return refused ? 1 : 0;
}
