/*
 * smo-produce-consume: the producer/consumer example of Bhaskaracharya et
 * al. (Fig. 1 / Fig. 2(a)): a 2-D single-assignment recurrence with flow
 * dependences (0, 1) and (1, 0), whose last row and last column are live
 * after the recurrence.
 *
 * Definition (1 <= t <= N, 1 <= i <= N):
 *   A[0][i] = top[i]   (0 <= i <= N),   A[t][0] = left[t]
 *   A[t][i] = f(A[t][i-1], A[t-1][i]) = 0.5 * A[t][i-1] + 0.5 * A[t-1][i]
 *   last_row[i-1] = A[N][i],  last_col[t-1] = A[t][N]
 * The last row and the last column are copied to the outputs by two loops
 * AFTER the (t, i) nest, so, as in the paper, those cells of A stay live
 * until the end of the recurrence (A itself is scratch: nothing of it
 * survives the kernel). The paper's domain is the 1..N square; here row 0
 * and column 0 hold the boundary values.
 *
 * Arrays: top[N+1], left[N+1] (inputs), last_row[N], last_col[N] (outputs),
 *         A[N+1][N+1] double (heap scratch, 11.5 MB).
 * A storage allocator should find: with canonical (per-dimension) moduli
 * the live-out last column keeps every row alive, so the baseline
 * (successive modulo) needs A[t mod (N+1)][i mod (N+1)], i.e. no saving;
 * the SMO storage hyperplane (1, -1) gives A[(i - t) mod (2N + 1)]
 * (2N+1 cells; the paper's A[(i - t) mod (2N - 1)] for the 1..N square).
 */
#include <stdio.h>
#include <stdlib.h>

#define N 1200

__attribute__((noinline)) void kernel_smo_produce_consume(double top[N + 1], double left[N + 1],
                                                          double last_row[N], double last_col[N])
{
  double (*A)[N + 1] = malloc(sizeof(double[N + 1][N + 1]));

  for (int i = 0; i <= N; i++)
    A[0][i] = top[i];

  for (int t = 1; t <= N; t++) {
    A[t][0] = left[t];
    for (int i = 1; i <= N; i++)
      A[t][i] = 0.5 * A[t][i - 1] + 0.5 * A[t - 1][i];
  }

  for (int i = 1; i <= N; i++)
    last_row[i - 1] = A[N][i];
  for (int t = 1; t <= N; t++)
    last_col[t - 1] = A[t][N];

  free(A);
}

int main(void)
{
  double *top = malloc(sizeof(double[N + 1]));
  double *left = malloc(sizeof(double[N + 1]));
  double *last_row = malloc(sizeof(double[N]));
  double *last_col = malloc(sizeof(double[N]));

  for (int i = 0; i <= N; i++)
    top[i] = (double)((7 * i + 13) % 101) / 101.0;
  for (int t = 0; t <= N; t++)
    left[t] = (double)((11 * t + 5) % 97) / 97.0;

  kernel_smo_produce_consume(top, left, last_row, last_col);

  double s = 0.0, c = 0.0;
  for (int i = 0; i < N; i++) {
    s += last_row[i] * (double)(1 + i % 131);
    c += last_col[i] * (double)(1 + i % 131);
  }
  printf("last_row %.6f\n", s);
  printf("last_col %.6f\n", c);

  free(top);
  free(left);
  free(last_row);
  free(last_col);
  return 0;
}
