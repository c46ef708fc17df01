/* A conditional expression as the body: Polly splits it into statements joined
   by the scalar MemRef_cond__phi. */
#define T 8
#define N 12
double A[T][N];
void init(void) {
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++)
      A[t][i] = (t == 0) ? (double)(i % 7) : 0.0;
}
