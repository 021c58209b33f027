/* kobject_ref.c - taking and dropping references on a kobject. */
#include <exercise.h>
#include <kobject.h>
#include <task.h>

/*
 * kobject_get - take a reference; returns kobj, so that
 *	file->kobj = kobject_get(kobj);
 * reads as "this pointer now holds a reference".  The caller must already
 * be sure the object is alive (it holds a reference, or a lock that keeps
 * the object registered): a reference cannot be taken on a dead object.
 */
struct kobject *kobject_get(struct kobject *kobj)
{
	if (!kobj)
		return NULL;
	@EXERCISE kobject_get
	TODO("kobject_get", "one more holder now keeps the kobject alive: count it, in the kref the kobject embeds");
	@END
	trace_event("get", kobj->trace_name, "count=%d by=%s", kref_read(&kobj->kref), trace_by());
	return kobj;
}

/*
 * kobject_put - drop a reference; the last one releases the object.
 * After this call the caller must not touch kobj: if it was not the last
 * reference, another task may drop the last one at any moment.  That is
 * why the trace event is written first, while kobj is surely alive.
 */
void kobject_put(struct kobject *kobj)
{
	if (!kobj)
		return;
	trace_event("put", kobj->trace_name, "count=%d by=%s", kref_read(&kobj->kref) - 1, trace_by());
	@EXERCISE kobject_put
	TODO("kobject_put", "drop one holder; whoever drops the last one must release the object, and nobody else may");
	@END
}
