/*
 * jacobi-2d-expanded: 5-point Jacobi smoothing in 2-D, time-expanded.
 *
 * Definition (0 <= i, j < N, 1 <= t < T):
 *   A[0][i][j] = in[i][j]
 *   A[t][i][j] = 0.2 * (A[t-1][i][j] + A[t-1][i-1][j] + A[t-1][i+1][j]
 *                       + A[t-1][i][j-1] + A[t-1][i][j+1])   for 1 <= i, j <= N-2
 *   A[t][i][j] = A[t-1][i][j]                               on the border
 *   out[i][j]  = A[T-1][i][j]
 *
 * Arrays: in (input), out (output), A[T][N][N] double (heap scratch, 10 MB).
 * The border is copied by four separate loops (rows 0 and N-1, columns 0
 * and N-1) before the interior sweep of each time step.
 * A storage allocator should find: A folds to 2 planes,
 * A[t][i][j] -> A'[t mod 2][i][j] (2 * N * N doubles instead of T * N * N).
 */
#include <stdio.h>
#include <stdlib.h>

#define T 20
#define N 250

__attribute__((noinline)) void kernel_jacobi_2d_expanded(double in[N][N], double out[N][N])
{
  double (*A)[N][N] = malloc(sizeof(double[T][N][N]));

  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[0][i][j] = in[i][j];

  for (int t = 1; t < T; t++) {
    for (int j = 0; j < N; j++) {
      A[t][0][j] = A[t - 1][0][j];
      A[t][N - 1][j] = A[t - 1][N - 1][j];
    }
    for (int i = 1; i < N - 1; i++) {
      A[t][i][0] = A[t - 1][i][0];
      A[t][i][N - 1] = A[t - 1][i][N - 1];
    }
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        A[t][i][j] = 0.2 * (A[t - 1][i][j] + A[t - 1][i - 1][j] + A[t - 1][i + 1][j]
                            + A[t - 1][i][j - 1] + A[t - 1][i][j + 1]);
  }

  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      out[i][j] = A[T - 1][i][j];

  free(A);
}

int main(void)
{
  double (*in)[N] = malloc(sizeof(double[N][N]));
  double (*out)[N] = malloc(sizeof(double[N][N]));

  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      in[i][j] = (double)((7 * i + 13 * j) % 101) / 101.0;

  kernel_jacobi_2d_expanded(in, out);

  double s = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += out[i][j] * (double)(1 + (i * N + j) % 131);
  printf("out %.6f\n", s);

  free(in);
  free(out);
  return 0;
}
