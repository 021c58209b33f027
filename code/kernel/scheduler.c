/* scheduler.c - controlled scheduling: one task at a time, a strategy decides at every schedule point. */
#include <string.h>
#include "oops.h"
#include "scheduler.h"
#include "task.h"
#include "watchdog.h"

enum { T_RUNNABLE, T_BLOCKED, T_SLEEPING, T_EXITED };

#define SCHED_DEFAULT_BUDGET 1000000UL

atomic_bool sched_on;
void (*sched_failure_hook)(int status);

/*
 * Everything below is under sched_lock.  The baton is "running": a
 * controlled task runs only while running == current, and hands the baton
 * over with a signal on the next task's own condition variable.  Helgrind
 * and drd see each hand-over as a mutex release and acquire, so they see
 * the tasks' steps as ordered - which they are.
 */
static pthread_mutex_t sched_lock = PTHREAD_MUTEX_INITIALIZER;
static struct task_struct *slots[SCHED_MAX_TASKS];
static int nslots;
static struct task_struct *running;
static struct sched_strategy strat;
static struct sched_log private_log;
static struct sched_log *slog = &private_log;
static long vclock_ms;
static uint64_t rng_state;
/* PCT: a priority per slot (higher runs), and the steps at which the running task's drops. */
static long prio[SCHED_MAX_TASKS];
static unsigned long change_at[SCHED_MAX_DEPTH];
static int nchanges;

/* splitmix64: small, good enough, and the same on every machine. */
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t runnable_mask(void)
{
	uint32_t mask = 0;

	for (int i = 0; i < nslots; i++)
		if (slots[i] && slots[i]->sched_state == T_RUNNABLE)
			mask |= 1u << i;
	return mask;
}

/* The n-th set bit of mask (n from 0). */
static int nth_bit(uint32_t mask, int n)
{
	for (int i = 0; i < SCHED_MAX_TASKS; i++)
		if ((mask & (1u << i)) && n-- == 0)
			return i;
	return -1;
}

/* Without a reason to switch, keep the running task; else the lowest slot. */
static int default_choice(uint32_t mask, int cur)
{
	return cur >= 0 ? cur : __builtin_ctz(mask);
}

static int pct_choice(uint32_t mask)
{
	int best = -1;

	for (int i = 0; i < nslots; i++)
		if ((mask & (1u << i)) && (best < 0 || prio[i] > prio[best]))
			best = i;
	return best;
}

/*
 * choose_from - of the tasks in mask, the one the strategy picks; cur is
 * the slot that ran until now if it could go on, else -1.  Only a real
 * choice (two or more in mask) is a decision, logged for replay.
 */
static int choose_from(uint32_t mask, int cur)
{
	unsigned long n = slog->ndecisions;
	int c;

	if (!mask)
		return -1;
	if (!(mask & (mask - 1)))
		return __builtin_ctz(mask);
	switch (strat.kind) {
	case SCHED_REPLAY:
		if (n < strat.nforced && strat.forced[n] >= 0 && (mask & (1u << strat.forced[n])))
			c = strat.forced[n];
		else
			c = default_choice(mask, cur);
		break;
	case SCHED_RANDOM:
		c = nth_bit(mask, rnd() % __builtin_popcount(mask));
		break;
	case SCHED_PCT:
		c = pct_choice(mask);
		break;
	default:
		c = default_choice(mask, cur);
	}
	if (n < SCHED_LOG_MAX)
		slog->d[n] = (struct sched_decision){ mask, (int8_t)cur, (int8_t)c };
	else
		slog->truncated = true;
	slog->ndecisions = n + 1;
	return c;
}

/* choose - who runs next, of the runnable tasks (choose_from()). */
static int choose(int cur)
{
	return choose_from(runnable_mask(), cur);
}

/* Nobody can run: let virtual time pass to the first sleeper's wake-up.  False if nobody sleeps. */
static bool advance_clock(void)
{
	long first = -1;

	for (int i = 0; i < nslots; i++)
		if (slots[i] && slots[i]->sched_state == T_SLEEPING &&
		    (first < 0 || slots[i]->sched_wake_at < first))
			first = slots[i]->sched_wake_at;
	if (first < 0)
		return false;
	vclock_ms = first;
	for (int i = 0; i < nslots; i++)
		if (slots[i] && slots[i]->sched_state == T_SLEEPING && slots[i]->sched_wake_at <= vclock_ms) {
			slots[i]->sched_state = T_RUNNABLE;
			slots[i]->sched_chan = NULL;	/* a timed wait's time is up */
		}
	return true;
}

static struct task_struct *pick_next(int cur)
{
	int c;

	while ((c = choose(cur)) < 0)
		if (!advance_clock())
			return NULL;
	return slots[c];
}

/* Give the baton to next and wait until it comes back (not if we have ended). */
static void switch_to(struct task_struct *me, struct task_struct *next, bool wait)
{
	if (next != me) {
		running = next;
		pthread_cond_signal(&next->sched_cv);
	}
	while (wait && running != me && atomic_load(&sched_on))
		pthread_cond_wait(&me->sched_cv, &sched_lock);
}

/*
 * deadlock - no task can run, none sleeps, and some wait for something:
 * nothing will ever wake them.  Reported at once, with exit status 4 as
 * the hung-task watchdog's, for every task that waits; a task that only
 * waits for another to end (kthread_join) is named last, if at all: the
 * other's wait is the story.
 */
static __noreturn void deadlock(void)
{
	struct task_struct *blocked[SCHED_MAX_TASKS];
	int n = 0, joiners = 0;

	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < nslots; i++) {
			struct task_struct *t = slots[i];
			bool joining;

			if (!t || t->sched_state != T_BLOCKED || t->sched_idle)
				continue;
			joining = t->sched_what && !strcmp(t->sched_what, "kthread_join");
			if (joining == (pass == 1))
				blocked[n++] = t;
			joiners += joining && pass == 1;
		}
	if (n > joiners)
		n -= joiners;	/* the joiners add nothing to the report */
	pthread_mutex_unlock(&sched_lock);
	printk("INFO: deadlock: no task can run and none sleeps, so no wake-up can come (controlled scheduler)");
	for (int i = 0; i < n; i++) {
		printk("INFO: task %s blocked for ever.", blocked[i]->tag);
		printk("      waiting on: %s", blocked[i]->sched_what ? blocked[i]->sched_what : "?");
		if (blocked[i] != current)
			oops_dump_task(blocked[i]);
		else
			dump_stack();
	}
	/* The trace's last event says deadlock, not the watchdog's hung task (make explain-stageN). */
	if (n)
		oops_blame_task(blocked[0], "deadlock");
	sched_run_failed(EXIT_HUNG);
	oops_end(EXIT_HUNG);
}

/* reschedule - me stops running (blocked, asleep or ended): give the baton to whoever can run. */
static void reschedule(struct task_struct *me, bool wait)
{
	struct task_struct *next = pick_next(-1);

	if (!next) {
		bool any = false;

		for (int i = 0; i < nslots; i++)
			any |= slots[i] && slots[i]->sched_state == T_BLOCKED && !slots[i]->sched_idle;
		if (any)
			deadlock();
		running = NULL;		/* everything has ended, or idles */
		return;
	}
	switch_to(me, next, wait);
}

static bool controlled_task(struct task_struct *t)
{
	return t && t->sched_ctl && sched_controlled();
}

static __noreturn void soft_lockup(struct task_struct *me)
{
	unsigned long steps = slog->steps;

	pthread_mutex_unlock(&sched_lock);
	printk("watchdog: BUG: soft lockup - %s ran %lu schedule points without the run ending [%s]",
	       "the simulation", steps, me->tag);
	printk("(controlled scheduler: the step budget is %lu; a task that spins waiting for another "
	       "never lets the run end)", strat.budget);
	dump_stack();
	sched_run_failed(EXIT_OOPS);
	oops_end(EXIT_OOPS);
}

void __sched_point(void)
{
	struct task_struct *me = current;

	if (!controlled_task(me) || me->preempt_count)
		return;
	pthread_mutex_lock(&sched_lock);
	if (++slog->steps > strat.budget)
		soft_lockup(me);
	for (int i = 0; i < nchanges; i++)
		if (change_at[i] == slog->steps)
			prio[me->sched_slot] = i;	/* below every initial priority */
	switch_to(me, pick_next(me->sched_slot), true);
	pthread_mutex_unlock(&sched_lock);
}

void sched_wait(const void *chan, const char *what, bool idle)
{
	struct task_struct *me = current;

	pthread_mutex_lock(&sched_lock);
	me->sched_state = T_BLOCKED;
	me->sched_chan = chan;
	me->sched_what = what;
	me->sched_idle = idle;
	reschedule(me, true);
	pthread_mutex_unlock(&sched_lock);
}

/* waits_on - slot i's task waits on chan: blocked, or asleep in a timed wait (sched_wait_timeout()). */
static bool waits_on(int i, const void *chan)
{
	return slots[i] && (slots[i]->sched_state == T_BLOCKED || slots[i]->sched_state == T_SLEEPING) &&
	       slots[i]->sched_chan == chan;
}

/* wake_slot - slot i's task, blocked, becomes runnable. */
static void wake_slot(int i)
{
	slots[i]->sched_state = T_RUNNABLE;
	slots[i]->sched_chan = NULL;
}

/*
 * Which waiter is woken first is a decision like who runs next: logged,
 * replayed, and explored (bounded search tries each, PCT takes the highest
 * priority).  With every waiter woken it changes nothing by itself; it is
 * there so that a wake-up that loses waiters (one that wakes only the
 * first it finds) is found on the schedules where it keeps the wrong one.
 */
void sched_wake(const void *chan)
{
	uint32_t waiters = 0;
	int first;

	pthread_mutex_lock(&sched_lock);
	for (int i = 0; i < nslots; i++)
		if (waits_on(i, chan))
			waiters |= 1u << i;
	if (waiters) {
		first = choose_from(waiters, -1);
		wake_slot(first);
		for (int k = 1; k < nslots; k++)
			if (waiters & (1u << (first + k) % nslots))
				wake_slot((first + k) % nslots);
	}
	pthread_mutex_unlock(&sched_lock);
}

static void cond_wait(pthread_cond_t *c, pthread_mutex_t *m, const char *what, bool idle)
{
	if (!controlled_task(current)) {
		pthread_cond_wait(c, m);
		return;
	}
	pthread_mutex_unlock(m);
	sched_wait(c, what, idle);
	pthread_mutex_lock(m);
}

void sched_cond_wait(pthread_cond_t *c, pthread_mutex_t *m, const char *what)
{
	cond_wait(c, m, what, false);
}

void sched_cond_wait_idle(pthread_cond_t *c, pthread_mutex_t *m, const char *what)
{
	cond_wait(c, m, what, true);
}

bool sched_wait_timeout(const void *chan, const char *what, long ms)
{
	struct task_struct *me = current;
	bool woken;

	pthread_mutex_lock(&sched_lock);
	me->sched_state = T_SLEEPING;
	me->sched_wake_at = vclock_ms + (ms > 0 ? ms : 0);
	me->sched_chan = chan;
	me->sched_what = what;
	me->sched_idle = false;
	reschedule(me, true);
	woken = me->sched_chan == NULL && vclock_ms < me->sched_wake_at;
	me->sched_chan = NULL;
	pthread_mutex_unlock(&sched_lock);
	return woken;
}

void sched_cond_broadcast(pthread_cond_t *c)
{
	pthread_cond_broadcast(c);
	if (sched_controlled())
		sched_wake(c);
}

void preempt_disable(void)
{
	if (current)
		current->preempt_count++;
}

void preempt_enable(void)
{
	if (current)
		current->preempt_count--;
}

void sched_msleep(unsigned int ms)
{
	struct task_struct *me = current;

	pthread_mutex_lock(&sched_lock);
	me->sched_state = T_SLEEPING;
	me->sched_wake_at = vclock_ms + ms;
	me->sched_chan = NULL;		/* no wake-up but the clock's */
	reschedule(me, true);
	pthread_mutex_unlock(&sched_lock);
}

long sched_clock_ms(void)
{
	long now;

	pthread_mutex_lock(&sched_lock);
	now = vclock_ms;
	pthread_mutex_unlock(&sched_lock);
	return now;
}

/* A new slot, runnable; under PCT it draws its priority (all above the change points' d-1). */
static void slot_add(struct task_struct *t)
{
	if (nslots == SCHED_MAX_TASKS) {
		pthread_mutex_unlock(&sched_lock);
		printk("sched: more than %d tasks under the controlled scheduler", SCHED_MAX_TASKS);
		BUG();
	}
	t->sched_slot = nslots;
	t->sched_state = T_RUNNABLE;
	t->sched_ctl = true;
	pthread_cond_init(&t->sched_cv, NULL);
	prio[nslots] = strat.depth + (long)(rnd() >> 34);
	slots[nslots++] = t;
}

void sched_task_new(struct task_struct *t)
{
	if (!controlled_task(current))
		return;
	pthread_mutex_lock(&sched_lock);
	slot_add(t);
	pthread_mutex_unlock(&sched_lock);
}

void sched_task_begin(struct task_struct *t)
{
	if (!t->sched_ctl)
		return;
	pthread_mutex_lock(&sched_lock);
	while (running != t && atomic_load(&sched_on))
		pthread_cond_wait(&t->sched_cv, &sched_lock);
	pthread_mutex_unlock(&sched_lock);
}

void sched_task_exit(struct task_struct *t)
{
	if (!controlled_task(t))
		return;
	pthread_mutex_lock(&sched_lock);
	t->sched_state = T_EXITED;
	for (int i = 0; i < nslots; i++) {
		if (slots[i] && slots[i]->sched_state == T_BLOCKED && slots[i]->sched_chan == t) {
			slots[i]->sched_state = T_RUNNABLE;
			slots[i]->sched_chan = NULL;
		}
	}
	reschedule(t, false);
	pthread_mutex_unlock(&sched_lock);
}

void sched_task_join(struct task_struct *t)
{
	bool ended;

	if (!controlled_task(current) || !t->sched_ctl)
		return;
	for (;;) {
		pthread_mutex_lock(&sched_lock);
		ended = t->sched_state == T_EXITED;
		pthread_mutex_unlock(&sched_lock);
		if (ended)
			return;
		sched_wait(t, "kthread_join", false);
	}
}

void sched_task_forget(struct task_struct *t)
{
	pthread_mutex_lock(&sched_lock);
	if (t->sched_slot < nslots && slots[t->sched_slot] == t)
		slots[t->sched_slot] = NULL;
	pthread_mutex_unlock(&sched_lock);
	if (t->sched_ctl)
		pthread_cond_destroy(&t->sched_cv);
}

void sched_start(const struct sched_strategy *s, struct sched_log *log)
{
	pthread_mutex_lock(&sched_lock);
	strat = *s;
	if (!strat.budget)
		strat.budget = SCHED_DEFAULT_BUDGET;
	slog = log ? log : &private_log;
	memset(slog, 0, offsetof(struct sched_log, d));
	rng_state = s->seed * 0x2545f4914f6cdd1dULL + 1;
	nslots = 0;
	vclock_ms = 0;
	nchanges = 0;
	if (s->kind == SCHED_PCT) {
		unsigned long k = s->expect_steps ? s->expect_steps : 100;

		for (int i = 0; i < s->depth - 1 && i < SCHED_MAX_DEPTH; i++)
			change_at[nchanges++] = 1 + rnd() % k;
	}
	slot_add(current);
	running = current;
	atomic_store(&sched_on, true);
	pthread_mutex_unlock(&sched_lock);
}

const struct sched_log *sched_current_log(void)
{
	return slog;
}

void sched_stop(void)
{
	pthread_mutex_lock(&sched_lock);
	atomic_store(&sched_on, false);
	running = NULL;
	/* Tasks still parked (an idle worker) go back to their pthread waits as free threads. */
	for (int i = 0; i < nslots; i++) {
		if (!slots[i])
			continue;
		slots[i]->sched_ctl = false;
		pthread_cond_signal(&slots[i]->sched_cv);
	}
	pthread_mutex_unlock(&sched_lock);
}

void sched_run_failed(int status)
{
	static atomic_bool once;

	if (atomic_exchange(&once, true))
		return;
	slog->failed = status;
	if (sched_failure_hook && sched_controlled())
		sched_failure_hook(status);
}
