/* btrfs ioctls that succeed, on the directory argv[1] of a btrfs file system
 * mounted read-only (the kernel fills the output structures; nothing
 * changes between two runs), for tests/t/decode_ioctl_btrfs_live.sh. */
#include <fcntl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>

#include "ioctl_test.h"

int main(int argc, char **argv)
{
	struct btrfs_ioctl_fs_info_args fi;
	struct btrfs_ioctl_feature_flags ff[3];
	struct btrfs_ioctl_space_args *sa = calloc(1, sizeof(*sa) + 8 * sizeof(sa->spaces[0]));
	struct btrfs_ioctl_dev_info_args di;
	struct btrfs_ioctl_ino_lookup_args il;
	struct btrfs_ioctl_search_args *sr = calloc(1, sizeof(*sr));
	struct btrfs_ioctl_get_dev_stats ds;
	struct btrfs_ioctl_vol_args va;
	struct btrfs_ioctl_ino_path_args ip;
	struct btrfs_ioctl_logical_ino_args li;
	void *out = calloc(1, 4096);
	struct stat st;
	uint64_t flags = 0;
	int fd;

	if (argc < 2 || (fd = open(argv[1], O_RDONLY | O_DIRECTORY)) < 0 || !sa || !sr || !out)
		return 77;
	ioctl(fd, BTRFS_IOC_FS_INFO, &fi);
	ioctl(fd, BTRFS_IOC_GET_FEATURES, &ff[0]);
	ioctl(fd, BTRFS_IOC_GET_SUPPORTED_FEATURES, ff);
	ioctl(fd, BTRFS_IOC_SPACE_INFO, sa);
	sa->space_slots = 8;
	ioctl(fd, BTRFS_IOC_SPACE_INFO, sa);
	memset(&di, 0, sizeof(di));
	di.devid = 1;
	ioctl(fd, BTRFS_IOC_DEV_INFO, &di);
	memset(&il, 0, sizeof(il));
	il.objectid = BTRFS_FIRST_FREE_OBJECTID;
	ioctl(fd, BTRFS_IOC_INO_LOOKUP, &il);
	sr->key.tree_id = BTRFS_ROOT_TREE_OBJECTID;
	sr->key.max_objectid = BTRFS_LAST_FREE_OBJECTID;
	sr->key.max_offset = (uint64_t)-1;
	sr->key.max_transid = (uint64_t)-1;
	sr->key.max_type = (uint32_t)-1;
	sr->key.nr_items = 4;
	ioctl(fd, BTRFS_IOC_TREE_SEARCH, sr);
	ioctl(fd, BTRFS_IOC_SUBVOL_GETFLAGS, &flags);
	memset(&ds, 0, sizeof(ds));
	ds.devid = 1;
	ds.nr_items = BTRFS_DEV_STAT_VALUES_MAX;
	ioctl(fd, BTRFS_IOC_GET_DEV_STATS, &ds);
	/* the paths of file "f" (where the test puts one; mkfs.btrfs --rootdir
	 * keeps the inode numbers of the files it copies), the inodes at a
	 * logical address (none) */
	memset(&ip, 0, sizeof(ip));
	ip.inum = fstatat(fd, "f", &st, 0) ? BTRFS_FIRST_FREE_OBJECTID : st.st_ino;
	ip.size = 4096;
	ip.fspath = (uintptr_t)out;
	ioctl(fd, BTRFS_IOC_INO_PATHS, &ip);
	memset(&li, 0, sizeof(li));
	li.logical = 1 << 20;
	li.size = 4096;
	li.inodes = (uintptr_t)out;
	ioctl(fd, BTRFS_IOC_LOGICAL_INO, &li);
	memset(&va, 0, sizeof(va));
	va.fd = fd;
	strcpy(va.name, "sub");
	ioctl(fd, BTRFS_IOC_SUBVOL_CREATE, &va);   /* EROFS */
	return 0;
}
