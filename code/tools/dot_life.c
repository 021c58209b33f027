/* dot_life.c - lifelines: one row per object, time running left to right. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

/*
 * Every node gets a fixed position, pos="x,y!" in points: x is the event's
 * place in the trace, y the object's row.  neato -n2 then only draws, so a
 * thousand events render in a fraction of a second, where dot's ranking of
 * the same picture takes tens of seconds (measured with Graphviz 2.42:
 * 1000 events, 0.05 s by neato -n2, 15 s by dot with a rank per event).  Only
 * events on drawn rows take a column, so a filtered view stays compact.
 */
#define X_LABEL 110	/* centre of the row names */
#define X_FIRST 260	/* first event column */
#define DX 80
#define DX_CALLERS 130	/* with the function line: room for about 26 characters at 8 pt */
#define DY 48
#define MAX_CROSS 500	/* red cross edges drawn at most */
#define MAX_MARKS 100
/*
 * A collapsed row shows this many of its events, half from its birth and
 * half from its death: a summary a reader can take in, not a strip of
 * thousands of columns.
 */
#define COLLAPSED_ROW_EVENTS 10

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
	uint32_t *cap;		/* row -> events it may draw: its first and last few */
	uint32_t *seen;		/* row -> its events met so far, while placing */
	uint32_t *col;		/* event -> column (of the next drawn event if not drawn) */
	uint8_t *drawn;		/* event -> drawn */
	uint32_t ncol;
};

static void on_dangle(struct refgraph *g, const struct edge *e, uint32_t ev, void *arg)
{
	struct life *l = arg;
	const struct node *from = &g->node[e->from];

	/*
	 * A pointer kept by a closed file or an unlinked sysfs node is not
	 * followed any more: only the references someone can still use count.
	 */
	if (e->type >= E_PTR && (from->closed || from->removed))
		return;
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
 * choose_rows - the objects with events in view.  Past max_events, only the
 * max_objects most eventful, each cut to an equal share of max_events: its
 * first and last events, the birth and the death a reader looks for.
 * Returns the number of candidate objects, for the graph label.
 */
static uint32_t choose_rows(struct life *l, uint32_t *total, uint32_t *shown)
{
	const struct tracefile *tf = l->tf;
	uint32_t nr = tf->names.nr, ncand = 0, cap = UINT32_MAX;
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
		keep = ncand < l->v->max_objects ? ncand : l->v->max_objects;
		cap = l->v->max_events / keep;
		if (cap > COLLAPSED_ROW_EVENTS)
			cap = COLLAPSED_ROW_EVENTS;
		if (cap < 2)
			cap = 2;
		for (uint32_t i = 0; i < keep; i++) {
			uint32_t nev = l->g.node[cand[i]].nev;

			*shown += nev < cap ? nev : cap;
		}
	} else {
		*shown = *total;
	}
	qsort(cand, keep, sizeof(*cand), by_birth);
	/* Room for the holder rows cross edges may add, at most one per cross. */
	l->rows = xmalloc((keep + MAX_CROSS + 1) * sizeof(*l->rows));
	l->cap = xmalloc((keep + MAX_CROSS + 1) * sizeof(*l->cap));
	l->seen = xcalloc(keep + MAX_CROSS + 1, sizeof(*l->seen));
	for (uint32_t i = 0; i < keep; i++)
		add_row(l, cand[i], cap);
	free(cand);
	return ncand;
}

/* row_draws - whether the k-th event (from 0) of row r is one it draws. */
static bool row_draws(const struct life *l, uint32_t r, uint32_t k)
{
	uint32_t cap = l->cap[r], nev = l->g.node[l->rows[r]].nev;
	uint32_t head = cap - cap / 2;

	return nev <= cap || k < head || k >= nev - cap / 2;
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
		else if (r != NONE)
			l->drawn[i] = row_draws(l, r, l->seen[r]++);
		l->ncol += l->drawn[i];
	}
	l->col[l->v->upto] = l->ncol;
}

/* Columns are wider when events carry a third line, their function (in=). */
static uint32_t dx = DX;

static uint32_t xpos(uint32_t col)
{
	return X_FIRST + col * dx;
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

/*
 * first_caller - of "F<G<H", the first function that is not the kernel's
 * bookkeeping around an event (sysfs_active_got() records the active
 * get that sysfs_get_active() makes; oops_end() records a run's end):
 * the one a reader wrote or calls.
 */
static const char *first_caller(const char *in)
{
	static char buf[128];
	const char *lt = strchr(in, '<');
	size_t n = lt ? (size_t)(lt - in) : strlen(in);

	if (lt && (!strncmp(in, "sysfs_active_", 13) || !strncmp(in, "trace_", 6) || !strncmp(in, "oops_", 5)))
		return first_caller(lt + 1);
	snprintf(buf, sizeof(buf), "%.*s()", (int)(n < 100 ? n : 100), in);
	return buf;
}

/*
 * event_word - what an event is called on its box.  The run's end says
 * which end it was: a deadlock (the scheduler found no task that could
 * run) or a hung task is a hang, not a crash, and is not called an oops.
 */
static const char *event_word(const struct tracefile *tf, const struct tev *ev)
{
	const char *msg = ev->msg != NONE ? strtab_str(&tf->syms, ev->msg) : "";

	if (ev->type != TEV_oops)
		return tev_name[ev->type];
	if (!strncmp(msg, "deadlock", 8))
		return "deadlock";
	if (!strncmp(msg, "hung task", 9))
		return "hang";
	return "oops";
}

/*
 * emit_event - one event's box.  took: for a withdrawal (active_put) whose
 * SRCU index is not the one its task's access took, that index, else -1:
 * the box is drawn red, the counter it left raised named.
 */
static void emit_event(FILE *out, struct life *l, uint32_t i, bool gone, uint8_t *taskcol,
		       uint32_t *ntasks, int32_t took)
{
	const struct tracefile *tf = l->tf;
	const struct tev *ev = &tf->ev[i];
	uint32_t r = l->row[ev->obj];

	if (!taskcol[ev->task])
		taskcol[ev->task] = (uint8_t)(1 + (*ntasks)++ % NPALETTE);
	fprintf(out, "\te%u [pos=\"%u,%d!\", label=\"%" PRIu64 " %s", i, xpos(l->col[i]),
		ypos(r), ev->seq, event_word(tf, ev));
	/* An SRCU access's index: which counter it raised, or lowered. */
	if (ev->has_idx)
		fprintf(out, " idx=%" PRId32, ev->idx);
	fputs("\\n", out);
	dot_str_tail(out, strtab_str(&tf->names, ev->task), 14);
	/* A trace made with KSIM_TRACE_CALLERS: the function that made it, under the task. */
	if (ev->in != NONE) {
		fputs("\\n", out);
		dot_str_tail(out, first_caller(strtab_str(&tf->syms, ev->in)), 26);
	}
	fputs("\", tooltip=\"", out);
	dot_str(out, strtab_str(&tf->names, ev->task));
	fprintf(out, " %s ", tev_name[ev->type]);
	dot_str(out, strtab_str(&tf->names, ev->obj));
	if (ev->in != NONE) {
		fputs(" in ", out);
		dot_str(out, strtab_str(&tf->syms, ev->in));
	}
	if (ev->has_count)
		fprintf(out, " count=%" PRId64, ev->count);
	if (ev->has_idx)
		fprintf(out, " idx=%" PRId32, ev->idx);
	if (ev->msg != NONE) {
		fputs(": ", out);
		dot_str(out, strtab_str(&tf->syms, ev->msg));
	}
	if (took >= 0)
		fprintf(out, "; its access took idx=%" PRId32 ", whose counter stays raised"
			"\", fillcolor=\"%s\", color=red, penwidth=3];\n", took,
			palette[taskcol[ev->task] - 1]);
	else if (ev->type == TEV_oops)
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
		uint32_t x0 = xpos(l->col[c->add_ev]) - (l->drawn[c->add_ev] ? 0 : dx / 2);
		uint32_t x1 = xpos(l->col[c->ev]);
		int y0 = ypos(hr), y1 = ypos(l->row[c->target]);

		/* The label on a white ground of its own, so the rows it crosses stay readable. */
		fprintf(out, "\tc%u [shape=plaintext, style=filled, fillcolor=white, fontcolor=red, "
			"height=0.1, margin=\"0.02,0\", pos=\"%u,%d!\", label=\"%s still held\"];\n",
			k, (x0 + x1) / 2, (y0 + y1) / 2, edge_type_name[c->type]);
		if (l->drawn[c->add_ev] && tf->ev[c->add_ev].obj == c->holder) {
			fprintf(out, "\te%u", c->add_ev);
		} else {
			fprintf(out, "\ta%u [shape=point, width=0.1, color=red, pos=\"%u,%d!\"];\n",
				k, x0, y0);
			fprintf(out, "\ta%u", k);
		}
		fprintf(out, " -> e%u [color=red, penwidth=2, arrowhead=normal, tooltip=\"", c->ev);
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
	uint32_t *lastk = xcalloc(l->nrows + 1, sizeof(*lastk));
	/* Active references held on the row's object: an operation in progress. */
	int32_t *active = xcalloc(l->nrows + 1, sizeof(*active));
	bool any_active = false;
	uint8_t *gone = xcalloc(l->nrows + 1, 1);
	uint8_t *taskcol = xcalloc(tf->names.nr, 1);
	/* task -> the SRCU index of its last access (active_get/active_fail idx=), -1 none. */
	int32_t *tookidx = xmalloc(tf->names.nr * sizeof(*tookidx));
	uint32_t ntasks = 0, nrows = l->nrows;

	for (uint32_t n = 0; n < tf->names.nr; n++)
		tookidx[n] = -1;

	for (uint32_t r = 0; r < nrows; r++) {
		last[r] = NONE;
		fprintf(out, "\tr%u [shape=plaintext, style=\"\", fontsize=10, pos=\"%u,%d!\", "
			"label=\"", r, X_LABEL, ypos(r));
		dot_str_tail(out, strtab_str(&tf->names, l->rows[r]), 36);
		fputs("\"];\n", out);
	}
	memset(l->seen, 0, nrows * sizeof(*l->seen));
	for (uint32_t i = 0; i < l->v->upto; i++) {
		const struct tev *ev = &tf->ev[i];
		uint32_t r = l->row[ev->obj], k;

		if (r == NONE || ev->type == TEV_mark)
			continue;
		/* Every event of the row counts, drawn or not: a free may be in a gap. */
		k = l->seen[r]++;
		if (ev->type == TEV_create || ev->type == TEV_mod_load)
			gone[r] = 0;
		int32_t took = -1;

		if ((ev->type == TEV_active_get || ev->type == TEV_active_fail) && ev->has_idx)
			tookidx[ev->task] = ev->idx;
		else if (ev->type == TEV_active_put && ev->has_idx && tookidx[ev->task] >= 0 &&
			 tookidx[ev->task] != ev->idx)
			took = tookidx[ev->task];
		if (l->drawn[i]) {
			emit_event(out, l, i, gone[r] == 1, taskcol, &ntasks, took);
			if (last[r] != NONE && k > lastk[r] + 1)
				/* A collapsed row: say how much of its life is left out. */
				fprintf(out, "\te%u -> e%u [style=dashed, color=grey60, fontsize=8, "
					"fontcolor=grey30, label=\"%u events\"];\n", last[r], i,
					k - lastk[r] - 1);
			else if (last[r] != NONE && gone[r] == 1)
				fprintf(out, "\te%u -> e%u [color=red, style=dashed];\n", last[r], i);
			else if (last[r] != NONE && active[r] > 0)
				fprintf(out, "\te%u -> e%u [color=\"#4060ff\", penwidth=5, "
					"tooltip=\"an active reference is held\"];\n", last[r], i);
			else if (last[r] != NONE)
				fprintf(out, "\te%u -> e%u;\n", last[r], i);
			last[r] = i;
			lastk[r] = k;
		}
		if (ev->type == TEV_active_get) {
			active[r]++;
			any_active = true;
		} else if (ev->type == TEV_active_put && active[r] > 0) {
			active[r]--;
		}
		if (ev->type == TEV_free || ev->type == TEV_mod_unload)
			gone[r] = 1;
		else if (ev->type == TEV_close)
			gone[r] = 2;	/* the end of a file's life, not a use after it */
	}
	/* Still alive at the end of the view: the line runs off to the right. */
	for (uint32_t r = 0; r < nrows; r++) {
		if (last[r] == NONE || gone[r])
			continue;
		fprintf(out, "\tz%u [shape=point, width=0.05, pos=\"%u,%d!\"];\n"
			"\te%u -> z%u [arrowhead=normal%s];\n", r, xpos(l->ncol), ypos(r),
			last[r], r, active[r] > 0 ? ", color=\"#4060ff\", penwidth=5, arrowsize=0.5" : "");
	}
	emit_crosses(out, l);
	for (uint32_t i = 0; i < l->v->upto; i++)
		if (l->drawn[i] && tf->ev[i].type == TEV_mark)
			emit_mark(out, l, i);
	if (any_active)
		fprintf(out, "\tkey_active [shape=plaintext, style=\"\", fontsize=9, fontcolor=\"#4060ff\", "
			"pos=\"%u,%d!\", label=\"thick blue: an active reference is held "
			"(an operation in progress)\"];\n", X_LABEL + 60, ypos(l->nrows) + DY / 4);
	free(last);
	free(lastk);
	free(active);
	free(gone);
	free(taskcol);
	free(tookidx);
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
	dx = DX;
	for (uint32_t i = 0; i < tf->nr && dx == DX; i++)
		if (tf->ev[i].in != NONE)
			dx = DX_CALLERS;

	fputs("// generated by trace2dot: lifelines; render with: neato -n2 -Tsvg\n"
	      "// (positions are fixed; dot would ignore them)\n"
	      "digraph lifelines {\n"
	      "\tgraph [fontname=\"Helvetica\", fontsize=12, labelloc=t, outputorder=edgesfirst, "
	      "label=\"", out);
	dot_str(out, view_title(v, tf));
	fputs(": lifelines", out);
	if (v->moment) {
		fputs(" up to ", out);
		dot_str(out, v->moment);
	} else if (v->at) {
		fputs(" up to --at ", out);
		dot_str(out, v->at);
	}
	if (shown < total)
		fprintf(out, "\\ncollapsed: the %u most eventful of %u objects, each with its "
			"first and last events (%u of %u events drawn); "
			"raise --max-objects or --max-events to see more",
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
	free(l.seen);
	free(l.col);
	free(l.drawn);
	refgraph_free(&l.g);
}
