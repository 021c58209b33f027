/* dot_life.c - lifelines: one row per object, time running left to right. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

/*
 * Every node gets a fixed position, pos="x,y!" in points: x is the event's
 * place in the trace, y the object's row.  neato -n2 then only draws, so a
 * thousand events render in a fraction of a second, where dot's ranking of
 * the same picture takes tens of seconds (TOOLING.md, Graphviz).  Only
 * events on drawn rows take a column, so a filtered view stays compact.
 */
#define X_LABEL 110	/* centre of the row names */
#define X_FIRST 260	/* first event column */
#define DX 80
#define DY 48
#define MAX_CROSS 500	/* red cross edges drawn at most */
#define MAX_MARKS 100

/* A reference that outlived its target, as the replay reported it. */
struct cross {
	uint32_t holder, target;
	uint32_t add_ev;	/* where the holder took it */
	uint32_t ev;		/* where the target was freed or unloaded */
	uint8_t type;
};

struct life {
	const struct tracefile *tf;
	const struct view *v;
	struct refgraph g;
	struct cross *cross;
	uint32_t ncross, capcross;
	uint32_t *row;		/* names id -> row, or NONE */
	uint32_t *rows;		/* row -> names id */
	uint32_t nrows;
	uint32_t *cap;		/* row -> events it may still draw (truncation) */
	uint32_t *col;		/* event -> column (of the next drawn event if not drawn) */
	uint8_t *drawn;		/* event -> drawn */
	uint32_t ncol;
};

static void on_dangle(struct refgraph *g, const struct edge *e, uint32_t ev, void *arg)
{
	struct life *l = arg;

	(void)g;
	if (l->ncross == l->capcross) {
		l->capcross = l->capcross ? 2 * l->capcross : 64;
		l->cross = xrealloc(l->cross, l->capcross * sizeof(*l->cross));
	}
	l->cross[l->ncross++] = (struct cross){ e->from, e->to, e->add_ev, ev, e->type };
}

/* --object: the names asked for and any name an event ties them to. */
static uint8_t *neighbours(const struct life *l)
{
	const struct tracefile *tf = l->tf;
	uint8_t *near = xcalloc(tf->names.nr, 1);
	uint8_t *seed = xcalloc(tf->names.nr, 1);

	for (uint32_t i = 0; i < l->v->nseeds; i++)
		seed[l->v->seeds[i]] = near[l->v->seeds[i]] = 1;
	for (uint32_t i = 0; i < l->v->upto; i++) {
		const struct tev *ev = &tf->ev[i];
		uint32_t other[3] = { ev->by, ev->ref, ev->parent };

		for (int k = 0; k < 3; k++) {
			if (other[k] == NONE)
				continue;
			if (seed[ev->obj])
				near[other[k]] = 1;
			if (seed[other[k]])
				near[ev->obj] = 1;
		}
	}
	free(seed);
	return near;
}

static const struct node *nodes;	/* for the qsort comparators */

static int by_events(const void *a, const void *b)
{
	const struct node *x = &nodes[*(const uint32_t *)a], *y = &nodes[*(const uint32_t *)b];

	if (x->nev != y->nev)
		return x->nev > y->nev ? -1 : 1;
	return x->first_ev < y->first_ev ? -1 : x->first_ev > y->first_ev;
}

static int by_birth(const void *a, const void *b)
{
	const struct node *x = &nodes[*(const uint32_t *)a], *y = &nodes[*(const uint32_t *)b];

	return x->first_ev < y->first_ev ? -1 : x->first_ev > y->first_ev;
}

static void add_row(struct life *l, uint32_t n, uint32_t cap)
{
	l->row[n] = l->nrows;
	l->cap[l->nrows] = cap;
	l->rows[l->nrows++] = n;
}

/*
 * choose_rows - the objects with events in view; past max_events, only the
 * most eventful ones, whole, so each drawn line tells its full story.
 * Returns the number of candidate objects, for the graph label.
 */
static uint32_t choose_rows(struct life *l, uint32_t *total, uint32_t *shown)
{
	const struct tracefile *tf = l->tf;
	uint32_t nr = tf->names.nr, ncand = 0;
	uint32_t *cand = xmalloc(nr * sizeof(*cand));
	uint8_t *near = l->v->nseeds ? neighbours(l) : NULL;

	*total = *shown = 0;
	for (uint32_t n = 0; n < nr; n++) {
		if (!l->g.node[n].nev || tf->kind[n] == tf->label_kind ||
		    !view_keeps_kind(l->v, tf, n) || (near && !near[n]))
			continue;
		cand[ncand++] = n;
		*total += l->g.node[n].nev;
	}
	free(near);
	nodes = l->g.node;
	uint32_t keep = ncand;

	if (*total > l->v->max_events) {
		qsort(cand, ncand, sizeof(*cand), by_events);
		for (keep = 0; keep < ncand; keep++) {
			uint32_t nev = l->g.node[cand[keep]].nev;

			if (keep && *shown + nev > l->v->max_events)
				break;
			*shown += nev < l->v->max_events ? nev : l->v->max_events;
		}
	} else {
		*shown = *total;
	}
	qsort(cand, keep, sizeof(*cand), by_birth);
	/* Room for the holder rows cross edges may add, at most one per cross. */
	l->rows = xmalloc((keep + MAX_CROSS + 1) * sizeof(*l->rows));
	l->cap = xmalloc((keep + MAX_CROSS + 1) * sizeof(*l->cap));
	for (uint32_t i = 0; i < keep; i++)
		add_row(l, cand[i], l->v->max_events);
	free(cand);
	return ncand;
}

/* Columns: the drawn events in trace order; marks get one so they can be seen. */
static void place_events(struct life *l)
{
	const struct tracefile *tf = l->tf;
	uint32_t marks = 0;

	l->col = xmalloc((l->v->upto + 1) * sizeof(*l->col));
	l->drawn = xcalloc(l->v->upto + 1, 1);
	l->ncol = 0;
	for (uint32_t i = 0; i < l->v->upto; i++) {
		const struct tev *ev = &tf->ev[i];
		uint32_t r = l->row[ev->obj];

		l->col[i] = l->ncol;
		if (ev->type == TEV_mark)
			l->drawn[i] = marks++ < MAX_MARKS;
		else if (r != NONE && l->cap[r]) {
			l->cap[r]--;
			l->drawn[i] = 1;
		}
		l->ncol += l->drawn[i];
	}
	l->col[l->v->upto] = l->ncol;
}

static uint32_t xpos(uint32_t col)
{
	return X_FIRST + col * DX;
}

/* Rows go down from y=0; holder rows appended late must not move the others. */
static int ypos(uint32_t row)
{
	return -(int)(row * DY);
}

/* Light fills, one per task, so a reader can follow a thread across rows. */
static const char *const palette[] = {
	"#dbe9ff", "#ffe9c7", "#dcf5dc", "#f3dcf5", "#fff6b3", "#d6f3f3", "#f5dcdc", "#e6e6e6",
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

static void emit_event(FILE *out, struct life *l, uint32_t i, bool gone, uint8_t *taskcol,
		       uint32_t *ntasks)
{
	const struct tracefile *tf = l->tf;
	const struct tev *ev = &tf->ev[i];
	uint32_t r = l->row[ev->obj];

	if (!taskcol[ev->task])
		taskcol[ev->task] = (uint8_t)(1 + (*ntasks)++ % NPALETTE);
	fprintf(out, "\te%u [pos=\"%u,%d!\", label=\"%" PRIu64 " %s\\n", i, xpos(l->col[i]),
		ypos(r), ev->seq, tev_name[ev->type]);
	dot_str_tail(out, strtab_str(&tf->names, ev->task), 14);
	fputs("\", tooltip=\"", out);
	dot_str(out, strtab_str(&tf->names, ev->task));
	fprintf(out, " %s ", tev_name[ev->type]);
	dot_str(out, strtab_str(&tf->names, ev->obj));
	if (ev->has_count)
		fprintf(out, " count=%" PRId64, ev->count);
	if (ev->type == TEV_oops)
		fputs("\", fillcolor=\"#ff7070\", color=red, penwidth=2];\n", out);
	else if (gone)	/* an event on an object already freed: use after free */
		fprintf(out, "\", fillcolor=\"%s\", color=red, penwidth=2];\n",
			palette[taskcol[ev->task] - 1]);
	else if (ev->type == TEV_free || ev->type == TEV_mod_unload)
		fputs("\", fillcolor=grey80, style=\"filled\"];\n", out);
	else
		fprintf(out, "\", fillcolor=\"%s\"];\n", palette[taskcol[ev->task] - 1]);
}

static void emit_mark(FILE *out, const struct life *l, uint32_t i)
{
	const char *label = tracefile_short(l->tf, l->tf->ev[i].obj);
	uint32_t x = xpos(l->col[i]);

	fprintf(out, "\tm%u [shape=plaintext, style=\"\", fontcolor=grey30, pos=\"%u,%d!\", "
		"label=\"mark ", i, x, DY);
	dot_str_tail(out, label, 20);
	/* A dotted line down through every row, so the moment lines up. */
	fprintf(out, "\"];\n\tmb%u [shape=point, width=0.01, style=invis, pos=\"%u,%d!\"];\n"
		"\tm%u -> mb%u [style=dotted, color=grey60, penwidth=1];\n",
		i, x, ypos(l->nrows) + DY / 2, i, i);
}

/* The point of the view: a red line from where a reference was taken to
 * where its target died under it. */
static void emit_crosses(FILE *out, struct life *l)
{
	const struct tracefile *tf = l->tf;
	uint32_t shown = 0;

	for (uint32_t k = 0; k < l->ncross && shown < MAX_CROSS; k++) {
		const struct cross *c = &l->cross[k];
		uint32_t hr;

		if (l->row[c->target] == NONE || !l->drawn[c->ev] || c->holder == c->target)
			continue;
		hr = l->row[c->holder];
		if (hr == NONE) {
			/* A task, or an object filtered out: give it a row of its own. */
			add_row(l, c->holder, 0);
			hr = l->row[c->holder];
			fprintf(out, "\tr%u [shape=plaintext, style=\"\", fontsize=10, "
				"pos=\"%u,%d!\", label=\"", hr, X_LABEL, ypos(hr));
			dot_str_tail(out, strtab_str(&tf->names, c->holder), 36);
			fputs("\"];\n", out);
		}
		if (l->drawn[c->add_ev] && tf->ev[c->add_ev].obj == c->holder) {
			fprintf(out, "\te%u", c->add_ev);
		} else {
			fprintf(out, "\ta%u [shape=point, width=0.1, color=red, pos=\"%u,%d!\"];\n",
				k, xpos(l->col[c->add_ev]) - (l->drawn[c->add_ev] ? 0 : DX / 2),
				ypos(hr));
			fprintf(out, "\ta%u", k);
		}
		fprintf(out, " -> e%u [color=red, penwidth=2, arrowhead=normal, fontcolor=red, "
			"fontsize=8, label=\"%s still held\", tooltip=\"", c->ev,
			edge_type_name[c->type]);
		dot_str(out, strtab_str(&tf->names, c->holder));
		fputs(" -> ", out);
		dot_str(out, strtab_str(&tf->names, c->target));
		fprintf(out, " %s outlived its target\"];\n", edge_type_name[c->type]);
		shown++;
	}
}

static void emit_rows(FILE *out, struct life *l)
{
	const struct tracefile *tf = l->tf;
	uint32_t *last = xmalloc((l->nrows + 1) * sizeof(*last));
	uint8_t *gone = xcalloc(l->nrows + 1, 1);
	uint8_t *taskcol = xcalloc(tf->names.nr, 1);
	uint32_t ntasks = 0, nrows = l->nrows;

	for (uint32_t r = 0; r < nrows; r++) {
		last[r] = NONE;
		fprintf(out, "\tr%u [shape=plaintext, style=\"\", fontsize=10, pos=\"%u,%d!\", "
			"label=\"", r, X_LABEL, ypos(r));
		dot_str_tail(out, strtab_str(&tf->names, l->rows[r]), 36);
		fputs("\"];\n", out);
	}
	for (uint32_t i = 0; i < l->v->upto; i++) {
		const struct tev *ev = &tf->ev[i];
		uint32_t r = l->row[ev->obj];

		if (!l->drawn[i])
			continue;
		if (ev->type == TEV_mark)
			continue;
		if (ev->type == TEV_create || ev->type == TEV_mod_load)
			gone[r] = 0;
		emit_event(out, l, i, gone[r], taskcol, &ntasks);
		if (last[r] != NONE) {
			fprintf(out, "\te%u -> e%u", last[r], i);
			fputs(gone[r] ? " [color=red, style=dashed];\n" : ";\n", out);
		}
		last[r] = i;
		if (ev->type == TEV_free || ev->type == TEV_mod_unload)
			gone[r] = 1;
	}
	/* Still alive at the end of the view: the line runs off to the right. */
	for (uint32_t r = 0; r < nrows; r++) {
		if (last[r] == NONE || gone[r])
			continue;
		fprintf(out, "\tz%u [shape=point, width=0.05, pos=\"%u,%d!\"];\n"
			"\te%u -> z%u [arrowhead=normal];\n", r, xpos(l->ncol), ypos(r),
			last[r], r);
	}
	emit_crosses(out, l);
	for (uint32_t i = 0; i < l->v->upto; i++)
		if (l->drawn[i] && tf->ev[i].type == TEV_mark)
			emit_mark(out, l, i);
	free(last);
	free(gone);
	free(taskcol);
}

void dot_lifelines(FILE *out, const struct tracefile *tf, const struct view *v)
{
	struct life l = { .tf = tf, .v = v };
	uint32_t total, shown, ncand;

	refgraph_init(&l.g, tf);
	l.g.on_dangle = on_dangle;
	l.g.arg = &l;
	refgraph_replay(&l.g, v->upto);

	l.row = xmalloc(tf->names.nr * sizeof(*l.row));
	memset(l.row, 0xff, tf->names.nr * sizeof(*l.row));
	ncand = choose_rows(&l, &total, &shown);
	place_events(&l);

	fputs("// generated by trace2dot: lifelines; render with: neato -n2 -Tsvg\n"
	      "// (positions are fixed; dot would ignore them)\n"
	      "digraph lifelines {\n"
	      "\tgraph [fontname=\"Helvetica\", fontsize=12, labelloc=t, outputorder=edgesfirst, "
	      "label=\"", out);
	dot_str(out, tf->path);
	fputs(": lifelines", out);
	if (v->at) {
		fputs(" up to --at ", out);
		dot_str(out, v->at);
	}
	if (shown < total)
		fprintf(out, "\\ncollapsed: showing the %u most eventful of %u objects "
			"(%u of %u events); raise --max-events to see more",
			l.nrows, ncand, shown, total);
	fputs("\"];\n"
	      "\tnode [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\", "
	      "fontsize=8, margin=\"0.04,0.02\", height=0.3];\n"
	      "\tedge [arrowhead=none, color=grey50, penwidth=2, fontname=\"Helvetica\"];\n", out);
	emit_rows(out, &l);
	fputs("}\n", out);

	free(l.cross);
	free(l.row);
	free(l.rows);
	free(l.cap);
	free(l.col);
	free(l.drawn);
	refgraph_free(&l.g);
}
