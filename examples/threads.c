/* Example: threads — four workers sum a vector, joined by the main thread. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NT 4
#define N (1 << 16)

static double data[N];
static double partial[NT];

static void *work(void *arg)
{
	long t = (long)arg;
	double s = 0;
	for (long i = t; i < N; i += NT)
		s += data[i];
	partial[t] = s;
	return NULL;
}

int main(void)
{
	pthread_t th[NT];
	double total = 0;

	for (long i = 0; i < N; i++)
		data[i] = (double)(i % 7);
	for (long t = 0; t < NT; t++)
		if (pthread_create(&th[t], NULL, work, (void *)t) != 0)
			return 1;
	for (long t = 0; t < NT; t++) {
		pthread_join(th[t], NULL);
		total += partial[t];
	}
	printf("sum %.0f\n", total);
	return 0;
}
