/*
 * Console and keyboard ioctls ('K') with filled, short and bad arguments
 * on a bad descriptor, for tests/t/decode_ioctl_kd.sh.
 */
#include <linux/kd.h>
#include <linux/keyboard.h>

#include "ioctl_test.h"

int main(void)
{
	unsigned char *uc = TAIL(unsigned char);
	unsigned *pu = TAIL(unsigned);
	char *map = tail_alloc(256);
	uint16_t *umap = tail_alloc(512);
	struct kbentry *ke = TAIL(struct kbentry);
	struct kbsentry *ks = TAIL(struct kbsentry);
	struct kbdiacrs *kd = TAIL(struct kbdiacrs);
	struct kbdiacrsuc *kdu = TAIL(struct kbdiacrsuc);
	struct kbkeycode *kk = TAIL(struct kbkeycode);
	struct kbd_repeat *kr = TAIL(struct kbd_repeat);
	struct unimapinit *ui = TAIL(struct unimapinit);
	struct unimapdesc *ud = TAIL(struct unimapdesc);
	struct unipair *up = tail_alloc(2 * sizeof(struct unipair));
	struct consolefontdesc *cf = TAIL(struct consolefontdesc);
	struct console_font_op *fo = TAIL(struct console_font_op);
	char *font = tail_alloc(64);

	IOC(KIOCSOUND, 0);
	IOC(KIOCSOUND, 440);
	IOC(KDMKTONE, (100 << 16) | 440);
	IOC(KDMKTONE, 440);
	*uc = LED_NUM | LED_CAP | 0x10;
	IOC(KDGETLED, uc);
	IOC(KDSETLED, LED_SCR | 0x80);
	IOC(KDGKBLED, uc);
	IOC(KDSKBLED, LED_SCR | (LED_NUM << 4));
	*uc = KB_101;
	IOC(KDGKBTYPE, uc);
	IOC(KDADDIO, 0x3b4 + 5);
	IOC(KDDELIO, 0x100);
	IOC(KDSETMODE, KD_GRAPHICS);
	IOC(KDSETMODE, 0x77);
	*pu = KD_TEXT1;
	IOC(KDGETMODE, pu);
	memset(map, 'm', 256);
	IOC(GIO_SCRNMAP, map);
	IOC(PIO_SCRNMAP, map);
	for (int i = 0; i < 256; i++)
		umap[i] = i & 1 ? (uint16_t)(UNI_DIRECT_BASE | i) : (uint16_t)i;
	IOC(GIO_UNISCRNMAP, umap);
	IOC(PIO_UNISCRNMAP, umap + 1);
	*pu = K_UNICODE;
	IOC(KDGKBMODE, pu);
	IOC(KDSKBMODE, K_RAW);
	IOC(KDSKBMODE, -5);
	ke->kb_table = K_SHIFTTAB;
	ke->kb_index = 30;
	ke->kb_value = K(KT_FN, 3);
	IOC(KDGKBENT, ke);
	IOC(KDSKBENT, ke);
	ke->kb_table = 0x30;
	ke->kb_value = K(KT_LATIN, 'a');
	IOC(KDSKBENT, ke);
	ke->kb_value = K(0x20, 5);
	IOC(KDSKBENT, ke);
	ks->kb_func = 3;
	strcpy((char *)ks->kb_string, "\033[[C");
	IOC(KDGKBSENT, ks);
	IOC(KDSKBSENT, ks);
	ks->kb_func = 250;
	IOC(KDSKBSENT, ks);
	kd->kb_cnt = 2;
	kd->kbdiacr[0] = (struct kbdiacr){ '`', 'a', 0xe0 };
	kd->kbdiacr[1] = (struct kbdiacr){ '\n', '\'', '\\' };
	IOC(KDGKBDIACR, kd);
	IOC(KDSKBDIACR, kd);
	kd->kb_cnt = 300;
	IOC(KDSKBDIACR, kd);
	kdu->kb_cnt = 1;
	kdu->kbdiacruc[0] = (struct kbdiacruc){ 0x300, 0x61, 0xe0 };
	IOC(KDGKBDIACRUC, kdu);
	IOC(KDSKBDIACRUC, kdu);
	kk->scancode = 0x10;
	kk->keycode = 0x20;
	IOC(KDGETKEYCODE, kk);
	IOC(KDSETKEYCODE, kk);
	IOC(KDSIGACCEPT, 10);
	IOC(KDSIGACCEPT, 0x80000000UL);
	kr->delay = 250;
	kr->period = 33;
	IOC(KDKBDREP, kr);
	IOC(GIO_FONT, font);
	IOC(PIO_FONT, NULL);
	*pu = K_METABIT;
	IOC(KDGKBMETA, pu);
	IOC(KDSKBMETA, K_ESCPREFIX);
	ui->advised_hashsize = 1;
	IOC(PIO_UNIMAPCLR, ui);
	memset(font, 0x33, 64);
	IOC(GIO_CMAP, font);
	IOC(PIO_CMAP, font);
	IOC(KDENABIO, 0);
	IOC(KDMAPDISP, 0);
	IOC(PIO_FONTRESET, 0);
	up[0] = (struct unipair){ 0x41, 1 };
	up[1] = (struct unipair){ 0x42, 2 };
	ud->entry_ct = 2;
	ud->entries = up;
	IOC(GIO_UNIMAP, ud);
	IOC(PIO_UNIMAP, ud);
	cf->charcount = 1;
	cf->charheight = 16;
	cf->chardata = font;
	IOC(GIO_FONTX, cf);
	IOC(PIO_FONTX, cf);
	memset(fo, 0, sizeof(*fo));
	fo->op = KD_FONT_OP_GET;
	fo->width = 8;
	fo->height = 16;
	fo->charcount = 1;
	fo->data = (unsigned char *)font;
	IOC(KDFONTOP, fo);
	fo->op = KD_FONT_OP_SET;
	fo->flags = KD_FONT_FLAG_DONT_RECALC;
	IOC(KDFONTOP, fo);
	fo->op = KD_FONT_OP_SET_DEFAULT;
	fo->data = (unsigned char *)"default8x16";
	IOC(KDFONTOP, fo);
	fo->op = KD_FONT_OP_COPY;
	IOC(KDFONTOP, fo);
	fo->op = 9;
	IOC(KDFONTOP, fo);
	return 0;
}
