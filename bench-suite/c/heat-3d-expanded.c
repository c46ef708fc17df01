/*
 * heat-3d-expanded: explicit 7-point heat equation in 3-D, time-expanded.
 *
 * Definition (0 <= i, j, k < N, 1 <= t < T, ALPHA = 0.1):
 *   A[0][i][j][k] = in[i][j][k]
 *   interior (1 <= i, j, k <= N-2):
 *     A[t][i][j][k] = A[t-1][i][j][k] + ALPHA * (A[t-1][i-1][j][k] + A[t-1][i+1][j][k]
 *                       + A[t-1][i][j-1][k] + A[t-1][i][j+1][k]
 *                       + A[t-1][i][j][k-1] + A[t-1][i][j][k+1] - 6 A[t-1][i][j][k])
 *   border (i, j or k in {0, N-1}):  A[t][i][j][k] = A[t-1][i][j][k]
 *   out[i][j][k] = A[T-1][i][j][k]
 *
 * The border/interior choice is an if/else on the loop counters inside a
 * single (t, i, j, k) loop nest, so the two statements have non-box domains.
 *
 * Arrays: in (input), out (output), A[T][N][N][N] double (heap scratch, 9 MB).
 * A storage allocator should find: A folds to 2 volumes,
 * A[t][i][j][k] -> A'[t mod 2][i][j][k].
 */
#include <stdio.h>
#include <stdlib.h>

#define T 24
#define N 36
#define ALPHA 0.1

__attribute__((noinline)) void kernel_heat_3d_expanded(double in[N][N][N], double out[N][N][N])
{
  double (*A)[N][N][N] = malloc(sizeof(double[T][N][N][N]));

  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        A[0][i][j][k] = in[i][j][k];

  for (int t = 1; t < T; t++)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
        for (int k = 0; k < N; k++) {
          if (i == 0 || i == N - 1 || j == 0 || j == N - 1 || k == 0 || k == N - 1)
            A[t][i][j][k] = A[t - 1][i][j][k];
          else
            A[t][i][j][k] = A[t - 1][i][j][k]
                + ALPHA * (A[t - 1][i - 1][j][k] + A[t - 1][i + 1][j][k]
                           + A[t - 1][i][j - 1][k] + A[t - 1][i][j + 1][k]
                           + A[t - 1][i][j][k - 1] + A[t - 1][i][j][k + 1]
                           - 6.0 * A[t - 1][i][j][k]);
        }

  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        out[i][j][k] = A[T - 1][i][j][k];

  free(A);
}

int main(void)
{
  double (*in)[N][N] = malloc(sizeof(double[N][N][N]));
  double (*out)[N][N] = malloc(sizeof(double[N][N][N]));

  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        in[i][j][k] = (double)((7 * i + 13 * j + 29 * k) % 101) / 101.0;

  kernel_heat_3d_expanded(in, out);

  double s = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        s += out[i][j][k] * (double)(1 + ((i * N + j) * N + k) % 131);
  printf("out %.6f\n", s);

  free(in);
  free(out);
  return 0;
}
