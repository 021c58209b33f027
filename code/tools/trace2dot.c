/* trace2dot.c - draw a ksim trace with Graphviz: the reference graph or lifelines. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

/* Exit codes, as for ksim itself: 2 means the input or the command line is wrong. */
enum { EXIT_IO = 1, EXIT_USAGE = 2 };

static void usage(FILE *f)
{
	fprintf(f,
"usage: trace2dot [OPTIONS] [TRACE]\n"
"Read a ksim trace (default: standard input) and write Graphviz DOT.\n"
"\n"
"  (default)          the reference graph at the end of the trace: objects as\n"
"                     nodes grouped by owner module, live references as edges\n"
"                     from their holder, labelled with the kind of reference;\n"
"                     freed objects and unloaded modules in grey, references\n"
"                     to them (dangling) in red.\n"
"                     Render with: dot -Tsvg\n"
"  -a, --at SEQ|LABEL the reference graph right after event SEQ, or after the\n"
"                     'mark' event of that label (--at label:NAME if NAME is a\n"
"                     number)\n"
"      --before-last EVENT[:OBJECT]\n"
"                     the moment just before the last EVENT (on OBJECT, given\n"
"                     as kind:name or name), e.g. --before-last close: the\n"
"                     references a file still held when it was closed\n"
"      --after-last EVENT[:OBJECT]\n"
"                     the moment just after it, e.g. --after-last mod_unload\n"
"  -l, --lifelines    one line per object from birth to free, events in trace\n"
"                     order, each named with its task; a red edge for every\n"
"                     reference still held when its target died.\n"
"                     Positions are fixed: render with  neato -n2 -Tsvg\n"
"                     (dot -Tsvg ignores them)\n"
"      --only KINDS   keep objects of these kinds only, e.g. kobject,module\n"
"                     (tasks are kind 'task')\n"
"      --object NAME  keep this object (kind:name or name) and its direct\n"
"                     neighbours; may be repeated\n"
"      --max-nodes N  collapse the reference graph to one node per kind past N\n"
"                     objects (default %d)\n"
"      --max-events N lifelines: past N events keep only the most eventful\n"
"                     objects (default %d)...\n"
"      --max-objects N ...at most N of them (default %d), each drawn with its\n"
"                     first and last 5 events and the gap between marked\n"
"      --hide-gone    leave out freed objects, closed files and finished work\n"
"                     that nothing refers to any more (modules stay)\n"
"      --legend       add a key to the colours and line styles\n"
"      --title TEXT   caption the figure TEXT instead of the trace's file name\n"
"  -o FILE            write to FILE instead of standard output\n"
"  -h, --help         this text\n"
"\n"
"Exit status: 0 done (unknown events are warned about and skipped), 1 output\n"
"could not be written, 2 bad option or bad trace (FILE:LINE: what is wrong).\n",
		DEFAULT_MAX_NODES, DEFAULT_MAX_EVENTS, DEFAULT_MAX_OBJECTS);
}

static __attribute__((noreturn)) void usage_error(const char *fmt, const char *arg)
{
	fputs("trace2dot: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'trace2dot --help'.\n", stderr);
	exit(EXIT_USAGE);
}

static uint32_t parse_limit(const char *opt, const char *s)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno || *end || !*s || *s == '-' || x < 1 || x > 10000000)
		usage_error("bad number for %s", opt);
	return (uint32_t)x;
}

/* --at: a sequence number if all digits, else a mark's label. */
static int resolve_at(const struct tracefile *tf, const char *at, uint32_t *upto)
{
	const char *label = at;
	size_t n = strspn(at, "0123456789");

	if (n && !at[n] && n < 20) {
		uint64_t seq = strtoull(at, NULL, 10);
		uint32_t lo = 0, hi = tf->nr;

		/* SEQ increases strictly, so the events up to it are a prefix. */
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (tf->ev[mid].seq <= seq)
				lo = mid + 1;
			else
				hi = mid;
		}
		*upto = lo;
		return 0;
	}
	if (!strncmp(at, "label:", 6))
		label = at + 6;

	size_t len = strlen(label) + 7;
	char *name = xmalloc(len);

	snprintf(name, len, "label:%s", label);
	uint32_t id = strtab_find(&tf->names, name, len - 1);

	free(name);
	for (uint32_t i = 0; id != NONE && i < tf->nr; i++)
		if (tf->ev[i].type == TEV_mark && tf->ev[i].obj == id) {
			*upto = i + 1;
			return 0;
		}
	fprintf(stderr, "%s:%u: no 'mark' event for --at label '%s' in the trace\n",
		tf->path, tf->lines, label);
	return -1;
}

/*
 * --before-last / --after-last EVENT[:OBJECT]: a moment named by what
 * happens there, for scenarios that set no mark (the seed scripts are kept
 * verbatim).  Event names have no ':', so the first one ends the event.
 */
static int resolve_last(const struct tracefile *tf, const char *spec, bool before,
			uint32_t *upto, char *moment, size_t len)
{
	const char *colon = strchr(spec, ':');
	size_t elen = colon ? (size_t)(colon - spec) : strlen(spec);
	const char *obj = colon ? colon + 1 : NULL;
	int type = -1;

	for (int t = 0; t < TEV_NR; t++)
		if (strlen(tev_name[t]) == elen && !strncmp(tev_name[t], spec, elen))
			type = t;
	if (type < 0)
		usage_error("no such event kind in '%s' (see code/kernel/trace.h)", spec);
	for (uint32_t i = tf->nr; i-- > 0;) {
		const struct tev *ev = &tf->ev[i];

		if (ev->type != type || (obj && strcmp(strtab_str(&tf->names, ev->obj), obj) &&
					 strcmp(tracefile_short(tf, ev->obj), obj)))
			continue;
		*upto = before ? i : i + 1;
		snprintf(moment, len, "%s the last %.*s%s%s (event %" PRIu64 ")",
			 before ? "just before" : "right after", (int)elen, spec,
			 obj ? " of " : "", obj ? obj : "", ev->seq);
		return 0;
	}
	fprintf(stderr, "%s:%u: no '%s' event in the trace\n", tf->path, tf->lines, spec);
	return -1;
}

/* --only: a set of kinds.  A kind the trace lacks is worth a warning, not a failure. */
static bool *parse_only(struct tracefile *tf, const char *list)
{
	bool *only = xcalloc(tf->kinds.nr, sizeof(*only));
	char *copy = xstrndup(list, strlen(list)), *save, *k;

	for (k = strtok_r(copy, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		uint32_t id = strtab_find(&tf->kinds, k, strlen(k));

		if (id == NONE)
			fprintf(stderr, "trace2dot: %s: warning: no objects of kind '%s'\n",
				tf->path, k);
		else
			only[id] = true;
	}
	free(copy);
	return only;
}

/* --object NAME: "kind:name" exactly, or every object whose name part is NAME. */
static int add_seeds(const struct tracefile *tf, const char *name, struct view *v)
{
	uint32_t id = strtab_find(&tf->names, name, strlen(name));
	bool found = false;

	for (uint32_t n = 0; n < tf->names.nr; n++) {
		if (n != id && strcmp(tracefile_short(tf, n), name))
			continue;
		v->seeds = xrealloc(v->seeds, (v->nseeds + 1) * sizeof(*v->seeds));
		v->seeds[v->nseeds++] = n;
		found = true;
	}
	if (!found)
		fprintf(stderr, "trace2dot: %s: no object '%s' in the trace\n", tf->path, name);
	return found ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "at", required_argument, NULL, 'a' },
		{ "lifelines", no_argument, NULL, 'l' },
		{ "only", required_argument, NULL, 'O' },
		{ "object", required_argument, NULL, 'b' },
		{ "max-nodes", required_argument, NULL, 'N' },
		{ "max-events", required_argument, NULL, 'E' },
		{ "max-objects", required_argument, NULL, 'M' },
		{ "before-last", required_argument, NULL, 'B' },
		{ "after-last", required_argument, NULL, 'A' },
		{ "hide-gone", no_argument, NULL, 'g' },
		{ "legend", no_argument, NULL, 'L' },
		{ "title", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct view v = { .max_nodes = DEFAULT_MAX_NODES, .max_events = DEFAULT_MAX_EVENTS,
			  .max_objects = DEFAULT_MAX_OBJECTS };
	const char *output = NULL, *only = NULL, *path = "-", *last = NULL;
	char moment[256];
	int moments = 0;
	bool before = false;
	const char **objects = xmalloc(argc * sizeof(*objects));
	int nobjects = 0, c, ret = 0;
	bool lifelines = false;
	struct tracefile tf;
	FILE *out = stdout;

	opterr = 0;	/* our own message, with the usage hint */
	while ((c = getopt_long(argc, argv, ":a:lo:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': v.at = optarg; moments++; break;
		case 'B': last = optarg; before = true; moments++; break;
		case 'A': last = optarg; before = false; moments++; break;
		case 'l': lifelines = true; break;
		case 'o': output = optarg; break;
		case 'O': only = optarg; break;
		case 'b': objects[nobjects++] = optarg; break;
		case 'N': v.max_nodes = parse_limit("--max-nodes", optarg); break;
		case 'E': v.max_events = parse_limit("--max-events", optarg); break;
		case 'M': v.max_objects = parse_limit("--max-objects", optarg); break;
		case 'g': v.hide_gone = true; break;
		case 'L': v.legend = true; break;
		case 'T': v.title = optarg; break;
		case 'h': usage(stdout); free(objects); return 0;
		case ':': usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:  usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (moments > 1)
		usage_error("give only one of --at, --before-last, --after-last%s", "");
	if (argc - optind > 1)
		usage_error("one trace file at most, got also '%s'", argv[optind + 1]);
	if (optind < argc)
		path = argv[optind];

	if (tracefile_load(&tf, path)) {
		free(objects);
		return EXIT_USAGE;
	}
	ret = EXIT_USAGE;
	v.upto = tf.nr;
	if (v.at && resolve_at(&tf, v.at, &v.upto))
		goto out;
	if (last && resolve_last(&tf, last, before, &v.upto, moment, sizeof(moment)))
		goto out;
	if (last)
		v.moment = moment;
	if (only)
		v.only = parse_only(&tf, only);
	for (int i = 0; i < nobjects; i++)
		if (add_seeds(&tf, objects[i], &v))
			goto out;

	/* Open the output only now: a bad trace leaves no half-written figure. */
	if (output && !(out = fopen(output, "w"))) {
		fprintf(stderr, "trace2dot: %s: %s\n", output, strerror(errno));
		goto out;
	}
	ret = 0;
	if (lifelines)
		dot_lifelines(out, &tf, &v);
	else
		dot_refgraph(out, &tf, &v);
	if (fflush(out) || ferror(out) || (out != stdout && fclose(out))) {
		fprintf(stderr, "trace2dot: %s: write error: %s\n",
			output ? output : "<stdout>", strerror(errno));
		ret = EXIT_IO;
	}
out:
	free(v.only);
	free(v.seeds);
	free(objects);
	tracefile_free(&tf);
	return ret;
}
