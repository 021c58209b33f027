/* check_trace2dot.c - what the figures claim, checked on the DOT trace2dot writes. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * The tests run the built program, as make figures will, on small
 * hand-written traces under tests/tools/traces/ and on synthetic ones from
 * tracegen.  Paths come from the environment (tools.mk sets them):
 *   TRACE2DOT  the binary (default build/tools/trace2dot)
 *   TRACEGEN   the generator (default build/tools/tracegen)
 *   TRACE_DIR  the traces (default tests/tools/traces)
 *   TMPDIR     where scratch files go (default /tmp)
 */
static const char *trace2dot, *tracegen, *trace_dir, *tmpdir;

struct run {
	int status;	/* exit status, or 128 + signal */
	char *out, *err;
};

static char *slurp(int fd)
{
	struct stat st;
	char *buf;

	ck_assert_int_eq(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(pread(fd, buf, (size_t)st.st_size, 0), st.st_size);
	buf[st.st_size] = '\0';
	return buf;
}

static int scratch(char *path, size_t len, const char *name)
{
	snprintf(path, len, "%s/t2d-%s-XXXXXX", tmpdir, name);
	int fd = mkstemp(path);

	ck_assert_msg(fd >= 0, "mkstemp %s: %s", path, strerror(errno));
	return fd;
}

/* run - argv[0] is the program; stdin from in_path (or /dev/null). */
static struct run run_in(const char *in_path, const char *const argv[])
{
	char op[512], ep[512];
	int ofd = scratch(op, sizeof(op), "out"), efd = scratch(ep, sizeof(ep), "err");
	struct run r;
	int ws;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (!pid) {
		int in = open(in_path ? in_path : "/dev/null", O_RDONLY);

		dup2(in, 0);
		dup2(ofd, 1);
		dup2(efd, 2);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
	r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	r.out = slurp(ofd);
	r.err = slurp(efd);
	close(ofd);
	close(efd);
	unlink(op);
	unlink(ep);
	return r;
}

#define RUN(...) run_in(NULL, (const char *const[]){ trace2dot, __VA_ARGS__, NULL })

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

static char *trace(const char *name)
{
	static char path[4][512];
	static int k;
	char *p = path[k++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", trace_dir, name);
	return p;
}

/* has_line - some line of text contains both a and b (b may be NULL). */
static bool has_line(const char *text, const char *a, const char *b)
{
	for (const char *p = text; (p = strstr(p, a)); p++) {
		const char *bol = p, *eol = strchr(p, '\n');

		while (bol > text && bol[-1] != '\n')
			bol--;
		if (!eol)
			eol = p + strlen(p);
		if (!b)
			return true;
		const char *q = strstr(bol, b);

		if (q && q < eol)
			return true;
	}
	return false;
}

/* A red edge is an "a -> b [...]" line drawn red. */
static bool has_red_edge(const char *dot)
{
	return has_line(dot, " -> ", "color=red, penwidth=2");
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* renders - the DOT is valid: Graphviz draws it, exit 0. */
static void assert_renders(const char *dot, const char *layout)
{
	char path[512];
	int fd = scratch(path, sizeof(path), "dot");
	struct run r;

	close(fd);
	write_file(path, dot, strlen(dot));
	if (!strcmp(layout, "neato"))
		r = run_in(NULL, (const char *const[]){ "neato", "-n2", "-Tsvg", "-o", "/dev/null",
							path, NULL });
	else
		r = run_in(NULL, (const char *const[]){ "dot", "-Tsvg", "-o", "/dev/null", path,
							NULL });
	ck_assert_msg(r.status == 0, "%s rejected trace2dot's output: %s", layout, r.err);
	unlink(path);
	run_free(&r);
}

static struct run ok_run(struct run r)
{
	ck_assert_msg(r.status == 0, "trace2dot failed (exit %d): %s", r.status, r.err);
	return r;
}

/* --- stage 1: the use-after-free the book's first chapter is about ------ */

/*
 * A trace made with KSIM_TRACE_CALLERS names each event's functions (in=):
 * the lifelines show the one a reader wrote (past the kernel's bookkeeping,
 * sysfs_active_got), the tooltip the chain; a trace without in= has no
 * function line (the book's figures stay as they are).
 */
START_TEST(lifelines_name_the_function_of_each_event)
{
	static const char text[] = "ksim-trace 1\n"
		"1 sh[2] active_get dirent:/sys/devices/dev0/attr in=sysfs_active_got<sysfs_get_active<main "
		"by=sh[2]\n"
		"2 sh[2] deactivate dirent:/sys/devices/dev0/attr in=sysfs_deactivate<sysfs_remove_self\n";
	char path[512];
	int fd = scratch(path, sizeof(path), "in");
	struct run r;

	close(fd);
	write_file(path, text, sizeof(text) - 1);
	r = ok_run(RUN("--lifelines", path));
	ck_assert_msg(has_line(r.out, "1 active_get", "sysfs_get_active()"),
		      "the active_get's box does not name sysfs_get_active():\n%s", r.out);
	ck_assert_msg(has_line(r.out, "2 deactivate", "sysfs_deactivate()"),
		      "the deactivate's box does not name sysfs_deactivate():\n%s", r.out);
	ck_assert_msg(has_line(r.out, "1 active_get", "in sysfs_active_got<sysfs_get_active<main"),
		      "the tooltip does not carry the whole chain:\n%s", r.out);
	assert_renders(r.out, "neato");
	run_free(&r);
	r = ok_run(RUN("--lifelines", trace("stage1-uaf.trace")));
	ck_assert_msg(!strstr(r.out, "()"), "a trace without in= drew a function:\n%s", r.out);
	run_free(&r);
	unlink(path);
}
END_TEST

START_TEST(stage1_freed_data_is_a_red_edge_at_the_end)
{
	struct run r = ok_run(RUN(trace("stage1-uaf.trace")));

	ck_assert_msg(has_line(r.out, "tooltip=\"kobject:mouse0 -> slab:mouse_priv#1 ref\"",
			       "color=red"),
		      "the kobject still points at the freed mouse_priv: that edge must be red");
	ck_assert_msg(has_line(r.out, "tooltip=\"slab:mouse_priv#1\"", "freed at 12"),
		      "a freed object is labelled 'freed at SEQ'");
	run_free(&r);
}
END_TEST

START_TEST(stage1_oops_is_a_red_note)
{
	struct run r = ok_run(RUN(trace("stage1-uaf.trace")));

	ck_assert(has_line(r.out, "shape=note", "color=red"));
	ck_assert(has_line(r.out, "Oops at 14", "cat[2]"));
	run_free(&r);
}
END_TEST

START_TEST(stage1_before_unplug_nothing_dangles)
{
	struct run r = ok_run(RUN("--at", "opened", trace("stage1-uaf.trace")));

	ck_assert_msg(!has_red_edge(r.out), "at mark 'opened' nothing is freed yet:\n%s", r.out);
	ck_assert_msg(has_line(r.out, "tooltip=\"file:cat[2]/3 -> kobject:mouse0 get\"", NULL),
		      "the open file holds the kobject");
	ck_assert(has_line(r.out, "label=", "after event 9 (--at opened)"));
	run_free(&r);
}
END_TEST

START_TEST(stage1_lifelines_show_reference_outliving_its_target)
{
	struct run r = ok_run(RUN("--lifelines", trace("stage1-uaf.trace")));

	ck_assert(strstr(r.out, "pos=\""));
	ck_assert(strstr(r.out, "neato -n2"));
	ck_assert_msg(has_line(r.out, "kobject:mouse0 -> slab:mouse_priv#1 ref outlived its target",
			       "color=red"),
		      "lifelines need a red cross edge from the kobject to the free of its data");
	ck_assert_msg(has_line(r.out, "14 oops", "cat[2]"), "events name their task");
	run_free(&r);
}
END_TEST

/* --- stage 2: the callback whose module is gone --------------------------- */

START_TEST(stage2_queued_callback_into_unloaded_module_is_red)
{
	struct run r = ok_run(RUN(trace("stage2-callback.trace")));

	ck_assert_msg(has_line(r.out,
			       "tooltip=\"work:sysfs_schedule_callback_work#1 -> module:scsi_mod func ",
			       "color=red"),
		      "the work item's function lives in unloaded scsi_mod: red");
	run_free(&r);
}
END_TEST

START_TEST(stage2_callback_is_fine_while_module_loaded)
{
	struct run r = ok_run(RUN("--at", "queued", trace("stage2-callback.trace")));

	ck_assert(has_line(r.out, "work:sysfs_schedule_callback_work#1 -> module:scsi_mod func",
			   "func sdev_store_delete_callback"));
	ck_assert_msg(!has_red_edge(r.out), "scsi_mod is still loaded at 'queued':\n%s", r.out);
	run_free(&r);
}
END_TEST

START_TEST(stage2_objects_cluster_by_owner_module)
{
	struct run r = ok_run(RUN(trace("stage2-callback.trace")));
	const char *c = strstr(r.out, "subgraph cluster_scsi_mod {");

	ck_assert_msg(c, "objects owned by scsi_mod belong in cluster_scsi_mod");
	const char *end = strstr(c, "\n\t}\n");

	ck_assert_ptr_nonnull(end);
	const char *w = strstr(c, "tooltip=\"work:sysfs_schedule_callback_work#1\"");
	const char *k = strstr(c, "tooltip=\"kobject:sda\"");

	ck_assert_msg(w && w < end && k && k < end, "work item and kobject:sda are in the cluster");
	ck_assert(strstr(r.out, "unloaded at 17"));
	ck_assert(strstr(r.out, "newrank=true"));
	run_free(&r);
}
END_TEST

START_TEST(stage2_module_reference_is_drawn_while_held)
{
	struct run r = ok_run(RUN("--at", "6", trace("stage2-callback.trace")));

	ck_assert(has_line(r.out, "file:sh[2]/1 -> module:scsi_mod module", "try_module_get"));
	run_free(&r);
	r = ok_run(RUN("--at", "11", trace("stage2-callback.trace")));
	ck_assert(!has_line(r.out, "file:sh[2]/1 -> module:scsi_mod module", NULL));
	run_free(&r);
}
END_TEST

START_TEST(stage2_lifelines_cross_edge_to_unload)
{
	struct run r = ok_run(RUN("--lifelines", trace("stage2-callback.trace")));

	ck_assert(has_line(r.out, "work:sysfs_schedule_callback_work#1 -> module:scsi_mod func "
			   "outlived", "color=red"));
	ck_assert(has_line(r.out, "mark queued", NULL));
	run_free(&r);
}
END_TEST

/* --- stage 3: the clean story ---------------------------------------------- */

START_TEST(stage3_clean_story_has_no_red_edge)
{
	struct run r = ok_run(RUN(trace("stage3-clean.trace")));

	ck_assert_msg(!has_red_edge(r.out), "stage 3 leaves nothing dangling:\n%s", r.out);
	ck_assert(!strstr(r.out, "shape=note"));
	run_free(&r);
	r = ok_run(RUN("--lifelines", trace("stage3-clean.trace")));
	ck_assert_msg(!strstr(r.out, "outlived"), "no reference outlives its target in stage 3");
	run_free(&r);
}
END_TEST

START_TEST(stage3_active_reference_exists_at_mark_and_not_at_end)
{
	const char *edge = "tooltip=\"file:cat[2]/3 -> dirent:/sys/devices/mouse0/resolution active\"";
	struct run r = ok_run(RUN("--at", "reading", trace("stage3-clean.trace")));

	ck_assert_msg(has_line(r.out, edge, "color=blue"),
		      "at 'reading' the read holds an active reference, drawn blue");
	ck_assert(has_line(r.out, edge, "bold,dashed"));
	run_free(&r);
	r = ok_run(RUN(trace("stage3-clean.trace")));
	ck_assert_msg(!strstr(r.out, edge), "active_put dropped it by the end");
	run_free(&r);
}
END_TEST

START_TEST(stage3_lifelines_show_active_reference_held)
{
	struct run r = ok_run(RUN("--lifelines", trace("stage3-clean.trace")));

	/* Events 10 and 14 (indices 9 and 13): active_get and active_put on /sys/devices/mouse0. */
	ck_assert_msg(has_line(r.out, "\te9 -> e13 ", "an active reference is held"),
		      "between active_get and active_put the line is drawn thick blue:\n%s", r.out);
	ck_assert(strstr(r.out, "thick blue: an active reference is held"));
	run_free(&r);
	r = ok_run(RUN("--lifelines", trace("stage1-uaf.trace")));
	ck_assert_msg(!strstr(r.out, "thick blue"), "no key for what is not drawn");
	run_free(&r);
}
END_TEST

START_TEST(at_seq_and_label_prefix)
{
	const char *edge = "file:cat[2]/3 -> dirent:/sys/devices/mouse0/resolution active";
	struct run r = ok_run(RUN("--at", "10", trace("stage3-clean.trace")));

	ck_assert(!strstr(r.out, edge));
	run_free(&r);
	r = ok_run(RUN("-a", "11", trace("stage3-clean.trace")));
	ck_assert(strstr(r.out, edge));
	run_free(&r);
	r = ok_run(RUN("--at", "label:reading", trace("stage3-clean.trace")));
	ck_assert(strstr(r.out, edge));
	run_free(&r);
	r = ok_run(RUN("--at", "0", trace("stage3-clean.trace")));
	ck_assert(strstr(r.out, "before the first event"));
	run_free(&r);
}
END_TEST

START_TEST(at_unknown_label_is_an_error)
{
	const char *path = trace("stage3-clean.trace");
	struct run r = RUN("--at", "no_such_mark", path);
	char prefix[600];

	snprintf(prefix, sizeof(prefix), "%s:", path);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(!strncmp(r.err, prefix, strlen(prefix)) && strstr(r.err, "no_such_mark"),
		      "want 'FILE:LINE: ...no_such_mark...', got: %s", r.err);
	ck_assert_str_eq(r.out, "");
	run_free(&r);
}
END_TEST

/* --- moments named by events: the seed scripts carry no marks -------------- */

START_TEST(before_last_close_is_the_moment_the_file_still_holds)
{
	/* The file points at its dirent and holds a count on it: one edge, both words. */
	const char *hold = "tooltip=\"file:cat[2]/3 -> dirent:/sys/devices/mouse0/resolution ref get\"";
	struct run r = ok_run(RUN("--before-last", "close", trace("stage3-clean.trace")));

	ck_assert_msg(strstr(r.out, hold), "before the close the file holds its dirent:\n%s", r.out);
	ck_assert(has_line(r.out, "label=", "just before the last close (event 27)"));
	run_free(&r);
	r = ok_run(RUN("--after-last", "close", trace("stage3-clean.trace")));
	/* Closed, it follows its pointer no more; its count goes with the put after it. */
	ck_assert_msg(!strstr(r.out, hold) &&
		      strstr(r.out, "file:cat[2]/3 -> dirent:/sys/devices/mouse0/resolution get\""),
		      "right after the close only the counted reference is left:\n%s", r.out);
	ck_assert(has_line(r.out, "label=", "right after the last close (event 27)"));
	run_free(&r);
}
END_TEST

START_TEST(before_last_event_on_one_object)
{
	const char *edge = "file:cat[2]/3 -> dirent:/sys/devices/mouse0/resolution active";
	struct run r = ok_run(RUN("--before-last", "active_put:dirent:/sys/devices/mouse0/resolution",
				  trace("stage3-clean.trace")));

	ck_assert_msg(strstr(r.out, edge), "before its active_put the read holds it");
	ck_assert(has_line(r.out, "label=", "of dirent:/sys/devices/mouse0/resolution (event 13)"));
	run_free(&r);
	/* The short name works too, and so does an event that has no object filter. */
	r = ok_run(RUN("--after-last", "mod_unload:mousedrv", trace("stage3-clean.trace")));
	ck_assert(has_line(r.out, "label=", "right after the last mod_unload of mousedrv (event 25)"));
	run_free(&r);
}
END_TEST

START_TEST(moment_errors_are_usage_errors)
{
	const char *path = trace("stage3-clean.trace");
	char prefix[600];
	struct run r = RUN("--before-last", "oops", path);

	snprintf(prefix, sizeof(prefix), "%s:", path);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(!strncmp(r.err, prefix, strlen(prefix)) && strstr(r.err, "no 'oops' event"),
		      "want 'FILE:LINE: no 'oops' event...', got: %s", r.err);
	ck_assert_str_eq(r.out, "");
	run_free(&r);
	r = RUN("--before-last", "close:file:nosuch", path);
	ck_assert_int_eq(r.status, 2);
	run_free(&r);
	r = RUN("--after-last", "frobnicate", path);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err, "no such event kind"), "got: %s", r.err);
	run_free(&r);
	r = RUN("--at", "reading", "--before-last", "close", path);
	ck_assert_int_eq(r.status, 2);
	ck_assert(strstr(r.err, "only one of"));
	run_free(&r);
}
END_TEST

/* --- what the figures of the seed examples rely on ------------------------ */

START_TEST(release_reading_an_unloaded_module_is_red)
{
	const char *edge = "tooltip=\"kobject:host0 -> module:libata ref\"";
	struct run r = ok_run(RUN("--before-last", "close", trace("host-release.trace")));

	ck_assert_msg(has_line(r.out, edge, "color=red"),
		      "host0 points into libata, which is unloaded: red\n%s", r.out);
	run_free(&r);
	r = ok_run(RUN(trace("host-release.trace")));
	ck_assert_msg(has_line(r.out, edge, "color=red"),
		      "host0's release reads libata's data: still red once it is released");
	ck_assert(has_line(r.out, "tooltip=\"kobject:host0\"", "released at 18"));
	run_free(&r);
}
END_TEST

START_TEST(child_holding_its_parent_is_one_edge)
{
	struct run r = ok_run(RUN("--before-last", "close", trace("host-release.trace")));

	ck_assert_msg(has_line(r.out, "kobject:0:0:0:0 -> kobject:host0 parent get",
			       "parent + kobject_get"),
		      "the parent pointer and the child's get are drawn as one edge:\n%s", r.out);
	ck_assert_msg(!strstr(r.out, "kobject:0:0:0:0 -> kobject:host0 get\""),
		      "no second edge for the get");
	run_free(&r);
}
END_TEST

START_TEST(task_put_drops_a_task_get_first)
{
	struct run r = ok_run(RUN("--before-last", "close", trace("host-release.trace")));

	ck_assert_msg(strstr(r.out, "file:/sys/block/sda/device/delete -> kobject:0:0:0:0 ref get"),
		      "rmmod's puts must leave the open file's reference:\n%s", r.out);
	ck_assert_msg(!strstr(r.out, "insmod[2] -> kobject:0:0:0:0"),
		      "the task-charged get is the one a task-charged put drops");
	run_free(&r);
}
END_TEST

START_TEST(pointer_goes_with_the_holders_last_put)
{
	const char *edge = "work:sysfs_schedule_callback_work -> kobject:0:0:0:0 ref";
	struct run r = ok_run(RUN("--before-last", "put", trace("callback-put.trace")));

	ck_assert_msg(has_line(r.out, edge, "ref + kobject_get"),
		      "while the callback holds its kobject, pointer and get are one edge:\n%s", r.out);
	run_free(&r);
	r = ok_run(RUN(trace("callback-put.trace")));
	ck_assert_msg(!strstr(r.out, edge),
		      "after its own put the callback's pointer is no reference:\n%s", r.out);
	ck_assert(!has_red_edge(r.out));
	run_free(&r);
}
END_TEST

START_TEST(oops_in_no_object_draws_no_node)
{
	struct run r = ok_run(RUN(trace("host-release.trace")));

	ck_assert(has_line(r.out, "shape=note", "Oops at 19"));
	ck_assert_msg(!strstr(r.out, "tooltip=\"kernel:ksim\""),
		      "kernel:ksim is where the oops happened, not an object to draw");
	run_free(&r);
}
END_TEST

START_TEST(file_names_the_task_that_opened_it)
{
	struct run r = ok_run(RUN(trace("stage1-uaf.trace")));

	ck_assert(has_line(r.out, "tooltip=\"file:cat[2]/3\"", "opened by cat[2]"));
	run_free(&r);
}
END_TEST

/* --- figure options: --hide-gone, --legend, --title ------------------------ */

START_TEST(hide_gone_keeps_only_what_still_matters)
{
	struct run r = ok_run(RUN("--hide-gone", trace("stage1-uaf.trace")));

	ck_assert_msg(has_line(r.out, "tooltip=\"slab:mouse_priv#1\"", "freed at 12"),
		      "a freed object something still points at is the bug: it stays");
	ck_assert(has_red_edge(r.out));
	run_free(&r);
	r = ok_run(RUN("--hide-gone", trace("stage3-clean.trace")));
	ck_assert_msg(!strstr(r.out, "tooltip=\"kobject:mouse0\"") &&
		      !strstr(r.out, "tooltip=\"file:cat[2]/3\"") &&
		      !strstr(r.out, "tooltip=\"dirent:"),
		      "at the end of a clean run everything is freed and unreferenced:\n%s", r.out);
	ck_assert_msg(strstr(r.out, "tooltip=\"module:mousedrv\""), "modules stay");
	run_free(&r);
	r = ok_run(RUN(trace("stage3-clean.trace")));
	ck_assert_msg(strstr(r.out, "tooltip=\"kobject:mouse0\""), "without it, all are drawn");
	run_free(&r);
}
END_TEST

START_TEST(legend_explains_what_is_drawn)
{
	struct run r = ok_run(RUN("--legend", trace("stage1-uaf.trace")));

	ck_assert(has_line(r.out, "legend [", "red arrow"));
	ck_assert(has_line(r.out, "legend [", "red note"));
	assert_renders(r.out, "dot");
	run_free(&r);
	r = ok_run(RUN("--legend", "--at", "reading", trace("stage3-clean.trace")));
	ck_assert(has_line(r.out, "legend [", "blue dashed arrow"));
	ck_assert_msg(!has_line(r.out, "legend [", "red arrow"),
		      "the key explains only what the figure shows");
	run_free(&r);
	r = ok_run(RUN(trace("stage1-uaf.trace")));
	ck_assert(!strstr(r.out, "legend ["));
	run_free(&r);
}
END_TEST

START_TEST(title_replaces_the_path)
{
	struct run r = ok_run(RUN("--title", "Stage 1, \"uaf\"", trace("stage1-uaf.trace")));

	ck_assert_msg(strstr(r.out, "label=\"Stage 1, \\\"uaf\\\": end of trace (event 14)\""),
		      "got:\n%s", r.out);
	ck_assert_msg(!strstr(r.out, "stage1-uaf.trace"), "a figure must not name a scratch path");
	run_free(&r);
	r = ok_run(RUN("-l", "--title", "Stage 1", trace("stage1-uaf.trace")));
	ck_assert(strstr(r.out, "label=\"Stage 1: lifelines"));
	run_free(&r);
}
END_TEST

/* --- filters ------------------------------------------------------------------ */

START_TEST(only_keeps_the_kinds_asked_for)
{
	struct run r = ok_run(RUN("--only", "kobject,module", trace("stage2-callback.trace")));

	ck_assert(strstr(r.out, "tooltip=\"kobject:sda\""));
	ck_assert(strstr(r.out, "tooltip=\"module:scsi_mod\""));
	ck_assert_msg(!strstr(r.out, "tooltip=\"work:") && !strstr(r.out, "tooltip=\"dirent:") &&
		      !strstr(r.out, "tooltip=\"file:"), "--only kobject,module drew:\n%s", r.out);
	ck_assert(!strstr(r.out, " -> "));	/* no edge between a kobject and a module here */
	run_free(&r);
}
END_TEST

START_TEST(object_keeps_it_and_its_neighbours)
{
	struct run r = ok_run(RUN("--object", "sda", trace("stage2-callback.trace")));

	ck_assert(strstr(r.out, "tooltip=\"kobject:sda\""));
	ck_assert(strstr(r.out, "tooltip=\"dirent:/sys/block/sda/device/delete\""));
	ck_assert(strstr(r.out, "tooltip=\"work:sysfs_schedule_callback_work#1\""));
	ck_assert_msg(!strstr(r.out, "tooltip=\"module:scsi_mod\"") &&
		      !strstr(r.out, "tooltip=\"file:"),
		      "module and the closed file are not neighbours of sda at the end:\n%s",
		      r.out);
	run_free(&r);
	r = ok_run(RUN("--lifelines", "--object", "kobject:mouse0", "--object", "file:cat[2]/3",
		       trace("stage1-uaf.trace")));
	ck_assert(strstr(r.out, "label=\"kobject:mouse0\""));
	ck_assert(strstr(r.out, "label=\"slab:mouse_priv#1\""));
	ck_assert(!strstr(r.out, "label=\"module:mousedrv\""));
	run_free(&r);
}
END_TEST

START_TEST(object_unknown_is_an_error)
{
	struct run r = RUN("--object", "nosuch", trace("stage2-callback.trace"));

	ck_assert_int_eq(r.status, 2);
	ck_assert(strstr(r.err, "nosuch"));
	run_free(&r);
}
END_TEST

/* --- Graphviz accepts what we write ---------------------------------------- */

static const char *const stories[] = {
	"stage1-uaf.trace", "stage2-callback.trace", "stage3-clean.trace",
	"comments.trace", "unknown-event.trace", "host-release.trace", "callback-put.trace",
};

START_TEST(reference_graph_renders_with_dot)
{
	struct run r = ok_run(RUN(trace(stories[_i])));

	assert_renders(r.out, "dot");
	run_free(&r);
	r = ok_run(RUN("--at", "2", trace(stories[_i])));
	assert_renders(r.out, "dot");
	run_free(&r);
}
END_TEST

START_TEST(lifelines_render_with_neato_n2)
{
	struct run r = ok_run(RUN("-l", trace(stories[_i])));

	assert_renders(r.out, "neato");
	run_free(&r);
}
END_TEST

/* --- empty, odd and bad input --------------------------------------------- */

START_TEST(empty_file_is_an_empty_graph)
{
	char path[512];
	int fd = scratch(path, sizeof(path), "empty");
	struct run r;

	close(fd);
	r = ok_run(RUN(path));
	ck_assert(strstr(r.out, "digraph"));
	ck_assert_str_eq(r.err, "");
	assert_renders(r.out, "dot");
	run_free(&r);
	r = ok_run(RUN("-l", path));
	assert_renders(r.out, "neato");
	run_free(&r);
	unlink(path);
}
END_TEST

START_TEST(header_only_and_comments_are_fine)
{
	struct run r = ok_run(RUN(trace("header-only.trace")));

	ck_assert(strstr(r.out, "digraph"));
	run_free(&r);
	r = ok_run(RUN(trace("comments.trace")));
	ck_assert(strstr(r.out, "sh[1] -> kobject:sda get"));
	run_free(&r);
	r = ok_run(RUN(trace("no-final-newline.trace")));
	ck_assert_msg(strstr(r.out, "sh[1] -> kobject:sda get"),
		      "a complete last line without newline is kept");
	run_free(&r);
}
END_TEST

START_TEST(unknown_event_is_a_warning)
{
	const char *path = trace("unknown-event.trace");
	struct run r = RUN(path);
	char want[600];

	snprintf(want, sizeof(want), "%s:4: unknown event 'frobnicate' ignored", path);
	ck_assert_msg(r.status == 0, "an unknown event must not fail the run: %s", r.err);
	ck_assert_msg(strstr(r.err, want), "want '%s' on stderr, got: %s", want, r.err);
	ck_assert(strstr(r.out, "sh[1] -> kobject:sda get"));	/* the rest is drawn */
	run_free(&r);
}
END_TEST

/* Each file in traces/bad/ is wrong in one way: where, and what is said. */
static const struct {
	const char *file;
	int line;
	const char *says;
} bad[] = {
	{ "no-header.trace", 1, "missing header" },
	{ "bad-version.trace", 1, "unsupported trace version" },
	{ "seq-not-number.trace", 3, "bad sequence number" },
	{ "seq-not-increasing.trace", 4, "not greater than the previous" },
	{ "seq-zero.trace", 3, "bad sequence number" },
	{ "missing-event.trace", 3, "missing EVENT" },
	{ "missing-object.trace", 3, "missing OBJECT" },
	{ "bad-task.trace", 2, "bad task" },
	{ "bad-object.trace", 2, "bad object" },
	{ "key-without-equals.trace", 3, "expected KEY=VALUE" },
	{ "empty-key.trace", 2, "empty key" },
	{ "bad-count.trace", 3, "bad count value" },
	{ "bad-by.trace", 3, "bad by= value" },
	{ "bad-owner.trace", 2, "bad owner= value" },
	{ "mark-without-label.trace", 3, "mark wants label:" },
	{ "truncated.trace", 3, "truncated last line" },
	{ "truncated-key.trace", 3, "truncated last line" },
};

static void assert_rejected(const char *path, int line, const char *says)
{
	struct run r = RUN(path);
	char prefix[600];

	snprintf(prefix, sizeof(prefix), "%s:%d: ", path, line);
	ck_assert_msg(r.status == 2, "%s: want exit 2, got %d", path, r.status);
	ck_assert_msg(!strncmp(r.err, prefix, strlen(prefix)),
		      "want a message starting '%s', got: %s", prefix, r.err);
	ck_assert_msg(strstr(r.err, says), "%s: want '%s' in: %s", path, says, r.err);
	ck_assert_msg(!*r.out, "no DOT for a bad trace");
	run_free(&r);
}

START_TEST(malformed_trace_is_rejected_with_file_and_line)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/bad/%s", trace_dir, bad[_i].file);
	assert_rejected(path, bad[_i].line, bad[_i].says);
}
END_TEST

START_TEST(nul_byte_is_rejected)
{
	static const char text[] = "ksim-trace 1\n1 sh[1] create kob\0ject:sda count=1\n";
	char path[512];
	int fd = scratch(path, sizeof(path), "nul");

	close(fd);
	write_file(path, text, sizeof(text) - 1);
	assert_rejected(path, 2, "NUL byte");
	unlink(path);
}
END_TEST

START_TEST(overlong_line_is_rejected)
{
	char path[512];
	int fd = scratch(path, sizeof(path), "long");
	FILE *f = fdopen(fd, "w");

	fputs("ksim-trace 1\n1 sh[1] create kobject:sda count=1\n2 sh[1] oops kobject:sda msg=", f);
	for (int i = 0; i < 10000; i++)
		putc('x', f);
	fputs("\n3 sh[1] put kobject:sda count=0\n", f);
	fclose(f);
	assert_rejected(path, 3, "line too long");
	unlink(path);
}
END_TEST

START_TEST(output_file_is_not_created_for_a_bad_trace)
{
	char out[512], path[512];
	struct run r;

	snprintf(path, sizeof(path), "%s/bad/bad-count.trace", trace_dir);
	snprintf(out, sizeof(out), "%s/t2d-never-%d.dot", tmpdir, (int)getpid());
	r = RUN("-o", out, path);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(access(out, F_OK) != 0, "a bad trace must leave no half-written figure");
	run_free(&r);
	r = ok_run(RUN("-o", out, trace("stage1-uaf.trace")));
	ck_assert_str_eq(r.out, "");
	ck_assert_int_eq(access(out, R_OK), 0);
	unlink(out);
	run_free(&r);
}
END_TEST

START_TEST(missing_file_and_usage_errors)
{
	struct run r = RUN("/nonexistent/trace");

	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err, "trace2dot: /nonexistent/trace: No such file or directory"),
		      "got: %s", r.err);
	run_free(&r);
	r = RUN("--frobnicate", trace("stage1-uaf.trace"));
	ck_assert_int_eq(r.status, 2);
	ck_assert(strstr(r.err, "--frobnicate"));
	run_free(&r);
	r = RUN("--at");
	ck_assert_int_eq(r.status, 2);
	run_free(&r);
	r = RUN("--max-nodes", "many", trace("stage1-uaf.trace"));
	ck_assert_int_eq(r.status, 2);
	run_free(&r);
	r = RUN("--help");
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "neato -n2 -Tsvg"), "--help says how to render lifelines");
	run_free(&r);
}
END_TEST

START_TEST(reads_standard_input)
{
	struct run r = ok_run(run_in(trace("stage1-uaf.trace"),
				     (const char *const[]){ trace2dot, NULL }));

	ck_assert(strstr(r.out, "<stdin>"));
	ck_assert(has_red_edge(r.out));
	run_free(&r);
}
END_TEST

/*
 * Never crash: a few hundred damaged copies of a real trace (bytes
 * flipped, lines cut, junk inserted) must each end in exit 0 or 2.
 */
START_TEST(damaged_traces_never_crash)
{
	char src[512], path[512];
	int fd = scratch(path, sizeof(path), "fuzz");
	unsigned seed = 12345;

	close(fd);
	snprintf(src, sizeof(src), "%s/stage2-callback.trace", trace_dir);
	FILE *f = fopen(src, "r");

	ck_assert_ptr_nonnull(f);
	char *orig = malloc(1 << 16);
	size_t len = fread(orig, 1, (1 << 16) - 1, f);

	fclose(f);
	char *buf = malloc(len + 64);

	for (int round = 0; round < 300; round++) {
		memcpy(buf, orig, len);
		size_t n = len;

		for (int k = 0; k < 1 + round % 4 && n; k++) {
			seed = seed * 1103515245 + 12345;
			size_t at = (seed >> 8) % n;
			static const char junk[] = " =:[]#\n\0\xff-9x";

			switch (round % 3) {
			case 0: buf[at] = junk[(seed >> 4) % (sizeof(junk) - 1)]; break;
			case 1: n = at; break;	/* cut short */
			default: buf[at] = (char)(seed >> 16); break;
			}
		}
		write_file(path, buf, n);
		const char *const modes[][3] = { { trace2dot, path, NULL },
						  { trace2dot, "-l", path } };
		struct run r = run_in(NULL, (const char *const[]){ modes[round & 1][0],
			modes[round & 1][1], modes[round & 1][2], NULL });

		ck_assert_msg(r.status == 0 || r.status == 2,
			      "round %d: exit %d (a crash?) on damaged input: %s", round, r.status,
			      r.err);
		run_free(&r);
	}
	free(buf);
	free(orig);
	unlink(path);
}
END_TEST

/* --- scale ------------------------------------------------------------------ */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

START_TEST(hundred_thousand_events_collapse_and_render_fast)
{
	char path[512];
	int fd = scratch(path, sizeof(path), "big");
	struct run r;
	double t;

	close(fd);
	r = run_in(NULL, (const char *const[]){ tracegen, "-n", "100000", "-o", path, NULL });
	ck_assert_msg(r.status == 0, "tracegen: %s", r.err);
	run_free(&r);

	t = now();
	r = ok_run(RUN(path));
	t = now() - t;
	ck_assert_msg(t < 5.0, "100k events took %.2f s; trace2dot must stay linear", t);
	ck_assert_msg(strstr(r.out, "collapsed: "), "a big graph is summarised by kind");
	ck_assert_msg(has_red_edge(r.out), "the leaked references of tracegen are red");
	t = now();
	assert_renders(r.out, "dot");
	ck_assert_msg(now() - t < 5.0, "the collapsed graph must render in seconds");
	run_free(&r);

	r = ok_run(RUN("--lifelines", path));
	ck_assert(strstr(r.out, "the 12 most eventful"));
	ck_assert_msg(strstr(r.out, "\tr11 [") && !strstr(r.out, "\tr12 [label"),
		      "collapsed lifelines keep 12 objects, not one");
	ck_assert_msg(has_line(r.out, " -> ", "events\""),
		      "a row cut short says how many of its events are left out");
	t = now();
	assert_renders(r.out, "neato");
	ck_assert_msg(now() - t < 10.0, "collapsed lifelines must render in seconds");
	run_free(&r);
	r = ok_run(RUN("--lifelines", "--max-objects", "3", path));
	ck_assert(strstr(r.out, "the 3 most eventful"));
	ck_assert(strstr(r.out, "\tr2 [") && !strstr(r.out, "\tr3 [shape=plaintext, style=\"\", fontsize=10, pos=\"110,-144!\""));
	run_free(&r);

	r = ok_run(RUN("--at", "50000", "--object", "dev100", path));
	ck_assert(!strstr(r.out, "collapsed: "));
	assert_renders(r.out, "dot");
	run_free(&r);
	unlink(path);
}
END_TEST

/*
 * A small figure ranks holders above what they hold; past a few dozen
 * references the counted ones stop constraining dot, or it takes minutes.
 */
START_TEST(many_references_float_in_the_layout)
{
	char path[512];
	int fd = scratch(path, sizeof(path), "many");
	FILE *f = fdopen(fd, "w");
	unsigned seq = 0;
	struct run r;
	double t;

	fputs("ksim-trace 1\n", f);
	for (int i = 0; i < 150; i++) {
		fprintf(f, "%u sh[1] create kobject:k%d count=1\n", ++seq, i);
		fprintf(f, "%u sh[1] create dirent:/sys/k%d count=1 ref=kobject:k%d\n", ++seq, i, i);
		fprintf(f, "%u cat[2] open file:f%d ref=dirent:/sys/k%d\n", ++seq, i, i);
		fprintf(f, "%u cat[2] get kobject:k%d count=2 by=file:f%d\n", ++seq, i, i);
	}
	fclose(f);
	r = ok_run(RUN("--max-nodes", "1000", path));
	ck_assert_msg(has_line(r.out, "file:f7 -> kobject:k7 get", "constraint=false"),
		      "150 counted references must not constrain the ranking");
	ck_assert(!has_line(r.out, "dirent:/sys/k7 -> kobject:k7 ref", "constraint=false"));
	t = now();
	assert_renders(r.out, "dot");
	ck_assert_msg(now() - t < 10.0, "450 nodes took %.1f s to lay out", now() - t);
	run_free(&r);
	r = ok_run(RUN(trace("stage1-uaf.trace")));
	ck_assert_msg(!strstr(r.out, "constraint=false"), "a small figure ranks every edge");
	run_free(&r);
	unlink(path);
}
END_TEST

static Suite *trace2dot_suite(void)
{
	Suite *s = suite_create("trace2dot");
	TCase *tc;

	tc = tcase_create("stories");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, stage1_freed_data_is_a_red_edge_at_the_end);
	tcase_add_test(tc, stage1_oops_is_a_red_note);
	tcase_add_test(tc, stage1_before_unplug_nothing_dangles);
	tcase_add_test(tc, stage1_lifelines_show_reference_outliving_its_target);
	tcase_add_test(tc, stage2_queued_callback_into_unloaded_module_is_red);
	tcase_add_test(tc, stage2_callback_is_fine_while_module_loaded);
	tcase_add_test(tc, stage2_objects_cluster_by_owner_module);
	tcase_add_test(tc, stage2_module_reference_is_drawn_while_held);
	tcase_add_test(tc, stage2_lifelines_cross_edge_to_unload);
	tcase_add_test(tc, stage3_clean_story_has_no_red_edge);
	tcase_add_test(tc, stage3_active_reference_exists_at_mark_and_not_at_end);
	tcase_add_test(tc, stage3_lifelines_show_active_reference_held);
	tcase_add_test(tc, at_seq_and_label_prefix);
	tcase_add_test(tc, at_unknown_label_is_an_error);
	tcase_add_test(tc, before_last_close_is_the_moment_the_file_still_holds);
	tcase_add_test(tc, before_last_event_on_one_object);
	tcase_add_test(tc, moment_errors_are_usage_errors);
	tcase_add_test(tc, release_reading_an_unloaded_module_is_red);
	tcase_add_test(tc, child_holding_its_parent_is_one_edge);
	tcase_add_test(tc, task_put_drops_a_task_get_first);
	tcase_add_test(tc, pointer_goes_with_the_holders_last_put);
	tcase_add_test(tc, oops_in_no_object_draws_no_node);
	tcase_add_test(tc, file_names_the_task_that_opened_it);
	suite_add_tcase(s, tc);

	tc = tcase_create("figure options");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, lifelines_name_the_function_of_each_event);
	tcase_add_test(tc, hide_gone_keeps_only_what_still_matters);
	tcase_add_test(tc, legend_explains_what_is_drawn);
	tcase_add_test(tc, title_replaces_the_path);
	suite_add_tcase(s, tc);

	tc = tcase_create("filters");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, only_keeps_the_kinds_asked_for);
	tcase_add_test(tc, object_keeps_it_and_its_neighbours);
	tcase_add_test(tc, object_unknown_is_an_error);
	suite_add_tcase(s, tc);

	tc = tcase_create("graphviz");
	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, reference_graph_renders_with_dot, 0,
			    sizeof(stories) / sizeof(stories[0]));
	tcase_add_loop_test(tc, lifelines_render_with_neato_n2, 0,
			    sizeof(stories) / sizeof(stories[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("input");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, empty_file_is_an_empty_graph);
	tcase_add_test(tc, header_only_and_comments_are_fine);
	tcase_add_test(tc, unknown_event_is_a_warning);
	tcase_add_loop_test(tc, malformed_trace_is_rejected_with_file_and_line, 0,
			    sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, nul_byte_is_rejected);
	tcase_add_test(tc, overlong_line_is_rejected);
	tcase_add_test(tc, output_file_is_not_created_for_a_bad_trace);
	tcase_add_test(tc, missing_file_and_usage_errors);
	tcase_add_test(tc, reads_standard_input);
	tcase_add_test(tc, damaged_traces_never_crash);
	suite_add_tcase(s, tc);

	tc = tcase_create("scale");
	tcase_set_timeout(tc, 90);
	tcase_add_test(tc, hundred_thousand_events_collapse_and_render_fast);
	tcase_add_test(tc, many_references_float_in_the_layout);
	suite_add_tcase(s, tc);
	return s;
}

static const char *env_or(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return v && *v ? v : dflt;
}

int main(int argc, char **argv)
{
	SRunner *sr;
	int failed, ran;

	trace2dot = env_or("TRACE2DOT", argc > 1 ? argv[1] : "build/tools/trace2dot");
	tracegen = env_or("TRACEGEN", "build/tools/tracegen");
	trace_dir = env_or("TRACE_DIR", "tests/tools/traces");
	tmpdir = env_or("TMPDIR", "/tmp");
	if (access(trace2dot, X_OK) || access(tracegen, X_OK)) {
		fprintf(stderr, "check_trace2dot: %s or %s is not built (make check-tools)\n",
			trace2dot, tracegen);
		return 1;
	}

	sr = srunner_create(trace2dot_suite());
	srunner_set_fork_status(sr, getenv("CK_FORK") ? CK_FORK_GETENV : CK_FORK);	/* CK_FORK=no for gdb */
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	ran = srunner_ntests_run(sr);
	srunner_free(sr);
	/* CK_RUN_SUITE/CK_RUN_CASE with a misspelt name select nothing and "pass". */
	if (!ran) {
		fputs("check_trace2dot: no test ran (check CK_RUN_SUITE / CK_RUN_CASE)\n", stderr);
		return 1;
	}
	return failed ? 1 : 0;
}
