/*
 * jacobi-1d-expanded: 3-point Jacobi smoothing in 1-D, time-expanded.
 *
 * Definition (0 <= i < N, 1 <= t < T):
 *   A[0][i] = in[i]
 *   A[t][i] = (A[t-1][i-1] + A[t-1][i] + A[t-1][i+1]) / 3   for 1 <= i <= N-2
 *   A[t][0] = A[t-1][0],  A[t][N-1] = A[t-1][N-1]          (fixed boundaries)
 *   out[i]  = A[T-1][i]
 *
 * Arrays: in (input), out (output), A[T][N] double (heap scratch, 12 MB).
 * Every row t of A is read only by row t+1, and the last row is copied to
 * out inside the kernel, so nothing of A is live after the kernel.
 * A storage allocator should find: A folds to 2 rows, A[t][i] -> A'[t mod 2][i]
 * (2 * N doubles instead of T * N).
 */
#include <stdio.h>
#include <stdlib.h>

#define T 1000
#define N 1500

__attribute__((noinline)) void kernel_jacobi_1d_expanded(double in[N], double out[N])
{
  double (*A)[N] = malloc(sizeof(double[T][N]));

  for (int i = 0; i < N; i++)
    A[0][i] = in[i];

  for (int t = 1; t < T; t++) {
    A[t][0] = A[t - 1][0];
    for (int i = 1; i < N - 1; i++)
      A[t][i] = (A[t - 1][i - 1] + A[t - 1][i] + A[t - 1][i + 1]) / 3.0;
    A[t][N - 1] = A[t - 1][N - 1];
  }

  for (int i = 0; i < N; i++)
    out[i] = A[T - 1][i];

  free(A);
}

int main(void)
{
  double *in = malloc(sizeof(double[N]));
  double *out = malloc(sizeof(double[N]));

  for (int i = 0; i < N; i++)
    in[i] = (double)((7 * i + 13) % 101) / 101.0;

  kernel_jacobi_1d_expanded(in, out);

  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += out[i] * (double)(1 + i % 131);
  printf("out %.6f\n", s);

  free(in);
  free(out);
  return 0;
}
