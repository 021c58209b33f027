/* refgraph.h - replay a trace into the graph of who holds whom, event by event. */
#ifndef T2D_REFGRAPH_H
#define T2D_REFGRAPH_H

#include "tracefile.h"

/*
 * What an edge from -> to stands for.  The first three are counted
 * references a holder took and must drop; the last three are pointers an
 * object keeps in its own memory, so they die with it.
 */
enum edge_type {
	E_REF,		/* get/put: kobject_get(), dirent s_count */
	E_ACTIVE,	/* active_get/active_put: sysfs s_active (stage 3) */
	E_MOD,		/* mod_get/mod_put: try_module_get() */
	E_PTR,		/* create/open ref=: a file points at its dirent... */
	E_PARENT,	/* create parent= */
	E_CODE,		/* work_queue func=: queued code lives in owner= module */
	E_NR
};

extern const char *const edge_type_name[E_NR];

/*
 * Edges are kept in a hash table by (from, to, type) and never deleted:
 * a get/put pair on the same holder reuses its record.  Live edges (count
 * > 0) are also on doubly linked lists at both ends, so a free can visit
 * exactly the references that still point at the object.
 */
struct edge {
	uint32_t from, to;
	uint32_t count;		/* live references this edge stands for */
	uint32_t add_ev;	/* event index that last added one */
	uint32_t func;		/* E_CODE: the symbol, in tracefile syms */
	uint32_t prev_in, next_in, prev_out, next_out;
	uint8_t type;
};

enum work_state { WORK_NONE, WORK_QUEUED, WORK_RUNNING, WORK_DONE };

/* State of one name (object or task) after the events replayed so far. */
struct node {
	uint64_t created, released, freed, deactivated, closed;	/* seq, 0: not yet */
	uint64_t removed;	/* sysfs nodes: unlinked from the tree */
	uint64_t loaded, unloaded;	/* modules */
	int64_t count;
	uint32_t owner;		/* module node, or NONE */
	uint32_t func;		/* work items: the queued function */
	uint32_t opener;	/* files: the task that opened it, or NONE */
	uint32_t active_fails;
	uint32_t nev;		/* events with this as OBJECT */
	uint32_t first_ev;	/* event index of first mention, NONE if none */
	uint32_t in, out;	/* live edge lists */
	uint32_t held[E_PTR];	/* live counted references in, by type */
	uint8_t work;		/* enum work_state */
	bool has_count;
};

struct refgraph;

/*
 * A reference outlived its target: edge e was live when event ev freed its
 * target or unloaded its module.  The lifeline view draws these.
 */
typedef void (*dangle_fn)(struct refgraph *g, const struct edge *e, uint32_t ev, void *arg);

struct refgraph {
	const struct tracefile *tf;
	struct node *node;	/* indexed by names id */
	struct edge *edge;
	uint32_t nedge, cap;
	uint32_t *slot, nslot;	/* edge hash: edge index + 1, 0 empty */
	uint32_t *oops;		/* event indices of oopses replayed */
	uint32_t noops;
	uint32_t applied;	/* events replayed: the graph is "after ev[applied-1]" */
	dangle_fn on_dangle;
	void *arg;
};

void refgraph_init(struct refgraph *g, const struct tracefile *tf);
void refgraph_free(struct refgraph *g);

/* refgraph_replay - apply events [g->applied, upto): linear in their number. */
void refgraph_replay(struct refgraph *g, uint32_t upto);

/* refgraph_edge - the live edge (from, to, type), or NULL. */
const struct edge *refgraph_edge(const struct refgraph *g, uint32_t from, uint32_t to,
				 uint8_t type);

/* A module is gone between its mod_unload and a later mod_load. */
static inline bool module_gone(const struct refgraph *g, uint32_t m)
{
	return m != NONE && g->node[m].unloaded;
}

/* refgraph_stale - alive, but the module holding its code or memory is gone. */
bool refgraph_stale(const struct refgraph *g, uint32_t n);

/*
 * refgraph_dangles - this live edge is the bug the figure is about: it
 * points at freed memory or unloaded code, or starts from an object whose
 * module has been unloaded under it.
 */
bool refgraph_dangles(const struct refgraph *g, const struct edge *e);

#endif
