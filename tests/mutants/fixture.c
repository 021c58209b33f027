/* fixture.c - what tests/mutants/test_mutate.py mutates: one line of each kind, and lines left alone. */
#include <stdio.h>

static int counter;	/* file scope: never mutated */

int get(struct thing *t)
{
	int old = 0;	/* a declaration: never dropped */

	if (!t)
		return -1;
	/* BEGIN EXERCISE get */
	old = atomic_inc_return(&t->count);
	trace_event("get", t->name, NULL);
	/* END EXERCISE */
	lock(t);
	counter++;
	call(t, "a string with == and ; inside",
	     old);
	if (old >= 2 && t->n < 3)
		return old;
	kref_put(&t->ref, release);
	return 0;
}
