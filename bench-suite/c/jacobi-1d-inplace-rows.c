/*
 * jacobi-1d-inplace-rows: 3-point Jacobi smoothing in 1-D, time-expanded,
 * where the time-expanded array is owned by the caller.
 *
 * Definition (0 <= i < N, 1 <= t < T):
 *   A[0][i] given by the caller (input row)
 *   A[t][i] = (A[t-1][i-1] + A[t-1][i] + A[t-1][i+1]) / 3   for 1 <= i <= N-2
 *   A[t][0] = A[t-1][0],  A[t][N-1] = A[t-1][N-1]          (fixed boundaries)
 *
 * Arrays: A[T][N] double, a PARAMETER (12 MB, allocated by main). main
 * initialises row 0 only and reads row T-1 only after the call; the
 * annotation below narrows the live-out set of A to that row.
 * A storage allocator should find: only 2 rows of A are live at any time
 * (t mod 2), so A can be folded in place inside the caller's buffer; the
 * cells of row T-1 are the only ones the caller reads afterwards, so the
 * folding must leave row T-1 where the caller expects it (or copy it there).
 * Without the annotation, every cell of A would be live-out and nothing
 * could be folded.
 */
#include <stdio.h>
#include <stdlib.h>

#define T 1000
#define N 1500

// polyalloc live-out: { A[t, i] : t = T - 1 }
__attribute__((noinline)) void kernel_jacobi_1d_inplace_rows(double A[T][N])
{
  for (int t = 1; t < T; t++) {
    A[t][0] = A[t - 1][0];
    for (int i = 1; i < N - 1; i++)
      A[t][i] = (A[t - 1][i - 1] + A[t - 1][i] + A[t - 1][i + 1]) / 3.0;
    A[t][N - 1] = A[t - 1][N - 1];
  }
}

int main(void)
{
  double (*A)[N] = malloc(sizeof(double[T][N]));

  for (int i = 0; i < N; i++)
    A[0][i] = (double)((7 * i + 13) % 101) / 101.0;

  kernel_jacobi_1d_inplace_rows(A);

  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += A[T - 1][i] * (double)(1 + i % 131);
  printf("A %.6f\n", s);

  free(A);
  return 0;
}
