/* dot_ref.c - the reference graph at one moment: who holds whom, and what dangles. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

/*
 * A reader looks at this figure for one thing: the red edge, a reference
 * to memory that is freed or code that is unloaded.  Everything else is
 * drawn quietly around it.  Layout is dot's: pointers an object keeps
 * (ref=, parent=) rank the graph top-down; so do the counted references
 * (get, active, module) in a figure of a few dozen edges, and past that
 * they are constraint=false, so that a few hundred of them cannot send
 * dot's ranking into minutes (measured with Graphviz 2.42: 1000 nodes and
 * 500 such edges, over 300 s ranked, 1.8 s with constraint=false).
 */

static bool is_task(const struct tracefile *tf, uint32_t n)
{
	return tf->kind[n] == KIND_TASK;
}

/* Bits of what a figure drew, so the legend explains only that. */
enum {
	LEG_RED = E_NR, LEG_GONE, LEG_STALE, LEG_TASK, LEG_OOPS,
};
#define LEG(bit) (1u << (bit))

/*
 * gone - nothing will reach this object by itself any more: freed, a
 * closed file, finished work, a sysfs node unlinked from the tree.
 */
static bool gone(const struct refgraph *g, uint32_t n)
{
	const struct node *x = &g->node[n];

	return x->freed || x->closed || x->work == WORK_DONE || x->removed;
}

/*
 * still_matters - a gone object is worth drawing if a live, drawn object
 * refers to it (pointing at freed memory is the bug), or if it still holds
 * a counted reference (a leak).  The pointers a gone object keeps are not
 * followed by anyone, so they alone do not keep their targets in view.
 */
static bool still_matters(const struct refgraph *g, uint32_t n, const uint8_t *keep)
{
	for (uint32_t e = g->node[n].in; e != NONE; e = g->edge[e].next_in) {
		uint32_t from = g->edge[e].from;

		if (from != n && keep[from] &&
		    !(gone(g, from) && g->edge[e].type >= E_PTR))
			return true;
	}
	for (uint32_t e = g->node[n].out; e != NONE; e = g->edge[e].next_out)
		if (g->edge[e].to != n && keep[g->edge[e].to] && g->edge[e].type < E_PTR)
			return true;
	return false;
}

/*
 * hide_gone - --hide-gone: drop what is gone and no longer matters.
 * Modules stay: an unloaded module is part of the story even when nothing
 * points into it any more.
 */
static void hide_gone(const struct refgraph *g, uint8_t *keep)
{
	const struct tracefile *tf = g->tf;

	for (uint32_t n = 0; n < tf->names.nr; n++)
		if (keep[n] && tf->kind[n] != tf->module_kind && gone(g, n) &&
		    !still_matters(g, n, keep))
			keep[n] = 0;
}

/* select_nodes - the names this view draws: kind filter, then --object. */
static uint8_t *select_nodes(const struct refgraph *g, const struct view *v, uint32_t *nkept)
{
	const struct tracefile *tf = g->tf;
	uint32_t nr = tf->names.nr;
	uint8_t *keep = xcalloc(nr, 1);
	uint8_t *near = NULL;

	for (uint32_t n = 0; n < nr; n++)
		keep[n] = g->node[n].first_ev != NONE && tf->kind[n] != tf->label_kind &&
			  view_keeps_kind(v, tf, n);
	if (v->nseeds) {
		/* The objects asked for and whatever they hold or are held by. */
		near = xcalloc(nr, 1);
		for (uint32_t i = 0; i < v->nseeds; i++) {
			uint32_t s = v->seeds[i];

			near[s] = 1;
			for (uint32_t e = g->node[s].out; e != NONE; e = g->edge[e].next_out)
				near[g->edge[e].to] = 1;
			for (uint32_t e = g->node[s].in; e != NONE; e = g->edge[e].next_in)
				near[g->edge[e].from] = 1;
		}
		for (uint32_t n = 0; n < nr; n++)
			keep[n] &= near[n];
		free(near);
	}
	if (v->hide_gone)
		hide_gone(g, keep);
	/* A task is drawn only as a holder: it has no lifetime of its own here. */
	for (uint32_t n = 0; n < nr; n++) {
		if (!keep[n] || !is_task(tf, n))
			continue;
		keep[n] = 0;
		for (uint32_t e = g->node[n].out; e != NONE; e = g->edge[e].next_out)
			if (keep[g->edge[e].to] && !is_task(tf, g->edge[e].to))
				keep[n] = 1;
	}
	*nkept = 0;
	for (uint32_t n = 0; n < nr; n++)
		*nkept += keep[n];
	return keep;
}

static void graph_label(FILE *out, const struct refgraph *g, const struct view *v,
			const char *extra)
{
	const struct tracefile *tf = g->tf;

	fputs("\tlabel=\"", out);
	dot_str(out, view_title(v, tf));
	if (!g->applied)
		fputs(": before the first event", out);
	else if (v->moment) {
		fputs(": ", out);
		dot_str(out, v->moment);
	} else if (v->at && g->applied <= tf->nr) {
		fprintf(out, ": after event %" PRIu64 " (--at ", tf->ev[g->applied - 1].seq);
		dot_str(out, v->at);
		fputs(")", out);
	} else {
		fprintf(out, ": end of trace (event %" PRIu64 ")", tf->ev[g->applied - 1].seq);
	}
	if (extra) {
		fputs("\\n", out);
		dot_str(out, extra);
	}
	fputs("\";\n", out);
}

static void status_row(FILE *out, const char *color, const char *fmt, uint64_t seq)
{
	fprintf(out, "<TR><TD><FONT POINT-SIZE=\"8\" COLOR=\"%s\">", color);
	fprintf(out, fmt, seq);
	fputs("</FONT></TD></TR>", out);
}

/* One object: kind, name, last count, and what has happened to it. */
static unsigned emit_node(FILE *out, const struct refgraph *g, uint32_t n)
{
	const struct tracefile *tf = g->tf;
	const struct node *x = &g->node[n];
	bool module = tf->kind[n] == tf->module_kind;
	bool gone = x->freed || x->closed || x->work == WORK_DONE || (module && x->unloaded);
	bool stale = refgraph_stale(g, n);
	const char *name = tracefile_short(tf, n);
	const char *tail = dot_tail(name, 32);

	fprintf(out, "\tn%u [tooltip=\"", n);
	dot_str(out, strtab_str(&tf->names, n));
	fputs("\", ", out);
	if (is_task(tf, n))
		fputs("shape=oval, style=filled, fillcolor=\"#e8eefc\", ", out);
	else if (module)
		fputs("shape=component, ", out);
	if (gone)
		fputs("style=\"rounded,dashed,filled\", fillcolor=grey92, color=grey45, "
		      "fontcolor=grey40, ", out);
	else if (stale)
		fputs("color=red, penwidth=2, ", out);

	fputs("label=<<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"1\">",
	      out);
	if (!is_task(tf, n)) {
		fputs("<TR><TD><FONT POINT-SIZE=\"8\">", out);
		dot_html(out, strtab_str(&tf->kinds, tf->kind[n]));
		fputs("</FONT></TD></TR>", out);
	}
	fputs("<TR><TD><B>", out);
	if (tail != name)
		fputs("...", out);
	dot_html(out, tail);
	fputs("</B></TD></TR>", out);
	if (x->has_count)
		fprintf(out, "<TR><TD><FONT POINT-SIZE=\"9\">count=%" PRId64 "</FONT></TD></TR>",
			x->count);
	if (x->work != WORK_NONE) {
		static const char *const state[] = { "", "queued", "running", "done" };

		fprintf(out, "<TR><TD><FONT POINT-SIZE=\"8\">%s", state[x->work]);
		if (x->func != NONE) {
			fputs(": ", out);
			dot_html(out, strtab_str(&tf->syms, x->func));
		}
		fputs("</FONT></TD></TR>", out);
	}
	if (x->opener != NONE) {
		fputs("<TR><TD><FONT POINT-SIZE=\"8\" COLOR=\"grey30\">opened by ", out);
		dot_html(out, strtab_str(&tf->names, x->opener));
		fputs("</FONT></TD></TR>", out);
	}
	if (x->active_fails)
		status_row(out, "blue", "active_fail x%" PRIu64, x->active_fails);
	if (x->removed && !x->freed)
		status_row(out, "grey30", "removed at %" PRIu64, x->removed);
	if (x->deactivated)
		status_row(out, "blue", "deactivated at %" PRIu64, x->deactivated);
	if (x->closed)
		status_row(out, "grey30", "closed at %" PRIu64, x->closed);
	if (x->released && !x->freed)
		status_row(out, "grey30", "released at %" PRIu64, x->released);
	if (x->freed)
		status_row(out, "grey30", "freed at %" PRIu64, x->freed);
	if (module && x->unloaded)
		status_row(out, "grey30", "unloaded at %" PRIu64, x->unloaded);
	if (stale) {
		fputs("<TR><TD><FONT POINT-SIZE=\"8\" COLOR=\"red\">its module ", out);
		dot_html(out, tracefile_short(tf, x->owner));
		fputs(" is unloaded</FONT></TD></TR>", out);
	}
	fputs("</TABLE>>];\n", out);
	return (is_task(tf, n) ? LEG(LEG_TASK) : 0) | (gone ? LEG(LEG_GONE) : 0) |
	       (stale ? LEG(LEG_STALE) : 0);
}

/* The kernel call that took a counted reference on an object of this kind. */
static const char *get_name(const struct tracefile *tf, uint32_t to)
{
	const char *kind = strtab_str(&tf->kinds, tf->kind[to]);

	if (!strcmp(kind, "kobject"))
		return "kobject_get";
	if (!strcmp(kind, "dirent"))
		return "sysfs_get";
	return "get";
}

/* edge_label - fixed words only, so it needs no quoting in DOT or HTML labels. */
static void edge_label(FILE *out, const struct refgraph *g, const struct edge *e)
{
	const struct tracefile *tf = g->tf;

	switch (e->type) {
	case E_REF:
		fputs(get_name(tf, e->to), out);
		break;
	case E_ACTIVE:
		fputs("active ref", out);
		break;
	case E_MOD:
		fputs("try_module_get", out);
		break;
	case E_CODE:
		/* The function itself is on the work item's node: keep this short. */
		fputs("calls into", out);
		break;
	default:
		fputs(edge_type_name[e->type], out);
	}
	if (e->count > 1 && e->type < E_PTR)
		fprintf(out, " x%u", e->count);
}

/*
 * emit_edge - one live edge; its holder is where it starts, so the label
 * says what kind of reference it is.  also: a counted reference between the
 * same two objects (a child's kobject_get on its parent), drawn as part of
 * this pointer so the pair reads as one line.  Returns legend bits.
 */
static unsigned emit_edge(FILE *out, const struct refgraph *g, const struct edge *e,
			  const struct edge *also, bool loose)
{
	const struct tracefile *tf = g->tf;
	bool red = refgraph_dangles(g, e) || (also && refgraph_dangles(g, also));
	/* Holder references are not part of the tree: see the comment on top. */
	bool tree = e->type == E_PTR || e->type == E_PARENT;

	fprintf(out, "\tn%u -> n%u [tooltip=\"", e->from, e->to);
	dot_str(out, strtab_str(&tf->names, e->from));
	fputs(" -> ", out);
	dot_str(out, strtab_str(&tf->names, e->to));
	fprintf(out, " %s%s", edge_type_name[e->type], also ? " get" : "");
	if (e->type == E_CODE && e->func != NONE) {
		fputs(" ", out);
		dot_str(out, strtab_str(&tf->syms, e->func));
	}
	/*
	 * xlabel, not label: dot places it after the layout, clear of the
	 * nodes, where a label proper sometimes lands on a box it passes.  A
	 * white ground keeps it readable where it sits on its own line.
	 */
	fputs("\", xlabel=<<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLPADDING=\"1\" "
	      "CELLSPACING=\"0\" BGCOLOR=\"white\"><TR><TD>", out);
	edge_label(out, g, e);
	if (also) {
		fputs(" + ", out);
		edge_label(out, g, also);
	}
	fputs("</TD></TR></TABLE>>", out);
	if (!tree && loose)
		fputs(", constraint=false", out);
	if (e->type == E_ACTIVE)
		fputs(", style=\"bold,dashed\"", out);
	else if (e->type == E_MOD || e->type == E_CODE)
		fputs(", style=dotted", out);
	else if (tree)
		fputs(", arrowhead=vee", out);
	if (red)
		fputs(", color=red, penwidth=2, fontcolor=red", out);
	else if (e->type == E_ACTIVE)
		fputs(", color=blue, fontcolor=blue", out);
	else if (e->type == E_MOD)
		fputs(", color=darkgreen, fontcolor=darkgreen", out);
	else if (tree && !also)
		fputs(", color=grey40", out);
	fputs("];\n", out);
	return LEG(e->type) | (also ? LEG(also->type) : 0) | (red ? LEG(LEG_RED) : 0);
}

/* What each drawn colour and style means, in a student's words. */
static const struct {
	unsigned bit;
	const char *color, *what, *means;
} legend_rows[] = {
	{ LEG(E_REF), "black", "black arrow",
	  "a counted reference (kobject_get, sysfs_get), held by the object it starts from" },
	{ LEG(E_ACTIVE), "blue", "blue dashed arrow",
	  "an active reference: a sysfs operation in progress" },
	{ LEG(E_MOD), "darkgreen", "green dotted arrow",
	  "a module reference (try_module_get): the module cannot be unloaded" },
	{ LEG(E_PTR) | LEG(E_PARENT), "grey40", "grey arrow",
	  "a pointer the object keeps (ref, parent); not counted" },
	{ LEG(E_CODE), "black", "dotted arrow",
	  "queued work will call this function, which is code in that module" },
	{ LEG(LEG_RED), "red", "red arrow",
	  "dangling: it points at freed memory or unloaded code" },
	{ LEG(LEG_STALE), "red", "red box",
	  "still alive, but the module with its code is unloaded" },
	{ LEG(LEG_GONE), "grey40", "grey dashed box",
	  "freed object, closed file, finished work or unloaded module" },
	{ LEG(LEG_TASK), "black", "blue oval",
	  "a task holding a reference itself" },
	{ LEG(LEG_OOPS), "red", "red note",
	  "where the kernel crashed" },
};

static void emit_legend(FILE *out, unsigned seen)
{
	if (!seen)
		return;
	fputs("\tlegend [shape=plaintext, margin=0, label=<<TABLE BORDER=\"1\" COLOR=\"grey70\" "
	      "CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"2\">"
	      "<TR><TD COLSPAN=\"2\" ALIGN=\"LEFT\"><B>Key</B></TD></TR>", out);
	for (size_t i = 0; i < sizeof(legend_rows) / sizeof(legend_rows[0]); i++) {
		if (!(seen & legend_rows[i].bit))
			continue;
		fprintf(out, "<TR><TD ALIGN=\"LEFT\"><FONT POINT-SIZE=\"9\" COLOR=\"%s\">"
			"<B>%s</B></FONT></TD><TD ALIGN=\"LEFT\"><FONT POINT-SIZE=\"9\">%s"
			"</FONT></TD></TR>", legend_rows[i].color, legend_rows[i].what,
			legend_rows[i].means);
	}
	fputs("</TABLE>>];\n", out);
}

/* The crash itself: a note that cannot be missed, pointing at its object. */
static unsigned emit_oopses(FILE *out, const struct refgraph *g, const uint8_t *keep,
			    bool collapsed)
{
	const struct tracefile *tf = g->tf;
	uint32_t shown = g->noops < 5 ? g->noops : 5;

	for (uint32_t i = 0; i < shown; i++) {
		const struct tev *ev = &tf->ev[g->oops[i]];

		fprintf(out, "\toops%u [shape=note, style=filled, fillcolor=\"#ffe0e0\", "
			"color=red, fontcolor=red, penwidth=2, label=\"Oops at %" PRIu64 " in ",
			i, ev->seq);
		dot_str(out, strtab_str(&tf->names, ev->task));
		if (ev->msg != NONE) {
			fputs("\\n", out);
			dot_str_wrap(out, strtab_str(&tf->syms, ev->msg), 36, 240);
		}
		fputs("\"];\n", out);
		if (!keep[ev->obj])
			continue;
		if (collapsed)
			fprintf(out, "\toops%u -> k%u [color=red, style=dashed, constraint=false];\n",
				i, tf->kind[ev->obj]);
		else
			fprintf(out, "\toops%u -> n%u [color=red, style=dashed];\n", i, ev->obj);
	}
	if (g->noops > shown)
		fprintf(out, "\toops_more [shape=plaintext, fontcolor=red, "
			"label=\"and %u more oopses\"];\n", g->noops - shown);
	return g->noops ? LEG(LEG_OOPS) : 0;
}

/* cluster_of - the module a name belongs with: its owner, or itself. */
static uint32_t cluster_of(const struct refgraph *g, uint32_t n)
{
	if (g->node[n].owner != NONE)
		return g->node[n].owner;
	return g->tf->kind[n] == g->tf->module_kind ? n : NONE;
}

static unsigned emit_cluster(FILE *out, const struct refgraph *g, uint32_t m,
			     const uint32_t *next, uint32_t first)
{
	const struct tracefile *tf = g->tf;
	const char *name = tracefile_short(tf, m);
	unsigned seen = 0;

	fputs("\tsubgraph cluster_", out);
	for (const char *p = name; *p; p++)
		putc(((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')) ? *p : '_', out);
	fputs(" {\n\t\tlabel=\"module ", out);
	dot_str(out, name);
	if (g->node[m].unloaded)
		/* Grey, not red: unloading is no bug; what still points into it is. */
		fprintf(out, " (unloaded at %" PRIu64 ")\"; color=grey50; fontcolor=grey30; "
			"style=\"rounded,dashed\"; bgcolor=grey97;\n", g->node[m].unloaded);
	else
		fputs("\"; color=grey60; style=rounded;\n", out);
	for (uint32_t n = first; n != NONE; n = next[n]) {
		fputs("\t", out);
		seen |= emit_node(out, g, n);
	}
	fputs("\t}\n", out);
	return seen;
}

/*
 * Up to this many edges, every edge takes part in dot's ranking, so a
 * holder sits above what it holds.  Past it, the non-tree edges float
 * (constraint=false), which keeps dot fast.
 */
#define LOOSE_EDGES 80

static void emit_full(FILE *out, const struct refgraph *g, const struct view *v,
		      const uint8_t *keep)
{
	uint32_t nr = g->tf->names.nr;
	uint32_t *head = xmalloc(nr * sizeof(*head));
	uint32_t *next = xmalloc(nr * sizeof(*next));
	unsigned seen = 0;
	uint32_t nedges = 0;

	/* Bucket the nodes by module in one pass, keeping trace order within each. */
	memset(head, 0xff, nr * sizeof(*head));
	for (uint32_t n = nr; n-- > 0;) {
		uint32_t c;

		if (!keep[n] || (c = cluster_of(g, n)) == NONE)
			continue;
		next[n] = head[c];
		head[c] = n;
	}
	for (uint32_t m = 0; m < nr; m++)
		if (head[m] != NONE)
			seen |= emit_cluster(out, g, m, next, head[m]);
	for (uint32_t n = 0; n < nr; n++)
		if (keep[n] && cluster_of(g, n) == NONE)
			seen |= emit_node(out, g, n);
	for (uint32_t i = 0; i < g->nedge; i++)
		nedges += g->edge[i].count && keep[g->edge[i].from] && keep[g->edge[i].to];
	for (uint32_t i = 0; i < g->nedge; i++) {
		const struct edge *e = &g->edge[i], *also = NULL;

		if (!e->count || !keep[e->from] || !keep[e->to])
			continue;
		/* A get between two objects that also point at each other rides along. */
		if (e->type == E_REF && (refgraph_edge(g, e->from, e->to, E_PARENT) ||
					 refgraph_edge(g, e->from, e->to, E_PTR)))
			continue;
		if (e->type == E_PARENT ||
		    (e->type == E_PTR && !refgraph_edge(g, e->from, e->to, E_PARENT)))
			also = refgraph_edge(g, e->from, e->to, E_REF);
		seen |= emit_edge(out, g, e, also, nedges > LOOSE_EDGES);
	}
	seen |= emit_oopses(out, g, keep, false);
	if (v->legend)
		emit_legend(out, seen);
	free(head);
	free(next);
}

/* --- too many objects: one node per kind ------------------------------ */

struct kedge {
	uint32_t from, to;	/* kinds */
	uint8_t type;
	bool red;
};

static int kedge_cmp(const void *a, const void *b)
{
	const struct kedge *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return (int)x->type - (int)y->type;
}

struct kstat {
	uint32_t total, gone, stale;
};

/*
 * emit_collapsed - a summary that still renders in a second: what kinds of
 * object there are, how many are gone, and whether any reference between
 * two kinds dangles.  Sorting the edges by kind pair keeps it O(E log E)
 * whatever the number of kinds.
 */
static void emit_collapsed(FILE *out, const struct refgraph *g, const uint8_t *keep)
{
	const struct tracefile *tf = g->tf;
	uint32_t nk = tf->kinds.nr;
	struct kstat *ks = xcalloc(nk, sizeof(*ks));
	struct kedge *ke = NULL;
	uint32_t nke = 0;

	for (uint32_t n = 0; n < tf->names.nr; n++) {
		if (!keep[n])
			continue;
		struct kstat *k = &ks[tf->kind[n]];
		const struct node *x = &g->node[n];

		k->total++;
		k->gone += x->freed || (tf->kind[n] == tf->module_kind && x->unloaded);
		k->stale += refgraph_stale(g, n);
	}
	for (uint32_t k = 0; k < nk; k++) {
		if (!ks[k].total)
			continue;
		fprintf(out, "\tk%u [shape=box3d, style=solid, %stooltip=\"", k,
			ks[k].stale ? "color=red, penwidth=2, " : "");
		dot_str(out, strtab_str(&tf->kinds, k));
		fputs("\", label=<<B>", out);
		dot_html(out, strtab_str(&tf->kinds, k));
		fprintf(out, "</B><BR/>%u in view", ks[k].total);
		if (ks[k].gone)
			fprintf(out, "<BR/>%u freed or unloaded", ks[k].gone);
		if (ks[k].stale)
			fprintf(out, "<BR/><FONT COLOR=\"red\">%u alive in an unloaded module</FONT>",
				ks[k].stale);
		fputs(">];\n", out);
	}

	ke = xmalloc((g->nedge ? g->nedge : 1) * sizeof(*ke));
	for (uint32_t i = 0; i < g->nedge; i++) {
		const struct edge *e = &g->edge[i];

		if (!e->count || !keep[e->from] || !keep[e->to])
			continue;
		ke[nke++] = (struct kedge){ tf->kind[e->from], tf->kind[e->to], e->type,
					    refgraph_dangles(g, e) };
	}
	qsort(ke, nke, sizeof(*ke), kedge_cmp);
	for (uint32_t i = 0, j; i < nke; i = j) {
		uint32_t red = 0;

		for (j = i; j < nke && !kedge_cmp(&ke[i], &ke[j]); j++)
			red += ke[j].red;
		fprintf(out, "\tk%u -> k%u [label=\"%s x%u", ke[i].from, ke[i].to,
			edge_type_name[ke[i].type], j - i);
		if (red)
			fprintf(out, "\\n%u dangling\", color=red, penwidth=2, fontcolor=red", red);
		else
			fputs("\"", out);
		if (ke[i].type != E_PTR && ke[i].type != E_PARENT)
			fputs(", constraint=false", out);
		fputs("];\n", out);
	}
	emit_oopses(out, g, keep, true);
	free(ke);
	free(ks);
}

void dot_refgraph(FILE *out, const struct tracefile *tf, const struct view *v)
{
	struct refgraph g;
	uint32_t kept;
	char note[256];

	refgraph_init(&g, tf);
	refgraph_replay(&g, v->upto);
	uint8_t *keep = select_nodes(&g, v, &kept);
	bool collapse = kept > v->max_nodes;

	fputs("// generated by trace2dot: the reference graph; render with: dot -Tsvg\n"
	      "digraph ksim {\n"
	      "\tgraph [newrank=true, rankdir=TB, fontname=\"Helvetica\", fontsize=12, "
	      "labelloc=t, nodesep=0.5, ranksep=0.6, splines=polyline];\n"
	      "\tnode [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10];\n"
	      "\tedge [fontname=\"Helvetica\", fontsize=8];\n", out);
	if (collapse)
		snprintf(note, sizeof(note),
			 "collapsed: %u objects in view, more than %u: one node per kind "
			 "(narrow with --only or --object, or raise --max-nodes)",
			 kept, v->max_nodes);
	graph_label(out, &g, v, collapse ? note : NULL);
	if (collapse)
		emit_collapsed(out, &g, keep);
	else
		emit_full(out, &g, v, keep);
	fputs("}\n", out);
	free(keep);
	refgraph_free(&g);
}
