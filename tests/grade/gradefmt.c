/*
 * gradefmt - one grading run, many formats.
 *
 *	gradefmt POINTS OUTDIR [--note FILE] STAGE=RESULTS...
 *
 * POINTS is tests/grade/points.tsv; each STAGE=RESULTS names the directory
 * where runtests.sh (or grade.sh, for a stage that did not build) left the
 * stage's results.tsv.  Every line of POINTS becomes one graded test: its
 * outcome is looked up in the stage's results, and a test without an
 * outcome scores zero with the reason (the stage did not compile, its
 * suite died, it ran out of time).  Writes, in OUTDIR:
 *
 *	results.json	Gradescope's format (tests with score, max_score,
 *			status, output; the overall score)
 *	junit.xml	JUnit XML, as GitHub Actions and GitLab show it
 *	grade.tap	TAP version 13, with a YAML block for each failure
 *	classroom.json	GitHub Classroom's reporter format (one runner)
 *
 * and prints one line a stage and the total.  A note (what grade.sh found
 * in the submission) goes into every format's overall output.  Student
 * output may hold anything: every string is made valid UTF-8 (invalid
 * bytes become U+FFFD) and escaped for its format.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STAGES 16
#define OUTPUT_MAX 6000		/* bytes of a test's output kept in the reports: its end */

struct test {
	int stage;
	char *id;		/* SUITE:NAME or scenarios.tsv:SCRIPT */
	double points;
	bool passed;
	char *where;		/* FILE:LINE, or "" */
	char *text;		/* message and output, for the reports */
};

struct stage {
	int n;
	char *dir;
};

static struct test *tests;
static int ntests;
static struct stage stages[MAX_STAGES];
static int nstages;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "gradefmt: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		die("out of memory");
	return d;
}

/* The whole file, or NULL; with tail > 0, only its last tail bytes (at a line start). */
static char *slurp(const char *path, size_t tail)
{
	FILE *f = fopen(path, "rb");
	char *buf, *start;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	if (tail && (size_t)len > tail)
		fseek(f, len - (long)tail, SEEK_SET);
	else
		fseek(f, 0, SEEK_SET);
	buf = malloc(len + 1);
	if (!buf)
		die("out of memory");
	len = fread(buf, 1, len, f);
	buf[len] = '\0';
	fclose(f);
	if (tail && (size_t)len >= tail && (start = strchr(buf, '\n'))) {
		char *cut = malloc(strlen(start) + 64);

		sprintf(cut, "[... earlier output cut ...]%s", start);
		free(buf);
		return cut;
	}
	return buf;
}

/* Split a line at tabs into at most max fields; returns how many. */
static int split_tabs(char *line, char **f, int max)
{
	int n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	f[n++] = line;
	while (n < max && (line = strchr(line, '\t'))) {
		*line++ = '\0';
		f[n++] = line;
	}
	return n;
}

static void read_points(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096], *fld[4];
	int lineno = 0;

	if (!f)
		die("cannot read %s", path);
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (split_tabs(line, fld, 4) < 3 || atoi(fld[0]) <= 0)
			die("%s:%d:1: want STAGE<TAB>TEST<TAB>POINTS[<TAB>EXERCISES]", path, lineno);
		tests = realloc(tests, (ntests + 1) * sizeof(*tests));
		tests[ntests++] = (struct test){ .stage = atoi(fld[0]), .id = xstrdup(fld[1]),
						 .points = atof(fld[2]), .where = xstrdup(""), .text = NULL };
	}
	fclose(f);
}

static struct stage *stage_of(int n)
{
	for (int i = 0; i < nstages; i++)
		if (stages[i].n == n)
			return &stages[i];
	return NULL;
}

/* text = message, then the output if there is any. */
static char *report_text(const char *msgfile, const char *outfile)
{
	char *msg = msgfile[0] ? slurp(msgfile, OUTPUT_MAX) : NULL;
	char *out = outfile[0] ? slurp(outfile, OUTPUT_MAX) : NULL;
	char *t;

	t = malloc((msg ? strlen(msg) : 0) + (out ? strlen(out) : 0) + 64);
	if (!t)
		die("out of memory");
	sprintf(t, "%s%s%s", msg ? msg : "", out && *out ? "\n--- what it printed:\n" : "", out && *out ? out : "");
	free(msg);
	free(out);
	return t;
}

/*
 * Fill in every test of stage s from its results.tsv:
 *	KIND SUITE TEST STATUS WHERE MSGFILE OUTFILE
 * KIND check/scenario give outcomes; "build" and "stage" lines (grade.sh)
 * and a suite's "(suite)" line give the reason for tests without one.
 */
static void read_results(struct stage *s)
{
	char path[4096], line[8192], *fld[7];
	char *stage_reason = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/results.tsv", s->dir);
	f = fopen(path, "r");
	if (!f) {
		stage_reason = xstrdup("not run: the stage left no results (did the grader itself fail?)");
	} else {
		while (fgets(line, sizeof(line), f)) {
			char id[4096];

			if (split_tabs(line, fld, 7) < 7)
				continue;
			if (!strcmp(fld[0], "build") || !strcmp(fld[0], "stage")) {
				char *t = report_text(fld[5], fld[6]);

				free(stage_reason);
				stage_reason = t;
				continue;
			}
			snprintf(id, sizeof(id), "%s:%s", fld[1], fld[2]);
			for (int i = 0; i < ntests; i++) {
				struct test *t = &tests[i];
				bool suite_died = !strcmp(fld[2], "(suite)") &&
						  !strncmp(t->id, fld[1], strlen(fld[1])) && t->id[strlen(fld[1])] == ':';

				if (t->stage != s->n || t->text || (strcmp(t->id, id) && !suite_died))
					continue;
				t->passed = !strcmp(fld[3], "pass") && !suite_died;
				free(t->where);
				t->where = xstrdup(fld[4]);
				t->text = report_text(fld[5], fld[6]);
			}
		}
		fclose(f);
	}
	for (int i = 0; i < ntests; i++) {
		struct test *t = &tests[i];

		if (t->stage != s->n || t->text)
			continue;
		t->passed = false;
		t->text = xstrdup(stage_reason ? stage_reason :
				  "not run: no result for this test (renamed? tests/grade/points.tsv must name it)");
	}
	free(stage_reason);
}

/* ---- valid UTF-8, whatever the student's program printed ---- */

/* Length of the valid UTF-8 sequence at p, or 0. */
static int utf8_len(const unsigned char *p)
{
	int n, i;
	unsigned cp;

	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0)
		n = 2, cp = p[0] & 0x1f;
	else if ((p[0] & 0xf0) == 0xe0)
		n = 3, cp = p[0] & 0x0f;
	else if ((p[0] & 0xf8) == 0xf0)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF are not UTF-8. */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

enum fmt { JSON, XML, YAML };

/* Write s escaped for fmt; control characters other than \n and \t are dropped outside JSON. */
static void put_text(FILE *f, const char *s, enum fmt fmt)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n = utf8_len(p);

		if (n == 0) {
			fputs("\xef\xbf\xbd", f);	/* U+FFFD */
			p++;
			continue;
		}
		if (n > 1) {
			fwrite(p, 1, n, f);
			p += n;
			continue;
		}
		switch (fmt) {
		case JSON:
			if (*p == '"' || *p == '\\')
				fprintf(f, "\\%c", *p);
			else if (*p == '\n')
				fputs("\\n", f);
			else if (*p == '\t')
				fputs("\\t", f);
			else if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
			break;
		case XML:
			if (*p == '<')
				fputs("&lt;", f);
			else if (*p == '>')
				fputs("&gt;", f);
			else if (*p == '&')
				fputs("&amp;", f);
			else if (*p == '"')
				fputs("&quot;", f);
			else if (*p >= 0x20 || *p == '\n' || *p == '\t')
				fputc(*p, f);
			break;
		case YAML:	/* inside a block scalar: indent every line */
			if (*p == '\n')
				fputs("\n    ", f);
			else if (*p >= 0x20 && *p != 0x7f)
				fputc(*p, f);
			else if (*p == '\t')
				fputs("  ", f);
			break;
		}
		p++;
	}
}

static void put_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	put_text(f, s, JSON);
	fputc('"', f);
}

/* "1.3": stage and position in the stage, Gradescope's test number. */
static int number_in_stage(int i)
{
	int k = 0;

	for (int j = 0; j <= i; j++)
		k += tests[j].stage == tests[i].stage;
	return k;
}

static FILE *open_out(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		die("cannot write %s", path);
	return f;
}

static void write_gradescope(const char *dir, const char *note, double score, double max)
{
	FILE *f = open_out(dir, "results.json");

	fprintf(f, "{\n  \"score\": %g,\n  \"max_score\": %g,\n  \"output\": ", score, max);
	put_json_string(f, note);
	fprintf(f, ",\n  \"output_format\": \"text\",\n  \"test_output_format\": \"text\",\n"
		   "  \"visibility\": \"visible\",\n  \"stdout_visibility\": \"hidden\",\n  \"tests\": [");
	for (int i = 0; i < ntests; i++) {
		struct test *t = &tests[i];
		char name[4096];

		snprintf(name, sizeof(name), "stage %d: %s", t->stage, t->id);
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		put_json_string(f, name);
		fprintf(f, ", \"number\": \"%d.%d\", \"score\": %g, \"max_score\": %g, \"status\": \"%s\", "
			   "\"visibility\": \"visible\", \"output\": ",
			t->stage, number_in_stage(i), t->passed ? t->points : 0, t->points,
			t->passed ? "passed" : "failed");
		put_json_string(f, t->passed ? "" : t->text);
		fputc('}', f);
	}
	fprintf(f, "\n  ]\n}\n");
	fclose(f);
}

static void write_classroom(const char *dir, double max)
{
	FILE *f = open_out(dir, "classroom.json");
	bool all = true;

	for (int i = 0; i < ntests; i++)
		all &= tests[i].passed;
	fprintf(f, "{\"version\": 1, \"status\": \"%s\", \"max_score\": %g, \"tests\": [", all ? "pass" : "fail", max);
	for (int i = 0; i < ntests; i++) {
		struct test *t = &tests[i];
		char name[4096];

		snprintf(name, sizeof(name), "stage %d: %s", t->stage, t->id);
		fprintf(f, "%s\n  {\"name\": ", i ? "," : "");
		put_json_string(f, name);
		fprintf(f, ", \"status\": \"%s\", \"score\": %g, \"message\": ", t->passed ? "pass" : "fail",
			t->passed ? t->points : 0);
		put_json_string(f, t->passed ? "" : t->text);
		fputc('}', f);
	}
	fprintf(f, "\n]}\n");
	fclose(f);
}

static void write_junit(const char *dir)
{
	FILE *f = open_out(dir, "junit.xml");
	int all = 0, allf = 0;

	for (int i = 0; i < ntests; i++)
		all++, allf += !tests[i].passed;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"lifetime-workbook\" "
		   "tests=\"%d\" failures=\"%d\">\n", all, allf);
	for (int s = 0; s < nstages; s++) {
		int n = 0, nf = 0;

		for (int i = 0; i < ntests; i++)
			if (tests[i].stage == stages[s].n)
				n++, nf += !tests[i].passed;
		fprintf(f, "  <testsuite name=\"stage%d\" tests=\"%d\" failures=\"%d\" errors=\"0\">\n",
			stages[s].n, n, nf);
		for (int i = 0; i < ntests; i++) {
			struct test *t = &tests[i];
			char *colon = strchr(t->id, ':');

			if (t->stage != stages[s].n)
				continue;
			fprintf(f, "    <testcase classname=\"stage%d.", t->stage);
			fprintf(f, "%.*s\" name=\"", (int)(colon ? colon - t->id : 0), t->id);
			put_text(f, colon ? colon + 1 : t->id, XML);
			if (t->where[0]) {
				char file[4096];
				const char *c = strrchr(t->where, ':');

				snprintf(file, sizeof(file), "%.*s", (int)(c ? c - t->where : (long)strlen(t->where)),
					 t->where);
				fprintf(f, "\" file=\"");
				put_text(f, file, XML);
				if (c)
					fprintf(f, "\" line=\"%d", atoi(c + 1));
			}
			fprintf(f, "\" assertions=\"%g\"", t->points);
			if (t->passed) {
				fprintf(f, "/>\n");
				continue;
			}
			fprintf(f, ">\n      <failure message=\"");
			{
				char first[512];

				snprintf(first, sizeof(first), "%.*s", (int)strcspn(t->text, "\n"), t->text);
				put_text(f, first, XML);
			}
			fprintf(f, "\" type=\"failure\">");
			put_text(f, t->text, XML);
			fprintf(f, "</failure>\n    </testcase>\n");
		}
		fprintf(f, "  </testsuite>\n");
	}
	fprintf(f, "</testsuites>\n");
	fclose(f);
}

static void write_tap(const char *dir, const char *note)
{
	FILE *f = open_out(dir, "grade.tap");

	fprintf(f, "TAP version 13\n1..%d\n", ntests);
	if (note[0]) {
		const char *p = note;

		while (*p) {
			int n = strcspn(p, "\n");

			fprintf(f, "# %.*s\n", n, p);
			p += n + (p[n] == '\n');
		}
	}
	for (int i = 0; i < ntests; i++) {
		struct test *t = &tests[i];

		fprintf(f, "%s %d - stage%d %s (%g/%g points)\n", t->passed ? "ok" : "not ok", i + 1, t->stage,
			t->id, t->passed ? t->points : 0, t->points);
		if (t->passed)
			continue;
		fprintf(f, "  ---\n  where: \"");
		put_text(f, t->where, JSON);
		fprintf(f, "\"\n  message: |\n    ");
		put_text(f, t->text, YAML);
		fprintf(f, "\n  ...\n");
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	const char *note_file = NULL;
	char *note;
	double score = 0, max = 0;
	int i;

	if (argc < 4)
		die("usage: gradefmt POINTS OUTDIR [--note FILE] STAGE=RESULTS...");
	read_points(argv[1]);
	for (i = 3; i < argc; i++) {
		char *eq;

		if (!strcmp(argv[i], "--note") && i + 1 < argc) {
			note_file = argv[++i];
			continue;
		}
		eq = strchr(argv[i], '=');
		if (!eq || atoi(argv[i]) <= 0 || nstages == MAX_STAGES)
			die("'%s': want STAGE=RESULTS-DIRECTORY", argv[i]);
		stages[nstages++] = (struct stage){ .n = atoi(argv[i]), .dir = eq + 1 };
	}
	/* Only the stages graded this time, in the order of the points file. */
	{
		int keep = 0;

		for (i = 0; i < ntests; i++)
			if (stage_of(tests[i].stage))
				tests[keep++] = tests[i];
		ntests = keep;
	}
	if (ntests == 0)
		die("%s lists no test of the stages asked for", argv[1]);
	for (i = 0; i < nstages; i++)
		read_results(&stages[i]);
	note = note_file ? slurp(note_file, 0) : NULL;
	if (!note)
		note = xstrdup("");
	for (int s = 0; s < nstages; s++) {
		double ss = 0, sm = 0;
		int np = 0, nf = 0;

		for (i = 0; i < ntests; i++) {
			if (tests[i].stage != stages[s].n)
				continue;
			sm += tests[i].points;
			if (tests[i].passed)
				ss += tests[i].points, np++;
			else
				nf++;
		}
		printf("grade stage%d: %g of %g points; %d passed, %d failed\n", stages[s].n, ss, sm, np, nf);
		score += ss;
		max += sm;
	}
	write_gradescope(argv[2], note, score, max);
	write_classroom(argv[2], max);
	write_junit(argv[2]);
	write_tap(argv[2], note);
	printf("grade: %g of %g points (%s/results.json, junit.xml, grade.tap, classroom.json)\n", score, max,
	       argv[2]);
	return 0;
}
