/*
 * TEE ioctls (0xa4, linux/tee.h) on a bad descriptor, for
 * tests/t/decode_ioctl_tee.sh: sessions, invocations and supplicant
 * requests with every parameter type, every login type, lengths that do
 * not match, bad buffers; shared memory requests; the version.
 */
#include <fcntl.h>
#include <linux/tee.h>

#include "ioctl_test.h"

#define NPARAMS 9

struct tee_shm_register_fd_data {
	int64_t fd;
	uint64_t size;
	uint32_t flags;
	uint8_t pad1[4];
	int32_t id;
	uint8_t pad2[4];
} __attribute__((aligned(8)));

static void params(struct tee_ioctl_param *p, unsigned n)
{
	static const uint64_t attrs[NPARAMS] = {
		TEE_IOCTL_PARAM_ATTR_TYPE_NONE, TEE_IOCTL_PARAM_ATTR_TYPE_VALUE_INPUT,
		TEE_IOCTL_PARAM_ATTR_TYPE_VALUE_OUTPUT, TEE_IOCTL_PARAM_ATTR_TYPE_VALUE_INOUT,
		TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INPUT, TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_OUTPUT,
		TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INOUT,
		TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INPUT | TEE_IOCTL_PARAM_ATTR_META,
		0x44,
	};

	for (unsigned i = 0; i < n; i++) {
		p[i].attr = attrs[i % NPARAMS];
		p[i].a = 0x1000 + i;
		p[i].b = 0x2000000000ULL + i;
		p[i].c = 30 + i;
	}
}

/* The buffer of an argument structure of size bytes and n parameters,
 * ending at an unmapped page. */
static void *arg_buf(struct tee_ioctl_buf_data *b, size_t size, unsigned n)
{
	char *p = tail_alloc(size + n * sizeof(struct tee_ioctl_param));

	memset(p, 0, size);
	params((struct tee_ioctl_param *)(p + size), n);
	b->buf_ptr = (uintptr_t)p;
	b->buf_len = size + n * sizeof(struct tee_ioctl_param);
	return p;
}

/* the request with the buffer right, then its length off by one
 * parameter, then too long and too short, then the buffer unreadable */
static void lengths(unsigned long req, struct tee_ioctl_buf_data *b)
{
	uint64_t len = b->buf_len, ptr = b->buf_ptr;

	IOC(req, b);
	b->buf_len = len - sizeof(struct tee_ioctl_param);
	IOC(req, b);
	b->buf_len = TEE_MAX_ARG_SIZE + 1;
	IOC(req, b);
	b->buf_len = 4;
	IOC(req, b);
	b->buf_len = len;
	b->buf_ptr = (uintptr_t)BAD_PTR;
	IOC(req, b);
	b->buf_ptr = 0;
	IOC(req, b);
	b->buf_ptr = ptr;
}

int main(void)
{
	struct tee_ioctl_buf_data *b = TAIL(struct tee_ioctl_buf_data);
	struct tee_ioctl_version_data *ver = TAIL(struct tee_ioctl_version_data);
	struct tee_ioctl_cancel_arg *ca = TAIL(struct tee_ioctl_cancel_arg);
	struct tee_ioctl_close_session_arg *cs = TAIL(struct tee_ioctl_close_session_arg);
	struct tee_ioctl_shm_alloc_data *sa = TAIL(struct tee_ioctl_shm_alloc_data);
	struct tee_ioctl_shm_register_data *sr = TAIL(struct tee_ioctl_shm_register_data);
	struct tee_shm_register_fd_data *sf = TAIL(struct tee_shm_register_fd_data);
	struct tee_ioctl_open_session_arg *os;
	struct tee_ioctl_invoke_arg *iv;
	struct tee_iocl_supp_recv_arg *rv;
	struct tee_iocl_supp_send_arg *sd;
	static const uint32_t logins[] = {
		TEE_IOCTL_LOGIN_PUBLIC, TEE_IOCTL_LOGIN_USER, TEE_IOCTL_LOGIN_GROUP,
		TEE_IOCTL_LOGIN_APPLICATION, TEE_IOCTL_LOGIN_USER_APPLICATION,
		TEE_IOCTL_LOGIN_GROUP_APPLICATION, 3, TEE_IOCTL_LOGIN_REE_KERNEL,
	};
	int fd = open("/dev/null", O_RDONLY);

	fill(ver, sizeof(*ver), 1);
	ver->impl_id = TEE_IMPL_ID_OPTEE;
	ver->impl_caps = TEE_OPTEE_CAP_TZ | 0x10;
	ver->gen_caps = TEE_GEN_CAP_GP | TEE_GEN_CAP_REG_MEM | 0x100;
	IOC(TEE_IOC_VERSION, ver);
	ver->impl_id = TEE_IMPL_ID_AMDTEE;
	IOC(TEE_IOC_VERSION, ver);
	ver->impl_id = 9;
	IOC(TEE_IOC_VERSION, ver);
	IOC(TEE_IOC_VERSION, (char *)ver + 1);

	os = arg_buf(b, sizeof(*os), NPARAMS);
	fill(os->uuid, sizeof(os->uuid), 0xa0);
	fill(os->clnt_uuid, sizeof(os->clnt_uuid), 0x10);
	os->cancel_id = 77;
	os->session = 0xabcd;
	os->ret = 5;
	os->ret_origin = 3;
	os->num_params = NPARAMS;
	for (unsigned i = 0; i < sizeof(logins) / sizeof(logins[0]); i++) {
		os->clnt_login = logins[i];
		IOC(TEE_IOC_OPEN_SESSION, b);
	}
	os->clnt_login = TEE_IOCTL_LOGIN_GROUP;
	memset(os->clnt_uuid, 0xff, 4);
	os->ret_origin = 9;
	IOC(TEE_IOC_OPEN_SESSION, b);
	lengths(TEE_IOC_OPEN_SESSION, b);
	os->num_params = NPARAMS + 1;           /* the last is unreadable */
	b->buf_len += sizeof(struct tee_ioctl_param);
	IOC(TEE_IOC_OPEN_SESSION, b);
	os = arg_buf(b, sizeof(*os), 0);
	IOC(TEE_IOC_OPEN_SESSION, b);           /* no parameters */

	iv = arg_buf(b, sizeof(*iv), 3);
	iv->func = 4;
	iv->session = 0x1234;
	iv->cancel_id = 8;
	iv->ret = 0xffff0006;
	iv->ret_origin = 4;
	iv->num_params = 3;
	lengths(TEE_IOC_INVOKE, b);

	rv = arg_buf(b, sizeof(*rv), 2);
	rv->func = 3;
	rv->num_params = 2;
	lengths(TEE_IOC_SUPPL_RECV, b);
	sd = arg_buf(b, sizeof(*sd), 4);
	sd->ret = 6;
	sd->num_params = 4;
	lengths(TEE_IOC_SUPPL_SEND, b);
	IOC(TEE_IOC_SUPPL_SEND, (char *)b + 1);
	IOC(TEE_IOC_INVOKE, NULL);

	ca->cancel_id = 3;
	ca->session = 0xfeed;
	IOC(TEE_IOC_CANCEL, ca);
	IOC(TEE_IOC_CANCEL, (char *)ca + 1);
	cs->session = 0xbeef;
	IOC(TEE_IOC_CLOSE_SESSION, cs);
	IOC(TEE_IOC_CLOSE_SESSION, NULL);

	sa->size = 0x10000;
	sa->flags = 0x1 | 0x100;
	sa->id = -3;
	IOC(TEE_IOC_SHM_ALLOC, sa);
	IOC(TEE_IOC_SHM_ALLOC, (char *)sa + 1);
	sr->addr = 0x7f0000001000ULL;
	sr->length = 0x2000;
	sr->flags = 0;
	sr->id = 12;
	IOC(TEE_IOC_SHM_REGISTER, sr);
	sr->addr = 0;
	sr->flags = 0x80000000;
	IOC(TEE_IOC_SHM_REGISTER, sr);
	IOC(TEE_IOC_SHM_REGISTER, BAD_PTR);
	sf->fd = fd;
	sf->size = 0x3000;
	sf->flags = 0x2;
	sf->id = 2;
	IOC(_IOWR(TEE_IOC_MAGIC, TEE_IOC_BASE + 8, struct tee_shm_register_fd_data), sf);
	sf->fd = -1;
	IOC(_IOWR(TEE_IOC_MAGIC, TEE_IOC_BASE + 8, struct tee_shm_register_fd_data), sf);
	IOC(_IO(TEE_IOC_MAGIC, 0x7f), 0);
	return 0;
}
