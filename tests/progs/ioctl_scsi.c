/*
 * SCSI generic ioctls ('"', scsi/sg.h, linux/bsg.h) on a bad descriptor,
 * for tests/t/decode_ioctl_scsi.sh: SG_IO with v3 and v4 headers in every
 * transfer direction (plain buffers and iovec arrays), unknown interface
 * ids, short and bad headers; the device id, request table, reset and int
 * settings.  With "thread": one SG_IO while another thread makes a call
 * (for an ioctl line cut by another line).
 */
#include <pthread.h>
#include <sys/uio.h>
#include <scsi/sg.h>
#include <linux/bsg.h>

#include "ioctl_test.h"

#ifndef SG_GET_ACCESS_COUNT
# define SG_GET_ACCESS_COUNT 0x2289
#endif

static void v3(void)
{
	struct sg_io_hdr *h = TAIL(struct sg_io_hdr);
	unsigned char *cmd = tail_alloc(12), *sense = tail_alloc(8), *data = tail_alloc(40);
	struct iovec *iov = tail_alloc(2 * sizeof(struct iovec));

	fill(cmd, 12, 0x12);
	fill(sense, 8, 0x70);
	fill(data, 40, 'A');
	iov[0].iov_base = data;
	iov[0].iov_len = 4;
	iov[1].iov_base = data + 10;
	iov[1].iov_len = 6;
	memset(h, 0, sizeof(*h));
	h->interface_id = 'S';
	h->dxfer_direction = SG_DXFER_NONE;
	h->cmd_len = 6;
	h->cmdp = cmd;
	h->mx_sb_len = 8;
	h->sbp = sense;
	h->timeout = 1000;
	h->flags = SG_FLAG_DIRECT_IO | 0x10 | 0x1000000;
	h->status = 2;
	h->masked_status = 1;
	h->sb_len_wr = 3;
	h->host_status = 7;
	h->resid = 10;
	h->duration = 5;
	h->info = SG_INFO_CHECK | SG_INFO_DIRECT_IO;
	IOC(SG_IO, h);
	h->dxfer_direction = SG_DXFER_TO_DEV;
	h->dxferp = data;
	h->dxfer_len = 20;
	IOC(SG_IO, h);
	h->dxfer_direction = SG_DXFER_FROM_DEV;
	IOC(SG_IO, h);
	h->dxfer_direction = SG_DXFER_TO_FROM_DEV;
	IOC(SG_IO, h);
	h->resid = 30;                      /* more than dxfer_len */
	IOC(SG_IO, h);
	h->resid = 0;
	h->dxfer_direction = SG_DXFER_FROM_DEV;
	h->iovec_count = 2;
	h->dxferp = iov;
	h->dxfer_len = 10;
	IOC(SG_IO, h);
	h->dxfer_direction = SG_DXFER_TO_DEV;
	IOC(SG_IO, h);
	h->iovec_count = 3;                 /* the third is unreadable */
	IOC(SG_IO, h);
	h->iovec_count = 0;
	h->dxfer_direction = -7;
	h->cmd_len = 40;                    /* beyond the command buffer */
	h->sb_len_wr = 20;
	h->dxferp = BAD_PTR;
	IOC(SG_IO, h);
	h->cmdp = NULL;
	h->sbp = NULL;
	IOC(SG_IO, h);
	IOC(SG_IO, (char *)h + 4);           /* short */
	IOC(SG_IO, (char *)h + sizeof(*h) - 2);
}

static void v4(void)
{
	struct sg_io_v4 *h = TAIL(struct sg_io_v4);
	unsigned char *req = tail_alloc(10), *resp = tail_alloc(8), *data = tail_alloc(32);

	fill(req, 10, 0x20);
	fill(resp, 8, 0x70);
	fill(data, 32, 'a');
	memset(h, 0, sizeof(*h));
	h->guard = 'Q';
	h->protocol = BSG_PROTOCOL_SCSI;
	h->subprotocol = BSG_SUB_PROTOCOL_SCSI_TRANSPORT;
	h->request_len = 10;
	h->request = (uintptr_t)req;
	h->request_tag = 0xabcdef;
	h->request_attr = 1;
	h->request_priority = 2;
	h->request_extra = 3;
	h->max_response_len = 8;
	h->response = (uintptr_t)resp;
	h->response_len = 4;
	h->dout_xfer_len = 12;
	h->dout_xferp = (uintptr_t)data;
	h->din_xfer_len = 16;
	h->din_xferp = (uintptr_t)(data + 16);
	h->timeout = 60;
	h->flags = BSG_FLAG_Q_AT_TAIL | 0x100;
	h->usr_ptr = 0xfeed;
	h->driver_status = 1;
	h->transport_status = 2;
	h->device_status = 3;
	h->retry_delay = 4;
	h->info = SG_INFO_INDIRECT_IO;
	h->duration = 9;
	h->din_resid = 6;
	h->dout_resid = -1;
	h->generated_tag = 0x77;
	IOC(SG_IO, h);
	h->protocol = 9;
	h->subprotocol = 9;
	h->din_resid = 100;
	h->response_len = 100;              /* beyond the buffer */
	IOC(SG_IO, h);
	h->request = 0;
	h->response = 0;
	IOC(SG_IO, h);
	IOC(SG_IO, (char *)h + 8);
}

static void *other(void *arg)
{
	(void)arg;
	usleep(50000);
	getppid();
	return NULL;
}

/* SG_IO made to wait (-e inject=ioctl:delay_enter=) while the other
 * thread's call shows */
static int threads(void)
{
	struct sg_io_hdr *h = TAIL(struct sg_io_hdr);
	unsigned char *cmd = tail_alloc(6);
	pthread_t t;

	fill(cmd, 6, 1);
	memset(h, 0, sizeof(*h));
	h->interface_id = 'S';
	h->dxfer_direction = SG_DXFER_NONE;
	h->cmd_len = 6;
	h->cmdp = cmd;
	h->status = 2;
	if (pthread_create(&t, NULL, other, NULL))
		return 1;
	IOC(SG_IO, h);
	pthread_join(t, NULL);
	return 0;
}

int main(int argc, char **argv)
{
	struct sg_scsi_id *id = TAIL(struct sg_scsi_id);
	struct sg_req_info *ri = TAIL(struct sg_req_info);
	int *i = TAIL(int);

	if (argc > 1 && !strcmp(argv[1], "thread"))
		return threads();
	v3();
	v4();
	*i = 'X';
	IOC(SG_IO, i);
	IOC(SG_IO, NULL);
	IOC(SG_IO, BAD_PTR);

	fill(id, sizeof(*id), 1);
	IOC(SG_GET_SCSI_ID, id);
	IOC(SG_GET_SCSI_ID, (char *)id + 1);
	fill(ri, sizeof(*ri), 0x31);
	IOC(SG_GET_REQUEST_TABLE, ri);
	IOC(SG_GET_REQUEST_TABLE, NULL);
	*i = SG_SCSI_RESET_DEVICE;
	IOC(SG_SCSI_RESET, i);
	*i = SG_SCSI_RESET_HOST | 0x100;
	IOC(SG_SCSI_RESET, i);
	*i = 77;
	IOC(SG_SCSI_RESET, i);
	IOC(SG_SCSI_RESET, BAD_PTR);
	*i = -3;
	IOC(SG_SET_TIMEOUT, i);
	IOC(SG_NEXT_CMD_LEN, i);
	IOC(SG_SET_RESERVED_SIZE, i);
	IOC(SG_SET_KEEP_ORPHAN, BAD_PTR);
	IOC(SG_GET_VERSION_NUM, i);
	IOC(SG_GET_RESERVED_SIZE, i);
	IOC(SG_EMULATED_HOST, i);
	IOC(SG_GET_ACCESS_COUNT, i);
	IOC(SG_GET_PACK_ID, NULL);
	IOC(SG_SET_TRANSFORM, 0x1234567890ULL);
	IOC(SG_GET_TIMEOUT, 5);
	return 0;
}
