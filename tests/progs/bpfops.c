/*
 * bpf(2) commands for tests/t/decode_bpf.sh: each command strace 6.1
 * decodes, with its attributes set to known values.  Run as root with BTF,
 * BPF_MAP_CREATE of an array map, BPF_PROG_LOAD of a socket filter and
 * BPF_OBJ_GET_INFO_BY_FD on both succeed; the rest fail (EINVAL, EBADF,
 * ENOENT...), which still shows how their attributes decode.  With "size"
 * the sizes smaller and larger than the union (nonzero bytes past it), a
 * NULL and an unreadable attr, an unknown command.
 */
#include <linux/bpf.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static long sys_bpf(long cmd, void *attr, unsigned long size)
{
	return syscall(SYS_bpf, cmd, attr, size);
}

static union bpf_attr a;
static char big[sizeof(a) + 16] __attribute__((aligned(8)));

static const int scan_cmds[] = {
	BPF_MAP_CREATE, BPF_MAP_LOOKUP_ELEM, BPF_MAP_UPDATE_ELEM, BPF_MAP_DELETE_ELEM,
	BPF_MAP_GET_NEXT_KEY, BPF_PROG_LOAD, BPF_OBJ_PIN, BPF_OBJ_GET, BPF_PROG_ATTACH,
	BPF_PROG_DETACH, BPF_PROG_TEST_RUN, BPF_PROG_GET_NEXT_ID, BPF_PROG_GET_FD_BY_ID,
	BPF_MAP_GET_FD_BY_ID, BPF_OBJ_GET_INFO_BY_FD, BPF_PROG_QUERY,
	BPF_RAW_TRACEPOINT_OPEN, BPF_BTF_LOAD, BPF_BTF_GET_FD_BY_ID, BPF_TASK_FD_QUERY,
	BPF_MAP_LOOKUP_AND_DELETE_ELEM, BPF_MAP_FREEZE, BPF_MAP_LOOKUP_BATCH,
	BPF_MAP_UPDATE_BATCH, BPF_MAP_DELETE_BATCH, BPF_LINK_CREATE, BPF_LINK_UPDATE,
	BPF_LINK_DETACH, BPF_ENABLE_STATS, BPF_ITER_CREATE, BPF_PROG_BIND_MAP,
};

#define Z() memset(&a, 0, sizeof(a))
#define P(x) ((uint64_t)(uintptr_t)(x))

static void *bad_page(void)
{
	return mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

int main(int argc, char **argv)
{
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char log[64], key[4] = { 0 }, val[8] = { 1, 2 }, info[256], pkt[64];
	struct bpf_map_info mi;
	uint32_t ids[4];
	long map, prog;

	memset(log, 0, sizeof(log));
	memset(ids, 0, sizeof(ids));
	memset(info, 0, sizeof(info));
	memset(pkt, 0, sizeof(pkt));

	if (argc > 1 && !strcmp(argv[1], "info")) {
		/* a map's info (-v shows it at exit) at every length, past
		 * the structure with nonzero bytes (E2BIG), NULL, unreadable */
		static const unsigned lens[] = {
			256, 88, 80, 76, 72, 68, 64, 60, 56, 52, 48, 44, 40, 28, 12, 4, 0,
		};
		static char buf[256];

		Z();
		a.map_type = BPF_MAP_TYPE_HASH;
		a.key_size = 4;
		a.value_size = 4;
		a.max_entries = 3;
		a.map_flags = BPF_F_NO_PREALLOC;
		strcpy(a.map_name, "m");
		map = sys_bpf(BPF_MAP_CREATE, &a, sizeof(a));
		for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			memset(buf, 0x55, sizeof(buf));
			Z();
			a.info.bpf_fd = map;
			a.info.info_len = lens[i];
			a.info.info = P(buf);
			sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a));
		}
		a.info.info_len = 88;
		a.info.info = 0;
		sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a));
		a.info.info = P(bad_page());
		sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a));
		a.info.bpf_fd = 0;
		a.info.info = P(buf);
		sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a));

		/* a program's info: the counts the kernel fills show as
		 * "0 => 23"; past the kernel's structure the length too */
		static const unsigned plens[] = {
			240, 232, 224, 220, 216, 212, 196, 192, 132, 108, 84, 64, 44, 40, 8,
		};
		Z();
		a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
		a.insn_cnt = 2;
		a.insns = P(insns);
		a.license = P("GPL");
		strcpy(a.prog_name, "iprog");
		prog = sys_bpf(BPF_PROG_LOAD, &a, sizeof(a));
		for (unsigned i = 0; i < sizeof(plens) / sizeof(plens[0]); i++) {
			struct bpf_prog_info *pi = (void *)buf;

			memset(buf, 0, sizeof(buf));
			if (i == 1) {
				pi->nr_map_ids = 4;
				pi->map_ids = P(ids);
			}
			Z();
			a.info.bpf_fd = prog;
			a.info.info_len = plens[i];
			a.info.info = P(buf);
			sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a));
		}
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "query")) {
		/* a cgroup_skb program attached to the (empty) cgroup v2
		 * directory argv[2], queried, detached */
		struct bpf_insn ok[2] = {
			{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 1 },
			{ .code = BPF_JMP | BPF_EXIT },
		};
		int cg = open(argv[2], O_RDONLY | O_DIRECTORY);

		Z();
		a.prog_type = BPF_PROG_TYPE_CGROUP_SKB;
		a.insn_cnt = 2;
		a.insns = P(ok);
		a.license = P("GPL");
		a.expected_attach_type = BPF_CGROUP_INET_EGRESS;
		prog = sys_bpf(BPF_PROG_LOAD, &a, sizeof(a));
		Z();
		a.query.target_fd = cg;
		a.query.attach_type = BPF_CGROUP_INET_EGRESS;
		a.query.prog_ids = P(ids);
		a.query.prog_cnt = 4;
		sys_bpf(BPF_PROG_QUERY, &a, sizeof(a));
		Z();
		a.target_fd = cg;
		a.attach_bpf_fd = prog;
		a.attach_type = BPF_CGROUP_INET_EGRESS;
		a.attach_flags = BPF_F_ALLOW_MULTI;
		sys_bpf(BPF_PROG_ATTACH, &a, sizeof(a));
		Z();
		a.query.target_fd = cg;
		a.query.attach_type = BPF_CGROUP_INET_EGRESS;
		a.query.prog_ids = P(ids);
		a.query.prog_cnt = 4;
		sys_bpf(BPF_PROG_QUERY, &a, sizeof(a));
		a.query.prog_cnt = 0;
		sys_bpf(BPF_PROG_QUERY, &a, sizeof(a));
		a.query.prog_ids = 0;
		sys_bpf(BPF_PROG_QUERY, &a, sizeof(a));
		Z();
		a.target_fd = cg;
		a.attach_bpf_fd = prog;
		a.attach_type = BPF_CGROUP_INET_EGRESS;
		sys_bpf(BPF_PROG_DETACH, &a, sizeof(a));
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "insns")) {
		/* every class with each op, size and mode nibble, registers
		 * past BPF_REG_10, negative offsets and immediates (-v shows
		 * them); the verifier rejects the program */
		static struct bpf_insn in[128];
		unsigned n = 0;

		for (int cls = 0; cls < 8; cls++)
			for (int k = 0; k < 16; k++, n++) {
				in[n].code = cls | (k << 4) | ((k & 1) << 3);
				in[n].dst_reg = (k + 5) & 15;
				in[n].src_reg = 15 - k;
				in[n].off = -k;
				in[n].imm = -100 * k;
			}
		Z();
		a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
		a.insn_cnt = n;
		a.insns = P(in);
		a.license = P("GPL");
		sys_bpf(BPF_PROG_LOAD, &a, sizeof(a));
		a.insn_cnt = 0;
		sys_bpf(BPF_PROG_LOAD, &a, sizeof(a));
		a.insn_cnt = 1;
		a.insns = P(bad_page());
		sys_bpf(BPF_PROG_LOAD, &a, sizeof(a));
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "size")) {
		void *bad = bad_page();

		Z();
		a.map_type = BPF_MAP_TYPE_HASH;
		a.key_size = 4;
		a.value_size = 8;
		a.max_entries = 16;
		a.map_flags = BPF_F_NO_PREALLOC;
		sys_bpf(BPF_MAP_CREATE, &a, 4);
		sys_bpf(BPF_MAP_CREATE, &a, 12);
		sys_bpf(BPF_MAP_CREATE, &a, 20);
		sys_bpf(BPF_MAP_CREATE, &a, offsetof(union bpf_attr, map_name) + 3);
		memset(big, 0, sizeof(big));
		memcpy(big, &a, sizeof(a));
		sys_bpf(BPF_MAP_CREATE, big, sizeof(big));
		big[sizeof(a) + 2] = 7;
		sys_bpf(BPF_MAP_CREATE, big, sizeof(big));
		sys_bpf(BPF_MAP_CREATE, NULL, sizeof(a));
		sys_bpf(BPF_MAP_CREATE, bad, sizeof(a));
		sys_bpf(BPF_MAP_CREATE, &a, 0);
		sys_bpf(BPF_PROG_LOAD, bad, 8);
		sys_bpf(BPF_OBJ_GET_INFO_BY_FD, NULL, 16);
		sys_bpf(0x7f, &a, sizeof(a));
		sys_bpf(0x7f, NULL, 0);
		sys_bpf(BPF_MAP_CREATE, (char *)bad + 4095, 4096);
		sys_bpf(BPF_MAP_CREATE, &a, 4097);
		/* every command at every size up to past the union, its
		 * fields all 0x10 bytes: each call fails */
		for (unsigned i = 0; i < sizeof(scan_cmds) / sizeof(scan_cmds[0]); i++)
			for (unsigned sz = 4; sz <= sizeof(big); sz += 4) {
				memset(big, 0x10, sizeof(big));
				sys_bpf(scan_cmds[i], big, sz);
			}
		return 0;
	}

	/* objects made for real */
	Z();
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = 8;
	a.max_entries = 2;
	strcpy(a.map_name, "rmap");
	map = sys_bpf(BPF_MAP_CREATE, &a, sizeof(a));
	/* a NUMA node, a device to offload to (lo: the kernel refuses) */
	a.map_flags = BPF_F_NUMA_NODE | BPF_F_RDONLY_PROG;
	a.numa_node = 0;
	a.map_ifindex = 1;
	a.btf_fd = 77;
	a.map_extra = 0x1234;
	sys_bpf(BPF_MAP_CREATE, &a, sizeof(a));

	Z();
	a.map_fd = map;
	a.key = P(key);
	a.value = P(val);
	a.flags = BPF_EXIST;
	sys_bpf(BPF_MAP_UPDATE_ELEM, &a, sizeof(a));
	a.flags = 0;
	sys_bpf(BPF_MAP_LOOKUP_ELEM, &a, sizeof(a));
	a.flags = BPF_F_LOCK | 8;
	sys_bpf(BPF_MAP_LOOKUP_ELEM, &a, sizeof(a));
	sys_bpf(BPF_MAP_DELETE_ELEM, &a, sizeof(a));
	a.next_key = P(val);
	sys_bpf(BPF_MAP_GET_NEXT_KEY, &a, sizeof(a));
	sys_bpf(BPF_MAP_LOOKUP_AND_DELETE_ELEM, &a, sizeof(a));
	a.key = 0;
	sys_bpf(BPF_MAP_GET_NEXT_KEY, &a, sizeof(a));

	Z();
	a.batch.in_batch = 0;
	a.batch.out_batch = P(ids);
	a.batch.keys = P(key);
	a.batch.values = P(val);
	a.batch.count = 1;
	a.batch.map_fd = map;
	a.batch.elem_flags = BPF_F_LOCK;
	a.batch.flags = 0;
	sys_bpf(BPF_MAP_LOOKUP_BATCH, &a, sizeof(a));
	sys_bpf(BPF_MAP_LOOKUP_AND_DELETE_BATCH, &a, sizeof(a));
	sys_bpf(BPF_MAP_UPDATE_BATCH, &a, sizeof(a));
	sys_bpf(BPF_MAP_DELETE_BATCH, &a, sizeof(a));

	Z();
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insn_cnt = 2;
	a.insns = P(insns);
	a.license = P("GPL");
	a.log_level = 1;
	a.log_size = sizeof(log);
	a.log_buf = P(log);
	a.kern_version = 0x050a00;
	strcpy(a.prog_name, "rprog");
	sys_bpf(BPF_PROG_LOAD, &a, sizeof(a));
	a.log_level = 0;
	a.log_size = 0;
	a.log_buf = 0;
	prog = sys_bpf(BPF_PROG_LOAD, &a, sizeof(a));
	a.log_level = 1;
	a.log_size = sizeof(log);
	a.log_buf = P(log);
	a.prog_type = BPF_PROG_TYPE_KPROBE;
	a.prog_flags = BPF_F_STRICT_ALIGNMENT | BPF_F_TEST_RND_HI32 | 0x8000;
	a.expected_attach_type = BPF_CGROUP_INET_EGRESS;
	a.prog_btf_fd = 99;
	a.func_info_rec_size = 8;
	a.func_info = P(ids);
	a.func_info_cnt = 1;
	a.line_info_rec_size = 16;
	a.line_info = P(ids);
	a.line_info_cnt = 1;
	a.attach_btf_id = 5;
	a.attach_prog_fd = 98;
	a.fd_array = P(ids);
	sys_bpf(BPF_PROG_LOAD, &a, sizeof(a));
	a.prog_type = 0x1234;
	a.expected_attach_type = 0x4321;
	a.license = 0;
	sys_bpf(BPF_PROG_LOAD, &a, sizeof(a));

	Z();
	a.pathname = P("/sys/fs/bpf/nonexistent/x");
	a.bpf_fd = map;
	a.file_flags = BPF_F_RDONLY;
	sys_bpf(BPF_OBJ_PIN, &a, sizeof(a));
	a.bpf_fd = 0;
	a.file_flags = BPF_F_WRONLY | 0x40;
	sys_bpf(BPF_OBJ_GET, &a, sizeof(a));

	Z();
	a.target_fd = 0;
	a.attach_bpf_fd = prog;
	a.attach_type = BPF_CGROUP_INET_INGRESS;
	a.attach_flags = BPF_F_ALLOW_MULTI | BPF_F_REPLACE;
	a.replace_bpf_fd = 77;
	sys_bpf(BPF_PROG_ATTACH, &a, sizeof(a));
	a.attach_flags = 0;
	sys_bpf(BPF_PROG_DETACH, &a, sizeof(a));

	Z();
	a.test.prog_fd = prog;
	a.test.retval = 3;
	a.test.data_size_in = 4;
	a.test.data_size_out = 8;
	a.test.data_in = P(key);
	a.test.data_out = P(val);
	a.test.repeat = 2;
	a.test.flags = BPF_F_TEST_RUN_ON_CPU;
	a.test.cpu = 0;
	sys_bpf(BPF_PROG_TEST_RUN, &a, sizeof(a));

	Z();
	a.start_id = 0xfffffff0;
	a.open_flags = 0;
	sys_bpf(BPF_PROG_GET_NEXT_ID, &a, sizeof(a));
	sys_bpf(BPF_MAP_GET_NEXT_ID, &a, sizeof(a));
	sys_bpf(BPF_BTF_GET_NEXT_ID, &a, sizeof(a));
	sys_bpf(BPF_LINK_GET_NEXT_ID, &a, sizeof(a));
	a.open_flags = BPF_F_RDONLY;
	sys_bpf(BPF_PROG_GET_FD_BY_ID, &a, sizeof(a));
	sys_bpf(BPF_MAP_GET_FD_BY_ID, &a, sizeof(a));
	sys_bpf(BPF_BTF_GET_FD_BY_ID, &a, sizeof(a));
	sys_bpf(BPF_LINK_GET_FD_BY_ID, &a, sizeof(a));

	Z();
	a.info.bpf_fd = map;
	a.info.info_len = sizeof(struct bpf_map_info);
	a.info.info = P(info);
	sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a));
	a.info.bpf_fd = prog;
	a.info.info_len = sizeof(info);
	sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a));
	a.info.bpf_fd = 0;
	sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a));

	Z();
	a.info.bpf_fd = map;
	a.info.info_len = sizeof(mi);
	a.info.info = P(&mi);
	memset(&mi, 0, sizeof(mi));
	sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a));
	Z();
	a.map_id = mi.id;
	sys_bpf(BPF_MAP_GET_FD_BY_ID, &a, sizeof(a));
	Z();
	sys_bpf(BPF_MAP_GET_NEXT_ID, &a, sizeof(a));
	Z();
	a.test.prog_fd = prog;
	a.test.data_size_in = sizeof(pkt);
	a.test.data_in = P(pkt);
	a.test.repeat = 1;
	sys_bpf(BPF_PROG_TEST_RUN, &a, sizeof(a));
	Z();
	a.batch.out_batch = P(ids);
	a.batch.keys = P(ids);
	a.batch.values = P(info);
	a.batch.count = 2;
	a.batch.map_fd = map;
	sys_bpf(BPF_MAP_LOOKUP_BATCH, &a, sizeof(a));
	Z();
	a.query.target_fd = open("/sys/fs/cgroup", O_RDONLY | O_DIRECTORY);
	a.query.attach_type = BPF_CGROUP_INET_EGRESS;
	a.query.prog_ids = P(ids);
	a.query.prog_cnt = 4;
	sys_bpf(BPF_PROG_QUERY, &a, sizeof(a));
	close(a.query.target_fd);

	Z();
	a.query.target_fd = 0;
	a.query.attach_type = BPF_CGROUP_INET_EGRESS;
	a.query.query_flags = BPF_F_QUERY_EFFECTIVE;
	a.query.prog_ids = P(ids);
	a.query.prog_cnt = 4;
	sys_bpf(BPF_PROG_QUERY, &a, sizeof(a));

	Z();
	a.raw_tracepoint.name = P("sys_enter");
	a.raw_tracepoint.prog_fd = prog;
	sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &a, sizeof(a));

	Z();
	a.btf = P(info);
	a.btf_log_buf = P(log);
	a.btf_size = 8;
	a.btf_log_size = sizeof(log);
	a.btf_log_level = 1;
	sys_bpf(BPF_BTF_LOAD, &a, sizeof(a));

	Z();
	a.task_fd_query.pid = 1;
	a.task_fd_query.fd = 0;
	a.task_fd_query.flags = 0;
	a.task_fd_query.buf_len = sizeof(log);
	a.task_fd_query.buf = P(log);
	sys_bpf(BPF_TASK_FD_QUERY, &a, sizeof(a));

	Z();
	a.link_create.prog_fd = prog;
	a.link_create.target_fd = 0;
	a.link_create.attach_type = BPF_CGROUP_INET_INGRESS;
	a.link_create.flags = 0;
	sys_bpf(BPF_LINK_CREATE, &a, sizeof(a));
	a.link_create.target_btf_id = 42;
	sys_bpf(BPF_LINK_CREATE, &a, sizeof(a));
	for (int t = 0; t < 48; t++) {
		a.link_create.attach_type = t;
		sys_bpf(BPF_LINK_CREATE, &a, sizeof(a));
	}
	a.link_create.attach_type = BPF_TRACE_ITER;
	a.link_create.iter_info = P(ids);
	a.link_create.iter_info_len = 4;
	sys_bpf(BPF_LINK_CREATE, &a, sizeof(a));
	a.link_create.attach_type = BPF_PERF_EVENT;
	a.link_create.perf_event.bpf_cookie = 0xdeadbeef;
	sys_bpf(BPF_LINK_CREATE, &a, sizeof(a));
	a.link_create.attach_type = BPF_TRACE_KPROBE_MULTI;
	a.link_create.kprobe_multi.flags = 1;
	a.link_create.kprobe_multi.cnt = 2;
	a.link_create.kprobe_multi.syms = P(ids);
	a.link_create.kprobe_multi.addrs = 0;
	a.link_create.kprobe_multi.cookies = 0;
	sys_bpf(BPF_LINK_CREATE, &a, sizeof(a));
	{
		static const uint64_t addrs[2] = { 0x1234, 0xffffffff81000000ULL };

		a.link_create.kprobe_multi.flags = 0x2a;
		a.link_create.kprobe_multi.syms = 0;
		a.link_create.kprobe_multi.addrs = P(addrs);
		a.link_create.kprobe_multi.cookies = P(addrs);
		sys_bpf(BPF_LINK_CREATE, &a, sizeof(a));
	}

	Z();
	a.link_update.link_fd = 0;
	a.link_update.new_prog_fd = prog;
	a.link_update.flags = BPF_F_REPLACE;
	a.link_update.old_prog_fd = 5;
	sys_bpf(BPF_LINK_UPDATE, &a, sizeof(a));
	Z();
	a.link_detach.link_fd = 0;
	sys_bpf(BPF_LINK_DETACH, &a, sizeof(a));
	Z();
	a.enable_stats.type = 7;
	sys_bpf(BPF_ENABLE_STATS, &a, sizeof(a));
	Z();
	a.iter_create.link_fd = 0;
	a.iter_create.flags = 3;
	sys_bpf(BPF_ITER_CREATE, &a, sizeof(a));
	Z();
	a.prog_bind_map.prog_fd = prog;
	a.prog_bind_map.map_fd = map;
	a.prog_bind_map.flags = 0;
	sys_bpf(BPF_PROG_BIND_MAP, &a, sizeof(a));
	Z();
	a.map_fd = map;
	sys_bpf(BPF_MAP_FREEZE, &a, sizeof(a));
	return 0;
}
