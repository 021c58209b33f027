/* verify.h - the RFD's check: once an object is deleted, every reference to it must go. */
#ifndef KSIM_VERIFY_H
#define KSIM_VERIFY_H

#include <kernel.h>

/*
 * The RFD mail (its section 3) proposes to keep the reference counts
 * only to verify the conversion: after a driver unregisters, every count
 * it held must be back to zero.  This stage does that after every
 * scenario (stage_verify()).
 *
 * verify_expect_gone - obj (called name in messages) has been deleted:
 * from now on whatever still holds it must let go, so that by the end of
 * the run it is released or freed.  verify_forget - it went.
 * verify_report - print one line for each object still waiting, return
 * how many there are.
 *
 * Called where an object is deleted and where it goes, never per
 * operation: the list's lock must not order the operations of different
 * tasks, or helgrind and drd would miss a race between them.
 */
void verify_expect_gone(const void *obj, const char *name, const char *what);
void verify_forget(const void *obj);
int verify_report(void);

#endif
