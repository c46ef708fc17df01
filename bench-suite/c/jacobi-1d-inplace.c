/*
 * jacobi-1d-inplace: the classic two-buffer 1-D Jacobi smoothing, updated
 * in place in caller-owned arrays.
 *
 * Definition, repeated T times:
 *   B[i] = (A[i-1] + A[i] + A[i+1]) / 3     for 1 <= i <= N-2
 *   A[i] = B[i]                             for 1 <= i <= N-2
 * (A[0] and A[N-1] are fixed; B[0] and B[N-1] are never touched.)
 *
 * Arrays: A[N], B[N] double, both PARAMETERS (no live-out annotation:
 * everything the kernel writes is visible to the caller). main initialises
 * A and prints A.
 * A storage allocator should find: nothing to fold. There is no scratch
 * array, and the parameters are already reused in place (each cell is
 * overwritten T times); without an annotation every cell of A and B is
 * live-out.
 */
#include <stdio.h>
#include <stdlib.h>

#define T 400
#define N 3000

__attribute__((noinline)) void kernel_jacobi_1d_inplace(double A[N], double B[N])
{
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < N - 1; i++)
      B[i] = (A[i - 1] + A[i] + A[i + 1]) / 3.0;
    for (int i = 1; i < N - 1; i++)
      A[i] = B[i];
  }
}

int main(void)
{
  double *A = malloc(sizeof(double[N]));
  double *B = malloc(sizeof(double[N]));

  for (int i = 0; i < N; i++)
    A[i] = (double)((7 * i + 13) % 101) / 101.0;

  kernel_jacobi_1d_inplace(A, B);

  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += A[i] * (double)(1 + i % 131);
  printf("A %.6f\n", s);

  free(A);
  free(B);
  return 0;
}
