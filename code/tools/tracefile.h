/* tracefile.h - read a ksim trace (version 1) into an array of events. */
#ifndef T2D_TRACEFILE_H
#define T2D_TRACEFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "../kernel/trace.h"	/* TRACE_EVENTS: the one list of event names */
#include "strtab.h"

/* Event kinds, in the order code/kernel/trace.h lists them. */
enum tev_type {
#define TEV_ENUM(name) TEV_##name,
	TRACE_EVENTS(TEV_ENUM)
#undef TEV_ENUM
	TEV_NR
};

#define NONE UINT32_MAX

/* Longest line we accept, newline excluded: ksim writes well under 300 bytes. */
#define TRACE_MAX_LINE 4096

/*
 * One parsed event.  Every name is interned: objects and tasks share one
 * table (names), because a holder (by=) may be either.  A field the line
 * does not carry is NONE.
 */
struct tev {
	uint64_t seq;
	int64_t count;		/* valid if has_count */
	uint32_t task;		/* names: "comm[pid]" */
	uint32_t obj;		/* names: "kind:name" */
	uint32_t by, ref, parent, owner;	/* names */
	uint32_t func;		/* syms */
	uint32_t msg;		/* syms: an oops message, spaces and all */
	uint32_t in;		/* syms: "F<G<H", the functions that made it (in=) */
	int32_t idx;		/* valid if has_idx: the SRCU index of an access (idx=) */
	uint8_t type;		/* enum tev_type */
	bool has_count, has_idx;
};

/*
 * kinds[] id 0 is "task": the kind given to "comm[pid]" names, so filters
 * (--only task,kobject) treat tasks like any other kind.
 */
#define KIND_TASK 0

struct tracefile {
	const char *path;	/* as the user named it, for FILE:LINE: messages */
	struct strtab names;	/* objects and tasks */
	uint32_t *kind;		/* names id -> kinds id */
	uint32_t kind_cap;
	struct strtab kinds;	/* "task", "kobject", "module", ... */
	struct strtab syms;	/* func= symbols, msg= texts */
	struct tev *ev;
	uint32_t nr, cap;
	uint32_t lines;		/* physical lines read */
	uint32_t label_kind;	/* kinds id of "label" (mark objects) */
	uint32_t module_kind;	/* kinds id of "module" */
};

/*
 * tracefile_load - read and check the whole file (path "-" is stdin).
 * Returns 0, or prints "FILE:LINE: what is wrong" (or "trace2dot: FILE:
 * strerror" if it cannot be read) and returns -1.  An unknown event name is
 * a warning, not an error: a newer ksim may write events this reader does
 * not know, and the rest of the trace is still worth drawing.
 */
int tracefile_load(struct tracefile *tf, const char *path);
void tracefile_free(struct tracefile *tf);

/* The name after "kind:" (or the whole name for a task). */
const char *tracefile_short(const struct tracefile *tf, uint32_t id);

extern const char *const tev_name[TEV_NR];

#endif
