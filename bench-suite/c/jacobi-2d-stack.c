/*
 * jacobi-2d-stack: 5-point Jacobi smoothing in 2-D, time-expanded, with the
 * time-expanded array as a fixed-size local (stack) array of float.
 *
 * Definition (0 <= i, j < N, 1 <= t < T):
 *   A[0][i][j] = in[i][j]
 *   interior (1 <= i, j <= N-2):
 *     A[t][i][j] = 0.25 * A[t-1][i][j]
 *                  + 0.1875 * (A[t-1][i-1][j] + A[t-1][i+1][j] + A[t-1][i][j-1] + A[t-1][i][j+1])
 *   border: A[t][i][j] = A[t-1][i][j]
 *   out[i][j] = A[T-1][i][j]
 * The border test is a condition on the loop counters in the body.
 *
 * Arrays: in (input), out (output), A[T][N][N] float (stack scratch, 1.8 MB).
 * A storage allocator should find: A folds to 2 planes,
 * A[t][i][j] -> A'[t mod 2][i][j].
 */
#include <stdio.h>
#include <stdlib.h>

#define T 28
#define N 128

__attribute__((noinline)) void kernel_jacobi_2d_stack(float in[N][N], float out[N][N])
{
  float A[T][N][N];

  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[0][i][j] = in[i][j];

  for (int t = 1; t < T; t++)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        if (i >= 1 && i <= N - 2 && j >= 1 && j <= N - 2)
          A[t][i][j] = 0.25f * A[t - 1][i][j]
              + 0.1875f * (A[t - 1][i - 1][j] + A[t - 1][i + 1][j]
                           + A[t - 1][i][j - 1] + A[t - 1][i][j + 1]);
        else
          A[t][i][j] = A[t - 1][i][j];
      }

  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      out[i][j] = A[T - 1][i][j];
}

int main(void)
{
  float (*in)[N] = malloc(sizeof(float[N][N]));
  float (*out)[N] = malloc(sizeof(float[N][N]));

  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      in[i][j] = (float)((7 * i + 13 * j) % 101) / 101.0f;

  kernel_jacobi_2d_stack(in, out);

  double s = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += (double)out[i][j] * (double)(1 + (i * N + j) % 131);
  printf("out %.6f\n", s);

  free(in);
  free(out);
  return 0;
}
