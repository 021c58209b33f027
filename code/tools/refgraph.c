/* refgraph.c - the replay: each event changes a few nodes and edges, in O(1). */
#include <stdlib.h>
#include <string.h>

#include "refgraph.h"

const char *const edge_type_name[E_NR] = {
	[E_REF] = "get", [E_ACTIVE] = "active", [E_MOD] = "module",
	[E_PTR] = "ref", [E_PARENT] = "parent", [E_CODE] = "func",
};

void refgraph_init(struct refgraph *g, const struct tracefile *tf)
{
	memset(g, 0, sizeof(*g));
	g->tf = tf;
	g->node = xcalloc(tf->names.nr, sizeof(*g->node));
	for (uint32_t i = 0; i < tf->names.nr; i++) {
		g->node[i].owner = g->node[i].func = g->node[i].opener = NONE;
		g->node[i].first_ev = NONE;
		g->node[i].in = g->node[i].out = NONE;
	}
	g->nslot = 1024;
	g->slot = xcalloc(g->nslot, sizeof(*g->slot));
}

void refgraph_free(struct refgraph *g)
{
	free(g->node);
	free(g->edge);
	free(g->slot);
	free(g->oops);
}

static uint32_t edge_hash(uint32_t from, uint32_t to, uint8_t type)
{
	uint64_t k = ((uint64_t)from << 32 | to) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(k >> 32) ^ (uint32_t)k ^ type * 0x85ebca6bu;
}

static uint32_t *edge_slot(struct refgraph *g, uint32_t from, uint32_t to, uint8_t type)
{
	uint32_t mask = g->nslot - 1;

	for (uint32_t i = edge_hash(from, to, type) & mask;; i = (i + 1) & mask) {
		uint32_t s = g->slot[i];

		if (!s)
			return &g->slot[i];
		const struct edge *e = &g->edge[s - 1];

		if (e->from == from && e->to == to && e->type == type)
			return &g->slot[i];
	}
}

/* edge_lookup - the record for (from, to, type), created with count 0. */
static struct edge *edge_lookup(struct refgraph *g, uint32_t from, uint32_t to, uint8_t type)
{
	uint32_t *slot = edge_slot(g, from, to, type);

	if (*slot)
		return &g->edge[*slot - 1];
	if (g->nedge == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 1024;
		g->edge = xrealloc(g->edge, g->cap * sizeof(*g->edge));
	}
	struct edge *e = &g->edge[g->nedge];

	memset(e, 0, sizeof(*e));
	e->from = from;
	e->to = to;
	e->type = type;
	e->func = NONE;
	*slot = ++g->nedge;
	if (g->nedge * 2 > g->nslot) {
		uint32_t old = g->nslot, *os = g->slot;

		g->nslot *= 2;
		g->slot = xcalloc(g->nslot, sizeof(*g->slot));
		for (uint32_t i = 0; i < old; i++)
			if (os[i]) {
				struct edge *x = &g->edge[os[i] - 1];

				*edge_slot(g, x->from, x->to, x->type) = os[i];
			}
		free(os);
	}
	return e;
}

static uint32_t idx(const struct refgraph *g, const struct edge *e)
{
	return (uint32_t)(e - g->edge);
}

static void link_edge(struct refgraph *g, struct edge *e)
{
	struct node *f = &g->node[e->from], *t = &g->node[e->to];
	uint32_t i = idx(g, e);

	e->prev_out = NONE;
	e->next_out = f->out;
	if (f->out != NONE)
		g->edge[f->out].prev_out = i;
	f->out = i;
	e->prev_in = NONE;
	e->next_in = t->in;
	if (t->in != NONE)
		g->edge[t->in].prev_in = i;
	t->in = i;
}

static void unlink_edge(struct refgraph *g, struct edge *e)
{
	if (e->prev_out != NONE)
		g->edge[e->prev_out].next_out = e->next_out;
	else
		g->node[e->from].out = e->next_out;
	if (e->next_out != NONE)
		g->edge[e->next_out].prev_out = e->prev_out;
	if (e->prev_in != NONE)
		g->edge[e->prev_in].next_in = e->next_in;
	else
		g->node[e->to].in = e->next_in;
	if (e->next_in != NONE)
		g->edge[e->next_in].prev_in = e->prev_in;
}

static void mention(struct refgraph *g, uint32_t n, uint32_t ev)
{
	if (n != NONE && g->node[n].first_ev == NONE)
		g->node[n].first_ev = ev;
}

/* A counted reference: one more per get, so two opens draw "x2". */
static struct edge *ref_add(struct refgraph *g, uint32_t from, uint32_t to, uint8_t type,
			    uint32_t ev)
{
	struct edge *e = edge_lookup(g, from, to, type);

	mention(g, from, ev);
	g->node[to].held[type]++;
	if (!e->count++)
		link_edge(g, e);
	e->add_ev = ev;
	return e;
}

/* A pointer: an object holds at most one of each, however often it is logged. */
static struct edge *ptr_set(struct refgraph *g, uint32_t from, uint32_t to, uint8_t type,
			    uint32_t ev)
{
	struct edge *e = edge_lookup(g, from, to, type);

	if (!e->count) {
		e->count = 1;
		link_edge(g, e);
	}
	e->add_ev = ev;
	return e;
}

static void edge_drop(struct refgraph *g, struct edge *e)
{
	if (!e->count)
		return;
	if (e->type < E_PTR)
		g->node[e->to].held[e->type]--;
	if (!--e->count)
		unlink_edge(g, e);
}

/*
 * ref_drop - a put by holder.  If that holder has no such reference, the
 * put is on behalf of someone else (a release path puts what another task
 * got) or it drops the reference the object was born with, which no get
 * ever drew.  The count after the event tells which: only if more edges
 * are drawn than the count allows does one of them go, whoever holds it.
 */
static void ref_drop(struct refgraph *g, const struct tev *ev, uint32_t from, uint32_t to,
		     uint8_t type)
{
	uint32_t s = *edge_slot(g, from, to, type);

	if (s && g->edge[s - 1].count) {
		edge_drop(g, &g->edge[s - 1]);
		/*
		 * A holder that drops its last reference on what it points at
		 * is done with it (kobject_del() clears the parent pointer as
		 * it puts the parent; a callback puts its kobject when it has
		 * used it): the pointer goes with the reference that made it
		 * safe to follow.
		 */
		for (uint8_t t = E_PTR; t <= E_PARENT && type == E_REF; t++) {
			uint32_t p = g->edge[s - 1].count ? 0 : *edge_slot(g, from, to, t);

			if (p && g->edge[p - 1].count) {
				g->edge[p - 1].count = 0;
				unlink_edge(g, &g->edge[p - 1]);
			}
		}
		return;
	}
	if (ev->has_count && ev->count >= 0 && g->node[to].held[type] <= (uint64_t)ev->count)
		return;
	/*
	 * A put charged to a task most likely matches a get charged to a task
	 * (code that did not say whom it took the reference for): drop one of
	 * those first, and only then whatever else holds the object.
	 */
	bool by_task = g->tf->kind[from] == KIND_TASK;
	uint32_t pick = NONE, looked = 0;

	/* A bounded look: a much-held object must not make each put O(holders). */
	for (uint32_t i = g->node[to].in; i != NONE && looked < 64; i = g->edge[i].next_in) {
		if (g->edge[i].type != type)
			continue;
		looked++;
		if (pick == NONE)
			pick = i;
		if (!by_task || g->tf->kind[g->edge[i].from] == KIND_TASK) {
			pick = i;
			break;
		}
	}
	if (pick != NONE)
		edge_drop(g, &g->edge[pick]);
}

/*
 * drop_pointers - n will not follow its pointers again: its memory is
 * freed, or it is a closed file, or a deactivated sysfs node (stage 3:
 * no active reference is granted any more, so nothing can reach the
 * kobject through it).  A pointer nobody follows is not a reference.
 */
static void drop_pointers(struct refgraph *g, uint32_t n, bool all)
{
	uint32_t i = g->node[n].out;

	while (i != NONE) {
		struct edge *e = &g->edge[i];

		i = e->next_out;
		if (e->type == E_PTR || (all && (e->type == E_PARENT || e->type == E_CODE))) {
			e->count = 0;
			unlink_edge(g, e);
		}
	}
}

/* Tell the lifeline view about every reference that survives its target. */
static void report_dangling(struct refgraph *g, uint32_t n, uint32_t ev)
{
	if (!g->on_dangle)
		return;
	for (uint32_t i = g->node[n].in; i != NONE; i = g->edge[i].next_in)
		if (refgraph_dangles(g, &g->edge[i]))
			g->on_dangle(g, &g->edge[i], ev, g->arg);
}

/* A work item is queued: it now points at the code it will run. */
static void work_queued(struct refgraph *g, uint32_t i)
{
	const struct tev *ev = &g->tf->ev[i];
	struct node *n = &g->node[ev->obj];

	n->work = WORK_QUEUED;
	/*
	 * The function that matters is the one in the owner module:
	 * sysfs_schedule_callback_work() is the kernel's, the callback it
	 * calls (named at create) is the driver's.
	 */
	if (ev->func != NONE && (ev->owner != NONE || n->func == NONE))
		n->func = ev->func;
	/* The queued function is code in the owner module: point at it. */
	if (n->owner != NONE)
		ptr_set(g, ev->obj, n->owner, E_CODE, i)->func = n->func;
}

/* A work item has run: it no longer needs its code. */
static void work_done(struct refgraph *g, uint32_t i)
{
	const struct tev *ev = &g->tf->ev[i];
	struct node *n = &g->node[ev->obj];

	n->work = WORK_DONE;
	if (n->owner != NONE) {
		uint32_t s = *edge_slot(g, ev->obj, n->owner, E_CODE);

		if (s)
			edge_drop(g, &g->edge[s - 1]);
	}
}

static void record_oops(struct refgraph *g, uint32_t i)
{
	if (!(g->noops & (g->noops - 1)))	/* 0, 1, 2, 4...: double */
		g->oops = xrealloc(g->oops, (g->noops ? 2 * g->noops : 1) * sizeof(*g->oops));
	g->oops[g->noops++] = i;
}

/* note_event - what every event does to the nodes it names, whatever its type. */
static void note_event(struct refgraph *g, uint32_t i)
{
	const struct tev *ev = &g->tf->ev[i];
	struct node *n = &g->node[ev->obj];

	/*
	 * An oops names the module whose code faulted, or just "kernel:ksim":
	 * that alone does not make an object worth a node.
	 */
	if (ev->type != TEV_oops)
		mention(g, ev->obj, i);
	mention(g, ev->by, i);
	mention(g, ev->ref, i);
	mention(g, ev->parent, i);
	mention(g, ev->owner, i);
	n->nev++;
	if (ev->has_count) {
		n->count = ev->count;
		n->has_count = true;
	}
	if (ev->owner != NONE)
		n->owner = ev->owner;
}

static void apply(struct refgraph *g, uint32_t i)
{
	const struct tev *ev = &g->tf->ev[i];
	struct node *n = &g->node[ev->obj];
	/* No by=: the task doing it is the holder, as far as we can tell. */
	uint32_t by = ev->by != NONE ? ev->by : ev->task;

	note_event(g, i);
	switch (ev->type) {
	case TEV_create:
		/* A name reused after free is a new object (ksim adds #N, others may not). */
		n->created = ev->seq;
		n->freed = n->released = n->deactivated = n->closed = n->removed = 0;
		if (ev->func != NONE)	/* a work item: the function it is for */
			n->func = ev->func;
		/* fallthrough */
	case TEV_open:
		if (ev->type == TEV_open)
			n->opener = ev->task;
		if (ev->ref != NONE)
			ptr_set(g, ev->obj, ev->ref, E_PTR, i);
		if (ev->parent != NONE)
			ptr_set(g, ev->obj, ev->parent, E_PARENT, i);
		break;
	case TEV_get:
		ref_add(g, by, ev->obj, E_REF, i);
		break;
	case TEV_put:
		ref_drop(g, ev, by, ev->obj, E_REF);
		break;
	case TEV_active_get:
		ref_add(g, by, ev->obj, E_ACTIVE, i);
		break;
	case TEV_active_put:
		ref_drop(g, ev, by, ev->obj, E_ACTIVE);
		break;
	case TEV_mod_get:
		ref_add(g, by, ev->obj, E_MOD, i);
		break;
	case TEV_mod_put:
		ref_drop(g, ev, by, ev->obj, E_MOD);
		break;
	case TEV_release:
		n->released = ev->seq;
		break;
	case TEV_free:
		n->freed = ev->seq;
		report_dangling(g, ev->obj, i);
		drop_pointers(g, ev->obj, true);
		break;
	case TEV_remove:
		n->removed = ev->seq;
		break;
	case TEV_active_fail:
		n->active_fails++;
		break;
	case TEV_deactivate:
		n->deactivated = ev->seq;
		drop_pointers(g, ev->obj, false);
		break;
	case TEV_close:
		n->closed = ev->seq;
		drop_pointers(g, ev->obj, false);
		break;
	case TEV_mod_load:
		n->loaded = ev->seq;
		n->unloaded = 0;
		break;
	case TEV_mod_unload:
		n->unloaded = ev->seq;
		report_dangling(g, ev->obj, i);
		break;
	case TEV_work_queue:
		work_queued(g, i);
		break;
	case TEV_work_run:
		n->work = WORK_RUNNING;
		break;
	case TEV_work_done:
		work_done(g, i);
		break;
	case TEV_oops:
		record_oops(g, i);
		break;
	default:
		break;
	}
}

void refgraph_replay(struct refgraph *g, uint32_t upto)
{
	if (upto > g->tf->nr)
		upto = g->tf->nr;
	for (; g->applied < upto; g->applied++)
		apply(g, g->applied);
}

const struct edge *refgraph_edge(const struct refgraph *g, uint32_t from, uint32_t to,
				 uint8_t type)
{
	/* edge_slot() only probes: it changes nothing but its return value. */
	uint32_t s = *edge_slot((struct refgraph *)g, from, to, type);

	return s && g->edge[s - 1].count ? &g->edge[s - 1] : NULL;
}

bool refgraph_stale(const struct refgraph *g, uint32_t n)
{
	const struct node *x = &g->node[n];

	if (x->freed || g->tf->kind[n] == KIND_TASK)
		return false;
	/* A finished work item no longer needs its function. */
	if (x->work == WORK_DONE)
		return false;
	return module_gone(g, x->owner);
}

bool refgraph_dangles(const struct refgraph *g, const struct edge *e)
{
	const struct node *t = &g->node[e->to];

	if (!e->count)
		return false;
	/*
	 * A released object is being torn down by its release method, which
	 * frees what it points at before freeing itself: that order is right.
	 * Not so for a module's memory: release() reading it is the crash.
	 */
	if ((e->type == E_PTR || e->type == E_PARENT) && g->node[e->from].released &&
	    g->tf->kind[e->to] != g->tf->module_kind)
		return false;
	if (t->freed || (g->tf->kind[e->to] == g->tf->module_kind && module_gone(g, e->to)))
		return true;
	return refgraph_stale(g, e->to) || refgraph_stale(g, e->from);
}
