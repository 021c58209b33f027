/* lockdep.c - lock classes, held-lock stacks, one dependency graph, and the kernel's three reports. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/valgrind.h>
#include "lockdep.h"
#include "ksym.h"
#include "oops.h"
#include "task.h"
#include "watchdog.h"

#define MAX_LOCKDEP_KEYS	1024	/* classes */
#define MAX_LOCKDEP_ENTRIES	16384	/* dependencies */
#define MAX_LOCK_DEPTH		48	/* locks one task holds at once */
#define LOCK_TRACE_DEPTH	16	/* frames kept per dependency */
#define MAX_REPORTED		512	/* pairs of classes already reported */

/* Usage bits: how a class has been taken.  Printed as "{+.+.}" (see usage_str()). */
#define USED_WRITE	0x1
#define USED_READ	0x2

/*
 * struct lock_list - one dependency, "class A before class B", kept on A's
 * list: B, and the call trace of the acquisition of B, with A held, that
 * first showed the order.  That trace is what a report prints for it.
 */
struct lock_list {
	struct lock_class *class;
	struct lock_list *next;
	unsigned int nr_entries;
	uintptr_t entries[LOCK_TRACE_DEPTH];
};

/* struct lock_class - every lock initialised at one place (one key), at one nesting level. */
struct lock_class {
	const struct lock_class_key *key;
	unsigned int subclass;
	char name[64];			/* copied: a module's string goes with the module */
	int name_version;		/* "#2" when another key already has the name */
	unsigned int usage;
	struct lock_list *locks_after;
	/* Breadth-first search, under graph_lock. */
	unsigned long bfs_gen;
	struct lock_class *bfs_parent;
	struct lock_list *bfs_edge;	/* the dependency that reached this class */
};

/* struct held_lock - one entry of a task's stack: which lock, of which class, taken where, how. */
struct held_lock {
	struct lock_class *class;
	struct lockdep_map *instance;
	uintptr_t acquire_ip;
	unsigned char read;	/* 0 write, 1 read, 2 recursive read */
	bool trylock;
};

/*
 * A task runs on one thread from start to end, so its held locks live in
 * thread-local storage: only the task itself ever reads or changes them.
 * (The kernel keeps them in the task_struct: current->held_locks.)
 */
static _Thread_local struct held_lock held_locks[MAX_LOCK_DEPTH];
static _Thread_local int curr_depth;

/*
 * lockdep_task_start - a thread may run one task after another (task.c):
 * each starts holding nothing, as a thread of its own would.
 */
void lockdep_task_start(void)
{
	curr_depth = 0;
}

/* The graph: classes and dependencies, never freed, under graph_lock. */
static pthread_mutex_t graph_lock = PTHREAD_MUTEX_INITIALIZER;
/*
 * How often graph_lock was taken: the one lock every task shares, so the
 * fast paths' promise (lockdep off, a get+put takes it never) is counted
 * by a test instead of timed.  Written under graph_lock only.
 */
static unsigned long graph_lock_count;
static struct lock_class lock_classes[MAX_LOCKDEP_KEYS];
static int nr_lock_classes;
static struct lock_list list_entries[MAX_LOCKDEP_ENTRIES];
static int nr_list_entries;
static unsigned long bfs_generation;
static struct { const struct lock_class *a, *b; } reported[MAX_REPORTED];
static int nr_reported;

atomic_bool debug_locks = true;
static atomic_int nr_reports;

/*
 * lockdep must not order tasks: its graph lock, taken by every task,
 * would make ThreadSanitizer see a happens-before between any two of
 * them and miss the races it is run to find.  TSan can be told to ignore
 * a thread's synchronisation and accesses for a while, and is told so for
 * everything done under graph_lock.  Valgrind's tools cannot: lockdep is
 * off under them.
 */
#if defined(__SANITIZE_THREAD__)
void AnnotateIgnoreSyncBegin(const char *file, int line);
void AnnotateIgnoreSyncEnd(const char *file, int line);
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
void AnnotateIgnoreWritesBegin(const char *file, int line);
void AnnotateIgnoreWritesEnd(const char *file, int line);

static void graph_lock_take(void)
{
	AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
	AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
	AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
	pthread_mutex_lock(&graph_lock);
	graph_lock_count++;
}

static void graph_lock_give(void)
{
	pthread_mutex_unlock(&graph_lock);
	AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
	AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
	AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
}
#else
static void graph_lock_take(void)
{
	pthread_mutex_lock(&graph_lock);
	graph_lock_count++;
}

static void graph_lock_give(void)
{
	pthread_mutex_unlock(&graph_lock);
}
#endif

/*
 * Off under Valgrind (see above), and when KSIM_LOCKDEP=0; ksim's
 * --lockdep/--no-lockdep decide after this.
 */
static __attribute__((constructor)) void lockdep_init(void)
{
	const char *env = getenv("KSIM_LOCKDEP");
	bool on = !RUNNING_ON_VALGRIND;

	if (env && *env)
		on = strcmp(env, "0") != 0;
	atomic_store(&debug_locks, on);
}

void lockdep_set_enabled(bool on)
{
	atomic_store(&debug_locks, on);
}

int lockdep_reports(void)
{
	return atomic_load(&nr_reports);
}

unsigned long lockdep_graph_lock_taken(void)
{
	unsigned long n;

	pthread_mutex_lock(&graph_lock);
	n = graph_lock_count;
	pthread_mutex_unlock(&graph_lock);
	return n;
}

int lockdep_depth(void)
{
	return curr_depth;
}

void lockdep_init_map(struct lockdep_map *map, const char *name, struct lock_class_key *key, int subclass)
{
	(void)subclass;
	map->key = key;
	map->name = name;
	atomic_store(&map->class_cache, NULL);
}

/* lockdep_off - a table is full: checking stops, with one line saying why. */
static void lockdep_off(const char *why)
{
	if (atomic_exchange(&debug_locks, false))
		printk("BUG: %s: lockdep turned off.", why);
}

/* ---------------------------------------------------------------- classes */

static struct lock_class *register_lock_class(struct lockdep_map *map, unsigned int subclass)
{
	const struct lock_class_key *key = map->key ? map->key : (struct lock_class_key *)map;
	struct lock_class *c;
	int i, version = 0;

	for (i = 0; i < nr_lock_classes; i++) {
		c = &lock_classes[i];
		if (c->key == key && c->subclass == subclass)
			return c;
	}
	if (nr_lock_classes == MAX_LOCKDEP_KEYS) {
		lockdep_off("MAX_LOCKDEP_KEYS too low");
		return NULL;
	}
	/* A subclass shares its base's "#N"; a new key with a known name gets the next N. */
	for (i = 0; i < nr_lock_classes; i++) {
		c = &lock_classes[i];
		if (c->key == key) {
			version = c->name_version - 1;
			break;
		}
		if (!strcmp(c->name, map->name) && c->name_version > version)
			version = c->name_version;
	}
	c = &lock_classes[nr_lock_classes++];
	c->key = key;
	c->subclass = subclass;
	snprintf(c->name, sizeof(c->name), "%s", map->name);
	c->name_version = version + 1;
	return c;
}

static struct lock_class *lock_class_of(struct lockdep_map *map, unsigned int subclass)
{
	struct lock_class *c = subclass ? NULL : atomic_load(&map->class_cache);

	if (!c) {
		c = register_lock_class(map, subclass);
		if (c && !subclass)
			atomic_store(&map->class_cache, c);
	}
	return c;
}

/* ---------------------------------------------------------------- printing */

/* The kernel's reports breathe with empty lines; printk() makes "" one. */
static void blank_line(void)
{
	printk("%s", "");
}

/* "(&sd->s_active#2/1)": the name, its version if not the first, its subclass if nested. */
static char *lock_name(const struct lock_class *c, char *buf, size_t len)
{
	char ver[16] = "", sub[16] = "";

	if (c->name_version > 1)
		snprintf(ver, sizeof(ver), "#%d", c->name_version);
	if (c->subclass)
		snprintf(sub, sizeof(sub), "/%u", c->subclass);
	snprintf(buf, len, "%s%s%s", c->name, ver, sub);
	return buf;
}

/*
 * The kernel prints, per class, how it was used with interrupts: four
 * characters (hardirq, hardirq-read, softirq, softirq-read), '+' for
 * "taken with them enabled".  The simulated kernel has no interrupts, so
 * every lock is taken with them enabled: "+.+." for a lock only ever taken
 * for writing (a mutex), ".+.+" for one only read, "++++" for both.
 */
static const char *usage_str(const struct lock_class *c, char *buf)
{
	char w = (c->usage & USED_WRITE) ? '+' : '.', r = (c->usage & USED_READ) ? '+' : '.';

	snprintf(buf, 8, "%c%c%c%c", w, r, w, r);
	return buf;
}

static void print_lock(const struct held_lock *h, const char *prefix)
{
	char name[96], usage[8], at[160];

	sprint_backtrace(at, sizeof(at), h->acquire_ip);
	printk("%s(%s){%s}, at: %s", prefix, lock_name(h->class, name, sizeof(name)),
	       usage_str(h->class, usage), at);
}

static void print_ident(void)
{
	printk("ksim %s", atomic_load(&kernel_tainted) ? "Tainted: G        W" : "Not tainted");
}

static const char *comm(void)
{
	return current ? current->comm : "?";
}

static int pid(void)
{
	return current ? current->pid : 0;
}

void lockdep_print_held_locks(void)
{
	char prefix[16];
	int i;

	if (!curr_depth) {
		printk("no locks held by %s/%d.", comm(), pid());
		return;
	}
	printk("%d lock%s held by %s/%d:", curr_depth, curr_depth > 1 ? "s" : "", comm(), pid());
	for (i = 0; i < curr_depth; i++) {
		snprintf(prefix, sizeof(prefix), " #%d: ", i);
		print_lock(&held_locks[i], prefix);
	}
}

/* A report ends with the task's held locks and its call trace, and taints the kernel. */
static void print_report_tail(void)
{
	lockdep_print_held_locks();
	blank_line();
	printk("stack backtrace:");
	dump_stack();
	atomic_store(&kernel_tainted, true);
	atomic_fetch_add(&nr_reports, 1);
}

/* Once per pair of classes (a, b as found): our rule; the kernel stops at its first report. */
static bool first_report(const struct lock_class *a, const struct lock_class *b)
{
	int i;

	for (i = 0; i < nr_reported; i++)
		if (reported[i].a == a && reported[i].b == b)
			return false;
	if (nr_reported < MAX_REPORTED) {
		reported[nr_reported].a = a;
		reported[nr_reported].b = b;
		nr_reported++;
	}
	return true;
}

/* ---------------------------------------------------------------- recursive locking */

static void print_deadlock_bug(const struct held_lock *prev, const struct held_lock *next)
{
	char name[96];

	blank_line();
	printk("============================================");
	printk("WARNING: possible recursive locking detected");
	print_ident();
	printk("--------------------------------------------");
	printk("%s/%d is trying to acquire lock:", comm(), pid());
	print_lock(next, "");
	blank_line();
	printk("but task is already holding lock:");
	print_lock(prev, "");
	blank_line();
	printk("other info that might help us debug this:");
	printk(" Possible unsafe locking scenario:");
	blank_line();
	printk("       CPU0");
	printk("       ----");
	printk("  lock(%s);", lock_name(prev->class, name, sizeof(name)));
	printk("  lock(%s);", lock_name(next->class, name, sizeof(name)));
	blank_line();
	printk(" *** DEADLOCK ***");
	blank_line();
	printk(" May be due to missing lock nesting notation");
	blank_line();
	print_report_tail();
}

/*
 * check_deadlock - does the task already hold a lock of next's class?
 * Returns 0 if not, 1 if it does (reported), 2 if it holds next's very
 * instance: it is about to wait for itself.
 */
static int check_deadlock(const struct held_lock *next)
{
	const struct held_lock *prev = NULL;
	int i;

	for (i = 0; i < curr_depth; i++) {
		if (held_locks[i].class != next->class)
			continue;
		/* A recursive reader (read 2, an SRCU section) nests in a read of its class. */
		if (next->read == 2 && held_locks[i].read)
			continue;
		/* The report names the instance itself if the task holds it. */
		if (!prev || held_locks[i].instance == next->instance)
			prev = &held_locks[i];
	}
	if (!prev)
		return 0;
	if (first_report(prev->class, next->class))
		print_deadlock_bug(prev, next);
	return prev->instance == next->instance ? 2 : 1;
}

/* ---------------------------------------------------------------- circular dependency */

/*
 * bfs_path - is there a path of dependencies from class "from" to class
 * "to"?  Breadth first, so the path found is a shortest one; each class
 * reached remembers the dependency that reached it.
 */
static bool bfs_path(struct lock_class *from, struct lock_class *to)
{
	static struct lock_class *queue[MAX_LOCKDEP_KEYS];
	int head = 0, tail = 0;
	struct lock_list *e;

	bfs_generation++;
	from->bfs_gen = bfs_generation;
	from->bfs_parent = NULL;
	from->bfs_edge = NULL;
	queue[tail++] = from;
	while (head < tail) {
		struct lock_class *c = queue[head++];

		if (c == to)
			return true;
		for (e = c->locks_after; e; e = e->next) {
			if (e->class->bfs_gen == bfs_generation)
				continue;
			e->class->bfs_gen = bfs_generation;
			e->class->bfs_parent = c;
			e->class->bfs_edge = e;
			queue[tail++] = e->class;
		}
	}
	return false;
}

static void print_circular_bug_entry(const struct lock_class *c, int depth,
				     const uintptr_t *entries, unsigned int n)
{
	char name[96];

	blank_line();
	printk("-> #%d (%s){%s}:", depth, lock_name(c, name, sizeof(name)), usage_str(c, (char[8]){ 0 }));
	stack_trace_print(entries, n, 7);
}

/*
 * print_circular_bug - the task holds prev and is taking next, but the
 * graph already has a path next -> ... -> prev (bfs_path() just found it,
 * and left it in the bfs_parent links from prev back to next).  The chain
 * is printed from prev back to next, each class with the call trace that
 * recorded the dependency leading to it; next's is this very acquisition.
 */
static void print_circular_bug(const struct held_lock *prev, const struct held_lock *next,
			       const uintptr_t *trace, unsigned int trace_len)
{
	const struct lock_class *source = next->class, *target = prev->class, *parent;
	const struct lock_class *c;
	char a[96], b[96], m[96];
	int depth = 0;

	for (c = target; c != source; c = c->bfs_parent)
		depth++;
	blank_line();
	printk("======================================================");
	printk("WARNING: possible circular locking dependency detected");
	print_ident();
	printk("------------------------------------------------------");
	printk("%s/%d is trying to acquire lock:", comm(), pid());
	print_lock(next, "");
	blank_line();
	printk("but task is already holding lock:");
	print_lock(prev, "");
	blank_line();
	printk("which lock already depends on the new lock.");
	blank_line();
	blank_line();
	printk("the existing dependency chain (in reverse order) is:");
	for (c = target; c != source; c = c->bfs_parent, depth--)
		print_circular_bug_entry(c, depth, c->bfs_edge->entries, c->bfs_edge->nr_entries);
	print_circular_bug_entry(source, 0, trace, trace_len);

	parent = target->bfs_parent;
	blank_line();
	printk("other info that might help us debug this:");
	blank_line();
	if (parent != source) {
		printk("Chain exists of:");
		printk("  %s --> %s --> %s", lock_name(source, a, sizeof(a)),
		       lock_name(parent, m, sizeof(m)), lock_name(target, b, sizeof(b)));
		blank_line();
	}
	printk(" Possible unsafe locking scenario:");
	blank_line();
	printk("       CPU0                    CPU1");
	printk("       ----                    ----");
	printk("  %s(%s);", prev->read ? "rlock" : "lock", lock_name(target, b, sizeof(b)));
	printk("                               lock(%s);", lock_name(parent, m, sizeof(m)));
	printk("                               lock(%s);", lock_name(target, b, sizeof(b)));
	printk("  %s(%s);", next->read ? "rlock" : "lock", lock_name(source, a, sizeof(a)));
	blank_line();
	printk(" *** DEADLOCK ***");
	blank_line();
	print_report_tail();
}

/*
 * check_prev_add - record "prev before next", unless known; report it
 * instead if the graph already leads from next to prev.  The call trace
 * is taken once per acquisition, at the first new dependency.
 */
static void check_prev_add(const struct held_lock *prev, const struct held_lock *next,
			   void *fp, uintptr_t *trace, unsigned int *trace_len)
{
	struct lock_list *e;

	if (prev->class == next->class)
		return;		/* check_deadlock() has seen it */
	for (e = prev->class->locks_after; e; e = e->next)
		if (e->class == next->class)
			return;
	if (*trace_len == 0)
		*trace_len = stack_trace_save_from(fp, trace, LOCK_TRACE_DEPTH);
	if (bfs_path(next->class, prev->class)) {
		if (first_report(prev->class, next->class))
			print_circular_bug(prev, next, trace, *trace_len);
		return;
	}
	if (nr_list_entries == MAX_LOCKDEP_ENTRIES) {
		lockdep_off("MAX_LOCKDEP_ENTRIES too low");
		return;
	}
	e = &list_entries[nr_list_entries++];
	e->class = next->class;
	e->nr_entries = *trace_len;
	memcpy(e->entries, trace, *trace_len * sizeof(*trace));
	e->next = prev->class->locks_after;
	prev->class->locks_after = e;
}

/*
 * check_prevs_add - next depends on the lock held last, and on every
 * trylock above the last lock that was not a trylock: that one was taken
 * with a full check, so what lies under it is already ordered before it.
 */
static void check_prevs_add(const struct held_lock *next, void *fp)
{
	uintptr_t trace[LOCK_TRACE_DEPTH];
	unsigned int trace_len = 0;
	int i;

	for (i = curr_depth - 1; i >= 0; i--) {
		check_prev_add(&held_locks[i], next, fp, trace, &trace_len);
		if (!held_locks[i].trylock)
			break;
	}
}

/* ---------------------------------------------------------------- acquire and release */

/* A task is about to wait for a lock it holds itself: nothing can end that wait. */
static __noreturn void self_deadlock(const struct held_lock *next)
{
	char name[96];

	printk("%s/%d would now wait for (%s) until it lets go of it itself: for ever.",
	       comm(), pid(), lock_name(next->class, name, sizeof(name)));
	printk("The run ends here, with the report, instead of at the hung-task watchdog.");
	oops_end(EXIT_OOPS);
}

__noinline void lock_acquire(struct lockdep_map *map, unsigned int subclass, int trylock, int read,
			     uintptr_t ip)
{
	struct held_lock *h;
	int self = 0;

	if (!map->name || !atomic_load_explicit(&debug_locks, memory_order_relaxed))
		return;
	if (subclass >= MAX_LOCKDEP_SUBCLASSES) {
		lockdep_off("subclass >= MAX_LOCKDEP_SUBCLASSES");
		return;
	}
	if (curr_depth == MAX_LOCK_DEPTH) {
		lockdep_off("MAX_LOCK_DEPTH too low");
		return;
	}
	graph_lock_take();
	h = &held_locks[curr_depth];
	h->class = lock_class_of(map, subclass);
	if (!h->class) {
		graph_lock_give();
		return;
	}
	h->instance = map;
	h->acquire_ip = ip;
	h->read = read;
	h->trylock = trylock;
	h->class->usage |= read ? USED_READ : USED_WRITE;
	/* A trylock cannot wait: it is neither checked nor ordered after what is held. */
	if (!trylock) {
		self = check_deadlock(h);
		check_prevs_add(h, __builtin_frame_address(0));
	}
	curr_depth++;
	graph_lock_give();
	if (self == 2)
		self_deadlock(h);
}

/**
 * lock_is_held - does the current task hold @map's lock?
 * @map: the lock's lockdep_map
 *
 * Context: any task.  Return: LOCK_STATE_HELD or LOCK_STATE_NOT_HELD;
 * LOCK_STATE_UNKNOWN when lockdep is off or @map was never described
 * (acquire and release ignore such a map, so its holders are not known).
 */
int lock_is_held(const struct lockdep_map *map)
{
	int i;

	if (!atomic_load_explicit(&debug_locks, memory_order_relaxed) || !map->name)
		return LOCK_STATE_UNKNOWN;
	for (i = 0; i < curr_depth; i++)
		if (held_locks[i].instance == map)
			return LOCK_STATE_HELD;
	return LOCK_STATE_NOT_HELD;
}

static void print_unlock_imbalance_bug(struct lockdep_map *map, uintptr_t ip)
{
	char at[160];

	sprint_backtrace(at, sizeof(at), ip);
	blank_line();
	printk("=====================================");
	printk("WARNING: bad unlock balance detected!");
	print_ident();
	printk("-------------------------------------");
	printk("%s/%d is trying to release lock (%s) at:", comm(), pid(), map->name);
	printk("%s", at);
	printk("but there are no more locks to release!");
	blank_line();
	printk("other info that might help us debug this:");
	print_report_tail();
}

__noinline void lock_release(struct lockdep_map *map, uintptr_t ip)
{
	int i;

	if (!map->name || !atomic_load_explicit(&debug_locks, memory_order_relaxed))
		return;
	/* The most recent acquisition of this instance: locks need not be let go in order. */
	for (i = curr_depth - 1; i >= 0; i--) {
		if (held_locks[i].instance == map) {
			memmove(&held_locks[i], &held_locks[i + 1],
				(curr_depth - i - 1) * sizeof(held_locks[0]));
			curr_depth--;
			return;
		}
	}
	graph_lock_take();
	print_unlock_imbalance_bug(map, ip);
	graph_lock_give();
}
