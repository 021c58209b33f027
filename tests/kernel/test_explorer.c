/* test_explorer.c - the schedule explorer's own promises, on bugs whose depth is known by construction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "atomic.h"
#include "explore.h"
#include "ktest.h"
#include "oops.h"
#include "task.h"

/*
 * Two tiny programs on plain atomics, every atomic_t operation a schedule
 * point (the lost update with a bystander task that only adds steps, and
 * decisions after the bug for the shrinker to cut):
 *
 *   lost update   two tasks each read x, then write x + 1.  x ends at 1
 *                 only if one task is preempted between its read and its
 *                 write: exactly one preemption (PCT depth 2).
 *   a-b-a-b       task A writes 1 then 2; task B reads twice.  B sees 1
 *                 then 2 only on A1 B1 A2 B2: A preempted after its first
 *                 write and B after its first read, exactly two
 *                 preemptions (PCT depth 3).
 *
 * What chapter 5 promises, and what is checked here: bounded search
 * (dfs:P) finds every bug of at most P preemptions and none that needs
 * more; PCT of depth d finds a bug of depth d within its bound, 1/(n k^(d-1))
 * per run; a failure is shrunk until no preemption can be dropped; a
 * replay is the same run, byte for byte.  A PCT that never preempts, or a
 * shrinker that leaves a preemption it could drop, fails here.
 */
static atomic_t x, a, seen1, seen2, noise;

/* busywork - schedule points that matter to no invariant: room for needless preemptions. */
static void busywork(void)
{
	for (int i = 0; i < 4; i++)
		atomic_inc(&noise);
}

/* bystander - a third task that keeps the run making decisions after the bug has happened. */
static void *bystander(void *arg)
{
	(void)arg;
	busywork();
	busywork();
	busywork();
	return NULL;
}

static void *incr(void *arg)
{
	int v;

	(void)arg;
	busywork();
	v = atomic_read(&x);
	atomic_set(&x, v + 1);
	busywork();
	return NULL;
}

static void lost_update_setup(void)
{
	atomic_set(&x, 0);
}

static void lost_update_check(void)
{
	explore_assert(atomic_read(&x) == 2, "lost update: x is %d after two increments", atomic_read(&x));
}

static const struct explore_harness lost_update = {
	.name = "lost-update",
	.claim = "two read-then-write increments make x 2",
	.setup = lost_update_setup,
	.tasks = { { "inc0", incr, NULL }, { "inc1", incr, NULL }, { "bystander", bystander, NULL } },
	.check = lost_update_check,
};

/*
 * slow-lost-update - the lost update, failing slowly on some schedules
 * (inc0 ended first) and at once on the others, so that the failing run
 * of lowest number can end after a later one.
 */
static atomic_t finished, first_id;

static void *incr_counted(void *arg)
{
	incr(arg);
	if (atomic_inc_return(&finished) == 1)
		atomic_set(&first_id, (int)(long)arg);
	return NULL;
}

static void slow_lost_update_setup(void)
{
	lost_update_setup();
	atomic_set(&finished, 0);
	atomic_set(&first_id, -1);
}

static void slow_lost_update_check(void)
{
	if (atomic_read(&x) != 2 && atomic_read(&first_id) == 0) {
		usleep(100 * 1000);
		explore_fail("lost update, found slowly: x is %d", atomic_read(&x));
	}
	lost_update_check();
}

static const struct explore_harness slow_lost_update = {
	.name = "slow-lost-update",
	.claim = "two read-then-write increments make x 2",
	.setup = slow_lost_update_setup,
	.tasks = { { "inc0", incr_counted, (void *)0L }, { "inc1", incr_counted, (void *)1L },
		   { "bystander", bystander, NULL } },
	.check = slow_lost_update_check,
};

static void *writer(void *arg)
{
	(void)arg;
	busywork();
	atomic_set(&a, 1);
	atomic_set(&a, 2);
	busywork();
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	busywork();
	atomic_set(&seen1, atomic_read(&a));
	atomic_set(&seen2, atomic_read(&a));
	busywork();
	return NULL;
}

static void abab_setup(void)
{
	atomic_set(&a, 0);
	atomic_set(&seen1, 0);
	atomic_set(&seen2, 0);
}

static void abab_check(void)
{
	explore_assert(!(atomic_read(&seen1) == 1 && atomic_read(&seen2) == 2),
		       "the reader saw both of the writer's values, one after the other");
}

static const struct explore_harness abab = {
	.name = "a-b-a-b",
	.claim = "the reader never sees 1 and then 2",
	.setup = abab_setup,
	.tasks = { { "writer", writer, NULL }, { "reader", reader, NULL } },
	.check = abab_check,
};

/* three bystanders - a clean harness with many schedules: atomic increments are never lost. */
static void increments_setup(void)
{
	atomic_set(&noise, 0);
}

static void increments_check(void)
{
	explore_assert(atomic_read(&noise) == 36, "3 tasks made 36 atomic increments, and noise is %d",
		       atomic_read(&noise));
}

static const struct explore_harness increments = {
	.name = "atomic-increments",
	.claim = "no atomic increment is lost",
	.setup = increments_setup,
	.tasks = { { "b0", bystander, NULL }, { "b1", bystander, NULL }, { "b2", bystander, NULL } },
	.check = increments_check,
};

static void boot(void)
{
	static bool booted;

	if (booted)
		return;
	booted = true;
	task_init_main("test");
	oops_init();
}

/* run - explore h once with strategy s; the result in *r; what explore() returned. */
static int run(const struct explore_harness *h, const char *s, unsigned long seed, long runs,
	       struct explore_result *r)
{
	struct explore_opts o = { .strategy = s, .seed = seed, .runs = runs, .quiet = true };

	memset(r, 0, sizeof(*r));
	explore_boot_hook = boot;
	return explore(h, &o, r);
}

START_TEST(bounded_search_finds_exactly_the_bugs_within_its_bound)
{
	struct explore_result r;

	ck_assert_msg(run(&lost_update, "dfs:1", 0, 100000, &r) == 1,
		      "dfs:1 ran %ld schedules and missed the lost update, which needs one preemption", r.runs);
	ck_assert_msg(run(&abab, "dfs:1", 0, 100000, &r) == 0 && r.exhausted,
		      "dfs:1 failed a-b-a-b (or did not finish its %ld schedules), which needs two preemptions:\n%s",
		      r.runs, r.output);
	ck_assert_msg(run(&abab, "dfs:2", 0, 100000, &r) == 1,
		      "dfs:2 ran %ld schedules and missed a-b-a-b, which needs two preemptions", r.runs);
}
END_TEST

/*
 * With n tasks (at most the harness's three and the one that starts them) and k
 * steps (the explorer takes k from the longest run, at least 20), one PCT
 * run finds a bug of depth d with probability p >= 1/(n k^(d-1)).  Within
 * 10/p runs a correct PCT misses it with probability below e^-10; the
 * seeds are fixed, so the test is the same on every run.
 */
static void pct_finds(const struct explore_harness *h, int depth)
{
	char strategy[16];
	long bound = 4L, limit;
	struct explore_result r;

	for (int i = 1; i < depth; i++)
		bound *= 20;
	limit = 10 * bound;
	snprintf(strategy, sizeof(strategy), "pct:%d", depth);
	for (unsigned long seed = 1; seed <= (depth > 2 ? 2 : 5); seed++) {
		ck_assert_msg(run(h, strategy, seed, limit, &r) == 1,
			      "%s (seed %lu) did not find %s in %ld runs, ten times the 1/(n k^(d-1)) bound "
			      "for a bug of depth %d: does PCT still change priorities?", strategy, seed, h->name,
			      r.runs, depth);
		ck_assert_msg(r.preemptions == depth - 1,
			      "%s found %s, but shrunk it to %d preemptions: it needs exactly %d, and every "
			      "preemption the failure does not need must be dropped (%s)", strategy, h->name,
			      r.preemptions, depth - 1, r.replay);
		ck_assert_msg(r.repeats, "the shrunk schedule of %s did not fail again: %s", h->name, r.replay);
	}
}

START_TEST(pct_finds_a_depth_2_bug_within_its_bound_and_shrinks_it_to_one_preemption)
{
	pct_finds(&lost_update, 2);
}
END_TEST

START_TEST(pct_finds_a_depth_3_bug_within_its_bound_and_shrinks_it_to_two_preemptions)
{
	pct_finds(&abab, 3);
}
END_TEST

/* drop_last_decision - the replay string s without its last decision, in place ("replay:1x2,2" -> "replay:1x2"). */
static void drop_last_decision(char *s)
{
	char *last = strrchr(s, ',') ? strrchr(s, ',') + 1 : strchr(s, ':') + 1;
	char *x = strchr(last, 'x');
	long count = x ? strtol(x + 1, NULL, 10) : 1;

	if (count > 2)
		sprintf(x + 1, "%ld", count - 1);
	else if (count == 2)
		*x = '\0';
	else
		last[last > strchr(s, ':') + 1 ? -1 : 0] = '\0';
}

/*
 * The shrinker's first promise: the shortest prefix of decisions that
 * still fails (the rest run without preemption).  One decision less, and
 * the run passes.
 */
START_TEST(a_shrunk_schedule_fails_no_more_without_its_last_decision)
{
	const struct explore_harness *hs[] = { &lost_update, &abab };
	struct explore_result r, shorter;
	char replay[sizeof(r.replay)];

	for (int i = 0; i < 2; i++)
		for (unsigned long seed = 1; seed <= 2; seed++) {
			ck_assert_int_eq(run(hs[i], "random", seed, 100000, &r), 1);
			snprintf(replay, sizeof(replay), "%s", r.replay);
			drop_last_decision(replay);
			ck_assert_msg(run(hs[i], strcmp(replay, "replay:") ? replay : "nonpreemptive", 0, 1, &shorter) == 0,
				      "%s: the shrunk schedule %s still fails without its last decision (%s): the "
				      "shrinker left it longer than it needs", hs[i]->name, r.replay, replay);
		}
}
END_TEST

/* slurp - a file's whole text (malloc'ed), or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	if (getdelim(&s, &len, '\0', f) < 0) {
		free(s);
		s = NULL;
	}
	fclose(f);
	return s;
}

/*
 * A random schedule switches tasks at every other step, most of them for
 * nothing: what the shrinker leaves must be a failing schedule from which
 * no preemption can be dropped, which for these two bugs is known.
 */
START_TEST(a_random_failure_is_shrunk_to_the_preemptions_the_bug_needs)
{
	const struct explore_harness *hs[] = { &lost_update, &abab };
	struct explore_result r;

	for (int i = 0; i < 2; i++)
		for (unsigned long seed = 1; seed <= 2; seed++) {
			ck_assert_msg(run(hs[i], "random", seed, 100000, &r) == 1, "random (seed %lu) never broke %s",
				      seed, hs[i]->name);
			ck_assert_msg(r.preemptions == i + 1,
				      "random (seed %lu) broke %s and the shrinker left %d preemptions: the bug needs "
				      "exactly %d, so one could still be dropped (%s)", seed, hs[i]->name,
				      r.preemptions, i + 1, r.replay);
			ck_assert_msg(r.repeats, "the shrunk schedule of %s did not fail again: %s", hs[i]->name,
				      r.replay);
		}
}
END_TEST

START_TEST(a_replay_is_the_same_run_byte_for_byte)
{
	struct explore_result found, r1, r2;
	struct explore_opts o = { .quiet = true };
	char dir[] = "/tmp/ksim-explorer-XXXXXX", t1[64], t2[64];
	char *s1, *s2;

	ck_assert_int_eq(run(&abab, "pct:3", 1, 100000, &found), 1);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(t1, sizeof(t1), "%s/1.trace", dir);
	snprintf(t2, sizeof(t2), "%s/2.trace", dir);
	o.strategy = found.replay;
	o.trace = t1;
	memset(&r1, 0, sizeof(r1));
	ck_assert_int_eq(explore(&abab, &o, &r1), 1);
	o.trace = t2;
	memset(&r2, 0, sizeof(r2));
	ck_assert_int_eq(explore(&abab, &o, &r2), 1);
	s1 = slurp(t1);
	s2 = slurp(t2);
	ck_assert_msg(s1 && s2 && *s1, "a replay wrote no trace (%s, %s)", t1, t2);
	ck_assert_msg(strcmp(s1, s2) == 0, "two replays of %s wrote different traces:\n%s\n---\n%s",
		      found.replay, s1, s2);
	ck_assert_str_eq(r1.output, r2.output);
	ck_assert_str_eq(r1.replay, found.replay);
	free(s1);
	free(s2);
	unlink(t1);
	unlink(t2);
	rmdir(dir);
}
END_TEST

/*
 * make explore-stageN runs pct and random by one worker per CPU: the search
 * must report what one worker reports, the failing run of lowest number,
 * shrunk to the same schedule.  Chunks of one run, on a bug that one run
 * in three or so finds (slow-lost-update: some of its failures take 100 ms,
 * the others none), put several failing chunks in flight at once: a later
 * one often ends first, and must not be the one reported.
 */
START_TEST(a_search_reports_the_same_failure_with_one_worker_or_several)
{
	/* Seeds on which a search that reports the first failure to end, not the lowest, was seen wrong. */
	static const unsigned long seeds[] = { 16, 22 };
	struct explore_result one, many;

	explore_boot_hook = boot;
	for (size_t i = 0; i < ARRAY_SIZE(seeds); i++) {
		struct explore_opts o = { .strategy = "random", .seed = seeds[i], .runs = 20000, .quiet = true,
					  .jobs = 1, .batch = 1 };

		ck_assert_int_eq(explore(&slow_lost_update, &o, &one), 1);
		ck_assert_msg(one.runs >= 2, "random seed %lu failed on schedule %ld: too soon to put several "
			      "chunks in flight (pick another seed)", o.seed, one.runs);
		for (o.jobs = 4; o.jobs <= 4; o.jobs++) {
			ck_assert_int_eq(explore(&slow_lost_update, &o, &many), 1);
			ck_assert_msg(many.runs == one.runs && strcmp(many.replay, one.replay) == 0,
				      "random seed %lu: one worker fails on schedule %ld (%s), %d workers on %ld (%s)",
				      o.seed, one.runs, one.replay, o.jobs, many.runs, many.replay);
			ck_assert_str_eq(many.output, one.output);
		}
	}
}
END_TEST

/*
 * make explore-stageN runs dfs by one worker per CPU too, the search split
 * into subtrees that the workers take in order: it must run the schedules
 * the sequential search runs, count them the same, and report the failing
 * run that search meets first, shrunk to the same schedule.  The clean
 * search must be split (else this compares the search with itself); the
 * slow lost update has failures that take 100 ms beside ones that take
 * none, so a later subtree's failure often ends first.  A search cut by
 * its cap (runs) counts the schedules the search in order runs first.
 */
START_TEST(a_bounded_search_by_several_workers_is_the_search_in_order)
{
	static const struct {
		const struct explore_harness *h;
		const char *s;
		long runs;
	} cases[] = {
		{ &increments, "dfs:1", 100000 }, { &increments, "dfs:1", 100 },	/* all 613, and the first 100 */
		{ &lost_update, "dfs:1", 100000 }, { &slow_lost_update, "dfs:2", 100000 }, { &abab, "dfs:2", 100000 },
	};
	struct explore_result one, many;

	explore_boot_hook = boot;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct explore_opts o = { .strategy = cases[i].s, .runs = cases[i].runs, .quiet = true, .jobs = 0 };
		int got = explore(cases[i].h, &o, &one);

		ck_assert_msg(got == 1 ? one.runs > 2 : one.exhausted == (one.runs < o.runs), "%s %s: %ld schedules, %s",
			      cases[i].h->name, o.strategy, one.runs,
			      got ? "fails too soon to test an order" : one.exhausted ? "exhausted" : "not exhausted");
		for (o.jobs = 1; o.jobs <= 3; o.jobs++) {
			ck_assert_int_eq(explore(cases[i].h, &o, &many), got);
			ck_assert_msg(many.subtrees > 2, "%s %s by %d workers: split into %ld subtrees only",
				      cases[i].h->name, o.strategy, o.jobs, many.subtrees);
			ck_assert_msg(many.runs == one.runs && many.exhausted == one.exhausted &&
				      strcmp(many.replay, one.replay) == 0 && many.status == one.status &&
				      many.preemptions == one.preemptions,
				      "%s %s: in order %ld schedules%s, status %d, replay '%s'; by %d workers (%ld "
				      "subtrees) %ld%s, status %d, replay '%s'", cases[i].h->name, o.strategy, one.runs,
				      one.exhausted ? " (all)" : "", one.status, one.replay, o.jobs, many.subtrees,
				      many.runs, many.exhausted ? " (all)" : "", many.status, many.replay);
			ck_assert_str_eq(many.output, one.output);
		}
	}
}
END_TEST

/*
 * make explore-stageN's dfs stops at a cap (EXPLORE_DFS_CAP): a search cut
 * there must say so in its line, in order and by several workers, and
 * never print "every schedule within the bound", which a reader takes for
 * a proof.  increments has 613 schedules of at most one preemption.
 */
START_TEST(a_bounded_search_stopped_at_its_cap_says_it_is_not_exhaustive)
{
	struct explore_result r;
	char line[512];

	explore_boot_hook = boot;
	for (int jobs = 0; jobs <= 2; jobs += 2) {
		struct explore_opts o = { .strategy = "dfs:1", .runs = 100, .quiet = true, .jobs = jobs };

		ck_assert_int_eq(explore(&increments, &o, &r), 0);
		ck_assert_msg(!r.exhausted && r.runs == 100, "jobs %d: %ld schedules, %s", jobs, r.runs,
			      r.exhausted ? "exhausted" : "not exhausted");
		explore_summary(&increments, &o, &r, line, sizeof(line));
		ck_assert_msg(strstr(line, "dfs:1 stopped at the cap after 100 schedules: not exhaustive") &&
			      !strstr(line, "every schedule"), "jobs %d: %s", jobs, line);

		o.runs = 100000;
		ck_assert_int_eq(explore(&increments, &o, &r), 0);
		ck_assert_msg(r.exhausted && r.runs == 613, "jobs %d: %ld schedules, %s", jobs, r.runs,
			      r.exhausted ? "exhausted" : "not exhausted");
		explore_summary(&increments, &o, &r, line, sizeof(line));
		ck_assert_msg(strstr(line, "613 schedules") && strstr(line, "every schedule within the bound") &&
			      !strstr(line, "cap"), "jobs %d: %s", jobs, line);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("explorer");
	TCase *tc = ktest_case(s, "promises", 30);

	tcase_add_test(tc, bounded_search_finds_exactly_the_bugs_within_its_bound);
	tcase_add_test(tc, pct_finds_a_depth_2_bug_within_its_bound_and_shrinks_it_to_one_preemption);
	tcase_add_test(tc, pct_finds_a_depth_3_bug_within_its_bound_and_shrinks_it_to_two_preemptions);
	tcase_add_test(tc, a_random_failure_is_shrunk_to_the_preemptions_the_bug_needs);
	tcase_add_test(tc, a_shrunk_schedule_fails_no_more_without_its_last_decision);
	tcase_add_test(tc, a_replay_is_the_same_run_byte_for_byte);
	tcase_add_test(tc, a_search_reports_the_same_failure_with_one_worker_or_several);
	tcase_add_test(tc, a_bounded_search_by_several_workers_is_the_search_in_order);
	tcase_add_test(tc, a_bounded_search_stopped_at_its_cap_says_it_is_not_exhaustive);
	return ktest_main(s);
}
