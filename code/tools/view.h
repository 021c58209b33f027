/* view.h - what part of a trace to draw, and the two ways to draw it. */
#ifndef T2D_VIEW_H
#define T2D_VIEW_H

#include <stdio.h>

#include "refgraph.h"

/* Past these, a figure no longer renders in seconds nor reads at all. */
#define DEFAULT_MAX_NODES 200
#define DEFAULT_MAX_EVENTS 2000
/* Collapsed lifelines: this many rows still tell a story at a glance. */
#define DEFAULT_MAX_OBJECTS 12

struct view {
	uint32_t upto;		/* replay events [0, upto) */
	const char *at;		/* how the user named that moment, or NULL: the end */
	const char *moment;	/* --before-last/--after-last: "before the last close" */
	const char *title;	/* --title, else the trace's path */
	bool hide_gone;		/* --hide-gone: no freed object nothing refers to */
	bool legend;		/* --legend: say what colours and styles mean */
	bool *only;		/* kinds id -> keep, or NULL: every kind */
	uint32_t *seeds;	/* --object: these names and their neighbours */
	uint32_t nseeds;
	uint32_t max_nodes, max_events, max_objects;
};

/* view_title - what the figure is of: --title, else the trace file's name. */
static inline const char *view_title(const struct view *v, const struct tracefile *tf)
{
	return v->title ? v->title : tf->path;
}

/* view_keeps_kind - --only lets this name's kind through. */
static inline bool view_keeps_kind(const struct view *v, const struct tracefile *tf, uint32_t n)
{
	return !v->only || v->only[tf->kind[n]];
}

/* dot_refgraph - the graph of live references as it stands after v->upto events. */
void dot_refgraph(FILE *out, const struct tracefile *tf, const struct view *v);

/* dot_lifelines - one line per object across time, for neato -n2. */
void dot_lifelines(FILE *out, const struct tracefile *tf, const struct view *v);

/* DOT quoting: names come from the trace, so nothing is written raw. */
void dot_str(FILE *out, const char *s);	/* inside "..." */
void dot_html(FILE *out, const char *s);	/* inside <...> labels */
/* A short tail of a long name, so labels stay narrow: "...device/delete". */
const char *dot_tail(const char *s, size_t max);
void dot_str_tail(FILE *out, const char *s, size_t max);	/* dot_str, "..." if cut */
/* dot_str, broken into lines of about width, cut at max characters. */
void dot_str_wrap(FILE *out, const char *s, size_t width, size_t max);

#endif
