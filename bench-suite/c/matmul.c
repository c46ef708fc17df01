/*
 * matmul: dense matrix product C = A * B.
 *
 * Definition (0 <= i < NI, 0 <= j < NJ):
 *   C[i][j] = sum_{k=0..NK-1} A[i][k] * B[k][j]
 * written as C[i][j] = 0 followed by the accumulation over k.
 *
 * Arrays: A[NI][NK], B[NK][NJ] (inputs), C[NI][NJ] (output); all parameters.
 * A storage allocator should find: nothing to fold. There is no scratch
 * array; C is a parameter and entirely live-out, A and B are inputs.
 */
#include <stdio.h>
#include <stdlib.h>

#define NI 112
#define NJ 112
#define NK 112

__attribute__((noinline)) void kernel_matmul(double A[NI][NK], double B[NK][NJ], double C[NI][NJ])
{
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      C[i][j] = 0.0;
      for (int k = 0; k < NK; k++)
        C[i][j] += A[i][k] * B[k][j];
    }
}

int main(void)
{
  double (*A)[NK] = malloc(sizeof(double[NI][NK]));
  double (*B)[NJ] = malloc(sizeof(double[NK][NJ]));
  double (*C)[NJ] = malloc(sizeof(double[NI][NJ]));

  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      A[i][k] = (double)((7 * i + 13 * k) % 101) / 101.0;
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      B[k][j] = (double)((11 * k + 5 * j) % 97) / 97.0;

  kernel_matmul(A, B, C);

  double s = 0.0;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      s += C[i][j] * (double)(1 + (i * NJ + j) % 131);
  printf("C %.6f\n", s);

  free(A);
  free(B);
  free(C);
  return 0;
}
