/*
 * smith-waterman-2d: Smith-Waterman local alignment score of two integer
 * sequences with a linear gap penalty; the score table is a stack array.
 *
 * Definition (1 <= i <= M, 1 <= j <= N; MATCH = 3, MISMATCH = -3, GAP = 2):
 *   H[0][j] = 0,  H[i][0] = 0
 *   s(i, j) = a[i-1] == b[j-1] ? MATCH : MISMATCH
 *   H[i][j] = max(0, H[i-1][j-1] + s(i, j), H[i-1][j] - GAP, H[i][j-1] - GAP)
 *   out[0]  = max over all (i, j) of H[i][j]
 * The maximum is a running reduction into out[0] inside the (i, j) loop
 * (out[0] = 0 before the loop, written after the first boundary loop: in the
 * function's entry block it would fall outside the SCoP); all maxima are
 * conditional expressions.
 *
 * Arrays: a[M], b[N] (inputs), out[1] (output, reduction target),
 *         H[M+1][N+1] int (stack scratch, 1.9 MB).
 * A storage allocator should find: H folds to 2 rows, H[i][j] -> H'[i mod 2][j]
 * (or about N+2 cells with a single linearized dimension); out is a
 * parameter and is not folded.
 */
#include <stdio.h>
#include <stdlib.h>

#define M 690
#define N 690
#define MATCH 3
#define MISMATCH (-3)
#define GAP 2

__attribute__((noinline)) void kernel_smith_waterman_2d(int a[M], int b[N], int out[1])
{
  int H[M + 1][N + 1];

  for (int j = 0; j <= N; j++)
    H[0][j] = 0;
  out[0] = 0;

  for (int i = 1; i <= M; i++) {
    H[i][0] = 0;
    for (int j = 1; j <= N; j++) {
      int s = a[i - 1] == b[j - 1] ? MATCH : MISMATCH;
      int diag = H[i - 1][j - 1] + s;
      int up = H[i - 1][j] - GAP;
      int left = H[i][j - 1] - GAP;
      int h = diag > 0 ? diag : 0;
      h = up > h ? up : h;
      h = left > h ? left : h;
      H[i][j] = h;
      int cur = out[0];
      out[0] = h > cur ? h : cur;
    }
  }
}

int main(void)
{
  int *a = malloc(sizeof(int[M]));
  int *b = malloc(sizeof(int[N]));
  int *out = malloc(sizeof(int[1]));

  /* b contains a mutated copy of a stretch of a, so there is a long local match */
  for (int i = 0; i < M; i++)
    a[i] = (7 * i + 3) % 23 % 4;
  for (int j = 0; j < N; j++)
    b[j] = (j >= 200 && j < 500 && j % 37 != 0) ? a[j - 100] : (11 * j + 5) % 19 % 4;

  kernel_smith_waterman_2d(a, b, out);

  printf("out %lld\n", (long long)out[0]);

  free(a);
  free(b);
  free(out);
  return 0;
}
