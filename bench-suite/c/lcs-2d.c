/*
 * lcs-2d: length of the longest common subsequence of two integer
 * sequences, by the classic dynamic-programming table.
 *
 * Definition (1 <= i <= M, 1 <= j <= N):
 *   L[0][j] = 0,  L[i][0] = 0
 *   L[i][j] = a[i-1] == b[j-1] ? L[i-1][j-1] + 1
 *                              : max(L[i-1][j], L[i][j-1])
 *   out[0]  = L[M][N]
 * (max and the match test are conditional expressions on values already
 * loaded. out[0] is written inside the i loop under "if (i == M)": a
 * statement after the last loop would share its basic block with free()
 * and fall outside the SCoP.)
 *
 * Arrays: a[M], b[N] (inputs), out[1] (output),
 *         L[M+1][N+1] int (heap scratch, 4.8 MB).
 * A storage allocator should find: L folds to 2 rows, L[i][j] -> L'[i mod 2][j]
 * (a single-dimension mapping of about N+2 cells, e.g. along the linearized
 * row-major order modulo N+2, is also valid for this schedule).
 */
#include <stdio.h>
#include <stdlib.h>

#define M 1100
#define N 1100

__attribute__((noinline)) void kernel_lcs_2d(int a[M], int b[N], int out[1])
{
  int (*L)[N + 1] = malloc(sizeof(int[M + 1][N + 1]));

  for (int j = 0; j <= N; j++)
    L[0][j] = 0;

  for (int i = 1; i <= M; i++) {
    L[i][0] = 0;
    for (int j = 1; j <= N; j++) {
      int diag = L[i - 1][j - 1] + 1;
      int up = L[i - 1][j];
      int left = L[i][j - 1];
      int best = up > left ? up : left;
      L[i][j] = a[i - 1] == b[j - 1] ? diag : best;
    }
    if (i == M)
      out[0] = L[M][N];
  }

  free(L);
}

int main(void)
{
  int *a = malloc(sizeof(int[M]));
  int *b = malloc(sizeof(int[N]));
  int *out = malloc(sizeof(int[1]));

  for (int i = 0; i < M; i++)
    a[i] = (7 * i + 3) % 13 % 5;
  for (int j = 0; j < N; j++)
    b[j] = (11 * j + 5) % 17 % 5;

  kernel_lcs_2d(a, b, out);

  printf("out %lld\n", (long long)out[0]);

  free(a);
  free(b);
  free(out);
  return 0;
}
