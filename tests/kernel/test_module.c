/* test_module.c - insmod/rmmod with kernel semantics, and the oops reports. */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/valgrind.h>
#include "ksym.h"
#include "ktest.h"
#include "module.h"
#include "oops.h"
#include "slab.h"
#include "task.h"
#include "trace.h"
#include "watchdog.h"

typedef int (*demo_fn_t)(int);

/* Every test starts as ksim does: task 1, the oops handler, the module dir. */
static void boot(void)
{
	const char *dir = getenv("KSIM_MODULE_DIR");
	char path[512];

	task_init_main("sh");
	oops_init();
	module_set_dir(dir ? dir : "build/stage0");
	snprintf(path, sizeof(path), "%s/demo_a.so", dir ? dir : "build/stage0");
	ck_assert_msg(access(path, R_OK) == 0, "%s is missing: run the suite through make", path);
}

/* A symbol of a loaded module, found the way a test may: through its handle. */
static void *module_sym(const char *mod, const char *sym)
{
	struct module *m = find_module(mod);

	ck_assert_ptr_nonnull(m);
	return dlsym(m->handle, sym);
}

static demo_fn_t demo_a_fn(void)
{
	demo_fn_t (*get_fn)(void) = module_sym("demo_a", "demo_a_get_fn");

	ck_assert_ptr_nonnull(get_fn);
	return get_fn();
}

/* The permissions of the mapping that holds addr in /proc/self/maps, or "". */
static void maps_perms(uintptr_t addr, char perms[5])
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi;
	char line[512];

	perms[0] = '\0';
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && addr >= lo && addr < hi)
			break;
		else
			perms[0] = '\0';
	if (f)
		fclose(f);
}

/*
 * in_child - run fn in a child process with stdout and stderr captured;
 * return its exit status (128+signal if killed) and what it printed.
 */
static int in_child(void (*fn)(void), char *out, size_t len)
{
	char path[] = "/tmp/ktest-module-XXXXXX";
	int fd = mkstemp(path), st;
	ssize_t n;
	pid_t pid;

	ck_assert_int_ge(fd, 0);
	unlink(path);
	pid = fork();
	if (pid == 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		fn();
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	n = pread(fd, out, len - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

#define ck_assert_out(out, text) \
	ck_assert_msg(strstr((out), (text)), "expected \"%s\" in:\n%s", (text), (out))

/* ---- loading and unloading ---- */

START_TEST(load_unload_reload)
{
	struct module *mod, *again;
	uintptr_t old_base;

	boot();
	ck_assert_int_eq(insmod("demo_a"), 0);
	mod = find_module("demo_a");
	ck_assert_ptr_nonnull(mod);
	ck_assert_int_eq(mod->state, MODULE_STATE_LIVE);
	ck_assert_uint_lt(mod->base, mod->end);
	ck_assert_str_eq(module_name_of((uintptr_t)demo_a_fn(), NULL), "demo_a");
	ck_assert_int_eq(insmod("demo_a.ko"), -EEXIST);
	old_base = mod->base;
	ck_assert_int_eq(rmmod("demo_a"), 0);
	ck_assert_ptr_null(find_module("demo_a"));
	ck_assert_int_eq(mod->state, MODULE_STATE_GONE);
	ck_assert_int_eq(rmmod("demo_a"), -ENOENT);
	ck_assert_int_eq(insmod("demo_a"), 0);
	again = find_module("demo_a");
	ck_assert_ptr_nonnull(again);
	ck_assert_ptr_ne(again, mod);
	ck_assert_uint_ne(again->base, old_base);
	ck_assert_int_eq(rmmod("demo_a"), 0);
	ck_assert_int_eq(insmod("no_such_module"), -ENOENT);
}
END_TEST

START_TEST(missing_dependency_is_refused)
{
	boot();
	ck_assert_int_eq(insmod("demo_b"), -ENOENT);
	ck_assert_ptr_null(find_module("demo_b"));
	ck_assert_int_eq(insmod("demo_a"), 0);
	ck_assert_int_eq(insmod("demo_b"), 0);
	ck_assert_int_eq(((int (*)(int))module_sym("demo_b", "demo_b_call"))(1), 43);
}
END_TEST

START_TEST(failed_init_unloads_the_module)
{
	boot();
	setenv("DEMO_A_INIT_FAIL", "1", 1);
	ck_assert_int_eq(insmod("demo_a"), -EINVAL);
	ck_assert_ptr_null(find_module("demo_a"));
	unsetenv("DEMO_A_INIT_FAIL");
	ck_assert_int_eq(insmod("demo_a"), 0);
}
END_TEST

START_TEST(rmmod_waits_for_module_put)
{
	struct module *mod;

	boot();
	ck_assert(try_module_get(NULL));	/* built-in code: always */
	ck_assert_int_eq(insmod("demo_a"), 0);
	mod = find_module("demo_a");
	ck_assert(try_module_get(mod));
	ck_assert_int_eq(module_refcount(mod), 1);
	ck_assert_int_eq(rmmod("demo_a"), -EBUSY);
	ck_assert_ptr_eq(find_module("demo_a"), mod);
	module_put(mod);
	ck_assert_int_eq(rmmod("demo_a"), 0);
	ck_assert(!try_module_get(mod));	/* a stale struct module: refused */
}
END_TEST

START_TEST(rmmod_waits_for_dependent_module)
{
	struct module *a;

	boot();
	ck_assert_int_eq(insmod("demo_a"), 0);
	ck_assert_int_eq(insmod("demo_b"), 0);
	a = find_module("demo_a");
	ck_assert_int_eq(module_refcount(a), 1);	/* demo_b's */
	ck_assert_int_eq(rmmod("demo_a"), -EBUSY);
	ck_assert_int_eq(rmmod("demo_b"), 0);
	ck_assert_int_eq(module_refcount(a), 0);
	ck_assert_int_eq(rmmod("demo_a"), 0);
}
END_TEST

static struct module *going_mod;
static bool got_during_exit = true;
static int state_during_exit = -1;

static void exit_hook(void)
{
	state_during_exit = atomic_load(&going_mod->state);
	got_during_exit = try_module_get(going_mod);
}

START_TEST(try_module_get_fails_while_going)
{
	boot();
	ck_assert_int_eq(insmod("demo_a"), 0);
	going_mod = find_module("demo_a");
	*(void (**)(void))module_sym("demo_a", "demo_a_exit_hook") = exit_hook;
	ck_assert_int_eq(rmmod("demo_a"), 0);
	ck_assert_int_eq(state_during_exit, MODULE_STATE_GOING);
	ck_assert(!got_during_exit);
}
END_TEST

START_TEST(unloaded_range_is_fenced_and_reload_moves)
{
	struct module *mod;
	uintptr_t base, end;
	char perms[5];

	boot();
	ck_assert_int_eq(insmod("demo_a"), 0);
	mod = find_module("demo_a");
	base = mod->base;
	end = mod->end;
	maps_perms(base, perms);
	ck_assert_str_ne(perms, "---p");
	ck_assert_int_eq(rmmod("demo_a"), 0);
	maps_perms(base, perms);
	ck_assert_str_eq(perms, "---p");
	maps_perms(end - 1, perms);
	ck_assert_str_eq(perms, "---p");
	ck_assert_int_eq(insmod("demo_a"), 0);
	mod = find_module("demo_a");
	ck_assert_msg(mod->end <= base || mod->base >= end, "reload landed on the old range");
}
END_TEST

static void do_nodelete(void)
{
	const char *dir = getenv("KSIM_MODULE_DIR");
	char sub[512];
	char perms[5];
	struct module *mod;

	boot();
	snprintf(sub, sizeof(sub), "%s/nodelete", dir ? dir : "build/stage0");
	module_set_dir(sub);
	if (insmod("demo_a") != 0)
		_exit(10);
	mod = find_module("demo_a");
	if (rmmod("demo_a") != 0)
		_exit(11);
	/* Still mapped and still executable: not covered by a PROT_NONE fence. */
	maps_perms(mod->base, perms);
	if (!strcmp(perms, "---p") || !perms[0])
		_exit(12);
}

/*
 * An object that stays loaded after dlclose (-z nodelete) is reported, not
 * fenced: a PROT_NONE map over it would hide that stale calls still run it.
 */
START_TEST(nodelete_module_is_reported_not_fenced)
{
	char out[4096];

	ck_assert_int_eq(in_child(do_nodelete, out, sizeof(out)), 0);
	ck_assert_out(out, "rmmod: demo_a: still loaded after dlclose (RTLD_NODELETE?)");
}
END_TEST

static void do_lsmod(void)
{
	boot();
	insmod("demo_a");
	insmod("demo_b");
	lsmod();
	rmmod("demo_a");
	rmmod("nope");
}

START_TEST(lsmod_and_rmmod_messages)
{
	char out[4096];

	ck_assert_int_eq(in_child(do_lsmod, out, sizeof(out)), 0);
	ck_assert_out(out, "Module                  Size  Used by\n");
	ck_assert_out(out, "demo_b                 ");
	ck_assert_msg(strstr(out, "  1 demo_b\n") && strstr(out, "demo_a "), "lsmod:\n%s", out);
	ck_assert_out(out, "rmmod: ERROR: Module demo_a is in use by: demo_b");
	ck_assert_out(out, "rmmod: ERROR: Module nope is not currently loaded");
}
END_TEST

static void do_trace(void)
{
	struct module *mod;

	boot();
	trace_open(getenv("KTEST_TRACE"));
	insmod("demo_a");
	mod = find_module("demo_a");
	try_module_get_by(mod, "kobject:sda");
	module_put_by(mod, "kobject:sda");
	rmmod("demo_a");
	insmod("demo_a");
	trace_close();
}

START_TEST(module_events_are_traced)
{
	char path[] = "/tmp/ktest-trace-XXXXXX", out[4096], trace[4096];
	int fd = mkstemp(path);
	ssize_t n;

	setenv("KTEST_TRACE", path, 1);
	ck_assert_int_eq(in_child(do_trace, out, sizeof(out)), 0);
	n = read(fd, trace, sizeof(trace) - 1);
	trace[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	ck_assert_str_eq(trace, "ksim-trace 1\n"
				"1 sh[1] mod_load module:demo_a\n"
				"2 sh[1] mod_get module:demo_a count=1 by=kobject:sda\n"
				"3 sh[1] mod_put module:demo_a count=0 by=kobject:sda\n"
				"4 sh[1] mod_unload module:demo_a\n"
				"5 sh[1] mod_load module:demo_a#2\n");
}
END_TEST

/* ---- symbols ---- */

__noinline int ksym_probe(int x)
{
	return x * 3 + 1;
}

START_TEST(sprint_symbol_format)
{
	char buf[160];
	demo_fn_t fn;

	boot();
	sprint_symbol(buf, sizeof(buf), (uintptr_t)ksym_probe + 3);
	ck_assert_msg(strncmp(buf, "ksym_probe+0x3/0x", 17) == 0 && !strchr(buf, '['), "%s", buf);
	ck_assert_int_eq(insmod("demo_a"), 0);
	fn = demo_a_fn();
	sprint_symbol(buf, sizeof(buf), (uintptr_t)fn);
	ck_assert_msg(strncmp(buf, "demo_a_hello+0x0/0x", 19) == 0, "%s", buf);
	ck_assert_msg(strstr(buf, " [demo_a]"), "%s", buf);
	ck_assert_int_eq(rmmod("demo_a"), 0);
	sprint_symbol(buf, sizeof(buf), (uintptr_t)fn);
	ck_assert_msg(strstr(buf, "demo_a_hello+0x0/0x") && strstr(buf, " [demo_a, unloaded]"), "%s", buf);
	sprint_symbol(buf, sizeof(buf), 0x1000);
	ck_assert_str_eq(buf, "0x1000");
}
END_TEST

/* ---- oops reports ---- */

static demo_fn_t stale;

/* The caller that the call trace must name: the stale call happens here. */
__noinline int stale_caller(int x)
{
	return stale(x) + 1;
}

static void do_stale_call(void)
{
	boot();
	insmod("demo_a");
	insmod("demo_b");
	stale = demo_a_fn();
	rmmod("demo_b");
	rmmod("demo_a");
	stale_caller(1);
	printf("survived the stale call\n");
}

START_TEST(stale_call_into_unloaded_module_oopses)
{
	char out[8192];
	int status = in_child(do_stale_call, out, sizeof(out));

	/* Under Valgrind --error-exitcode replaces our 3: it saw the bad jump too. */
	ck_assert_msg(status == EXIT_OOPS || RUNNING_ON_VALGRIND, "exit %d:\n%s", status, out);
	ck_assert_out(out, "BUG: unable to handle page fault for address: ");
	ck_assert_out(out, "#PF: supervisor instruction fetch from unloaded module demo_a");
	ck_assert_out(out, "CPU: 0 PID: 1 Comm: sh");
	ck_assert_out(out, "RIP: demo_a_hello+0x0/0x");
	ck_assert_out(out, "[demo_a, unloaded]");
	ck_assert_out(out, "Call Trace:\n stale_caller+0x");
	ck_assert_out(out, " do_stale_call+0x");
	ck_assert_out(out, "Unloaded modules: demo_b demo_a");
	ck_assert_msg(!strstr(out, "survived"), "%s", out);
}
END_TEST

/* A stale call into the second load of demo_a, traced. */
static void do_stale_call_reloaded(void)
{
	boot();
	trace_open(getenv("KTEST_TRACE"));
	insmod("demo_a");
	rmmod("demo_a");
	insmod("demo_a");
	stale = demo_a_fn();
	rmmod("demo_a");
	stale_caller(1);
}

/*
 * A module loaded twice is two objects in the trace; the oops event must
 * name the one whose code faulted, or trace2dot draws the crash against
 * the first load.
 */
START_TEST(oops_trace_names_the_instance_that_faulted)
{
	char path[] = "/tmp/ktest-trace-XXXXXX", out[8192], trace[4096];
	int fd = mkstemp(path), status;
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	setenv("KTEST_TRACE", path, 1);
	status = in_child(do_stale_call_reloaded, out, sizeof(out));
	n = read(fd, trace, sizeof(trace) - 1);
	trace[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	ck_assert_msg(status == EXIT_OOPS || RUNNING_ON_VALGRIND, "exit %d:\n%s", status, out);
	ck_assert_msg(strstr(trace, "mod_unload module:demo_a#2\n"), "%s", trace);
	ck_assert_msg(strstr(trace, " oops module:demo_a#2 msg=unable to handle page fault in demo_a_hello [demo_a, unloaded]\n"),
		      "the oops must name the second load:\n%s", trace);
}
END_TEST

START_TEST(module_trace_name_of_names_each_load)
{
	demo_fn_t first;

	boot();
	ck_assert_int_eq(insmod("demo_a"), 0);
	first = demo_a_fn();
	ck_assert_str_eq(module_trace_name_of((uintptr_t)first), "module:demo_a");
	ck_assert_int_eq(rmmod("demo_a"), 0);
	ck_assert_int_eq(insmod("demo_a"), 0);
	ck_assert_str_eq(module_trace_name_of((uintptr_t)demo_a_fn()), "module:demo_a#2");
	ck_assert_str_eq(module_trace_name_of((uintptr_t)first), "module:demo_a");
	ck_assert_ptr_null(module_trace_name_of((uintptr_t)ksym_probe));
}
END_TEST

static void do_uaf(void)
{
	volatile char *p;

	boot();
	p = kmalloc(64, "demo_obj");
	kfree((void *)p);
	p[8] = 1;
}

START_TEST(use_after_free_names_the_object)
{
	char out[8192];

	/* Under the tools slab hands out malloc()ed memory: they report it. */
	if (RUNNING_ON_VALGRIND)
		return;
#ifdef KSIM_SANITIZER
	return;
#endif
	ck_assert_int_eq(in_child(do_uaf, out, sizeof(out)), EXIT_OOPS);
	ck_assert_out(out, "BUG: KASAN-like use-after-free in do_uaf+0x");
	ck_assert_out(out, "Write of freed object demo_obj (size 64) at offset 8, freed by task sh[1]");
}
END_TEST

static __noinline void bug_site(int x)
{
	BUG_ON(x > 1);
}

static void do_bug(void)
{
	boot();
	bug_site(2);
}

START_TEST(bug_on_exits_3)
{
	char out[8192];

	ck_assert_int_eq(in_child(do_bug, out, sizeof(out)), EXIT_OOPS);
	ck_assert_out(out, "kernel BUG at tests/kernel/test_module.c:");
	ck_assert_out(out, "BUG_ON(x > 1)");
	ck_assert_out(out, "RIP: bug_site+0x");
	ck_assert_out(out, "Call Trace:\n do_bug+0x");
}
END_TEST

static void do_warn(void)
{
	bool warned;

	boot();
/* kernel.h's one-line WARN_ON trips -Wmisleading-indentation (reported). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmisleading-indentation"
	warned = WARN_ON(1 + 1 == 2);
#pragma GCC diagnostic pop
	if (!warned)
		_exit(1);
	if (!atomic_load(&kernel_tainted))
		_exit(2);
	printf("carried on\n");
}

START_TEST(warn_on_continues_and_taints)
{
	char out[8192];

	ck_assert_int_eq(in_child(do_warn, out, sizeof(out)), 0);
	ck_assert_out(out, "WARNING: CPU: 0 PID: 1 at tests/kernel/test_module.c:");
	ck_assert_out(out, "WARN_ON(1 + 1 == 2)");
	ck_assert_out(out, "RIP: do_warn+0x");
	ck_assert_out(out, "carried on");
}
END_TEST

static void do_put_too_many(void)
{
	struct module *mod;

	boot();
	insmod("demo_a");
	mod = find_module("demo_a");
	module_put(mod);
}

START_TEST(module_put_below_zero_is_a_bug)
{
	char out[8192];

	ck_assert_int_eq(in_child(do_put_too_many, out, sizeof(out)), EXIT_OOPS);
	ck_assert_out(out, "kernel BUG at code/kernel/module.c:");
	ck_assert_out(out, "RIP: module_put_by+0x");
	ck_assert_out(out, " do_put_too_many+0x");
	ck_assert_out(out, "Modules linked in: demo_a");
}
END_TEST

static pthread_mutex_t block_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t block_cond = PTHREAD_COND_INITIALIZER;
static atomic_int blocked;

static __noinline void *blocked_fn(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&block_lock);
	atomic_store(&blocked, 1);
	for (;;)
		pthread_cond_wait(&block_cond, &block_lock);
	return NULL;
}

static void do_dump_task(void)
{
	struct task_struct *t;

	boot();
	t = kthread_run(blocked_fn, NULL, "cat");
	while (!atomic_load(&blocked))
		usleep(1000);
	/* The lock is ours only once blocked_fn has given it up inside pthread_cond_wait(). */
	pthread_mutex_lock(&block_lock);
	pthread_mutex_unlock(&block_lock);
	oops_dump_task(t);
	printf("dumped\n");
}

START_TEST(dump_task_prints_a_blocked_task)
{
	char out[8192];

	ck_assert_msg(in_child(do_dump_task, out, sizeof(out)) == 0, "%s", out);
	ck_assert_out(out, "task:cat             state:D pid:2");
#ifndef KSIM_SANITIZER
	/* Found by scanning (libc has no frame pointers): marked "? ". */
	ck_assert_out(out, "Call Trace:\n ? blocked_fn+0x");
#endif
	ck_assert_out(out, " kthread+0x");
	ck_assert_out(out, "dumped");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kernel-module");
	TCase *tc;

	tc = ktest_case(s, "module", 20);
	tcase_add_test(tc, load_unload_reload);
	tcase_add_test(tc, missing_dependency_is_refused);
	tcase_add_test(tc, failed_init_unloads_the_module);
	tcase_add_test(tc, rmmod_waits_for_module_put);
	tcase_add_test(tc, rmmod_waits_for_dependent_module);
	tcase_add_test(tc, try_module_get_fails_while_going);
	tcase_add_test(tc, unloaded_range_is_fenced_and_reload_moves);
	tcase_add_test(tc, nodelete_module_is_reported_not_fenced);
	tcase_add_test(tc, lsmod_and_rmmod_messages);
	tcase_add_test(tc, module_events_are_traced);
	tc = ktest_case(s, "oops", 20);
	tcase_add_test(tc, sprint_symbol_format);
	tcase_add_test(tc, stale_call_into_unloaded_module_oopses);
	tcase_add_test(tc, oops_trace_names_the_instance_that_faulted);
	tcase_add_test(tc, module_trace_name_of_names_each_load);
	tcase_add_test(tc, use_after_free_names_the_object);
	tcase_add_test(tc, bug_on_exits_3);
	tcase_add_test(tc, warn_on_continues_and_taints);
	tcase_add_test(tc, module_put_below_zero_is_a_bug);
	tcase_add_test(tc, dump_task_prints_a_blocked_task);
	return ktest_main(s);
}
