/*
 * lcs-3d: length of the longest common subsequence of three integer
 * sequences, by a 3-D dynamic-programming table (the shape of the 3-string
 * alignment of Thies et al., Example 3, with the LCS scoring).
 *
 * Definition (1 <= i <= M, 1 <= j <= N, 1 <= k <= P):
 *   L[i][j][k] = 0 if i = 0 or j = 0 or k = 0
 *   L[i][j][k] = a[i-1] == b[j-1] == c[k-1] ? L[i-1][j-1][k-1] + 1
 *                : max(L[i-1][j][k], L[i][j-1][k], L[i][j][k-1])
 *   out[0] = L[M][N][P]
 * The zero faces are written by three face loops (i = 0 plane before the
 * main nest, j = 0 row and k = 0 cells inside it). The triple match test
 * uses "&" (not "&&", which would make a data-dependent branch), and out[0]
 * is written inside the i loop under "if (i == M)" so that it is part of
 * the SCoP.
 *
 * Arrays: a[M], b[N], c[P] (inputs), out[1] (output),
 *         L[M+1][N+1][P+1] int (heap scratch, 4.1 MB).
 * A storage allocator should find: L folds to 2 planes,
 * L[i][j][k] -> L'[i mod 2][j][k] (an occupancy-vector style mapping along
 * (1, 1, 1), L'[j - i][k - i], i.e. (M+N+1) x (M+P+1) cells, is also valid
 * for any schedule that respects the dependences).
 */
#include <stdio.h>
#include <stdlib.h>

#define M 100
#define N 100
#define P 100

__attribute__((noinline)) void kernel_lcs_3d(int a[M], int b[N], int c[P], int out[1])
{
  int (*L)[N + 1][P + 1] = malloc(sizeof(int[M + 1][N + 1][P + 1]));

  for (int j = 0; j <= N; j++)
    for (int k = 0; k <= P; k++)
      L[0][j][k] = 0;

  for (int i = 1; i <= M; i++) {
    for (int k = 0; k <= P; k++)
      L[i][0][k] = 0;
    for (int j = 1; j <= N; j++) {
      L[i][j][0] = 0;
      for (int k = 1; k <= P; k++) {
        int diag = L[i - 1][j - 1][k - 1] + 1;
        int di = L[i - 1][j][k];
        int dj = L[i][j - 1][k];
        int dk = L[i][j][k - 1];
        int best = di > dj ? di : dj;
        best = dk > best ? dk : best;
        int ai = a[i - 1], bj = b[j - 1], ck = c[k - 1];
        int match = (ai == bj) & (bj == ck);
        L[i][j][k] = match ? diag : best;
      }
    }
    if (i == M)
      out[0] = L[M][N][P];
  }

  free(L);
}

int main(void)
{
  int *a = malloc(sizeof(int[M]));
  int *b = malloc(sizeof(int[N]));
  int *c = malloc(sizeof(int[P]));
  int *out = malloc(sizeof(int[1]));

  for (int i = 0; i < M; i++)
    a[i] = (7 * i + 3) % 13 % 4;
  for (int j = 0; j < N; j++)
    b[j] = (11 * j + 5) % 17 % 4;
  for (int k = 0; k < P; k++)
    c[k] = (5 * k + 1) % 11 % 4;

  kernel_lcs_3d(a, b, c, out);

  printf("out %lld\n", (long long)out[0]);

  free(a);
  free(b);
  free(c);
  free(out);
  return 0;
}
