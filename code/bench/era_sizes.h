/* era_sizes.h - the kernel's sysfs node of each era, field by field with x86-64 sizes, for sizeof(). */
#ifndef KSIM_BENCH_ERA_SIZES_H
#define KSIM_BENCH_ERA_SIZES_H

#include <stdio.h>

/*
 * Not the kernel's headers (they do not build in user space): the same
 * fields in the same order, with stand-ins of the same size and alignment
 * on x86-64, no lockdep, no debug options.  The compiler then pads them
 * as the kernel's compiler would.  Field lists as in fs/sysfs/sysfs.h of
 * 2007 and include/linux/kernfs.h of 3.14.
 */
struct era_list_head { void *next, *prev; };
struct era_rb_node { unsigned long parent_color; void *right, *left; };
/* rw_semaphore without debugging, the spinlock-based one: activity, wait_lock, wait_list. */
struct era_rw_semaphore { int activity; unsigned int wait_lock; struct era_list_head wait_list; };

/* 2007, Tejun Heo's first active reference: s_active is an rw_semaphore (our stage 3). */
struct era_sysfs_dirent_rwsem {
	int s_count;
	struct era_rw_semaphore s_active;
	void *s_parent;
	struct era_list_head s_sibling, s_children;
	const char *s_name;
	union { void *kobj, *target, *attr, *bin_attr; } s_elem;
	int s_type;
	unsigned short s_mode;
	unsigned long s_ino;
	void *s_dentry, *s_iattr;
	int s_event;
};

/*
 * 2.6.23 (8619f9798983, 136 -> 104 bytes by its message): s_active an
 * atomic_t with SD_DEACTIVATED_BIAS, the lists still doubly linked.
 */
struct era_sysfs_dirent_atomic {
	int s_count, s_active;
	void *s_parent;
	struct era_list_head s_sibling, s_children;
	const char *s_name;
	union { void *kobj, *target, *attr, *bin_attr; } s_elem;
	unsigned int s_flags;
	unsigned short s_mode;
	unsigned long s_ino;
	void *s_dentry, *s_iattr;
	int s_event;
};

/* Then (0c73f18b7d95, 104 -> 88): siblings and children singly linked (our stage 4). */
struct era_sysfs_dirent_bias {
	int s_count, s_active;
	void *s_parent, *s_sibling, *s_children;
	const char *s_name;
	union { void *kobj, *target, *attr, *bin_attr; } s_elem;
	unsigned int s_flags;
	unsigned short s_mode;
	unsigned long s_ino;
	void *s_dentry, *s_iattr;
	int s_event;
};

/* 2014, kernfs_node as kernfs came in (3.14). */
struct era_kernfs_node {
	int count, active;
	void *parent;
	const char *name;
	struct era_rb_node rb;
	union { void *completion, *removed_list; } u;
	const void *ns;
	unsigned int hash;
	union {
		struct { unsigned long subdirs; void *children; void *root; } dir;
		struct { void *target_kn; } symlink;
		struct { const void *ops; void *open; long long size; } attr;
	};
	void *priv;
	unsigned short flags, mode;
	unsigned int ino;
	void *iattr;
};

static inline void era_sizes_print(void)
{
	printf("size\tkernel-2007-rwsem\t%zu\tsysfs_dirent, s_active an rw_semaphore (x86-64, computed)\n",
	       sizeof(struct era_sysfs_dirent_rwsem));
	printf("size\tkernel-2007-atomic\t%zu\tsysfs_dirent, s_active an atomic_t with the bias (x86-64, computed)\n",
	       sizeof(struct era_sysfs_dirent_atomic));
	printf("size\tkernel-2007-slist\t%zu\tsysfs_dirent, and its lists singly linked (x86-64, computed)\n",
	       sizeof(struct era_sysfs_dirent_bias));
	printf("size\tkernel-3.14-kernfs\t%zu\tkernfs_node (x86-64, computed)\n", sizeof(struct era_kernfs_node));
}

#endif
