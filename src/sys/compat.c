/* The other personalities' syscall names (see compat.h). */
#include "sys/compat.h"

#include <stddef.h>

#include "util/banned.h"

int compat_personality(long nr, long *pers_nr)
{
	if (nr < 0) {
		*pers_nr = -1 - nr;
		return PERS_32;
	}
	if (nr & X32_SYSCALL_BIT) {
		*pers_nr = nr & ~X32_SYSCALL_BIT;
		return PERS_X32;
	}
	*pers_nr = nr;
	return PERS_64;
}

unsigned compat_count(int pers)
{
	return pers == PERS_32 ? compat_i386_count : pers == PERS_X32 ? compat_x32_count : 0;
}

const struct compat_sysent *compat_get(int pers, long pers_nr)
{
	const struct compat_sysent *t = pers == PERS_32 ? compat_i386 :
					pers == PERS_X32 ? compat_x32 : NULL;

	if (!t || pers_nr < 0 || (unsigned long)pers_nr >= compat_count(pers) || !t[pers_nr].name)
		return NULL;
	return &t[pers_nr];
}

const char *compat_personality_name(int pers)
{
	return pers == PERS_32 ? "32 bit" : pers == PERS_X32 ? "x32" : "64 bit";
}
